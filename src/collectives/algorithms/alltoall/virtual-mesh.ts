/**
 * alltoall `virtual-mesh` (SimGrid SMPI 3.32's alltoall `2dmesh` and `3dmesh`, alltoall-2dmesh.cpp and
 * alltoall-3dmesh.cpp, by Ahmad Faraj): the ranks laid out as a virtual X × Y grid (dims=2) or
 * X × X × Z grid (dims=3) in rank order, whatever the topology. Phase by phase every rank first posts
 * all its receives (irecv), then sends with blocking sends, then waits for all:
 * - dims=2: rows of Y consecutive ranks gather each other's whole send buffer (n blocks per message);
 *   then each rank sends every member of its column, per destination, the Y blocks its row holds for
 *   it (copied into one temporary first).
 * - dims=3: the rows (X = Y ranks) gather the whole send buffers, then the columns of each plane the
 *   rows' (Y · n blocks per message), then each rank sends each rank in its z column (r + i · X · Y)
 *   the X · Y blocks its plane holds for it.
 * SMPI lays the grid out as it does: X from floor(√n) (2-D) or floor(∛n) (3-D, X = Y) upwards to n / 2
 * (n / 3), the first that divides n (whose square does, in 3-D); a rank count with none (a prime from
 * 5, or 1, for 2-D) is refused: SMPI returns MPI_ERR_OTHER there, and smpirun aborts (13 ranks on flat-16).
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import type { ScheduleBuilder } from '../../schedule.js';
import { checkTemporaryFits } from './recursive-doubling.js';
import { smpi2dMesh, smpi3dMesh } from '../common.js';

registerAlgorithm({
  name: 'virtual-mesh',
  collective: 'alltoall',
  description: 'ranks as a virtual 2-D (X × Y) or 3-D (X × X × Z) grid: the rows gather whole send buffers, then aggregated blocks go along the other axes (SMPI 2dmesh, 3dmesh)',
  source: 'SimGrid SMPI alltoall 2dmesh and 3dmesh (Faraj)',
  supportsText: 'rank counts SMPI lays out as a grid (2-D: not 1 or a prime from 5; 3-D: a divisor x ≥ ∛n with x² | n, x ≤ n / 3)',
  params: [{ key: 'dims', kind: 'int', default: 2, min: 2, max: 3, description: 'grid dimensions: 2 = SMPI 2dmesh, 3 = SMPI 3dmesh' }],
  supports(ctx) {
    const n = ctx.ranks;
    if (ctx.params.dims === 3) {
      return smpi3dMesh(n) ? undefined : `a rank count SMPI's 3dmesh lays out as X × X × Z (an x from floor(∛n) to n / 3 whose square divides n), got ${n}: SMPI's alltoall 3dmesh returns MPI_ERR_OTHER there and smpirun aborts`;
    }
    return smpi2dMesh(n) ? undefined : `a rank count SMPI's 2dmesh lays out as X × Y (a divisor from floor(√n) to n / 2), got ${n}: SMPI's alltoall 2dmesh returns MPI_ERR_OTHER there and smpirun aborts`;
  },
  build(ctx, newBuilder) {
    const b = newBuilder({ expectedOps: 4 * ctx.ranks * ctx.ranks });
    if (ctx.params.dims === 3) mesh3d(ctx, b);
    else mesh2d(ctx, b);
    return b.finish();
  },
});

/** SMPI's 2dmesh: the row allgather of whole send buffers, the row's blocks placed, then the column exchange. */
function mesh2d(ctx: AlgorithmContext, b: ScheduleBuilder): void {
  const n = ctx.ranks;
  const B = ctx.size;
  const [X, Y] = smpi2dMesh(n)!;
  checkTemporaryFits('virtual-mesh:dims=2', Y * n, B, n);
  // tmp1: row member i's whole send buffer at i · n blocks; tmp2: the Y blocks for one column destination.
  const tmp1 = b.tmpBuffer('rows', Y * n * B);
  const tmp2 = b.tmpBuffer('column', Y * B);
  for (let r = 0; r < n; r++) {
    const rowBase = Math.floor(r / Y) * Y;
    const colBase = r % Y;
    const rowMembers = Array.from({ length: Y }, (_, i) => rowBase + i).filter((v) => v !== r);
    for (const src of rowMembers) b.irecv(r, src, b.region(tmp1, (src % Y) * n * B, n * B));
    for (const dst of rowMembers) b.send(r, dst, b.region(SEND, 0, n * B));
    if (rowMembers.length > 0) b.waitall(r);
    for (let i = 0; i < Y; i++) {
      const from = rowBase + i === r ? b.block(SEND, r) : b.region(tmp1, (i * n + r) * B, B);
      b.copy(r, from, b.block(RECV, rowBase + i));
    }
    const colMembers = Array.from({ length: X }, (_, i) => i * Y + colBase).filter((v) => v !== r);
    for (const src of colMembers) b.irecv(r, src, b.block(RECV, Math.floor(src / Y) * Y, Y));
    for (const dst of colMembers) {
      for (let j = 0; j < Y; j++) {
        const from = rowBase + j === r ? b.block(SEND, dst) : b.region(tmp1, (j * n + dst) * B, B);
        b.copy(r, from, b.region(tmp2, j * B, B));
      }
      b.send(r, dst, b.region(tmp2, 0, Y * B));
    }
    if (colMembers.length > 0) b.waitall(r);
  }
}

