/**
 * reduce-scatter `butterfly` (Open MPI's, SimGrid SMPI's `ompi_butterfly`, reduce_scatter-ompi.cpp):
 * recursive halving with rank XOR 1 first, each rank keeping the lower half of its current blocks
 * when its bit is clear and the upper half when set, so that after log2 n steps rank r holds the
 * reduced block of the bit reversal of r; one last sendrecv with that rank (the mirror permutation)
 * puts every block home. Each step reduces into the buffer of the lower rank of the pair's side, as
 * the source swaps its two buffers. Power-of-two rank counts only (Open MPI folds the others first;
 * not modelled).
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';

/** x's lowest `bits` bits reversed (Open MPI's ompi_mirror_perm). */
function mirror(x: number, bits: number): number {
  let y = 0;
  for (let i = 0; i < bits; i++) y |= ((x >> i) & 1) << (bits - 1 - i);
  return y;
}

registerAlgorithm({
  name: 'butterfly',
  collective: 'reduce-scatter',
  description: 'recursive halving from distance 1, then a mirror-permutation exchange (Open MPI butterfly, SMPI ompi_butterfly)',
  source: 'Open MPI tuned reduce_scatter butterfly; SimGrid SMPI ompi_butterfly',
  supportsText: 'a power-of-two rank count',
  params: [],
  supports: (ctx) => (isPowerOfTwo(ctx.ranks) ? undefined : `${ctx.ranks} ranks is not a power of two`),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const bits = Math.log2(n);
    const b = newBuilder();
    const bufs = [b.tmpBuffer('t0', ctx.size), b.tmpBuffer('t1', ctx.size)];
    const mine = b.region(RECV, 0, B);
    for (let r = 0; r < n; r++) {
      let [ps, pr] = bufs;
      b.copy(r, b.region(SEND, 0, ctx.size), b.region(ps, 0, ctx.size));
      let blocks = n;
      let sendIndex = 0;
      let recvIndex = 0;
      for (let mask = 1; mask < n; mask <<= 1) {
        const peer = r ^ mask;
        blocks /= 2;
        if ((r & mask) === 0) sendIndex += blocks;
        else recvIndex += blocks;
        b.sendrecv(r, peer, b.region(ps, sendIndex * B, blocks * B), peer, b.region(pr, recvIndex * B, blocks * B));
        const kept = (buf: number) => b.region(buf, recvIndex * B, blocks * B);
        if (r < peer) {
          b.reduce(r, kept(ps), kept(pr));
          [ps, pr] = [pr, ps];
        } else b.reduce(r, kept(pr), kept(ps));
        sendIndex = recvIndex;
      }
      const peer = mirror(r, bits);
      if (peer !== r) b.sendrecv(r, peer, b.region(ps, sendIndex * B, B), peer, mine);
      else b.copy(r, b.region(ps, r * B, B), mine);
    }
    return b.finish();
  },
});
