import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MatchTable } from '../../../src/sim/program/match-table.js';

/** A plain model of receive matching: per key, FIFOs of arrivals and of waiting streams. */
class ModelTable {
  readonly arrivals = new Map<number, { time: number; op: number }[]>();
  readonly waiting = new Map<number, number[]>();
}

// Keys as the engine forms them, (src·R + dst)·tags + tag, reach beyond 2^31 at 32,768 ranks; a few
// values per run so that keys repeat, collide in the table and are deleted and re-inserted.
const key = fc.constantFrom(0, 1, 7, 1023, 1024, 2 ** 31 + 5, 2 ** 40 + 3, 32768 * 32768 * 3 - 1);
const action = fc.oneof(
  fc.record({ kind: fc.constant('arrive' as const), key, time: fc.integer({ min: 0, max: 100 }), op: fc.nat(1000) }),
  fc.record({ kind: fc.constant('wait' as const), key, stream: fc.nat(49) }),
  fc.record({ kind: fc.constant('take' as const), key }),
  fc.record({ kind: fc.constant('wake' as const), key }),
);

describe('MatchTable', () => {
  it('keeps per-key FIFO order of arrivals and waiting streams, like a Map of queues', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 400 }), (actions) => {
        const table = new MatchTable();
        const model = new ModelTable();
        const waitingNow = new Set<number>();
        for (const a of actions) {
          if (a.kind === 'arrive') {
            table.addArrival(a.key, a.time, a.op);
            model.arrivals.set(a.key, [...(model.arrivals.get(a.key) ?? []), { time: a.time, op: a.op }]);
          } else if (a.kind === 'wait') {
            // A stream waits on one key at a time (the engine's invariant).
            if (waitingNow.has(a.stream)) continue;
            waitingNow.add(a.stream);
            table.addWaiting(a.key, a.stream);
            model.waiting.set(a.key, [...(model.waiting.get(a.key) ?? []), a.stream]);
          } else if (a.kind === 'take') {
            const expected = model.arrivals.get(a.key)?.shift();
            expect(table.takeArrival(a.key)).toBe(expected !== undefined);
            if (expected) expect([table.time, table.op]).toEqual([expected.time, expected.op]);
          } else {
            const expected = model.waiting.get(a.key)?.shift() ?? -1;
            expect(table.takeWaiting(a.key)).toBe(expected);
            waitingNow.delete(expected);
          }
        }
        const pending = [...model.arrivals].filter(([, q]) => q.length > 0).map(([k]) => k);
        expect(table.firstUnreceived()).toBe(pending.length ? Math.min(...pending) : -1);
      }),
    );
  });

  it('grows past its initial 1024 slots and finds every key after deletions', () => {
    const table = new MatchTable();
    const n = 5000;
    for (let i = 0; i < n; i++) table.addArrival(i * 32769 + 2 ** 33, i, i);
    // Delete every other key, then every remaining one must still be found with its data.
    for (let i = 0; i < n; i += 2) expect(table.takeArrival(i * 32769 + 2 ** 33)).toBe(true);
    for (let i = 1; i < n; i += 2) {
      expect(table.takeArrival(i * 32769 + 2 ** 33)).toBe(true);
      expect(table.op).toBe(i);
    }
    expect(table.firstUnreceived()).toBe(-1);
  });
});
