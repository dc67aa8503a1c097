/**
 * reduce-scatter `recursive-halving` (Open MPI's basic recursive halving, SimGrid SMPI's
 * `ompi_basic_recursivehalving`, reduce_scatter-ompi.cpp): log2 p2 steps, the farthest partner first
 * (rank XOR p2/2); each keeps the half of its current blocks on its side of the partner and reduces the
 * partner's copy of that half into it (receive posted, then the blocking send, then the wait). A rank
 * count that is not a power of two is folded first to the power of two p2 below it: of the first
 * 2·(n − p2) ranks the even ones send their whole vector to rank + 1 and sit out, the first n − p2
 * virtual blocks are two real blocks each, and at the end rank + 1 sends the even rank its block.
 * smp=true: init_smp's messages first (SimGrid SMPI's impi reduce-scatter selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { openMpiFold, UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'recursive-halving',
  collective: 'reduce-scatter',
  description: 'recursive halving from distance p2/2, keeping the half on its side (Open MPI basic recursive halving, SMPI ompi_basic_recursivehalving; non-powers of two folded first)',
  source: 'Open MPI tuned reduce_scatter basic recursive halving; SimGrid SMPI ompi_basic_recursivehalving',
  ...UNRESTRICTED,
  params: [smpParam('impi reduce_scatter selector (recursive halving)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const { p2, rem, realBlock, realRank } = openMpiFold(n);
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const result = b.tmpBuffer('result', ctx.size);
    const incoming = b.tmpBuffer('incoming', ctx.size);
    const whole = (buf: number) => b.region(buf, 0, ctx.size);
    // Virtual blocks [first, end) as a region of `buf`.
    const span = (buf: number, first: number, end: number) => b.region(buf, realBlock(first) * B, (realBlock(end) - realBlock(first)) * B);
    const mine = b.region(RECV, 0, B);
    for (let r = 0; r < n; r++) {
      b.copy(r, b.region(SEND, 0, ctx.size), whole(result));
      if (r < 2 * rem && r % 2 === 0) {
        b.send(r, r + 1, whole(result));
        b.recv(r, r + 1, mine);
        continue;
      }
      if (r < 2 * rem) {
        b.recv(r, r - 1, whole(incoming));
        b.reduce(r, whole(incoming), whole(result));
      }
      const vrank = r < 2 * rem ? (r - 1) / 2 : r - rem;
      let sendIndex = 0;
      let recvIndex = 0;
      let lastIndex = p2;
      for (let mask = p2 >> 1; mask > 0; mask >>= 1) {
        const vpeer = vrank ^ mask;
        const peer = realRank(vpeer);
        let send: number;
        let recv: number;
        if (vrank < vpeer) {
          sendIndex = recvIndex + mask;
          send = span(result, sendIndex, lastIndex);
          recv = span(incoming, recvIndex, sendIndex);
        } else {
          recvIndex = sendIndex + mask;
          send = span(result, sendIndex, recvIndex);
          recv = span(incoming, recvIndex, lastIndex);
        }
        const kept = vrank < vpeer ? [recvIndex, sendIndex] : [recvIndex, lastIndex];
        const request = b.irecv(r, peer, recv);
        b.send(r, peer, send);
        b.wait(r, request);
        b.reduce(r, span(incoming, kept[0], kept[1]), span(result, kept[0], kept[1]));
        sendIndex = recvIndex;
        lastIndex = recvIndex + mask;
      }
      b.copy(r, b.region(result, r * B, B), mine);
      if (r < 2 * rem) b.send(r, r - 1, b.region(result, (r - 1) * B, B));
    }
    return b.finish();
  },
});
