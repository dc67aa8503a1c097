/**
 * `--symmetry auto|off` (issue 29, docs/flow.md "Symmetry"): the flag reaches the model, the result
 * records the outcome with its reason, and a bad value is refused in one line, exit 2.
 */
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe('meshwork run --symmetry', () => {
  it('off is recorded with its reason; auto below 1,024 ranks says why it ran every rank', () => {
    const off = JSON.parse(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--symmetry', 'off', '--json']).stdout);
    expect(off.model.symmetry).toEqual({ mode: 'off', used: false, reason: 'symmetry off' });
    const auto = JSON.parse(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--json']).stdout);
    expect(auto.model.symmetry).toMatchObject({ mode: 'auto', used: false });
    expect(auto.model.symmetry.reason).toMatch(/16 ranks, below 1024/);
    expect(auto.makespan_s).toBe(off.makespan_s);
  });

  it('a bad value is refused in one line', () => {
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '4KiB', '--symmetry', 'maybe']))).toMatch(/symmetry.*maybe.*auto, off/);
  });
});
