/**
 * The binomial tree shared by the classic rooted algorithms (broadcast, scatter, gather, reduce;
 * MPICH). Over relative ranks v = (rank - root) mod n, v's parent is v - lowbit(v) and its children
 * are v + mask for every mask below lowbit(v) (below ceilPow2(n) at the root) with v + mask < n.
 * v's subtree is the relative ranks [v, v + span), so a child's blocks sit `offset` blocks into its
 * parent's.
 */
import { ceilPow2, lowBit, rootRelative } from './common.js';

export interface BinomialChild {
  /** Global rank. */
  readonly rank: number;
  /** Where the child's subtree starts, in ranks after its parent (its mask). */
  readonly offset: number;
  /** Ranks in the child's subtree. */
  readonly span: number;
}

export interface BinomialNode {
  /** Relative rank (0 at the root). */
  readonly v: number;
  /** Global rank. */
  readonly rank: number;
  /** Parent's global rank, or -1 at the root. */
  readonly parent: number;
  /** Ranks in this node's subtree, itself included. */
  readonly span: number;
  /** Children, smallest subtree first (the order a reduction hears from them; fan-out goes largest first). */
  readonly children: readonly BinomialChild[];
}

/** The tree's nodes in relative-rank order (the root first). */
export function binomialTree(n: number, root: number): BinomialNode[] {
  const real = rootRelative(root, n);
  const nodes: BinomialNode[] = [];
  for (let v = 0; v < n; v++) {
    const top = v === 0 ? ceilPow2(n) : lowBit(v);
    const children: BinomialChild[] = [];
    for (let mask = 1; mask < top && v + mask < n; mask <<= 1) children.push({ rank: real(v + mask), offset: mask, span: Math.min(mask, n - v - mask) });
    nodes.push({ v, rank: real(v), parent: v === 0 ? -1 : real(v - top), span: Math.min(top, n - v), children });
  }
  return nodes;
}
