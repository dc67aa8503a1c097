/**
 * broadcast `split-binary-tree`: Open MPI's split binary tree, SimGrid SMPI's `ompi_split_bintree`
 * (bcast-ompi-split-bintree.cpp). The buffer is cut in two halves (the first ceil(size / 2) bytes, the
 * rest); over Open MPI's binary tree from the root (relative ranks: 0 -> 1, 2; 1 -> 3, 5; 2 -> 4, 6;
 * odd relative ranks in the left subtree, even in the right), the left subtree gets the first half and
 * the right subtree the second, in segments (Open MPI: 1 KiB below 370,728 B, else 8 KiB): the root
 * sends segment k of each half to its child (blocking, left then right); an inner rank keeps two
 * receives posted and sends each segment it has to its children (blocking); a leaf receives the segments
 * one after the other. Then each rank swaps halves with its pair in the other subtree, relative rank v
 * with v + 1 (v odd) or v − 1 (v even), in one sendrecv of the halves; on an even rank count the last
 * relative rank, which has no pair, receives the second half from the root instead. (SMPI runs
 * SMP_linear instead where a half is smaller than one segment: `ompi_split_bintree` resolves to that there.)
 */
import type { AlgorithmContext } from '../../registry.js';
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { rootRelative, segmentLimit } from '../common.js';
import { ompiKaryTree } from '../reduce/binary-pipelined.js';
import { splitBintreeSegment } from './smpi-segments.js';


/** The segment bytes for this request: the parameter, or Open MPI's rule when 0. */
const segmentOf = (ctx: AlgorithmContext): number => (ctx.params.segment as number) || splitBintreeSegment(ctx.size);

registerAlgorithm({
  name: 'split-binary-tree',
  collective: 'broadcast',
  description: "Open MPI's split binary tree: each half of the buffer down one subtree in segments, then pairs swap halves (SMPI ompi_split_bintree)",
  supportsText: 'at least 2 ranks and 2 segments (a half at least one segment); at most 2^20 segments',
  source: 'Open MPI tuned bcast split_bintree; SimGrid SMPI ompi_split_bintree',
  params: [{ key: 'segment', kind: 'int', default: 0, min: 0, max: 2 ** 40, description: "segment bytes; 0: Open MPI's rule (1 KiB below 370,728 B, else 8 KiB)" }],
  supports(ctx) {
    const S = segmentOf(ctx);
    if (ctx.ranks < 2) return 'at least 2 ranks';
    if (Math.floor(ctx.size / 2) < S) return `halves of at least one ${S}-byte segment, got size ${ctx.size} (SMPI runs SMP_linear there: name ompi_split_bintree for that)`;
    return segmentLimit(ctx.size, S);
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const S = segmentOf(ctx);
    const b = newBuilder({ inPlace: true });
    const real = rootRelative(ctx.root, n);
    const half = [Math.ceil(ctx.size / 2), Math.floor(ctx.size / 2)];
    const start = [0, half[0]];
    const segments = half.map((h) => Math.ceil(h / S));
    const seg = (lr: number, k: number): number => b.region(RECV, start[lr] + k * S, Math.min(S, half[lr] - k * S));
    const whole = (lr: number): number => b.region(RECV, start[lr], half[lr]);
    /** 0: the left subtree (odd relative ranks), 1: the right (even ones, and the root). */
    const side = (v: number): number => (v + 1) % 2;
    const tree = ompiKaryTree(2, n, ctx.root);
    tree.forEach(({ rank: r, children }, v) => {
      if (v === 0) {
        for (let k = 0; k < segments[0]; k++) children.forEach((c, i) => k < segments[i] && b.send(r, c.rank, seg(i, k)));
        return;
      }
      const lr = side(v);
      const parent = tree[v].parent;
      if (children.length === 0) {
        for (let k = 0; k < segments[lr]; k++) b.recv(r, parent, seg(lr, k));
        return;
      }
      let pending = b.irecv(r, parent, seg(lr, 0));
      for (let k = 1; k <= segments[lr]; k++) {
        const following = k < segments[lr] ? b.irecv(r, parent, seg(lr, k)) : -1;
        b.wait(r, pending);
        for (const c of children) b.send(r, c.rank, seg(lr, k - 1));
        pending = following;
      }
    });
    // The swap: relative rank v with its pair in the other subtree.
    for (let v = 1; v < n; v++) {
      const lr = side(v);
      if (n % 2 === 0 && v === n - 1) {
        b.send(real(0), real(v), whole(1), 1);
        b.recv(real(v), real(0), whole(1), 1);
        continue;
      }
      const pair = lr === 0 ? v + 1 : v - 1;
      b.sendrecv(real(v), real(pair), whole(lr), real(pair), whole(1 - lr), 1);
    }
    return b.finish();
  },
});
