/**
 * PolarFly `polarfly:q=Q[,p=P]` (Lakhotia et al., SC'22): the Erdős–Rényi polarity graph ER_q. Its
 * routers are the q² + q + 1 points of the projective plane PG(2, q) (non-zero vectors of GF(q)³ up
 * to scale, written with the first non-zero coordinate 1); two points are linked when their dot
 * product is 0. Diameter 2; every pair of points has exactly one common orthogonal point.
 *
 * Quadrics: the q + 1 points orthogonal to themselves (x·x = 0) would carry a self-loop. A self-loop
 * moves no data, so it is dropped: quadrics have degree q, the other routers q + 1 (the paper's
 * radix counts the loop's port as unused). Router order: the points in lexicographic order of their
 * normalised vectors, (0,0,1), (0,1,0), (0,1,1), …, (1,q−1,q−1). Classes: `link`.
 * Default P = ⌈(q+1)/2⌉ terminals per router (half the radix, the paper's balanced configuration).
 * ER_q is not vertex-transitive (quadrics differ from the rest), so distances take one BFS per router.
 */
import type { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes } from './builder.js';
import { finiteField, MAX_FIELD_ORDER } from './finite-field.js';
import type { Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { LinkList, routerNetwork } from './router-network.js';

export interface PolarFlyOptions {
  q: number;
  p?: number;
  link?: LinkAttributes;
  spec?: string;
}

export function polarFly(opts: PolarFlyOptions): Topology {
  const { q } = opts;
  const field = finiteField(q, 'polarfly.q');
  const p = opts.p ?? Math.ceil((q + 1) / 2);
  const n = q * q + q + 1;
  checkSize('polarfly', n * (p + 1), 2 * n * p + n * (q + 1));
  // Normalised points: (0,0,1), then (0,1,z), then (1,y,z).
  const points = new Int32Array(3 * n);
  let k = 0;
  const push = (a: number, b: number, c: number): void => {
    points[3 * k] = a;
    points[3 * k + 1] = b;
    points[3 * k + 2] = c;
    k++;
  };
  push(0, 0, 1);
  for (let z = 0; z < q; z++) push(0, 1, z);
  for (let y = 0; y < q; y++) for (let z = 0; z < q; z++) push(1, y, z);
  const { add, mul, neg, inv } = field;
  const indexOf = (a: number, b: number, c: number): number => {
    if (a !== 0) {
      const s = inv(a);
      return 1 + q + mul(b, s) * q + mul(c, s);
    }
    return b !== 0 ? 1 + mul(c, inv(b)) : 0;
  };
  // The neighbours of u are the points of its polar line u·v = 0, spanned by two vectors v1, v2
  // orthogonal to u: q + 1 points α·v1 + β·v2, so the graph is built in O(n·q), not O(n²).
  const links = new LinkList(['link']);
  let quadrics = 0;
  const v1 = [0, 0, 0];
  const v2 = [0, 0, 0];
  for (let u = 0; u < n; u++) {
    const [a, b, c] = [points[3 * u], points[3 * u + 1], points[3 * u + 2]];
    if (add(add(mul(a, a), mul(b, b)), mul(c, c)) === 0) quadrics++;
    // u has a first non-zero coordinate; pick the basis of u^⊥ around it.
    if (a !== 0) [v1[0], v1[1], v1[2], v2[0], v2[1], v2[2]] = [neg(mul(b, inv(a))), 1, 0, neg(mul(c, inv(a))), 0, 1];
    else if (b !== 0) [v1[0], v1[1], v1[2], v2[0], v2[1], v2[2]] = [1, 0, 0, 0, neg(mul(c, inv(b))), 1];
    else [v1[0], v1[1], v1[2], v2[0], v2[1], v2[2]] = [1, 0, 0, 0, 1, 0];
    for (let t = -1; t < q; t++) {
      // (α, β) = (0, 1) for t = −1, else (1, t).
      const [alpha, beta] = t < 0 ? [0, 1] : [1, t];
      const v = indexOf(add(mul(alpha, v1[0]), mul(beta, v2[0])), add(mul(alpha, v1[1]), mul(beta, v2[1])), add(mul(alpha, v1[2]), mul(beta, v2[2])));
      if (v > u) links.add(u, v);
    }
  }
  return routerNetwork({
    family: 'polarfly',
    spec: opts.spec ?? `polarfly:q=${q},p=${p}`,
    routers: n,
    p,
    links: links.done(),
    link: opts.link,
    params: { q, routerDiameter: 2, degree: q + 1, quadrics, quadricDegree: q, selfLoops: 'dropped (quadrics have degree q)', construction: 'Erdos-Renyi polarity graph ER_q (Lakhotia et al. 2022)' },
  });
}

export const polarFlyFamily: TopologyFamily = {
  name: 'polarfly',
  aliases: ['polar-fly'],
  usage: 'polarfly:q=Q[,p=ceil((q+1)/2),bw=25Gbps,lat=100ns]',
  description: 'PolarFly (Erdos-Renyi polarity graph over GF(q)): q²+q+1 routers of degree q+1 (quadrics q), diameter 2',
  build(spec: Spec, link: LinkAttributes): Topology {
    const q = spec.int('q', { min: 2, max: MAX_FIELD_ORDER });
    const p = spec.has('p') ? spec.int('p', { min: 1, max: 1 << 12 }) : undefined;
    return polarFly({ q, p, link, spec: spec.text });
  },
  defaultRouting: 'hop-vc',
};
