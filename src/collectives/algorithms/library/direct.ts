/**
 * allreduce `direct`: RCCL's direct allreduce on a full mesh (seed 001's direct links), every peer
 * reached over its own link at once. mode=oneshot: every rank sends its whole buffer to every peer
 * and reduces the n−1 copies it receives (one step, n−1 times the bytes: for small messages).
 * mode=twoshot: a direct reduce-scatter (block j to rank j) then a direct allgather of the reduced
 * blocks (two steps, 2(n−1)/n of the buffer per rank, as a ring, but over every link at once).
 * Each step posts its receives first (irecv), then its sends (isend), then waits for them all
 * (waitall), as RCCL's kernels have every peer's transfer in flight at once: with blocking sends before
 * the receives every rank would wait forever under a rendezvous protocol.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { unitOf } from '../common.js';
import { cut, MACHINE_PARAM, PROTO_PARAM } from './layout.js';
import { largestSegment } from '../reduction.js';

registerAlgorithm({
  name: 'direct',
  collective: 'allreduce',
  description: 'RCCL direct allreduce over every link at once: one-shot (all to all, reduce locally) or two-shot (direct reduce-scatter + allgather)',
  supportsText: 'any rank count; meant for a full mesh (every peer one link away)',
  source: 'RCCL direct allreduce (issue 25)',
  params: [
    { key: 'mode', kind: 'choice', choices: ['oneshot', 'twoshot'], default: 'twoshot', description: 'oneshot: whole buffers to every peer; twoshot: reduce-scatter then allgather, block j on rank j' },
    PROTO_PARAM, MACHINE_PARAM,
  ],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const S = ctx.size;
    const b = newBuilder();
    const unit = unitOf(ctx);
    if (ctx.params.mode === 'oneshot') {
      const inbox = b.tmpBuffer('inbox', Math.max(unit, (n - 1) * S));
      for (let r = 0; r < n; r++) {
        for (let d = 1; d < n; d++) b.irecv(r, (r - d + n) % n, b.region(inbox, (d - 1) * S, S), 1);
        for (let d = 1; d < n; d++) b.isend(r, (r + d) % n, b.region(SEND, 0, S), 1);
        b.copy(r, b.region(SEND, 0, S), b.region(RECV, 0, S));
        if (n > 1) b.waitall(r);
        for (let d = 1; d < n; d++) b.reduce(r, b.region(inbox, (d - 1) * S, S), b.region(RECV, 0, S));
      }
      return b.finish();
    }
    const bounds = cut(0, S, n, unit);
    const block = (j: number): number => b.region(SEND, bounds[j], bounds[j + 1] - bounds[j]);
    const result = (j: number): number => b.region(RECV, bounds[j], bounds[j + 1] - bounds[j]);
    const largest = Math.max(unit, largestSegment(bounds));
    const inbox = b.tmpBuffer('inbox', (n - 1) * largest);
    for (let r = 0; r < n; r++) {
      const len = bounds[r + 1] - bounds[r];
      for (let d = 1; d < n; d++) b.irecv(r, (r - d + n) % n, b.region(inbox, (d - 1) * largest, len), 1);
      for (let d = 1; d < n; d++) b.isend(r, (r + d) % n, block((r + d) % n), 1);
      b.copy(r, block(r), result(r));
      if (n > 1) b.waitall(r);
      for (let d = 1; d < n; d++) b.reduce(r, b.region(inbox, (d - 1) * largest, len), result(r));
      for (let d = 1; d < n; d++) b.irecv(r, (r - d + n) % n, result((r - d + n) % n), 2);
      for (let d = 1; d < n; d++) b.isend(r, (r + d) % n, result(r), 2);
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
