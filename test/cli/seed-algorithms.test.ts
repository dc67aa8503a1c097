// CLI end to end for the seed algorithms (docs/seed-algorithms.md examples).
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe('meshwork collective verify with seed algorithms', () => {
  it('seed 003 R2 in unit-step mode prints T = 10 and the B3 transfers per step', () => {
    const r = runCli(['collective', 'verify', '--topology', 'twolevel:leaves=3,hosts=4', '--collective', 'broadcast', '--algorithm', 'two-level-pipelined:packets=4', '--size', '4KiB', '--steps']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS broadcast two-level-pipelined/);
    expect(r.stdout).toMatch(/steps 10: max sends per rank 1, max receives per rank 1/);
    expect(r.stdout).toMatch(/transfers per step: 1 2 4 5 7 8 7 6 3 1/);
  });

  it('seed 000 in place reports the hazard and fails (spec §3.5)', () => {
    const r = runCli(['collective', 'verify', '--topology', 'torus:4x3', '--collective', 'alltoall', '--algorithm', 'hop-grouped:buffers=inplace', '--size', '64']);
    expect(r.stdout).toMatch(/^FAIL/);
    expect(r.stdout).toMatch(/hazard: .*overwrote before it was sent/);
    expect(r.code).not.toBe(0);
  });

  it('refuses xor-swap above 256 ranks and a non-full-mesh multicast with one line', () => {
    expect(expectOneLineError(runCli(['collective', 'verify', '--topology', 'torus:17x16', '--collective', 'alltoall', '--algorithm', 'xor-swap', '--size', '8']))).toMatch(/limit is 256 ranks/);
    expect(expectOneLineError(runCli(['collective', 'verify', '--topology', 'torus:3x3', '--collective', 'broadcast', '--algorithm', 'fullmesh-multicast', '--size', '64']))).toMatch(/full mesh/);
    expect(expectOneLineError(runCli(['collective', 'verify', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'hop-grouped:dir=north', '--size', '64']))).toMatch(/dir/);
  });
});

describe('seed 001 allreduce ordering (issue 10)', () => {
  it('fullmesh-turnaround allreduce takes the two-round time: schedule bound + 2 × (α + link latency)', () => {
    // Spec §8 (4th embodiment): all-to-all of S/N pieces, then the distribution of each S/N result,
    // so two rounds of S/N per link: 2·S/(N·B) = schedule bound, plus one α + link latency each.
    // Before the fix each rank's result send queued behind the lower ranks' results: 80.2 µs.
    const r = runCli(['run', '--topology', 'fullmesh:8,bw=20Gbps', '--collective', 'allreduce', '--algorithm', 'fullmesh-turnaround:embodiment=4', '--size', '125440', '--alpha', '2us', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { makespan_s: number; schedule_bound_s: number };
    const perLinkBytes = (2 * 125440) / 8;
    expect(out.schedule_bound_s).toBeCloseTo(perLinkBytes / 2.5e9, 12);
    expect(out.makespan_s).toBeCloseTo(out.schedule_bound_s + 2 * (2e-6 + 100e-9), 10);
  });
});

describe('seed 001 fullmesh-adaptive (the control unit as an algorithm, spec §3)', () => {
  const makespan = (collective: string, algorithm: string, size: string): number => {
    const r = runCli(['run', '--topology', 'fullmesh:8,bw=20Gbps,lat=0', '--collective', collective, '--algorithm', algorithm, '--size', size, '--alpha', '2us', '--json']);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { makespan_s: number }).makespan_s;
  };
  it('allreduce: direct below the crossover (256 B: α + S/B), the 4th embodiment above (1 MiB: 2α + 2S/(N·B))', () => {
    // Spec §8: direct T0 + S/B; K = N turnarounds T1 + 2S/(N·B) with T1 = 2·T0 ([0100]).
    expect(makespan('allreduce', 'fullmesh-adaptive', '256')).toBeCloseTo(2e-6 + 256 / 2.5e9, 12);
    expect(makespan('allreduce', 'fullmesh-turnaround', '256')).toBeGreaterThan(4e-6);
    expect(makespan('allreduce', 'fullmesh-adaptive', '1MiB')).toBeCloseTo(4e-6 + (2 * 1048576) / (8 * 2.5e9), 12);
  });
  it('one-to-one: the direct link below (N−1)/(N−2)·B·(T1−T0)/0.9 ≈ 324 B, direct + 6 turnarounds above', () => {
    expect(makespan('one-to-one', 'fullmesh-adaptive', '256')).toBeCloseTo(2e-6 + 256 / 2.5e9, 12);
    // 1 MiB in 7 pieces: T1 + S/(7B) with T1 = α + 0.1 µs turnaround in the switch (docs/flow.md).
    expect(makespan('one-to-one', 'fullmesh-adaptive', '1MiB')).toBeCloseTo(makespan('one-to-one', 'fullmesh-split', '1MiB'), 12);
    expect(makespan('one-to-one', 'fullmesh-adaptive', '1MiB')).toBeLessThan(makespan('one-to-one', 'direct', '1MiB') / 6);
  });
});
