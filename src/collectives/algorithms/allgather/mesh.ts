/**
 * allgather `mesh` (Faraj's 2D and 3D mesh allgathers, SimGrid SMPI's `2dmesh` and `3dmesh`,
 * allgather-2dmesh.cpp and allgather-3dmesh.cpp): the ranks as a virtual grid, one direct exchange per
 * dimension, each phase every irecv posted, then a blocking send to every peer in rank order, then a
 * waitall. dims=2: X rows of Y consecutive ranks (X ≤ Y, X the smallest divisor of n from floor(√n)
 * on, up to n/2, as SMPI's is_2dmesh finds it); the row swaps the send buffers, then each column swaps
 * its rows (Y blocks). dims=3: X = Y = x, Z = n/x² planes (x the smallest from floor(∛n) with x² dividing
 * n, up to n/3, as SMPI's is_3dmesh); rows of X, columns of the X·Y plane (Y blocks), then the Z planes
 * (X·Y blocks) from rank + i·X·Y, i = 1 .. Z−1. A rank count SMPI cannot factor is refused, as SMPI
 * throws there.
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { smpi2dMesh, smpi3dMesh } from '../common.js';

function meshShape(ctx: AlgorithmContext): number[] | undefined {
  return ctx.params.dims === 3 ? smpi3dMesh(ctx.ranks) : smpi2dMesh(ctx.ranks);
}

/**
 * One phase for rank r: an irecv of `blocks` blocks from each peer (the blocks start at `blockOf(peer)`),
 * then a blocking send of `region` to each peer, then a waitall.
 */
function phase(b: ScheduleBuilder, r: number, peers: readonly number[], blocks: number, blockOf: (peer: number) => number, region: number): void {
  const others = peers.filter((p) => p !== r);
  if (others.length === 0) return;
  for (const p of others) b.irecv(r, p, b.block(RECV, blockOf(p), blocks));
  for (const p of others) b.send(r, p, region);
  b.waitall(r);
}

const range = (count: number, at: (i: number) => number): number[] => Array.from({ length: count }, (_, i) => at(i));

registerAlgorithm({
  name: 'mesh',
  collective: 'allgather',
  description: 'direct exchanges along the rows, then the columns (then the planes) of a virtual 2D or 3D grid of the ranks (SMPI 2dmesh, 3dmesh)',
  source: 'Faraj; SimGrid SMPI allgather 2dmesh and 3dmesh',
  supportsText: "a rank count SMPI's is_2dmesh (dims=2) or is_3dmesh (dims=3) factors",
  params: [{ key: 'dims', kind: 'int', default: 2, min: 2, max: 3, description: "2: X × Y rows and columns (SMPI 2dmesh); 3: X × X × Z (SMPI 3dmesh), factored as SMPI factors the rank count" }],
  supports: (ctx) => {
    if (meshShape(ctx) !== undefined) return undefined;
    const how = ctx.params.dims === 3 ? 'x from floor(cbrt n) to n/3 with x² dividing n' : 'a divisor from floor(sqrt n) to n/2';
    return `a rank count SMPI's ${String(ctx.params.dims)}dmesh factors (${how}), got ${ctx.ranks}: smpirun aborts there ("allgather_${String(ctx.params.dims)}dmesh algorithm can't be used with this number of processes!")`;
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const [X, Y, Z = 1] = meshShape(ctx)!;
    const mine = b.region(SEND, 0, ctx.size);
    const three = ctx.params.dims === 3;
    // 3dmesh's rows hold X ranks (X = Y), 2dmesh's Y.
    const rowLength = three ? X : Y;
    const plane = X * Y;
    for (let r = 0; r < n; r++) {
      b.copy(r, mine, b.block(RECV, r));
      const rowBase = Math.floor(r / rowLength) * rowLength;
      const z = Math.floor(r / plane);
      const colBase = three ? (r % Y) + z * plane : r % Y;
      phase(b, r, range(Y, (i) => rowBase + i), 1, (p) => p, mine);
      phase(b, r, range(X, (i) => i * Y + colBase), Y, (p) => Math.floor(p / rowLength) * rowLength, b.block(RECV, rowBase, Y));
      if (three) phase(b, r, range(Z - 1, (i) => (r + (i + 1) * plane) % n), plane, (p) => Math.floor(p / plane) * plane, b.block(RECV, z * plane, plane));
    }
    return b.finish();
  },
});
