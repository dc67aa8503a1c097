/**
 * reduce-scatter `recursive-doubling` (MPICH's recursive doubling, SimGrid SMPI's `mpich_rdb`,
 * reduce_scatter-mpich.cpp): log2 steps from distance 1; in step i rank r exchanges with r XOR 2^i
 * everything but the blocks of its own subtree (the 2^i ranks sharing r's high bits), so the partner
 * receives all but its subtree's, and reduces what it received. Where the partner would be past the
 * last rank (not a power of two), the ranks of the subtree that had a partner pass what they received
 * down a recursive-halving tree to those that had none. At the end each rank keeps its own block.
 * Every step moves nearly the whole vector: (log2 n − (n − 1)/n) vectors per rank in all.
 * smp=true: init_smp's messages first (SimGrid SMPI's impi reduce-scatter selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'reduce-scatter',
  description: 'recursive doubling from distance 1, each step exchanging all blocks but the own subtree\'s (MPICH rdb, SMPI mpich_rdb)',
  source: 'MPICH reduce_scatter recursive doubling; SimGrid SMPI mpich_rdb',
  ...UNRESTRICTED,
  params: [smpParam('impi reduce_scatter selector (mpich_rdb)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const results = b.tmpBuffer('results', ctx.size);
    const incoming = b.tmpBuffer('incoming', ctx.size);
    // Every block of `buf` but those of the subtree [tree, tree + mask) (clipped to the ranks).
    const allBut = (buf: number, tree: number, mask: number) => {
      const from = Math.min(tree, n) * B;
      const to = Math.min(tree + mask, n) * B;
      const list: Array<[number, number, number]> = [];
      if (from > 0) list.push([buf, 0, from]);
      if (to < ctx.size) list.push([buf, to, ctx.size - to]);
      return list.length ? b.extents(list) : -1;
    };
    for (let r = 0; r < n; r++) {
      b.copy(r, b.region(SEND, 0, ctx.size), b.region(results, 0, ctx.size));
      for (let mask = 1, i = 0; mask < n; mask <<= 1, i++) {
        let dst = r ^ mask;
        const dstTree = (dst >> i) << i;
        const myTree = (r >> i) << i;
        const sendRegion = allBut(results, myTree, mask);
        const recvRegion = allBut(incoming, dstTree, mask);
        let received = false;
        if (dst < n) {
          b.sendrecv(r, dst, sendRegion, dst, recvRegion);
          received = true;
        }
        if (dstTree + mask > n) {
          const completed = n - myTree - mask;
          let k = Math.log2(mask);
          for (let tmpMask = mask >> 1; tmpMask > 0; tmpMask >>= 1, k--) {
            dst = r ^ tmpMask;
            const treeRoot = (r >> k) << k;
            if (dst > r && r < treeRoot + completed && dst >= treeRoot + completed) b.send(r, dst, recvRegion);
            else if (dst < r && dst < treeRoot + completed && r >= treeRoot + completed) {
              b.recv(r, dst, recvRegion);
              received = true;
            }
          }
        }
        if (received) b.reduce(r, recvRegion, allBut(results, dstTree, mask));
      }
      b.copy(r, b.region(results, r * B, B), b.region(RECV, 0, B));
    }
    return b.finish();
  },
});
