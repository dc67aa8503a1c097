/**
 * SimGrid clusters as smpirun runs them, checked against smpirun itself (CI installs SimGrid:
 * .ci/apt-packages) on the same platform and hostfile:
 * - SMPI hostfiles read as smpirun reads them (SimGrid 3.32 smpi_deployment.cpp: one host name per
 *   non-empty line; smpirun.in unrolls `host:N`): a cluster's hosts by their names (prefix + radical
 *   number + suffix), whatever number the radical starts at, and names holding spaces;
 * - a cluster's loopback (loopback_bw, loopback_lat), which a host's messages to itself cross.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchedule, flowPreset, simulate, type Topology } from '../../src/index.js';
import { loadGraphFormat, loadTopology } from '../../src/node/index.js';

const SMPI_CONFIG = ['--cfg=network/model:CM02', '--cfg=network/crosstraffic:0', '--cfg=smpi/simulate-computation:no', '--log=root.thres:critical'];
let work = '';

/** A TORUS 2,4 cluster whose host numbers are `radical` (8 hosts). */
const torusPlatform = (radical: string, extra = ''): string => clusterPlatform(`topology="TORUS" topo_parameters="2,4" prefix="node-" radical="${radical}" suffix=".lab"${extra}`);

const clusterPlatform = (attributes: string): string => `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="c" ${attributes} speed="1Gf" bw="1GBps" lat="10us"/>
  </zone>
</platform>
`;

/** Three hosts whose names hold spaces, in a Full zone over one shared link. */
const SPACED = `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <host id="Host 1" speed="1Gf"/>
    <host id="Host 2" speed="1Gf"/>
    <host id="Host 3" speed="1Gf"/>
    <link id="l12" bandwidth="1GBps" latency="10us"/>
    <link id="l13" bandwidth="2GBps" latency="10us"/>
    <link id="l23" bandwidth="3GBps" latency="10us"/>
    <route src="Host 1" dst="Host 2"><link_ctn id="l12"/></route>
    <route src="Host 1" dst="Host 3"><link_ctn id="l13"/></route>
    <route src="Host 2" dst="Host 3"><link_ctn id="l23"/></route>
  </zone>
</platform>
`;

const write = (name: string, text: string): string => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

const load = (platform: string, hosts: string): Topology => loadTopology(`simgrid:${platform}`, { mapping: hosts });

/** Meshwork's makespan of an SMPI alltoall (basic_linear by default) under the simgrid preset. */
function meshworkMakespan(topology: Topology, bytes: number, algorithm = 'basic_linear'): number {
  const preset = flowPreset('simgrid');
  const schedule = buildSchedule({ collective: 'alltoall', algorithm, topology, size: bytes });
  return simulate({ topology, schedule, routingOptions: preset.routing, model: preset.model }).makespan_s;
}

