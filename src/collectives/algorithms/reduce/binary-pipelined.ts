/**
 * reduce `binary-pipelined`: Open MPI's generic segmented reduce (as binomial-pipelined) up its binary
 * tree (ompi_coll_tuned_topo_build_tree with fan-out 2, coll_tuned_topo.cpp), in 32 KiB segments
 * (SimGrid SMPI's `ompi_binary`, reduce-ompi.cpp: "Binary_32K"). Over relative ranks s = (rank − root)
 * mod n, s on level l (the levels hold 1, 2, 4, ... ranks) has children s + 2^l and s + 2·2^l, and its
 * parent is s less 2^(l−1) until it is above level l: 0 → 1, 2; 1 → 3, 5; 2 → 4, 6; 3 → 7, 11.
 */
import { registerAlgorithm } from '../../registry.js';
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

registerAlgorithm({
  name: 'binary-pipelined',
  collective: 'reduce',
  description: "Open MPI's segmented reduce up its binary tree (0 → 1, 2; 1 → 3, 5; ...), 32 KiB segments (SMPI ompi_binary)",
  source: 'Open MPI tuned reduce (binary); SimGrid SMPI ompi_binary',
  supportsText: 'any rank count and topology; at most 2^20 segments',
  params: [{ key: 'segment', kind: 'int', default: 32768, min: 1, max: 2 ** 40, description: 'segment bytes (Open MPI: 32 KiB)' }],
  supports: (ctx) => segmentLimit(ctx.size, ctx.params.segment as number),
  build(ctx, newBuilder) {
    return pipelinedReduce(ctx, newBuilder, ompiKaryTree(2, ctx.ranks, ctx.root), ompiSegmentBounds(ctx, ctx.params.segment as number));
  },
});
