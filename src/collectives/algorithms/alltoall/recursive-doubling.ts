/**
 * alltoall `recursive-doubling` (SimGrid SMPI 3.32's alltoall `rdb`, alltoall-rdb.cpp, MPICH's recursive
 * doubling as modified by Ahmad Faraj): an allgather of the whole send buffers, then each rank keeps its
 * blocks. Rank r copies its n send blocks into a work buffer of n × n blocks (at piece r), then in step
 * `mask` swaps every piece it holds with r XOR mask (blocking sendrecv), MPICH's allgather with its tree
 * fix-up where n is not a power of two (the pieces a subtree lacks pass down a binomial tree,
 * blocking send and recv); finally recv[i] = block r of piece i, n copies. Every message carries whole
 * pieces of n blocks: (n − 1) · n blocks reach every rank, n times what an alltoall needs.
 */
import { MAX_BUFFER_BYTES, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { LimitError } from '../../../util/errors.js';
import { formatSize } from '../../../util/units.js';
import { mpichRecursiveDoublingAllgather, UNRESTRICTED } from '../common.js';

/** Refuses, before building, a temporary of `blocks` blocks per rank beyond MAX_BUFFER_BYTES (offsets stay exact). */
export function checkTemporaryFits(algorithm: string, blocks: number, size: number, ranks: number): void {
  if (size * blocks <= MAX_BUFFER_BYTES) return;
  const max = Math.floor(MAX_BUFFER_BYTES / blocks);
  throw new LimitError('size', size, `${max} bytes = ${formatSize(max)} for alltoall ${algorithm} on ${ranks} ranks: its temporary of ${blocks} blocks per rank stays within 2^50 bytes`);
}

registerAlgorithm({
  name: 'recursive-doubling',
  collective: 'alltoall',
  description: 'allgather of the whole send buffers by recursive doubling (MPICH tree fix-up off powers of two), then each rank keeps its blocks (SMPI rdb)',
  source: 'MPICH / SimGrid SMPI alltoall rdb (Faraj)',
  ...UNRESTRICTED,
  // Per rank: the copy into the work buffer, a send and a receive per step (fix-up messages at most as many), n copies out.
  estimate: (ctx) => {
    const n = ctx.ranks;
    const steps = Math.ceil(Math.log2(Math.max(1, n)));
    return { ops: n * (1 + 4 * steps + n), messages: 2 * n * steps };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const B = ctx.size;
    checkTemporaryFits('recursive-doubling', n * n, B, n);
    const b = newBuilder();
    // Piece v (rank v's send buffer, n blocks) at v · n blocks.
    const work = b.tmpBuffer('work', n * n * B);
    const pieces = (first: number, count: number) => b.region(work, first * n * B, count * n * B);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, n * B), pieces(r, 1));
    mpichRecursiveDoublingAllgather(
      n,
      new Array<number>(n).fill(1),
      (r, p, ownFirst, ownPieces, partnerFirst, partnerPieces) => b.sendrecv(r, p, pieces(ownFirst, ownPieces), p, pieces(partnerFirst, partnerPieces)),
      (from, to, first, count) => {
        // MPICH's tree step is an MPI_Send of its own, whatever the sender receives next.
        b.separateSend(from, to, pieces(first, count));
        b.recv(to, from, pieces(first, count));
      },
    );
    for (let r = 0; r < n; r++) {
      for (let i = 0; i < n; i++) b.copy(r, b.region(work, (i * n + r) * B, B), b.block(RECV, i));
    }
    return b.finish();
  },
});
