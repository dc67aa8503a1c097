/**
 * Compute operations and dependencies beyond program order in the shared program semantics
 * (sim/program): both engines run them through the same stream interpreter.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { FlowProgramBuilder } from '../../src/sim/program/program.js';
import { disturbProgram, resolveNoise } from '../../src/sim/program/disturb.js';
import { simulate } from '../../src/sim/simulate.js';
import { opTimesOf } from '../../src/sim/assemble.js';

// Two ranks, 1 GB/s each way, no latency, α = 0: 1,000 bytes take 1 us.
const topology = buildTopology('fullmesh:2,bw=8Gbps,lat=0');
const model = { alpha: 0 };

/** Rank 0: stream A computes 5 us; stream B sends 1,000 B only after A. Rank 1 receives, then computes 2 us. */
function program() {
  const b = new FlowProgramBuilder(2);
  b.beginStream(0).compute(5e-6);
  const a = b.lastOp;
  b.beginStream(0).send(1, 1000, 7);
  b.dependsOn(b.lastOp, a);
  b.beginStream(1).recv(0, 1000, 7).compute(2e-6);
  return b.build();
}

describe('compute ops and cross-stream dependencies', () => {
  for (const engine of ['flow', 'packet'] as const) {
    it(`${engine}: the send waits for the other stream's compute: 5 + 1 + 2 us`, () => {
      const r = simulate({ topology, program: program(), engine, model });
      // Packet level adds its routers' pipeline and packet headers: within 10 %.
      if (engine === 'flow') expect(r.makespan_s).toBeCloseTo(8e-6, 15);
      else expect(Math.abs(r.makespan_s - 8e-6)).toBeLessThan(0.8e-6);
      const t = opTimesOf(r);
      // The send (op 1) starts when the compute (op 0) ends, and names it as what it waited for.
      expect(t.start[1]).toBeCloseTo(t.end[0], 15);
      expect(t.pred[1]).toBe(0);
    });
  }

  it('without the dependency the send leaves at once: 1 + 2 us, and the compute runs beside it', () => {
    const b = new FlowProgramBuilder(2);
    b.beginStream(0).compute(5e-6);
    b.beginStream(0).send(1, 1000, 7);
    b.beginStream(1).recv(0, 1000, 7).compute(2e-6);
    expect(simulate({ topology, program: b.build(), model }).ranks.finish_s[1]).toBeCloseTo(3e-6, 15);
  });

  it('a disturbance keeps the dependencies', () => {
    const p = program();
    const d = disturbProgram(p, resolveNoise({ skew: 1e-6, seed: 2 }));
    expect(d.deps).toBe(p.deps);
    expect(simulate({ topology, program: d, model }).makespan_s).toBeGreaterThanOrEqual(8e-6 - 1e-15);
  });

  it('a dependency that can never complete is reported as a deadlock naming it', () => {
    const b = new FlowProgramBuilder(2);
    b.beginStream(0).compute(1e-6);
    const waiting = b.lastOp;
    b.beginStream(0).recv(1, 10, 1);
    b.dependsOn(waiting, b.lastOp);
    b.beginStream(1).compute(1e-6);
    expect(() => simulate({ topology, program: b.build(), model })).toThrow(/deadlock at rank 0 stream 0 op 0.*waits for 1 dependencies that never completed/);
  });

  it('refuses a dependency on an op that does not exist', () => {
    const b = new FlowProgramBuilder(1);
    b.beginStream(0).compute(1e-6);
    expect(() => b.dependsOn(0, 5)).toThrow(/dependency: got "0 after 5"/);
  });
});
