/**
 * alltoall `direct`: ASTRA-sim's native `direct` all-to-all (its `AllToAll` algorithm, astra-sim
 * @ 518bd513, system/astraccl/native_collectives/collective_algorithm/AllToAll.cc; `directW` in the
 * system configuration's all-to-all-implementation). Rank r sends one block to each of r + 1,
 * r + 2, …, r + P − 1 in that order and receives from r − 1, r − 2, …; at most `window` sends are
 * started before the first receive, and each receive that completes starts the next send. ASTRA-sim's
 * plain `direct` (no number) has a window of P − 1: every send at once (`window=0` here).
 *
 * Each receive is posted with its send (irecv, as ASTRA-sim posts them together), and receives are
 * waited for in posting order: ASTRA-sim starts the next send on whichever receive completes first,
 * which is the same wherever messages arrive in the order they were sent (a full mesh, a switch);
 * on a ring, where farther sources are more hops away, the orders can differ (docs/collectives.md).
 * Non-blocking posting keeps it safe under rendezvous.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';

/** Sends started before the first receive: `window` (0 = all), at most P − 1 (ASTRA-sim's min(window, P − 1)). */
export function directWindow(window: number, n: number): number {
  return window === 0 ? n - 1 : Math.min(window, n - 1);
}

registerAlgorithm({
  name: 'direct',
  collective: 'alltoall',
  description: "ASTRA-sim's direct all-to-all: sends to rank+1, rank+2, ..., at most `window` ahead of the receives",
  supportsText: 'any rank count and topology',
  source: 'ASTRA-sim (native direct all-to-all, AllToAll.cc @ 518bd513)',
  params: [{ key: 'window', kind: 'int', default: 0, min: 0, description: "sends in flight before the first receive (ASTRA-sim's directW); 0 = all P-1 at once (its plain direct)" }],
  supports: () => undefined,
  comparedWhenNamed: "ASTRA-sim's direct all-to-all, reproduced for its timing: compared when named (--include direct or direct:window=W)",
  estimate(ctx) {
    const n = ctx.ranks;
    // The copy, P − 1 irecvs, isends and waits, and the final waitall.
    return { ops: n * (1 + 3 * (n - 1) + (n > 1 ? 1 : 0)), messages: n * (n - 1) };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const window = directWindow(Number(ctx.params.window), n);
    const b = newBuilder();
    for (let r = 0; r < n; r++) {
      b.copy(r, b.block(SEND, r), b.block(RECV, r));
      // The k-th exchange: the block for r + k out, the one from r − k in.
      const start = (k: number): number => {
        b.isend(r, mod(r + k, n), b.block(SEND, mod(r + k, n)));
        return b.irecv(r, mod(r - k, n), b.block(RECV, mod(r - k, n)));
      };
      const receives: number[] = [];
      for (let k = 1; k <= window; k++) receives.push(start(k));
      for (let k = 1; k < n; k++) {
        b.wait(r, receives[k - 1]);
        if (k + window < n) receives.push(start(k + window));
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