function smpirunMakespan(platform: string, hosts: string, np: number, bytes: number, algorithm = 'basic_linear'): number {
  const out = execFileSync('smpirun', ['-np', String(np), '-platform', platform, '-hostfile', hosts, ...SMPI_CONFIG, `--cfg=smpi/alltoall:${algorithm}`, './coll', 'alltoall', String(bytes)], {
    cwd: work,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const m = /makespan_s=(\S+)/.exec(out);
  if (!m) throw new Error(`smpirun printed no makespan: ${out}`);
  return Number(m[1]);
}

beforeAll(async () => {
  await loadGraphFormat();
  work = mkdtempSync(join(tmpdir(), 'meshwork-hostfile-'));
  execFileSync('smpicc', ['-O2', '-o', join(work, 'coll'), 'test/reference/simgrid/src/coll.c'], { stdio: 'pipe' });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('SMPI hostfiles on simgrid: platforms', () => {
  test('a cluster host is found by its name: node-1.lab is the first host of radical 1-8, node-10.lab the fifth of 0-3,10-13; smpirun agrees', () => {
    const oneBased = write('torus-r1.xml', torusPlatform('1-8'));
    const hosts = write('r1.hosts', 'node-1.lab\nnode-2.lab\nnode-4.lab\nnode-7.lab\n');
    const t = load(oneBased, hosts);
    expect(Array.from(t.endpoints)).toEqual([0, 1, 3, 6]);
    // The number in the name is not the position: read as one (node-1 = the second host) the ranks
    // would sit elsewhere in the torus and the alltoall take another time.
    const misread = load(oneBased, write('r1-misread.hosts', '1\n2\n4\n7\n'));
    const bytes = 65536;
    const smpi = smpirunMakespan(oneBased, hosts, 4, bytes);
    expect(Math.abs(meshworkMakespan(t, bytes) / smpi - 1)).toBeLessThan(1e-3);
    expect(Math.abs(meshworkMakespan(misread, bytes) / smpi - 1)).toBeGreaterThan(0.02);

    const list = write('torus-list.xml', torusPlatform('0-3,10-13'));
    expect(Array.from(load(list, write('list.hosts', 'node-10.lab\nnode-0.lab\nnode-13.lab\nnode-3.lab\n')).endpoints)).toEqual([4, 0, 7, 3]);
    // host:1 is the host once, as smpirun unrolls it; a line of integers lists positions.
    expect(Array.from(load(list, write('one.hosts', 'node-11.lab:1\n2 6\n')).endpoints)).toEqual([5, 2, 6]);
  });

  test('a host name holding spaces is one host, as smpirun reads the whole line', () => {
    const platform = write('spaced.xml', SPACED);
    const hosts = write('spaced.hosts', 'Host 3\nHost 1\nHost 2\n');
    const t = load(platform, hosts);
    expect(t.explicitRoutes?.hostNames).toEqual(['Host 3', 'Host 1', 'Host 2']);
    const bytes = 1 << 20;
    expect(Math.abs(meshworkMakespan(t, bytes) / smpirunMakespan(platform, hosts, 3, bytes) - 1)).toBeLessThan(1e-3);
  });

  test('refused in one line: a name the cluster does not have, several ranks on a host without a route to itself (smpirun aborts)', () => {
    const platform = write('torus-r1b.xml', torusPlatform('1-8'));
    const refusal = (hosts: string): string => {
      try {
        load(platform, write('bad.hosts', hosts));
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    // node-0 is outside radical 1-8; node-01 is not how SimGrid writes 1; the suffix is part of the name.
    for (const name of ['node-0.lab', 'node-01.lab', 'node-1', 'bogus-1.lab', '8']) {
      expect(refusal(`node-2.lab\n${name}\n`)).toBe(
        `hostfile(file:${join(work, 'bad.hosts')})[1]: got "${name}"; accepted: the name of one of the cluster's 8 hosts (node-1.lab … node-8.lab), or its position (0 to 7)`,
      );
    }
    // A TORUS cluster without loopback_bw has no route from a host to itself: smpirun aborts on the first message.
    const noSelfRoute = 'accepted: a host with a route to itself for its second rank (smpirun aborts: no connecting path from a host to itself; give the cluster loopback_bw and loopback_lat, or the zone a route from the host to itself)';
    expect(refusal('node-1.lab:2\n')).toBe(`hostfile(file:${join(work, 'bad.hosts')})[1]: got "node-1.lab"; ${noSelfRoute}`);
    expect(refusal('node-1.lab\nnode-2.lab\nnode-1.lab\n')).toBe(`hostfile(file:${join(work, 'bad.hosts')})[2]: got "node-1.lab"; ${noSelfRoute}`);
  });
});

describe('cluster loopbacks', () => {
  test("MVAPICH2's scatter_dest alltoall sends each rank its own block over its host's loopback: a slow one sets the time, as smpirun's", () => {
    const hosts = write('eight.hosts', Array.from({ length: 8 }, (_, i) => `node-${i}.lab\n`).join(''));
    const bytes = 1 << 20;
    for (const kind of ['', 'topology="TORUS" topo_parameters="2,4"', 'topology="FAT_TREE" topo_parameters="2;4,2;1,2;1,1"']) {
      const attributes = `${kind} prefix="node-" radical="0-7" suffix=".lab"`;
      const slow = write('slow.xml', clusterPlatform(`${attributes} loopback_bw="100MBps" loopback_lat="5us"`));
      const smpi = smpirunMakespan(slow, hosts, 8, bytes, 'mvapich2_scatter_dest');
      // 1 MiB over 100 MBps is 10.5 ms, more than the 7 other blocks' 7.3 ms over 1 GBps.
      expect(smpi, kind).toBeGreaterThan(bytes / 100e6);
      expect(Math.abs(meshworkMakespan(load(slow, hosts), bytes, 'mvapich2_scatter_dest') / smpi - 1), kind).toBeLessThan(1e-4);
    }
  });
});
