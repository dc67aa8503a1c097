import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue } from '../../../src/sim/program/event-queue.js';

describe('EventQueue', () => {
  it('pops by time, ties in insertion order, with pushes between pops (the engine pushes while draining)', () => {
    // Few distinct times, so that runs of equal times, revisited times and pushes at the current
    // time all occur.
    const step = fc.oneof(fc.record({ push: fc.constantFrom(0, 1, 1, 2, 3.5, 3.5, Infinity), kind: fc.nat(2) }), fc.constant({ pop: true }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const q = new EventQueue(4);
        const model: { time: number; kind: number; arg: number; seq: number }[] = [];
        let seq = 0;
        for (const st of steps) {
          if ('push' in st) {
            q.push(st.push, st.kind, seq);
            model.push({ time: st.push, kind: st.kind, arg: seq, seq });
            seq++;
          } else if (model.length > 0) {
            model.sort((a, b) => a.time - b.time || a.seq - b.seq || 0);
            const first = model.shift()!;
            expect([q.peekTime(), q.peekKind(), q.peekArg()]).toEqual([first.time, first.kind, first.arg]);
            q.pop();
          }
          expect(q.length).toBe(model.length);
        }
        expect(q.pushed).toBe(seq);
        if (model.length === 0) expect(q.peekTime()).toBe(Infinity);
      }),
    );
  });
});
