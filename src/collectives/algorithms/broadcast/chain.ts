/** broadcast `chain`: a pipeline root -> root+1 -> ... in P segments; each rank forwards a segment as soon as it has it (classic). */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { mod, segmentBounds } from '../common.js';

registerAlgorithm({
  name: 'chain',
  collective: 'broadcast',
  description: 'pipelined chain in P segments (store-and-forward per segment): n-1+P-1 unit steps',
  supportsText: 'any rank count and topology',
  source: 'classic',
  params: [{ key: 'segments', kind: 'int', default: 4, min: 1, max: 1 << 20, description: 'P, the number of pipeline segments (at most the size in bytes)' }],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const P = Math.max(1, Math.min(Number(ctx.params.segments), ctx.size));
    const b = newBuilder({ inPlace: true });
    const bounds = segmentBounds(ctx.size, P);
    for (let v = 0; v < n; v++) {
      const r = mod(v + ctx.root, n);
      for (let k = 0; k < P; k++) {
        const seg = b.region(RECV, bounds[k], bounds[k + 1] - bounds[k]);
        if (v > 0) b.recv(r, mod(r - 1, n), seg);
        if (v < n - 1) b.send(r, mod(r + 1, n), seg);
      }
    }
    return b.finish();
  },
});
