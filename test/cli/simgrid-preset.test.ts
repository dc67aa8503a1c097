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
});
