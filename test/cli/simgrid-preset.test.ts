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
      'meshwork: error: model.rateUpdate: got "exact"; accepted: full with networkModel smpi (its cross-traffic is solved by the full update only)',
    );
  });
});
