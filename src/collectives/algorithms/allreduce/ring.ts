/**
 * allreduce `ring`: ring reduce-scatter then ring allgather over n segments, 2(n-1) steps (classic,
 * bandwidth-optimal; SimGrid SMPI's `lr`). segment > 0: Open MPI's segmented ring (SMPI's
 * `ompi_ring_segmented` with segment=1048576, allreduce-ompi-ring-segmented.cpp) once the buffer holds at
 * least n segments (below, Open MPI runs the plain ring, as here): the reduce-scatter runs in phases, each
 * over one phase-part of every block (the blocks and their parts cut as Open MPI's
 * COLL_TUNED_COMPUTE_BLOCKCOUNT cuts them), rank r sending its own block's part first and the next part's
 * receive posted before the previous one is waited for and reduced; rank r ends with block r + 1; then a
 * ring allgather of whole blocks (sendrecvs, block r + 1 − k out at step k). smp=true: init_smp's messages
 * first, then the plain ring: SMPI's `smp_rsag` and `smp_rsag_lr` on one rank per host (allreduce-smp-rsag.cpp,
 * allreduce-smp-rsag-lr.cpp), on a size of a whole number of elements per rank (otherwise smp_rsag leaves the
 * tail unreduced and smp_rsag_lr puts it in the last block). remainder=redbcast: SMPI's `lr` where the element
 * count is no multiple of n (the ring over n blocks of count / n elements, then redbcast of the rest); with
 * smp=true the impi allreduce selector's lr and ompi_ring_segmented after init_smp.
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type Schedule, type ScheduleBuilder } from '../../schedule.js';
import { mod, segmentBounds, unitOf } from '../common.js';
import { ompiSegmentBounds } from '../reduce/binomial-pipelined.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { smpiRedbcast } from './reduce-broadcast.js';
import { equalRingSegment, largestSegment, ringAllgather, ringReduceScatter, visitRingReduceScatter } from '../reduction.js';

registerAlgorithm({
  name: 'ring',
  collective: 'allreduce',
  description: 'ring reduce-scatter then ring allgather, 2(n-1) steps of size/n',
  source: 'classic; SimGrid SMPI lr, ompi_ring_segmented (segment=1048576)',
  supportsText: 'any rank count and topology; smp=true with remainder=spread: segment=0 and a whole number of elements per rank',
  supports(ctx) {
    // remainder=redbcast (SMPI lr, ompi_ring_segmented) runs any count, after init_smp too (the impi selector's).
    if (ctx.params.smp !== true || ctx.params.remainder === 'redbcast') return undefined;
    if (ctx.params.segment !== 0) return `segment=0 with smp=true (SMPI smp_rsag is the plain ring), got segment=${String(ctx.params.segment)}`;
    const count = ctx.size / unitOf(ctx);
    return count % ctx.ranks !== 0 ? `a size of a multiple of ${ctx.ranks} ${ctx.dtype} elements with smp=true (SMPI smp_rsag cuts count / n per rank), got ${ctx.size} B` : undefined;
  },
  params: [
    smpParam('smp_rsag and smp_rsag_lr allreduce'),
    {
      key: 'remainder',
      kind: 'choice',
      choices: ['spread', 'redbcast'],
      default: 'spread',
      description: "spread: the first count mod n blocks one element larger; redbcast: n blocks of count / n elements, the rest by SMPI's redbcast afterwards (SMPI lr, allreduce-lr.cpp: its MPI_Allreduce of the rest, below n elements, runs redbcast)",
    },
    {
      key: 'segment',
      kind: 'int',
      default: 0,
      min: 0,
      max: 2 ** 40,
      description: "0: the plain ring; else Open MPI's segmented ring in phases of segment-byte block parts when the buffer holds n segments (SMPI ompi_ring_segmented: 1048576)",
    },
  ],
  // A copy per rank, then 2(n-1) steps of a send, a receive and a reduce or copy per rank, plus the receive's pair: 5n(n-1) + n ops.
  // Segmented: per phase and rank an irecv, a send, n − 2 rounds of irecv, wait, reduce, send, then a wait and a reduce.
  estimate: (ctx) => {
    const n = ctx.ranks;
    const phases = ringPhases(ctx);
    if (phases > 0) return { ops: n + phases * n * (4 * n - 4) + 2 * n * (n - 1), messages: (phases + 1) * n * (n - 1) };
    // remainder=redbcast adds redbcast: a copy, n − 1 sends, irecvs and reduces, a waitall, 2(n − 1) broadcast ops.
    const redbcast = ctx.params.remainder === 'redbcast' && (ctx.size / unitOf(ctx)) % n !== 0;
    return { ops: 5 * n * (n - 1) + n + (redbcast ? 5 * n : 0), messages: 2 * n * (n - 1) + (redbcast ? 2 * n : 0) };
  },
  // Rotation-equivariant when every segment has the same size (issue 29: symmetry from the
  // representatives' streams alone). The ops as build() emits them and lowerSchedule counts them:
  // the copy of the whole buffer; per reduce-scatter step send, recv, reduce; per allgather step send, recv.
  rotation(ctx) {
    const n = ctx.ranks;
    if (ringPhases(ctx) > 0 || ctx.params.smp === true || (ctx.params.remainder === 'redbcast' && (ctx.size / unitOf(ctx)) % n !== 0)) return undefined;
    const seg = equalRingSegment(ctx);
    if (seg === undefined) return undefined;
    return {
      opsPerRank: 5 * (n - 1) + 1,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        visitRingReduceScatter(r, n, seg, visit);
        for (let k = 0; k < n - 1; k++) {
          visit('send', mod(r + 1, n), seg, 2);
          visit('recv', mod(r - 1, n), seg, 2);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const phases = ringPhases(ctx);
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    if (phases > 0) return buildSegmentedRing(ctx, b, phases);
    const unit = unitOf(ctx);
    // remainder=redbcast: the ring over n equal blocks of count / n elements, SMPI's redbcast over the rest.
    const perRank = Math.floor(ctx.size / unit / n) * unit;
    const ringBytes = ctx.params.remainder === 'redbcast' ? perRank * n : ctx.size;
    if (ringBytes > 0) {
      const bounds = segmentBounds(ringBytes, n, unit);
      const tmp = b.tmpBuffer('tmp', largestSegment(bounds));
      for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ringBytes), b.region(RECV, 0, ringBytes));
      const w = { b, n, real: (v: number) => v, acc: RECV, tmp, bounds };
      ringReduceScatter(w);
      ringAllgather(w);
    }
    if (ringBytes < ctx.size) smpiRedbcast(b, n, ringBytes, ctx.size - ringBytes);
    return b.finish();
  },
});

/** Open MPI's segment count in elements and its number of phases (0: the plain ring) for the segmented ring. */
function ringPhases(ctx: AlgorithmContext): number {
  const segment = ctx.params.segment as number;
  if (segment === 0) return 0;
  const n = ctx.ranks;
  const unit = unitOf(ctx);
  const count = Math.floor(ctx.size / unit);
  // COLL_TUNED_COMPUTED_SEGCOUNT: segment bytes to whole elements.
  const bounds = ompiSegmentBounds(ctx, segment);
  const segCount = (bounds[1] - bounds[0]) / unit;
  if (n < 2 || count < n * segCount) return 0;
  const rest = count % (n * segCount);
  return Math.floor(count / (n * segCount)) + (rest >= n && rest > (n * segCount) / 2 ? 1 : 0);
}

