import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe('meshwork run / compare --noise (seed 000 ¶0048 disturbances)', () => {
  it('records the disturbance in the result, reproducibly per seed, on both engines', () => {
    const args = ['run', '--topology', 'torus:4x4', '--algorithm', 'hop-grouped', '--size', '1KiB', '--json'];
    const quiet = JSON.parse(runCli(args).stdout);
    for (const engine of ['flow', 'packet']) {
      const noisy = (seed: number) => JSON.parse(runCli([...args, '--engine', engine, '--noise', `skew=10us,jitter=1us,os=20us,osprob=0.05,seed=${seed}`]).stdout);
      const a = noisy(3);
      expect(a.model.noise).toMatchObject({ osProbability: 0.05, seed: 3 });
      expect(a.model.noise.os).toBeCloseTo(20e-6, 15);
      expect(a.model.noise.skew).toBeCloseTo(10e-6, 15);
      expect(a.makespan_s).toBe(noisy(3).makespan_s);
      expect(a.makespan_s).not.toBe(noisy(4).makespan_s);
      // A disturbance only delays: at least the largest start skew drawn is added to some rank's work.
      expect(a.makespan_s).toBeGreaterThan(quiet.makespan_s);
    }
    expect(quiet.model.noise).toBeNull();
  });

  it('compare runs every algorithm under the same disturbance', () => {
    const r = runCli(['compare', '--topology', 'torus:4x4', '--size', '1KiB', '--noise', 'skew=5us,seed=2', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"skew"');
  });

  it('refuses a bad disturbance in one line', () => {
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', '1KiB', '--noise', 'skew=fast']))).toMatch(/^meshwork: error: noise.skew: got /);
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', '1KiB', '--noise', 'drift=1us']))).toMatch(/^meshwork: error: noise.drift: got /);
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'linear', '--size', '1KiB', '--noise', 'os=1us,osprob=2']))).toMatch(/^meshwork: error: noise.osprob: got /);
  });
});
