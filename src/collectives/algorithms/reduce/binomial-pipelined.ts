/**
 * reduce `binomial-pipelined`: Open MPI's tuned reduce over its in-order binomial tree, in segments
 * (SimGrid SMPI's `ompi_binomial`, reduce-ompi.cpp: reduce__ompi_binomial and
 * smpi_coll_tuned_ompi_reduce_generic). A leaf sends its segments to its parent one after the other.
 * An inner rank, per segment and per child, posts the receive of that segment from that child (the
 * first child's straight into its accumulator, the others' into two alternating buffers), then waits
 * for the receive posted before it and reduces it (after the first child, its own data); once the last
 * child's segment k is in, it sends accumulated segment k to its parent while segment k + 1 is on
 * its way. segment=0 is Open MPI's choice: 1 KiB segments when the size is at least 2 KiB (20 KiB
 * under 8 ranks) and n > 0.6016 · size / 1024 + 1.3496, else the whole buffer in one segment.
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type Schedule, type ScheduleBuilder } from '../../schedule.js';
import { binomialTree } from '../binomial-tree.js';
import { segmentLimit, unitOf } from '../common.js';
import { largestSegment } from '../reduction.js';

/** Open MPI's segment for its binomial reduce (segment=0): 1 KiB or the whole buffer, by size and rank count. */
function binomialSegment(ctx: AlgorithmContext): number {
  const segment = ctx.params.segment as number;
  if (segment !== 0) return segment;
  const n = ctx.ranks;
  const S = ctx.size;
  return (n < 8 && S < 20480) || S < 2048 || S <= unitOf(ctx) ? 0 : n > (0.6016 / 1024) * S + 1.3496 ? 1024 : 0;
}

/** Segment bounds in bytes (element-aligned) of `segment`-byte segments (0: one), as Open MPI cuts them. */
export function ompiSegmentBounds(ctx: AlgorithmContext, segment: number): number[] {
  const unit = unitOf(ctx);
  const S = ctx.size;
  // COLL_TUNED_COMPUTED_SEGCOUNT: whole elements, rounded to the nearer count.
  let per = S / unit;
  if (segment >= unit && segment < S) per = Math.floor(segment / unit) + (segment % unit > unit >> 1 ? 1 : 0);
  const bounds = [0];
  for (let at = per * unit; at < S; at += per * unit) bounds.push(at);
  bounds.push(S);
  return bounds;
}

/** A node of the tree a pipelined reduce runs up: its parent (−1 at the root) and its children in the order it hears from them. */
export interface ReduceTreeNode {
  readonly rank: number;
  readonly parent: number;
  readonly children: ReadonlyArray<{ readonly rank: number }>;
}

/**
 * Open MPI's generic segmented reduce (smpi_coll_tuned_ompi_reduce_generic) up `tree` in the segments
 * `bounds` (byte offsets): the schedule of binomial-pipelined, binary-pipelined and chain. The tree's top
 * accumulates in the root's receive buffer, or, given `forward` (a top other than the root), in a
 * temporary whose result `forward` then moves to the root.
 */
export function pipelinedReduce(
  ctx: AlgorithmContext,
  newBuilder: () => ScheduleBuilder,
  tree: readonly ReduceTreeNode[],
  bounds: readonly number[],
  forward?: (b: ScheduleBuilder, acc: number) => void,
): Schedule {
  const n = ctx.ranks;
  const b = newBuilder();
  const S = bounds.length - 1;
  const largest = largestSegment(bounds);
  const acc = b.tmpBuffer('acc', ctx.size);
  const inbuf = [b.tmpBuffer('in0', largest), b.tmpBuffer('in1', largest)];
  const seg = (buf: number, k: number) => b.region(buf, bounds[k], bounds[k + 1] - bounds[k]);
  const slot = (i: number, k: number) => b.region(inbuf[i], 0, bounds[k + 1] - bounds[k]);
  if (n === 1) {
    b.copy(ctx.root, b.region(SEND, 0, ctx.size), b.region(RECV, 0, ctx.size));
    return b.finish();
  }
  for (const { rank: r, parent, children } of tree) {
    if (children.length === 0) {
      for (let k = 0; k < S; k++) b.send(r, parent, seg(SEND, k));
      continue;
    }
    // The root accumulates in its receive buffer, the others (and a forwarding top) in a temporary.
    const accum = parent < 0 && forward === undefined ? RECV : acc;
    const m = children.length;
    const reqs: Array<number | undefined> = [undefined, undefined];
    let inbi = 0;
    outer: for (let k = 0; k <= S; k++) {
      for (let i = 0; i < m; i++) {
        if (k < S) {
          const into = i === 0 ? seg(accum, k) : slot(inbi, k);
          reqs[inbi] = b.irecv(r, children[i].rank, into);
        }
        const prev = reqs[inbi ^ 1];
        if (prev !== undefined) {
          b.wait(r, prev);
          reqs[inbi ^ 1] = undefined;
        }
        if (i > 0) {
          // Child i − 1's segment k (for i = 1 it went into accum: add the rank's own data instead).
          b.reduce(r, i === 1 ? seg(SEND, k) : slot(inbi ^ 1, k), seg(accum, k));
        } else if (k > 0) {
          b.reduce(r, m <= 1 ? seg(SEND, k - 1) : slot(inbi ^ 1, k - 1), seg(accum, k - 1));
          if (parent >= 0) b.send(r, parent, seg(accum, k - 1));
          if (k === S) break outer;
        }
        inbi ^= 1;
      }
    }
  }
  forward?.(b, acc);
  return b.finish();
}

registerAlgorithm({
  name: 'binomial-pipelined',
  collective: 'reduce',
  description: "Open MPI's segmented reduce up its in-order binomial tree, receives of the next segment posted before reducing this one (SMPI ompi_binomial)",
  source: 'Open MPI tuned reduce (binomial); SimGrid SMPI ompi_binomial',
  supportsText: 'any rank count and topology; segment at most 2^20 segments',
  params: [{ key: 'segment', kind: 'int', default: 0, min: 0, max: 2 ** 40, description: "segment bytes; 0: Open MPI's choice (1 KiB or the whole buffer, by size and rank count)" }],
  supports: (ctx) => segmentLimit(ctx.size, ctx.params.segment as number),
  build(ctx, newBuilder) {
    return pipelinedReduce(ctx, newBuilder, binomialTree(ctx.ranks, ctx.root), ompiSegmentBounds(ctx, binomialSegment(ctx)));
  },
});
