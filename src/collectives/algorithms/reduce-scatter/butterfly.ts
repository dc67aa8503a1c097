/**
 * reduce-scatter `butterfly` (Open MPI's, SimGrid SMPI's `ompi_butterfly`, reduce_scatter-ompi.cpp):
 * recursive halving with rank XOR 1 first, each rank keeping the lower half of its current blocks
 * when its bit is clear and the upper half when set, so that after log2 n steps rank r holds the
 * reduced block of the bit reversal of r; one last sendrecv with that rank (the mirror permutation)
 * puts every block home. Each step reduces into the buffer of the lower rank of the pair's side, as
 * the source swaps its two buffers. A rank count that is not a power of two is first folded to the
 * power of two p2 below it as Open MPI folds it: of the first 2·(n − p2) ranks the even ones send
 * their whole vector to rank + 1 and sit out; the butterfly then runs on p2 virtual ranks whose first
 * n − p2 virtual blocks are two real blocks each, and at the end a rank holding two blocks sends the
 * first to the rank that sat out.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { openMpiFold, UNRESTRICTED } from '../common.js';

/** x's lowest `bits` bits reversed (Open MPI's ompi_mirror_perm). */
function mirror(x: number, bits: number): number {
  let y = 0;
  for (let i = 0; i < bits; i++) y |= ((x >> i) & 1) << (bits - 1 - i);
  return y;
}

registerAlgorithm({
  name: 'butterfly',
  collective: 'reduce-scatter',
  description: 'recursive halving from distance 1, then a mirror-permutation exchange (Open MPI butterfly, SMPI ompi_butterfly; non-powers of two folded first)',
  source: 'Open MPI tuned reduce_scatter butterfly; SimGrid SMPI ompi_butterfly',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const { p2, rem, realBlock, realRank } = openMpiFold(n);
    const bits = Math.log2(p2);
    const b = newBuilder();
    const bufs = [b.tmpBuffer('t0', ctx.size), b.tmpBuffer('t1', ctx.size)];
    const whole = (buf: number) => b.region(buf, 0, ctx.size);
    const mine = b.region(RECV, 0, B);
    for (let r = 0; r < n; r++) {
      let [ps, pr] = bufs;
      b.copy(r, b.region(SEND, 0, ctx.size), whole(ps));
      if (r < 2 * rem && r % 2 === 0) {
        // Sits out: its vector to rank + 1, its block back from the rank that ends with it.
        b.send(r, r + 1, whole(ps));
        b.recv(r, realRank(mirror(r / 2, bits)), mine);
        continue;
      }
      if (r < 2 * rem) {
        b.recv(r, r - 1, whole(pr));
        b.reduce(r, whole(pr), whole(ps));
      }
      const vrank = r < 2 * rem ? (r - 1) / 2 : r - rem;
      // Virtual blocks [first, first + count) as a region of `buf`.
      const span = (buf: number, first: number, count: number) => b.region(buf, realBlock(first) * B, (realBlock(first + count) - realBlock(first)) * B);
      let blocks = p2;
      let sendIndex = 0;
      let recvIndex = 0;
      for (let mask = 1; mask < p2; mask <<= 1) {
        const vpeer = vrank ^ mask;
        const peer = realRank(vpeer);
        blocks /= 2;
        if ((vrank & mask) === 0) sendIndex += blocks;
        else recvIndex += blocks;
        b.sendrecv(r, peer, span(ps, sendIndex, blocks), peer, span(pr, recvIndex, blocks));
        if (vrank < vpeer) {
          b.reduce(r, span(ps, recvIndex, blocks), span(pr, recvIndex, blocks));
          [ps, pr] = [pr, ps];
        } else b.reduce(r, span(pr, recvIndex, blocks), span(ps, recvIndex, blocks));
        sendIndex = recvIndex;
      }
      const vpeer = mirror(vrank, bits);
      const peer = realRank(vpeer);
      let index = realBlock(sendIndex);
      if (vpeer < rem) b.send(r, peer - 1, b.region(ps, index++ * B, B));
      if (vpeer !== vrank) b.sendrecv(r, peer, b.region(ps, index * B, B), peer, mine);
      else b.copy(r, b.region(ps, r * B, B), mine);
    }
    return b.finish();
  },
});
