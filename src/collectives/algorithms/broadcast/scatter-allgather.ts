/**
 * broadcast `scatter-allgather` (van de Geijn): binomial scatter of n segments from the root, then a
 * ring allgather of the segments. Segment v (relative rank v) is bytes [bound[v], bound[v+1]).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { ceilPow2, lowBit, mod, segmentBounds } from '../common.js';

registerAlgorithm({
  name: 'scatter-allgather',
  collective: 'broadcast',
  description: 'binomial scatter of n segments, then ring allgather (large messages)',
  supportsText: 'any rank count and topology',
  source: 'classic (van de Geijn)',
  params: [],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    const bound = segmentBounds(ctx.size, n);
    const real = (v: number): number => mod(v + ctx.root, n);
    /** Segments of relative ranks [from, to) as one region. */
    const segs = (from: number, to: number): number => b.region(RECV, bound[from], bound[to] - bound[from]);
    for (let v = 0; v < n; v++) {
      const r = real(v);
      const top = v === 0 ? ceilPow2(n) : lowBit(v);
      if (v !== 0) b.recv(r, real(v - top), segs(v, Math.min(v + top, n)));
      for (let mask = top >> 1; mask >= 1; mask >>= 1) {
        const c = v + mask;
        if (c < n) b.send(r, real(c), segs(c, Math.min(c + mask, n)));
      }
    }
    for (let k = 0; k < n - 1; k++) {
      for (let v = 0; v < n; v++) {
        const s = mod(v - k, n);
        const t = mod(v - k - 1, n);
        b.sendrecv(real(v), real(v + 1), segs(s, s + 1), real(v - 1), segs(t, t + 1), 1);
      }
    }
    return b.finish();
  },
});
