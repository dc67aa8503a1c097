/**
 * reduce `binary-pipelined`: Open MPI's generic segmented reduce (as binomial-pipelined) up its binary
 * tree (ompi_coll_tuned_topo_build_tree with fan-out 2, coll_tuned_topo.cpp), in 32 KiB segments
 * (SimGrid SMPI's `ompi_binary`, reduce-ompi.cpp: "Binary_32K"). Over relative ranks s = (rank − root)
 * mod n, s on level l (the levels hold 1, 2, 4, ... ranks) has children s + 2^l and s + 2·2^l, and its
 * parent is s less 2^(l−1) until it is above level l: 0 → 1, 2; 1 → 3, 5; 2 → 4, 6; 3 → 7, 11.
 * tree=in-order: Open MPI's in-order binary tree (ompi_coll_tuned_topo_build_in_order_bintree), rooted at
 * rank n − 1 whatever the root, which then sends the result to the root (SMPI's `ompi_in_order_binary`,
 * reduce-ompi.cpp, with segment=0: one segment).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { rootRelative, segmentLimit } from '../common.js';
import { ompiSegmentBounds, pipelinedReduce, type ReduceTreeNode } from './binomial-pipelined.js';

/** Open MPI's k-ary tree (ompi_coll_tuned_topo_build_tree) over n ranks from `root`, children in order. */
export function ompiKaryTree(fanout: number, n: number, root: number): ReduceTreeNode[] {
  const real = rootRelative(root, n);
  const nodes: ReduceTreeNode[] = [];
  for (let s = 0; s < n; s++) {
    // calculate_level: the level l with fanout^0 + ... + fanout^(l−1) <= s < ... + fanout^l.
    let level = 0;
    for (let below = 1; below <= s; level++) below += fanout ** (level + 1);
    const delta = fanout ** level;
    const children: Array<{ rank: number }> = [];
    for (let i = 1; i <= fanout && s + delta * i < n; i++) children.push({ rank: real(s + delta * i) });
    const aboveLevel = (fanout ** level - 1) / (fanout - 1);
    let parent = s;
    if (parent < fanout) parent = 0;
    else while (parent >= aboveLevel) parent -= delta / fanout;
    nodes.push({ rank: real(s), parent: s === 0 ? -1 : real(parent), children });
  }
  return nodes;
}

/**
 * Open MPI's in-order binary tree over n ranks, rooted at n − 1: a subtree of `size` ranks from `delta`
 * has its top at delta + size − 1, its left child (heard from first) topping the upper size − size/2 − 1
 * ranks, its right child the lower size/2.
 */
export function ompiInOrderBinaryTree(n: number): ReduceTreeNode[] {
  const nodes: ReduceTreeNode[] = [];
  const build = (delta: number, size: number, parent: number): void => {
    const top = delta + size - 1;
    const right = size >> 1;
    const children: Array<{ rank: number }> = [];
    if (size > 1) children.push({ rank: top - 1 });
    if (size - 1 > 1) children.push({ rank: delta + right - 1 });
    nodes.push({ rank: top, parent, children });
    // Two ranks: the lower one is the only (left) child.
    if (size === 2) build(delta, 1, top);
    if (size > 2) {
      build(delta + right, size - right - 1, top);
      build(delta, right, top);
    }
  };
  build(0, n, -1);
  return nodes.sort((a, c) => a.rank - c.rank);
}

registerAlgorithm({
  name: 'binary-pipelined',
  collective: 'reduce',
  description: "Open MPI's segmented reduce up its binary tree (0 → 1, 2; 1 → 3, 5; ...), 32 KiB segments (SMPI ompi_binary)",
  source: 'Open MPI tuned reduce (binary); SimGrid SMPI ompi_binary',
  supportsText: 'any rank count and topology; at most 2^20 segments',
  params: [
    { key: 'segment', kind: 'int', default: 32768, min: 0, max: 2 ** 40, description: 'segment bytes (Open MPI: 32 KiB); 0: the whole buffer in one segment' },
    {
      key: 'tree',
      kind: 'choice',
      choices: ['ompi', 'in-order'],
      default: 'ompi',
      description: "ompi: Open MPI's binary tree from the root; in-order: its in-order binary tree topped by rank n − 1, which sends the result to the root (SMPI ompi_in_order_binary)",
    },
  ],
  supports: (ctx) => segmentLimit(ctx.size, ctx.params.segment as number),
  build(ctx, newBuilder) {
    const bounds = ompiSegmentBounds(ctx, ctx.params.segment as number);
    if (ctx.params.tree !== 'in-order') return pipelinedReduce(ctx, newBuilder, ompiKaryTree(2, ctx.ranks, ctx.root), bounds);
    const top = ctx.ranks - 1;
    if (top === ctx.root) return pipelinedReduce(ctx, newBuilder, ompiInOrderBinaryTree(ctx.ranks), bounds);
    // The top accumulates in a temporary, then sends the whole result to the root (a blocking send and receive).
    return pipelinedReduce(ctx, newBuilder, ompiInOrderBinaryTree(ctx.ranks), bounds, (b, acc) => {
      const whole = b.region(acc, 0, ctx.size);
      b.send(top, ctx.root, whole, 11);
      b.recv(ctx.root, top, b.region(RECV, 0, ctx.size), 11);
    });
  },
});