/** Open MPI's segmented ring allreduce in `phases` phases (see the header). */
function buildSegmentedRing(ctx: AlgorithmContext, b: ScheduleBuilder, phases: number): Schedule {
  const n = ctx.ranks;
  const unit = unitOf(ctx);
  const blocks = segmentBounds(ctx.size, n, unit);
  // Phase p of block i: its bytes cut as Open MPI cuts block_count into num_phases.
  const part = (i: number, p: number): [number, number] => {
    const inner = segmentBounds(blocks[i + 1] - blocks[i], phases, unit);
    return [blocks[i] + inner[p], inner[p + 1] - inner[p]];
  };
  // Block 0 is an early block and phase 0 an early part: the largest part.
  const largest = part(0, 0)[1];
  const inbuf = [b.tmpBuffer('in0', largest), b.tmpBuffer('in1', largest)];
  for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.region(RECV, 0, ctx.size));
  for (let p = 0; p < phases; p++) {
    for (let r = 0; r < n; r++) {
      const to = mod(r + 1, n);
      const from = mod(r - 1, n);
      const mine = (i: number) => {
        const [offset, length] = part(i, p);
        return b.region(RECV, offset, length);
      };
      const slot = (k: number, i: number) => b.region(inbuf[k], 0, part(i, p)[1]);
      let inbi = 0;
      // The part arriving at step k (k = 1 .. n − 1) is block r − k's.
      let pending = b.irecv(r, from, slot(inbi, mod(r - 1, n)), 1);
      b.send(r, to, mine(r), 1);
      for (let k = 2; k < n; k++) {
        const prev = mod(r - k + 1, n);
        inbi ^= 1;
        const next = b.irecv(r, from, slot(inbi, mod(r - k, n)), 1);
        b.wait(r, pending);
        b.reduce(r, slot(inbi ^ 1, prev), mine(prev));
        b.send(r, to, mine(prev), 1);
        pending = next;
      }
      b.wait(r, pending);
      b.reduce(r, slot(inbi, mod(r + 1, n)), mine(mod(r + 1, n)));
    }
  }
  const block = (i: number) => b.region(RECV, blocks[i], blocks[i + 1] - blocks[i]);
  for (let k = 0; k < n - 1; k++) {
    for (let r = 0; r < n; r++) b.sendrecv(r, mod(r + 1, n), block(mod(r + 1 - k, n)), mod(r - 1, n), block(mod(r - k, n)), 2);
  }
  return b.finish();
}
