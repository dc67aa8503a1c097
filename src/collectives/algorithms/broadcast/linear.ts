/**
 * broadcast `linear`: the root sends the buffer to every other rank directly. segment=0 is SimGrid
 * SMPI's `flattree` (bcast-flattree.cpp): the root isends the whole buffer to ranks 0, 1, ... (itself
 * skipped) at once and waits for them all; every other rank receives it. segment=B is SMPI's
 * `flattree_pipeline` (bcast-flattree-pipeline.cpp, B = 8,192 with MPI_BYTE): rank by rank, the root
 * sends every B-byte segment (blocking), each other rank posts all its segment receives at once and
 * waits for them; a buffer smaller than one segment goes as flattree. SMPI sends no bytes after the last
 * whole segment (they never arrive); Meshwork sends them as one more, shorter segment, so the data arrive.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { segmentLimit } from '../common.js';

registerAlgorithm({
  name: 'linear',
  collective: 'broadcast',
  description: 'the root sends the buffer to every rank directly, all at once (SMPI flattree) or in segments rank by rank (segment=B: flattree_pipeline)',
  supportsText: 'any rank count and topology; at most 2^20 segments',
  source: 'SimGrid SMPI flattree, flattree_pipeline',
  params: [{ key: 'segment', kind: 'int', default: 0, min: 0, max: 2 ** 40, description: '0: one isend per rank, all at once (SMPI flattree); B: B-byte segments sent rank by rank (SMPI flattree_pipeline: 8,192)' }],
  supports: (ctx) => segmentLimit(ctx.size, ctx.params.segment as number),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    const B = ctx.params.segment as number;
    const pipes = B > 0 ? Math.floor(ctx.size / B) : 0;
    if (pipes === 0) {
      const all = b.region(RECV, 0, ctx.size);
      for (let r = 0; r < n; r++) {
        if (r === ctx.root) continue;
        b.isend(ctx.root, r, all);
        b.recv(r, ctx.root, all);
      }
      if (n > 1) b.waitall(ctx.root);
      return b.finish();
    }
    const bounds = Array.from({ length: pipes + 1 }, (_, k) => k * B);
    if (bounds[pipes] < ctx.size) bounds.push(ctx.size);
    const segs = Array.from({ length: bounds.length - 1 }, (_, k) => b.region(RECV, bounds[k], bounds[k + 1] - bounds[k]));
    for (let r = 0; r < n; r++) {
      if (r === ctx.root) continue;
      for (const seg of segs) b.send(ctx.root, r, seg);
      for (const seg of segs) b.irecv(r, ctx.root, seg);
      b.waitall(r);
    }
    return b.finish();
  },
});
