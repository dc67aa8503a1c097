/**
 * Several ranks on one host from the CLI (built dist/, as npm test runs it): an SMPI hostfile that
 * lists a host twice or as `host:2` runs as smpirun runs it, and what is not modelled there is refused
 * in one line, exit 2. The timings against smpirun: test/reference/simgrid-shared-hosts.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const H = 'test/reference/simgrid/platforms/shared-hosts';
const TORUS = `simgrid:${H}/torus-2x2x2-loopback.xml`;
const COLON = `${H}/hosts-torus-8-colon2.txt`;
const tmp = tempDir('shared-hosts');
const run = (...extra: string[]) => runCli(['run', '--topology', TORUS, '--mapping', COLON, '--collective', 'alltoall', '--algorithm', 'pair', '--size', '64KiB', '--preset', 'simgrid', ...extra]);

describe('several ranks on one host (an SMPI hostfile listing a host twice)', () => {
  test('node-i:2 runs 16 ranks on the 8 hosts, recorded, at smpirun\'s makespan', () => {
    const r = run('--json');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { topology: { endpoints: number; params: { mapping: string; rankHosts: number } }; makespan_s: number };
    expect(result.topology.endpoints).toBe(16);
    expect(result.topology.params.rankHosts).toBe(8);
    expect(result.topology.params.mapping).toMatch(/hosts-torus-8-colon2\.txt$/);
    // smpirun -np 16 -hostfile hosts-torus-8-colon2.txt (shared-host-cases/torus-loopback-colon2-cm02-alltoall-pair.json), 10 ns MPI_Wtime.
    const ref = JSON.parse(readFileSync('test/reference/simgrid/shared-host-cases/torus-loopback-colon2-cm02-alltoall-pair.json', 'utf8')) as { rows: Array<{ size: number; makespan_s: number }> };
    expect(Math.abs(result.makespan_s - ref.rows.find((row) => row.size === 65536)!.makespan_s)).toBeLessThan(2e-8);
    expect(run().stdout.split('\n')[0]).toMatch(/\(16 ranks on 8 hosts, 24 channels\)$/);
  });

  test('the packet engine, NIC ports, SMPI\'s SMP algorithms and its per-host selectors are refused in one line, exit 2', () => {
    expect(expectOneLineError(run('--engine', 'packet'))).toMatch(/^meshwork: error: engine: got "packet"; accepted: the flow engine for torus:2x2x2,.* with file:.*hosts-torus-8-colon2\.txt: several ranks share a host, and their messages to each other take its route to itself, which the packet network has no channel for$/);
    expect(expectOneLineError(run('--injection', '100GBps'))).toBe('meshwork: error: model.injectionBandwidth: got 100000000000; accepted: links (no injection or ejection bandwidth) where several ranks share a host: a NIC port is modelled per rank, not per host');
    const smp = runCli(['run', '--topology', TORUS, '--mapping', COLON, '--collective', 'broadcast', '--algorithm', 'SMP_binomial', '--size', '1KiB', '--preset', 'simgrid']);
    expect(expectOneLineError(smp)).toMatch(/^meshwork: error: algorithm: got "binomial:smp=true,tree=rank0"; accepted: binomial with smp=true \(SimGrid SMPI's SMP-aware algorithms\) runs as on one rank per host; here several ranks share a host/);
    // MVAPICH2's and Intel MPI's selectors read the ranks per host (their ppn tables); ompi's does not.
    for (const selector of ['mvapich2', 'impi']) {
      expect(expectOneLineError(run('--algorithm', selector))).toMatch(new RegExp(`^meshwork: error: algorithm: got "${selector}"; accepted: SimGrid SMPI's ${selector} selector, which reads the ranks per host, modelled on one rank per host; here several ranks share a host`));
    }
    expect(run('--algorithm', 'ompi').code).toBe(0);
  });

  test("beside a family spec (torus:2x2x2 with the cluster's loopback) the hostfile runs the same ranks at the same makespan", () => {
    const spec = 'torus:2x2x2,bw=10GBps,lat=1us,loopback_bw=5GBps,loopback_lat=500ns';
    const makespan = (topology: string): number => JSON.parse(runCli(['run', '--topology', topology, '--mapping', COLON, '--collective', 'alltoall', '--algorithm', 'pair', '--size', '64KiB', '--preset', 'simgrid', '--json']).stdout).makespan_s as number;
    expect(makespan(spec)).toBe(makespan(TORUS));
    // Without the loopback the torus has no route from a host to itself: refused at node-0's second rank.
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:2x2x2', '--mapping', COLON, '--collective', 'alltoall', '--algorithm', 'pair', '--size', '1KiB']))).toMatch(
      /^meshwork: error: mapping\[1\]: got "node-0"; accepted: a host with a route to itself for its second rank/,
    );
  });

  test('a hostfile of more ranks than MAX_HOSTFILE_RANKS is refused before the list is built', () => {
    const file = join(tmp, 'huge.txt');
    writeFileSync(file, 'node-1:2000000\n');
    expect(expectOneLineError(runCli(['run', '--topology', TORUS, '--mapping', file, '--collective', 'broadcast', '--algorithm', 'binomial', '--size', '1KiB']))).toBe(
      `meshwork: error: hostfile(file:${file}) line 1: got "node-1:2000000"; accepted: at most 1048576 ranks in all (MAX_HOSTFILE_RANKS)`,
    );
  });
});
