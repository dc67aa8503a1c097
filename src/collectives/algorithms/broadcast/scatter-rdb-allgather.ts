/**
 * broadcast `scatter-rdb-allgather` (MPICH's long-message bcast, SimGrid SMPI's `scatter_rdb_allgather`,
 * bcast-scatter-rdb-allgather.cpp): a binomial scatter of pieces of ceil(size / n) bytes (relative rank
 * v's piece starts at v · piece; the last ranks' may be short or empty), then a recursive-doubling
 * allgather of the pieces: in step `mask` rank v swaps the bytes it holds with v XOR mask (empty
 * messages included), with MPICH's fix-up where n is not a power of two (mpichRecursiveDoublingAllgather,
 * shared with allgather recursive-doubling). smp=true: init_smp's messages first (SimGrid SMPI's mvapich2
 * bcast selector: scatter_rdb_allgather over the leaders).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { lowBit, mpichRecursiveDoublingAllgather, rootRelative, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'scatter-rdb-allgather',
  collective: 'broadcast',
  description: 'binomial scatter of ceil(size/n)-byte pieces, then a recursive-doubling allgather (MPICH long-message bcast, SMPI scatter_rdb_allgather)',
  source: 'MPICH bcast scatter + recursive-doubling allgather; SimGrid SMPI scatter_rdb_allgather',
  ...UNRESTRICTED,
  params: [smpParam('mvapich2 bcast selector (scatter_rdb_allgather over the leaders)')],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const S = ctx.size;
    const b = newBuilder({ inPlace: true });
    if (ctx.params.smp === true) smpiInitSmp(b, ctx.ranks);
    const real = rootRelative(ctx.root, n);
    const piece = Math.ceil(S / n);
    /** `length` bytes from relative rank v's piece on (empty pieces sit at the buffer's end). */
    const bytes = (v: number, length: number): number => b.region(RECV, Math.min(v * piece, S), length);
    // The scatter: v receives from v − lowbit(v) the bytes of its subtree, then hands its children theirs, largest first.
    const held = new Array<number>(n).fill(0);
    held[0] = S;
    for (let v = 0; v < n; v++) {
      const top = v === 0 ? 2 ** Math.ceil(Math.log2(n)) : lowBit(v);
      for (let mask = top >> 1; mask > 0; mask >>= 1) {
        if (v + mask >= n) continue;
        const length = held[v] - piece * mask;
        if (length <= 0) continue;
        b.separateSend(real(v), real(v + mask), bytes(v + mask, length));
        b.recv(real(v + mask), real(v), bytes(v + mask, length));
        held[v + mask] = length;
        held[v] -= length;
      }
    }
    // The allgather: each starts with its own piece.
    mpichRecursiveDoublingAllgather(
      n,
      Array.from({ length: n }, (_, v) => Math.max(0, Math.min(piece, S - v * piece))),
      (v, p, ownFirst, ownLength, partnerFirst, partnerLength) =>
        b.sendrecv(real(v), real(p), bytes(ownFirst, ownLength), real(p), bytes(partnerFirst, partnerLength), 1),
      (from, to, first, length) => {
        // MPICH's tree step is an MPI_Send of its own, whatever the sender receives next.
        b.separateSend(real(from), real(to), bytes(first, length), 1);
        b.recv(real(to), real(from), bytes(first, length), 1);
      },
    );
    return b.finish();
  },
});
