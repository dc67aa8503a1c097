/**
 * alltoall `ring-relay`: ASTRA-sim's native all-to-all on a ring dimension (its `ring`
 * all-to-all implementation: `Ring` with ComType All_to_All, astra-sim @ 518bd513,
 * system/astraccl/native_collectives/collective_algorithm/Ring.cc). Every rank sends only to its
 * ring successor r + 1, one block per message, P(P − 1)/2 messages in all, and may send its next
 * message only once it has received one from its predecessor r − 1: store and forward through
 * every rank on the way, each step paying α, a link latency and one block's transfer.
 *
 * ASTRA-sim times the relay without saying which block each message carries; Meshwork moves real
 * data, in trains: train d (d = 1 … P − 1) takes d steps, in step 1 every rank sends its own
 * block for r + d and in steps 2 … d forwards the block it received in the step before, so after d
 * steps each block has travelled its d hops. A forwarded block waits in one temporary block (the
 * send reads it eagerly before the step's receive overwrites it).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, UNRESTRICTED } from '../common.js';
import type { RingRegions } from '../library/layout.js';

/** One-block messages each rank sends: P(P − 1)/2 (a block for r + d travels d hops). */
export function relaySteps(n: number): number {
  return (n * (n - 1)) / 2;
}

registerAlgorithm({
  name: 'ring-relay',
  collective: 'alltoall',
  description: "ASTRA-sim's ring all-to-all: P(P-1)/2 one-block steps to rank+1, each block forwarded hop by hop",
  source: 'ASTRA-sim (native ring all-to-all, Ring.cc @ 518bd513)',
  ...UNRESTRICTED,
  comparedWhenNamed: "ASTRA-sim's ring all-to-all, reproduced for its timing (P(P-1)/2 one-block steps, O(P^3) ops): compared when named (--include ring-relay)",
  estimate(ctx) {
    const n = ctx.ranks;
    return { ops: n + 2 * n * relaySteps(n), messages: n * relaySteps(n) };
  },
  // Rank-rotation-equivariant: the copy of its own block, then every step a send to r + 1 and a
  // receive from r − 1 (tag 0), one block each.
  rotation(ctx) {
    const n = ctx.ranks;
    const steps = relaySteps(n);
    return {
      opsPerRank: 1 + 2 * steps,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let s = 0; s < steps; s++) {
          visit('send', mod(r + 1, n), ctx.size, 0);
          visit('recv', mod(r - 1, n), ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const ring = Array.from({ length: n }, (_, r) => r);
    const tmp = b.tmpBuffer('relay', b.blockBytes);
    ringRelayOver({ b, ring, region: (v) => b.block(SEND, v), into: (v) => b.block(RECV, v), bytes: () => b.blockBytes, tmp, stream: 0, tag: 0 });
    return b.finish();
  },
});

/**
 * The relay over any regions (also the phases of ASTRA-sim's multi-dimensional all-to-all,
 * astra-native.ts): ring position v starts with `region(i)`, its data for position i, and ends with
 * every position's data for it, the one from position u in `into(u)`; each region is the same on
 * every rank of the ring. The block in transit waits in `tmp` (at least the largest segment).
 */
export function ringRelayOver(p: RingRegions & { into(i: number): number }): void {
  const n = p.ring.length;
  for (let v = 0; v < n; v++) p.b.copy(p.ring[v], p.region(v), p.into(v), p.stream);
  for (let d = 1; d < n; d++) {
    for (let step = 1; step <= d; step++) {
      for (let v = 0; v < n; v++) {
        // Train d: step 1 injects position v's data for v + d; later steps pass on the one just received.
        const out = step === 1 ? p.region(mod(v + d, n)) : p.b.region(p.tmp, 0, p.bytes(mod(v - step + 1 + d, n)));
        // The data arriving now left v − step for v − step + d; on the train's last step that is v.
        const into = step === d ? p.into(mod(v - d, n)) : p.b.region(p.tmp, 0, p.bytes(mod(v - step + d, n)));
        p.b.sendrecv(p.ring[v], p.ring[mod(v + 1, n)], out, p.ring[mod(v - 1, n)], into, p.tag, p.stream);
      }
    }
  }
}
