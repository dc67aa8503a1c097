import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe('run --preset simgrid', () => {
  it("records SMPI's protocol and barrier in the result, and --barrier / --protocol refuse unknown models in one line", () => {
    const r = runCli(['run', '--topology', 'torus:4x4x4,bw=10GBps,lat=100ns', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--preset', 'simgrid', '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { makespan_s: number; model: Record<string, unknown> };
    expect([result.model.protocol, result.model.barrier, result.model.latencyRule, result.model.preset]).toEqual(['smpi', 'linear', 'before-transfer', 'simgrid']);
    // SMPI's allreduce lr on the same torus (test/reference/simgrid/cases/torus-4x4x4-allreduce-lr.json): 38.213 µs.
    expect(Math.abs(result.makespan_s / 38.2132e-6 - 1)).toBeLessThan(0.02);
    const text = runCli(['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB', '--preset', 'simgrid']);
    expect(text.stdout).toMatch(/protocol=smpi \(detached below 64KiB\)/);
    expect(text.stdout).toMatch(/barrier=linear/);
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--size', '1KiB', '--barrier', 'tree']))).toBe('meshwork: error: barrier: got "tree"; accepted: stages, linear');
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--size', '1KiB', '--protocol', 'rdma']))).toBe('meshwork: error: protocol: got "rdma"; accepted: eager, mpi, smpi');
  });
  it('refuses --injection-order fifo under the preset in one line naming the option and what is accepted; --latency on-delivery lifts it', () => {
    const args = ['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB'];
    for (const engine of ['flow', 'packet']) {
      expect(expectOneLineError(runCli([...args, '--engine', engine, '--preset', 'simgrid', '--injection-order', 'fifo']))).toBe(
        'meshwork: error: injection-order: got "fifo"; accepted: shared with --preset simgrid (SimGrid\'s latency rule; its sends share the NIC), or any order with --latency on-delivery',
      );
    }
    expect(expectOneLineError(runCli([...args, '--latency', 'before-transfer']))).toBe(
      'meshwork: error: latency: got "before-transfer"; accepted: on-delivery, or before-transfer with --injection-order shared (SimGrid, whose sends share the NIC)',
    );
    const lifted = runCli([...args, '--preset', 'simgrid', '--injection-order', 'fifo', '--latency', 'on-delivery', '--json']);
    expect(lifted.code).toBe(0);
    const model = (JSON.parse(lifted.stdout) as { model: Record<string, unknown> }).model;
    expect([model.injectionOrder, model.latencyRule, model.protocol]).toEqual(['fifo', 'on-delivery', 'smpi']);
  });
});

describe('run --preset simgrid-smpi', () => {
  it("times SMPI's default network model and records it; its full rate update cannot be swapped in one line", () => {
    const args = ['run', '--topology', 'torus:4x4x4,bw=10GBps,lat=100ns', '--collective', 'allreduce', '--algorithm', 'lr', '--size', '1KiB', '--preset', 'simgrid-smpi'];
    const r = runCli([...args, '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { makespan_s: number; model: Record<string, unknown> };
    expect([result.model.networkModel, result.model.weightS, result.model.crossTraffic, result.model.preset]).toEqual(['smpi', 8775, 0.05, 'simgrid-smpi']);
    // smpirun with SimGrid's defaults (test/reference/simgrid/smpi-model-cases/torus-4x4x4-allreduce-lr.json): 76.661 µs.
    expect(Math.abs(result.makespan_s / 76.6613e-6 - 1)).toBeLessThan(0.005);
    expect(runCli(args).stdout).toMatch(/network model=smpi/);
    expect(expectOneLineError(runCli([...args, '--rate-update', 'exact']))).toBe(
      "meshwork: error: model.rateUpdate: got \"exact\"; accepted: full with cross-traffic (networkModel smpi's cross-traffic is solved by the full update only)",
    );
  });
});

describe('run --simgrid-cfg', () => {
  const args = ['run', '--topology', 'torus:4x4x4,bw=10GBps,lat=100ns', '--collective', 'alltoall', '--algorithm', 'pair', '--size', '64KiB'];
  it("takes smpirun's --cfg items over the preset (repeated or space-separated), names those with no effect, and an option given still wins", () => {
    const r = runCli([...args, '--preset', 'simgrid-smpi', '--simgrid-cfg', '--cfg=network/model:LV08', '--simgrid-cfg', 'tracing:yes network/weight-S:1000', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('meshwork: note: --simgrid-cfg tracing: changes no collective timing Meshwork computes\n');
    const result = JSON.parse(r.stdout) as { makespan_s: number; model: Record<string, unknown> };
    expect([result.model.networkModel, result.model.weightS, result.model.tcpGamma, result.model.crossTraffic, result.model.latencyFactors]).toEqual(['lv08', 1000, 4194304, 0.05, { thresholds: [-1], values: [13.01] }]);
    const wins = JSON.parse(runCli([...args, '--preset', 'simgrid-smpi', '--simgrid-cfg', 'network/model:LV08', '--weight-s', '7', '--json']).stdout) as { model: Record<string, unknown> };
    expect(wins.model.weightS).toBe(7);
    // smpirun --cfg=network/model:LV08 on the same torus (test/reference/simgrid/cfg-cases/torus-4x4x4-lv08-alltoall-pair.json).
    const lv08 = JSON.parse(runCli([...args, '--preset', 'simgrid-smpi', '--simgrid-cfg', 'network/model:LV08', '--json']).stdout) as { makespan_s: number };
    const reference = JSON.parse(readFileSync('test/reference/simgrid/cfg-cases/torus-4x4x4-lv08-alltoall-pair.json', 'utf8')) as { rows: Array<{ size: number; makespan_s: number }> };
    expect(Math.abs(lv08.makespan_s / reference.rows.find((row) => row.size === 65536)!.makespan_s - 1)).toBeLessThan(0.005);
  });
  it("SMPI's software overheads and small-send threshold: recorded in the result and stated in the model line; refused in one line without protocol smpi", () => {
    const items = ['--preset', 'simgrid', '--simgrid-cfg', 'smpi/os:0:1us:0.1ns;8192:2us:0 smpi/or:0:2us:0 smpi/async-small-thresh:4096'];
    const text = runCli([...args, ...items]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('protocol=smpi (detached below 64KiB), data moves at once below 4KiB (smpi/async-small-thresh), os=0:1us:100ps;8192:2us:0ps, or=0:2us:0ps,');
    const result = JSON.parse(runCli([...args, ...items, '--json']).stdout) as { model: Record<string, unknown> };
    expect(result.model.sendOverhead).toEqual({ thresholds: [0, 8192], offsets: [1e-6, 2e-6], perByte: [1e-10, 0] });
    expect([result.model.isendOverhead, result.model.asyncSmallThreshold]).toEqual([null, 4096]);
    expect(expectOneLineError(runCli([...args, '--recv-overhead', '0:1us:0']))).toBe(
      'meshwork: error: model.recvOverhead: got "0:1us:0"; accepted: an overhead with protocol smpi only (SMPI\'s detached sends decide which messages pay it: --protocol smpi, or --preset simgrid / simgrid-smpi)',
    );
    expect(expectOneLineError(runCli([...args, '--preset', 'simgrid', '--send-overhead', '0:1us']))).toMatch(/^meshwork: error: send-overhead: got "0:1us"; accepted: SimGrid's overhead syntax/);
  });

  it('refuses in one line: without a SimGrid preset, an unknown item, an item it does not model', () => {
    expect(expectOneLineError(runCli([...args, '--simgrid-cfg', 'network/model:LV08']))).toBe(
      'meshwork: error: simgrid-cfg: got "network/model:LV08"; accepted: SimGrid configuration items with --preset simgrid-smpi or simgrid (the SimGrid run they change; got no preset)',
    );
    expect(expectOneLineError(runCli([...args, '--preset', 'simgrid', '--simgrid-cfg', 'smpi/alltoall:ring']))).toBe(
      'meshwork: error: simgrid-cfg.smpi/alltoall: got "ring"; accepted: nothing here: give the algorithm with --algorithm (SMPI\'s names and selectors are accepted, e.g. --algorithm ring)',
    );
    expect(expectOneLineError(runCli([...args, '--weight-s', '10']))).toBe(
      'meshwork: error: model.weightS: got 10; accepted: a term of a SimGrid network model: with networkModel cm02, lv08 or smpi (--preset simgrid or simgrid-smpi)',
    );
    expect(expectOneLineError(runCli([...args, '--preset', 'simgrid', '--latency-factor', '1:2:3']))).toBe(
      'meshwork: error: latency-factor: got "1:2:3"; accepted: SimGrid\'s factor syntax threshold:value;... (whole byte thresholds, positive values)',
    );
  });
});
