/**
 * allgather `linear`: every rank sends its block to every other rank and receives theirs, all at
 * once: per step an isend of its block and an irecv, then one waitall. order=shift: step k sends to
 * r + k and receives from r − k (every step a permutation); order=rank: the other ranks in rank
 * order, sending to and receiving from the same rank, as SimGrid SMPI's default allgather (its
 * iallgather, smpi_nbc_impl.cpp) posts them; order=next: sends to and receives from r + k.
 * Where a NIC serves its messages in posting order (`--injection-order fifo`), rank order makes every
 * rank send to rank 0 first, then to rank 1, ... recvs=first: every irecv posted before the first
 * isend: SMPI's `spreading_simple` (order=next, allgather-spreading-simple.cpp) and, after init_smp
 * (smp=true), `smp_simple` on one rank per host (order=shift, allgather-smp-simple.cpp: its intra-node
 * steps and flat-tree broadcast send nothing there).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod, UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'linear',
  collective: 'allgather',
  description: 'every rank isends its block to every other rank and irecvs theirs at once (order=rank: SMPI default, iallgather)',
  source: 'classic; order=rank: SimGrid SMPI default allgather (iallgather); recvs=first: SMPI spreading_simple, smp_simple',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [
    {
      key: 'order',
      kind: 'choice',
      choices: ['shift', 'rank', 'next'],
      default: 'shift',
      description: 'shift: step k sends to r+k, receives from r-k; rank: the other ranks in rank order (SMPI iallgather); next: sends to and receives from r+k (SMPI spreading_simple)',
    },
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['interleaved', 'first'],
      default: 'interleaved',
      description: 'interleaved: per step an isend and an irecv; first: every irecv posted, then every isend (SMPI spreading_simple, smp_simple)',
    },
    smpParam('smp_simple allgather'),
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const mine = b.region(SEND, 0, ctx.size);
    const order = ctx.params.order;
    const recvsFirst = ctx.params.recvs === 'first';
    for (let r = 0; r < n; r++) {
      // Rank order skips r itself: the k-th other rank is k − 1 below r, k from r on.
      const to = (k: number) => (order === 'rank' ? (k - 1 < r ? k - 1 : k) : mod(r + k, n));
      const from = (k: number) => (order === 'shift' ? mod(r - k, n) : to(k));
      b.copy(r, mine, b.block(RECV, r));
      if (recvsFirst) {
        for (let k = 1; k < n; k++) b.irecv(r, from(k), b.block(RECV, from(k)));
        for (let k = 1; k < n; k++) b.isend(r, to(k), mine);
      } else {
        for (let k = 1; k < n; k++) {
          b.isend(r, to(k), mine);
          b.irecv(r, from(k), b.block(RECV, from(k)));
        }
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
