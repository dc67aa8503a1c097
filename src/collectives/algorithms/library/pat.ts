/**
 * allgather and reduce-scatter `pat`: NCCL's Parallel Aggregated Trees (NCCL 2.23, src/include/
 * collectives.h PatAGAlgorithm / PatRSAlgorithm; meant for one accelerator per node, where the
 * ring's n − 1 network latencies dominate). Every rank's block travels a binomial tree rooted at
 * its owner over distances that are powers of two, and the trees are aggregated: in round d every
 * rank sends everything bound the same way in one step to the one peer 2^d away, so the whole
 * collective takes ⌈log2 n⌉ steps and each rank still sends (n − 1) blocks in all (as a ring).
 *
 * Allgather: rounds d = D−1 .. 0 (farthest first). For block j, the rank at offset s = r − j
 * (mod n) holds it once every bit of s above d is served; in round d rank r sends to r + 2^d the
 * blocks whose offset s is a multiple of 2^(d+1) with s + 2^d < n (the receiver's offset then has
 * lowest set bit d: its parent in block j's tree).
 * Reduce-scatter: the same trees run backwards (rounds d = 0 .. D−1): rank r + 2^d sends to r its
 * partial sums of those blocks, which by then hold its whole subtree, and r adds them; the owner
 * ends with its block summed over all ranks.
 * NCCL cuts each step into chunks that fit its buffers (aggregation factor, parallel factor);
 * Meshwork sends a step's blocks as one message per block, all in the same round, each paired with
 * the block it receives (sendrecv, so a round completes under rendezvous sends too); reduce-scatter
 * reduces what it received once the round's exchanges are done.
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { unitOf } from '../common.js';
import { MACHINE_PARAM } from './layout.js';
import type { CollectiveKind } from '../../types.js';

/** Rounds of an n-rank PAT: ⌈log2 n⌉. */
export function patRounds(n: number): number {
  let d = 0;
  while (1 << d < n) d++;
  return d;
}

/** Offsets s (of a block's owner to the sender) a rank forwards in round d: multiples of 2^(d+1) with s + 2^d < n. */
export function patOffsets(n: number, d: number): number[] {
  const out: number[] = [];
  for (let s = 0; s + (1 << d) < n; s += 2 << d) out.push(s);
  return out;
}

function register(collective: CollectiveKind, description: string, build: (ctx: AlgorithmContext, b: ScheduleBuilder) => void): void {
  registerAlgorithm({
    name: 'pat',
    collective,
    description,
    supportsText: 'any rank count (meant for one accelerator per node)',
    source: 'NCCL PAT, Parallel Aggregated Trees (NCCL 2.23; issue 25)',
    params: [MACHINE_PARAM],
    supports: () => undefined,
    build(ctx, newBuilder) {
      const b = newBuilder();
      build(ctx, b);
      return b.finish();
    },
  });
}

register('allgather', "NCCL's PAT allgather: binomial trees of every block over power-of-two distances, aggregated into ⌈log2 n⌉ steps", (ctx, b) => {
  const n = ctx.ranks;
  const B = ctx.size;
  const block = (j: number): number => b.region(RECV, j * B, B);
  for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, B), block(r));
  for (let d = patRounds(n) - 1; d >= 0; d--) {
    const offsets = patOffsets(n, d);
    for (let r = 0; r < n; r++) {
      const to = (r + (1 << d)) % n;
      const from = (r - (1 << d) + n) % n;
      // Each block out paired with one in (MPI_Sendrecv): a round completes under rendezvous sends too.
      // What `from` sends: its offsets s to block j = from − s, which is r − (s + 2^d).
      for (const s of offsets) b.sendrecv(r, to, block((r - s + n) % n), from, block((from - s + n) % n), d);
    }
  }
});

register('reduce-scatter', "NCCL's PAT reduce-scatter: the allgather's aggregated binomial trees run backwards, partial sums toward each block's owner", (ctx, b) => {
  const n = ctx.ranks;
  const unit = unitOf(ctx);
  const B = ctx.size / n;
  const acc = b.tmpBuffer('acc', Math.max(unit, ctx.size));
  const maxBlocks = Math.max(1, patOffsets(n, 0).length);
  const inbox = b.tmpBuffer('inbox', Math.max(unit, maxBlocks * B));
  const partial = (j: number): number => b.region(acc, j * B, B);
  for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.region(acc, 0, ctx.size));
  for (let d = 0; d < patRounds(n); d++) {
    const offsets = patOffsets(n, d);
    for (let r = 0; r < n; r++) {
      // r sends as the child (offset s + 2^d) of r − 2^d, for the blocks j = (r − 2^d) − s.
      const parent = (r - (1 << d) + n) % n;
      const child = (r + (1 << d)) % n;
      offsets.forEach((s, i) => b.sendrecv(r, parent, partial((parent - s + n) % n), child, b.region(inbox, i * B, B), d));
      offsets.forEach((s, i) => b.reduce(r, b.region(inbox, i * B, B), partial((r - s + n) % n)));
    }
  }
  for (let r = 0; r < n; r++) b.copy(r, partial(r), b.region(RECV, 0, B));
});
