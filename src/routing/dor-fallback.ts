/**
 * Minimal dimension-order routing used only while the packet engine's dimension-order.ts is a
 * placeholder (defaultRouting switches to the real one as soon as it stops throwing). Same options.
 */
import { hash32 } from '../util/rng.js';
import type { Topology } from '../topology/graph.js';
import { axisName } from '../topology/cartesian.js';
import type { DimensionOrderOptions } from './dimension-order.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export function fallbackDimensionOrder(t: Topology, opts: DimensionOrderOptions = {}): RoutingFunction {
  const dims = (t.params.dims as number[]) ?? [];
  const wrap = t.family === 'torus';
  const n = dims.length;
  const order = opts.order ?? dims.map((_, i) => i);
  const tie = opts.tie ?? 'positive';
  const seed = opts.seed ?? 1;
  // next[(v * n + d) * 2 + dir]: the out-channel of v along dimension d, dir 0 = +, 1 = −.
  const next = new Int32Array(t.numNodes * n * 2).fill(-1);
  for (let d = 0; d < n; d++) {
    const plus = t.classNames.indexOf(`${axisName(d)}+`);
    const minus = t.classNames.indexOf(`${axisName(d)}-`);
    for (let c = 0; c < t.numChannels; c++) {
      const cls = t.chClass[c];
      if (cls === plus) next[(t.chSrc[c] * n + d) * 2] = c;
      else if (cls === minus) next[(t.chSrc[c] * n + d) * 2 + 1] = c;
    }
  }
  return {
    name: `dimension-order(tie=${tie},order=${order.join(',')})`,
    params: { tie, order: [...order], seed, implementation: 'flow-engine fallback' },
    vcClasses: wrap ? 2 : 1,
    maxHops: dims.reduce((a, k) => a + (wrap ? Math.floor(k / 2) : k - 1), 0),
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      let v = src;
      let hops = 0;
      for (const d of order) {
        const k = dims[d];
        const a = t.coords![v * n + d];
        const b = t.coords![dst * n + d];
        if (a === b) continue;
        let forward = (b - a + k) % k;
        let dir = 0;
        if (!wrap) dir = b > a ? 0 : 1;
        else if (2 * forward > k) dir = 1;
        else if (2 * forward === k) {
          if (tie === 'split') dir = salt & 1; // alternate by salt: the flow engine sends half with each
          else if (tie === 'parity') dir = a & 1;
          else if (tie === 'random') dir = hash32(src ^ seed, dst, salt) & 1;
        }
        const steps = !wrap ? Math.abs(b - a) : dir === 0 ? forward : k - forward;
        if (dir === 1) forward = k - forward;
        for (let s = 0; s < steps; s++) {
          const c = next[(v * n + d) * 2 + dir];
          out.channels[hops] = c;
          out.vcClass[hops++] = 0;
          v = t.chDst[c];
        }
      }
      return hops;
    },
  };
}
