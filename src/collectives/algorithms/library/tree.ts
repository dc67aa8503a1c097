/**
 * allreduce `nccl-tree`: NCCL's double binary tree. Two binary trees over the ranks, each carrying
 * half of the buffer on its own stream: a reduce up the tree (each rank adds its children's
 * chunks, then passes the sum to its parent), then a broadcast down, both pipelined chunk by chunk.
 * Tree 0 is NCCL's `ncclGetBtree` numbering (src/graph/trees.cc: a rank's lowest set bit gives its
 * level); tree 1 mirrors it (r → n−1−r) for an even rank count and shifts it by one for an odd
 * one (`ncclGetDtree`), so most ranks that are leaves in one tree are inner nodes in the other.
 * Here the trees span ranks; NCCL spans nodes with a chain inside each node.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { unitOf } from '../common.js';
import { MACHINE_PARAM, PROTO_PARAM, cut, segmentTmpBytes } from './layout.js';

export interface TreeLinks {
  readonly up: number;
  readonly down: readonly number[];
}

/** NCCL's binary tree over n ranks (ncclGetBtree): parent and children of `rank`. */
export function btree(rank: number, n: number): TreeLinks {
  let bit = 1;
  while (bit < n && (bit & rank) === 0) bit <<= 1;
  if (rank === 0) return { up: -1, down: n > 1 ? [bit >> 1] : [] };
  let up = (rank ^ bit) | (bit << 1);
  if (up >= n) up = rank ^ bit;
  let low = bit >> 1;
  const down: number[] = [];
  if (low > 0) down.push(rank - low);
  while (low > 0 && rank + low >= n) low >>= 1;
  if (low > 0) down.push(rank + low);
  return { up, down };
}

/** Tree t (0 or 1) of the double binary tree, in real ranks. */
export function dtree(rank: number, n: number, t: number): TreeLinks {
  if (t === 0) return btree(rank, n);
  const to = n % 2 === 0 ? (r: number): number => n - 1 - r : (r: number): number => (r - 1 + n) % n;
  const from = n % 2 === 0 ? (r: number): number => n - 1 - r : (r: number): number => (r + 1) % n;
  const links = btree(to(rank), n);
  return { up: links.up < 0 ? -1 : from(links.up), down: links.down.map(from) };
}

function treeAllreduce(b: ScheduleBuilder, n: number, tree: number, lo: number, hi: number, chunks: number, unit: number): void {
  const pieces = cut(lo, hi, chunks, unit);
  const tmps = [0, 1].map((i) => b.tmpBuffer(`t${tree}c${i}`, segmentTmpBytes(hi - lo, chunks, unit)));
  const stream = tree;
  for (let r = 0; r < n; r++) {
    const { up, down } = dtree(r, n, tree);
    b.copy(r, b.region(SEND, lo, hi - lo), b.region(RECV, lo, hi - lo), stream);
    for (let j = 0; j < chunks; j++) {
      const len = pieces[j + 1] - pieces[j];
      const mine = b.region(RECV, pieces[j], len);
      down.forEach((child, i) => {
        b.recv(r, child, b.region(tmps[i], 0, len), 2 * tree, stream);
        b.reduce(r, b.region(tmps[i], 0, len), mine, stream);
      });
      if (up >= 0) b.send(r, up, mine, 2 * tree, stream);
    }
    for (let j = 0; j < chunks; j++) {
      const mine = b.region(RECV, pieces[j], pieces[j + 1] - pieces[j]);
      if (up >= 0) b.recv(r, up, mine, 2 * tree + 1, stream);
      for (const child of down) b.send(r, child, mine, 2 * tree + 1, stream);
    }
  }
}

registerAlgorithm({
  name: 'nccl-tree',
  collective: 'allreduce',
  description: "NCCL's double binary tree: half the buffer up and down each of two complementary binary trees, pipelined in chunks",
  supportsText: 'any rank count and topology',
  source: 'NCCL Tree (issue 25)',
  params: [
    { key: 'chunks', kind: 'int', default: 1, min: 1, max: 4096, description: 'pipelined chunks per tree' },
    PROTO_PARAM,
    MACHINE_PARAM,
  ],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const unit = unitOf(ctx);
    const halves = cut(0, ctx.size, n > 1 ? 2 : 1, unit);
    for (let t = 0; t + 1 < halves.length; t++) {
      const chunks = Math.max(1, Math.min(ctx.params.chunks as number, Math.floor((halves[t + 1] - halves[t]) / unit)));
      treeAllreduce(b, n, t, halves[t], halves[t + 1], chunks, unit);
    }
    return b.finish();
  },
});
