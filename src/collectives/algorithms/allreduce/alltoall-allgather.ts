/**
 * allreduce `alltoall-allgather`: SimGrid SMPI's `rab2` (allreduce-rab2.cpp), a reduce-scatter by alltoall
 * then an allgather. Each rank sends block j of its buffer (size / n) to rank j with SMPI's alltoall, reduces
 * the n blocks it received into its own block of the result, then every rank gets every block with SMPI's
 * default allgather (its iallgather: an isend to and an irecv from every other rank in rank order, a waitall).
 * The alltoall is SMPI's default one, Open MPI's decision rules by block size and rank count (the `ompi`
 * selector): alltoall=basic_linear (irecvs from r + 1, r + 2, ..., isends to r − 1, r − 2, ..., a waitall)
 * or pair (sendrecvs with r XOR k, powers of two); bruck is not modelled.
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { unitOf } from '../common.js';

registerAlgorithm({
  name: 'alltoall-allgather',
  collective: 'allreduce',
  description: 'alltoall of size/n blocks, each rank reduces the n it received, then an allgather of the reduced blocks (SMPI rab2)',
  source: 'SimGrid SMPI rab2 (allreduce-rab2.cpp)',
  supportsText: 'any rank count and topology; a size of a whole number of elements per rank; alltoall=pair: a power of two',
  params: [
    {
      key: 'alltoall',
      kind: 'choice',
      choices: ['basic_linear', 'pair', 'bruck'],
      default: 'basic_linear',
      description: "the SMPI alltoall of the first half: basic_linear or pair (XOR partners); bruck (SMPI's default alltoall for small blocks from 32 ranks) is not modelled",
    },
  ],
  supports(ctx) {
    const n = ctx.ranks;
    if (ctx.params.alltoall === 'bruck') return `an alltoall Meshwork models under rab2 (basic_linear or pair): SMPI's default alltoall runs bruck for ${ctx.size / n} B blocks on ${n} ranks`;
    if (ctx.params.alltoall === 'pair' && !isPowerOfTwo(n)) return `a power-of-two rank count with alltoall=pair (SMPI pair refuses others), got ${n}`;
    // SMPI's rab2 pads an uneven count to whole blocks (not modelled).
    if ((ctx.size / unitOf(ctx)) % n !== 0) return `a size of a multiple of ${n} ${ctx.dtype} elements (SMPI rab2 pads others), got ${ctx.size} B`;
    return undefined;
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size / n;
    const b = newBuilder();
    const got = b.tmpBuffer('got', ctx.size);
    const block = (buf: number, i: number) => b.region(buf, i * B, B);
    for (let r = 0; r < n; r++) {
      b.copy(r, block(SEND, r), block(got, r));
      if (ctx.params.alltoall === 'pair') {
        for (let k = 1; k < n; k++) b.sendrecv(r, r ^ k, block(SEND, r ^ k), r ^ k, block(got, r ^ k), 30);
      } else {
        for (let i = 1; i < n; i++) b.irecv(r, (r + i) % n, block(got, (r + i) % n), 30);
        for (let i = 1; i < n; i++) b.isend(r, (r - i + n) % n, block(SEND, (r - i + n) % n), 30);
        if (n > 1) b.waitall(r);
      }
      // rbuff[r] = recv[0], then recv[1..n − 1] reduced into it.
      b.copy(r, block(got, 0), block(RECV, r));
      for (let i = 1; i < n; i++) b.reduce(r, block(got, i), block(RECV, r));
      for (let other = 0; other < n; other++) {
        if (other === r) continue;
        b.isend(r, other, block(RECV, r), 31);
        b.irecv(r, other, block(RECV, other), 31);
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
