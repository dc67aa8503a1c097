import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, disturbProgram, parseNoise, resolveNoise, simulate, mesh, torus, buildSchedule, lowerSchedule } from '../../../src/index.js';
import { InputError } from '../../../src/util/errors.js';

const GBPS = 1e9 / 8;

/** Rank 0 sends `size` bytes to rank 1 over one 10 Gb/s link with no latency. */
function oneMessage(size: number): ReturnType<FlowProgramBuilder['build']> {
  const b = new FlowProgramBuilder(2);
  b.beginStream(0).send(1, size);
  b.beginStream(1).recv(0, size);
  return b.build();
}

describe('disturbances as a program transformation (seed 000 ¶0048, ¶0050)', () => {
  it('draws skew, jitter and OS detours from the documented laws, reproducibly per seed', () => {
    const t = torus([8, 8]);
    const program = lowerSchedule(buildSchedule({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size: 64 }), t);
    const noise = resolveNoise({ skew: 10e-6, seed: 3 });
    const a = disturbProgram(program, noise);
    expect(a.opDelay).not.toBeNull();
    expect(Buffer.from(a.opDelay!.buffer)).toEqual(Buffer.from(disturbProgram(program, noise).opDelay!.buffer));
    expect(Buffer.from(a.opDelay!.buffer)).not.toEqual(Buffer.from(disturbProgram(program, resolveNoise({ skew: 10e-6, seed: 4 })).opDelay!.buffer));
    // Skew: only each stream's first op is delayed, within [0, skew], and the 64 draws spread over it.
    const first = new Set(Array.from(program.opStart.subarray(0, program.numStreams)));
    const skews: number[] = [];
    a.opDelay!.forEach((d, o) => (first.has(o) ? skews.push(d) : expect(d).toBe(0)));
    expect(Math.min(...skews)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...skews)).toBeLessThanOrEqual(10e-6);
    expect(Math.max(...skews) - Math.min(...skews)).toBeGreaterThan(8e-6);
    // Jitter: Exponential(mean 1 µs) per send; 4,032 sends: the sample mean within 5 % of 1 µs.
    const j = disturbProgram(program, resolveNoise({ jitter: 1e-6, seed: 3 }));
    let sum = 0;
    let sends = 0;
    j.opDelay!.forEach((d, o) => {
      if (program.opKind[o] === 0) {
        sum += d;
        sends++;
      } else expect(d).toBe(0);
    });
    expect(sends).toBe(64 * 63);
    expect(sum / sends / 1e-6).toBeGreaterThan(0.95);
    expect(sum / sends / 1e-6).toBeLessThan(1.05);
    // OS noise: detours of exactly 20 µs on about 1 % of the ops.
    const os = disturbProgram(program, resolveNoise({ os: 20e-6, seed: 3 }));
    const hit = Array.from(os.opDelay!).filter((d) => d > 0);
    expect(new Set(hit)).toEqual(new Set([20e-6]));
    expect(hit.length / program.numOps).toBeGreaterThan(0.008);
    expect(hit.length / program.numOps).toBeLessThan(0.012);
  });

  it('delays a message by the skew of its sender in both engines, and records the noise', () => {
    // One 1 MB message on one 10 Gb/s link: makespan = skew(rank 0) + α + size / bandwidth.
    const topo = mesh([2], { bandwidth: 10 * GBPS, latency: 0 });
    const size = 1e6;
    const noise = resolveNoise({ skew: 50e-6, seed: 7 });
    const disturbed = disturbProgram(oneMessage(size), noise);
    const skew0 = disturbed.opDelay![0];
    expect(skew0).toBeGreaterThan(0);
    for (const engine of ['flow', 'packet'] as const) {
      const quiet = simulate({ topology: topo, program: oneMessage(size), engine, model: { alpha: 1e-6 } });
      const noisy = simulate({ topology: topo, program: oneMessage(size), engine, model: { alpha: 1e-6 }, noise });
      if (engine === 'flow') expect(quiet.makespan_s).toBeCloseTo(1e-6 + size / (10 * GBPS), 15);
      // The packet engine rounds to its cycle: within one cycle (a 32-byte flit at 10 Gb/s: 25.6 ns).
      expect(Math.abs(noisy.makespan_s - quiet.makespan_s - skew0)).toBeLessThan(engine === 'flow' ? 1e-15 : 25.6e-9);
      expect(noisy.model.noise).toMatchObject({ skew: 50e-6, seed: 7, jitter: 0 });
      expect(quiet.model.noise).toBeNull();
    }
  });

  it('refuses bad noise specs in one line naming the field', () => {
    expect(parseNoise('skew=10us,jitter=1us,seed=3')).toMatchObject({ jitter: 1e-6, seed: 3, osProbability: 0.01 });
    expect(() => parseNoise('skew=-1us')).toThrow(InputError);
    expect(() => parseNoise('skw=1us')).toThrow(/noise\.skw/);
    expect(() => parseNoise('osprob=1.5')).toThrow(/noise\.osprob/);
    expect(() => parseNoise('seed=-1')).toThrow(/noise\.seed/);
    expect(() => parseNoise('10us')).toThrow(/noise/);
  });
});
