// FlowProgram takes its columns by name; a program derived with `with` (noise, library latency,
// seed 002's combining tree) keeps every column it does not replace, non-blocking flags and
// cross-stream dependencies included (the positional copies dropped them).
import { describe, expect, it } from 'vitest';
import { FlowProgram, FlowProgramBuilder, disturbProgram, resolveNoise } from '../../../src/index.js';
import { withLibraryLatency, type LibraryTiming } from '../../../src/sim/library.js';

function program(): FlowProgram {
  const b = new FlowProgramBuilder(2).beginStream(0).isend(1, 64);
  const sent = b.lastOp;
  b.waitall().beginStream(1).irecv(0, 64).waitall().copy(8);
  return b.dependsOn(b.lastOp, sent).build();
}

describe('FlowProgram columns', () => {
  it('the builder names every column; with() replaces only what it is given', () => {
    const p = program();
    expect(p.numStreams).toBe(2);
    expect(Array.from(p.opNonBlocking ?? [])).toEqual([1, 0, 1, 0, 0]);
    expect(Array.from(p.deps?.on ?? [])).toEqual([0]);
    const delay = new Float64Array(p.numOps).fill(1e-6);
    const q = p.with({ opDelay: delay });
    expect(q.opDelay).toBe(delay);
    expect(q.opKind).toBe(p.opKind);
    expect(q.opNonBlocking).toBe(p.opNonBlocking);
    expect(q.deps).toBe(p.deps);
    expect(q.noise).toBeNull();
    expect(p.opDelay).toBeNull();
  });

  it('library latency and noise keep non-blocking flags and dependencies', () => {
    const p = program();
    const timing = { latency_s: 2e-6 } as LibraryTiming;
    const lib = withLibraryLatency(p, timing);
    expect(Array.from(lib.opDelay ?? [])).toEqual([2e-6, 0, 2e-6, 0, 0]);
    // Every op is the library's: its messages take libraryAlpha.
    expect(Array.from(lib.opLibrary ?? [])).toEqual([1, 1, 1, 1, 1]);
    expect(p.opLibrary).toBeNull();
    expect(lib.opNonBlocking).toBe(p.opNonBlocking);
    expect(lib.deps).toBe(p.deps);
    const noisy = disturbProgram(lib, resolveNoise({ skew: 1e-6, seed: 3 }));
    expect(noisy.opNonBlocking).toBe(p.opNonBlocking);
    expect(noisy.deps).toBe(p.deps);
    expect(noisy.noise?.skew).toBe(1e-6);
    expect(noisy.opLibrary).toBe(lib.opLibrary);
  });

  it('markLibrary marks the ops from one op id to the last added', () => {
    const b = new FlowProgramBuilder(2).beginStream(0).send(1, 8);
    const from = b.lastOp + 1;
    b.compute(1e-6).send(1, 8).markLibrary(from).beginStream(1).recv(0, 8).recv(0, 8);
    expect(Array.from(b.build().opLibrary ?? [])).toEqual([0, 1, 1, 0, 0]);
    expect(new FlowProgramBuilder(1).beginStream(0).copy(1).build().opLibrary).toBeNull();
  });
});
