import { describe, expect, it } from 'vitest';
import { flowPreset, simulate } from '../../../src/index.js';
import { SEED001_MODEL, SEED001_T0 } from '../../../src/analysis/reproduce/seed001-timing.js';

describe('the seed001 time-model preset', () => {
  it('is the document latency model (spec/seed001_fullmesh.md §1.4): T0 = 2 µs, T1 − T0 = 2 µs / 100 ns / 400 ns, shared links', () => {
    const p = flowPreset('seed001');
    // [0057] T0 = 2 µs; [0035] 4 µs through memory, 2.1 µs in the switch; [0103] 2.4 µs with the reduce unit.
    const { turnaroundMemory, turnaroundSwitch, turnaroundReduce, ...rest } = p.model;
    expect(rest).toEqual({ alpha: 2e-6, routerLatency: 0, injectionOrder: 'shared', preset: 'seed001' });
    expect(turnaroundMemory).toBeCloseTo(4e-6 - 2e-6, 18);
    expect(turnaroundSwitch).toBeCloseTo(2.1e-6 - 2e-6, 18);
    expect(turnaroundReduce).toBeCloseTo(2.4e-6 - 2e-6, 18);
    expect(Object.keys(p.reasons).sort()).toEqual(['alpha', 'injectionOrder', 'routerLatency', 'turnaroundMemory', 'turnaroundReduce', 'turnaroundSwitch']);
    // The reproduction times with the preset's model (its recorded params leave the name out).
    const { preset: _name, ...model } = p.model;
    expect(SEED001_MODEL).toEqual(model);
    expect(SEED001_T0).toBe(p.model.alpha);
  });

  it('a RunRequest with preset seed001 times the binomial broadcast as ⌈log2 N⌉ · (T0 + S/B) and records the preset', () => {
    const r = simulate({ topology: 'fullmesh:8,lat=0,bw=20Gbps', preset: 'seed001', workload: { kind: 'collective', collective: 'broadcast', algorithm: 'binomial', size: 8 } });
    if (r.kind !== 'meshwork-run-result') throw new Error(r.kind);
    expect(r.makespan_s).toBeCloseTo(3 * (2e-6 + (8 * 8) / 20e9), 15);
    expect(r.model.preset).toBe('seed001');
    expect(r.request.preset).toBe('seed001');
  });

  it('explicit values win over the preset', () => {
    const r = simulate({ topology: 'fullmesh:4,lat=0,bw=20Gbps', preset: 'seed001', model: { alpha: 1e-6 }, workload: { kind: 'collective', collective: 'one-to-one', algorithm: 'direct', size: 8 } });
    if (r.kind !== 'meshwork-run-result') throw new Error(r.kind);
    expect(r.makespan_s).toBeCloseTo(1e-6 + (8 * 8) / 20e9, 15);
  });
});