/** SMPI's 3dmesh: the row allgather, the plane's column allgather of rows, the plane's blocks placed, then the z exchange. */
function mesh3d(ctx: AlgorithmContext, b: ScheduleBuilder): void {
  const n = ctx.ranks;
  const B = ctx.size;
  const [X, , Z] = smpi3dMesh(n)!;
  const Y = X;
  const plane = X * Y;
  checkTemporaryFits('virtual-mesh:dims=3', plane * n, B, n);
  // tmp1: plane member p's whole send buffer at (p mod X·Y) · n blocks; tmp2: the X·Y blocks for one z destination.
  const tmp1 = b.tmpBuffer('plane', plane * n * B);
  const tmp2 = b.tmpBuffer('z', plane * B);
  const pieces = (first: number, count: number) => b.region(tmp1, first * n * B, count * n * B);
  for (let r = 0; r < n; r++) {
    const z = Math.floor(r / plane);
    const rowBase = Math.floor(r / X) * X;
    const colBase = (r % Y) + z * plane;
    const zBase = z * plane;
    b.copy(r, b.region(SEND, 0, n * B), pieces(r % plane, 1));
    const rowMembers = Array.from({ length: Y }, (_, i) => rowBase + i).filter((v) => v !== r);
    for (const src of rowMembers) b.irecv(r, src, pieces(src % plane, 1));
    for (const dst of rowMembers) b.send(r, dst, b.region(SEND, 0, n * B));
    if (rowMembers.length > 0) b.waitall(r);
    const colMembers = Array.from({ length: X }, (_, i) => i * Y + colBase).filter((v) => v !== r);
    for (const src of colMembers) b.irecv(r, src, pieces((Math.floor(src / X) * X) % plane, Y));
    for (const dst of colMembers) b.send(r, dst, pieces(rowBase % plane, Y));
    if (colMembers.length > 0) b.waitall(r);
    for (let i = 0; i < plane; i++) b.copy(r, b.region(tmp1, (i * n + r) * B, B), b.block(RECV, zBase + i));
    const zMembers = Array.from({ length: Z - 1 }, (_, i) => (r + (i + 1) * plane) % n);
    for (const src of zMembers) b.irecv(r, src, b.block(RECV, Math.floor(src / plane) * plane, plane));
    for (const dst of zMembers) {
      for (let j = 0; j < plane; j++) b.copy(r, b.region(tmp1, (j * n + dst) * B, B), b.region(tmp2, j * B, B));
      b.send(r, dst, b.region(tmp2, 0, plane * B));
    }
    if (zMembers.length > 0) b.waitall(r);
  }
}
