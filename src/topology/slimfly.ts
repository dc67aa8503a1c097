/**
 * Slim Fly `slimfly:q=Q[,p=P]` (Besta & Hoefler, SC'14), built as the McKay–Miller–Širáň graph over
 * GF(q), q = 4w + δ a prime power with δ ∈ {−1, 0, 1}: 2q² routers (0, x, y) and (1, m, c), x, y, m,
 * c ∈ GF(q). With ξ a primitive element and generator sets X, X' (paper, Sec. 2.1):
 *   δ = 1:  X = {1, ξ², …, ξ^(q−3)},                     X' = {ξ, ξ³, …, ξ^(q−2)}
 *   δ = 0:  X = {1, ξ², …, ξ^(q−2)},                     X' = {ξ, ξ³, …, ξ^(q−1)}
 *   δ = −1: X = {1, ξ², …, ξ^(2w−2), ξ^(2w−1), …, ξ^(4w−3)}, X' = {ξ, …, ξ^(2w−1), ξ^(2w), …, ξ^(4w−2)}
 * (0,x,y) ~ (0,x,y') iff y − y' ∈ X; (1,m,c) ~ (1,m,c') iff c − c' ∈ X'; (0,x,y) ~ (1,m,c) iff
 * y = m·x + c. Router degree k' = (3q − δ)/2, diameter 2; q = 5 gives the Hoffman–Singleton graph
 * (50 routers, degree 7). The MMS graphs are vertex-transitive (Hafner 2004), so one BFS gives
 * exact distances. Default P = ⌈k'/2⌉ terminals per router (the paper's balanced concentration).
 *
 * Router id: (0, x, y) = x·q + y, (1, m, c) = q² + m·q + c. Classes: `local` inside a subgroup
 * (same x, or same m) and `global` between the two halves.
 */
import { InputError } from '../util/errors.js';
import type { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes } from './builder.js';
import { finiteField, MAX_FIELD_ORDER } from './finite-field.js';
import type { Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { LinkList, routerNetwork } from './router-network.js';

/** δ of q = 4w + δ. */
export function slimFlyDelta(q: number): -1 | 0 | 1 | undefined {
  const r = q % 4;
  return r === 1 ? 1 : r === 0 ? 0 : r === 3 ? -1 : undefined;
}

/** The generator sets X and X' as membership tables over GF(q). */
function generatorSets(q: number, delta: -1 | 0 | 1, power: (e: number) => number): [Uint8Array, Uint8Array] {
  const inX = new Uint8Array(q);
  const inXp = new Uint8Array(q);
  const exps: [number[], number[]] = [[], []];
  if (delta === 1) {
    for (let e = 0; e <= q - 3; e += 2) exps[0].push(e);
    for (let e = 1; e <= q - 2; e += 2) exps[1].push(e);
  } else if (delta === 0) {
    for (let e = 0; e <= q - 2; e += 2) exps[0].push(e);
    for (let e = 1; e <= q - 1; e += 2) exps[1].push(e);
  } else {
    const w = (q + 1) / 4;
    for (let e = 0; e <= 2 * w - 2; e += 2) exps[0].push(e);
    for (let e = 2 * w - 1; e <= 4 * w - 3; e += 2) exps[0].push(e);
    for (let e = 1; e <= 2 * w - 1; e += 2) exps[1].push(e);
    for (let e = 2 * w; e <= 4 * w - 2; e += 2) exps[1].push(e);
  }
  for (const e of exps[0]) inX[power(e)] = 1;
  for (const e of exps[1]) inXp[power(e)] = 1;
  return [inX, inXp];
}

export interface SlimFlyOptions {
  q: number;
  p?: number;
  link?: LinkAttributes;
  spec?: string;
}

export function slimFly(opts: SlimFlyOptions): Topology {
  const { q } = opts;
  const delta = slimFlyDelta(q);
  if (delta === undefined || q < 3) throw new InputError('slimfly.q', q, `a prime power q = 4w + δ, δ ∈ {−1, 0, 1}, from 3 to ${MAX_FIELD_ORDER} (e.g. 5, 7, 8, 9, 11, 13)`);
  const degree = (3 * q - delta) / 2;
  const p = opts.p ?? Math.ceil(degree / 2);
  checkSize('slimfly', 2 * q * q * (p + 1), 4 * q * q * p + 2 * q * q * degree);
  const field = finiteField(q, 'slimfly.q');
  const [inX, inXp] = generatorSets(q, delta, field.power);
  const links = new LinkList(['local', 'global']);
  const half = q * q;
  // Local links inside each column: y − y' ∈ X (resp. X'), each unordered pair once.
  for (const [offset, inSet] of [[0, inX], [half, inXp]] as const) {
    for (let x = 0; x < q; x++) {
      for (let y = 0; y < q; y++) {
        for (let z = y + 1; z < q; z++) if (inSet[field.add(y, field.neg(z))]) links.add(offset + x * q + y, offset + x * q + z, 0);
      }
    }
  }
  for (let x = 0; x < q; x++) {
    for (let m = 0; m < q; m++) {
      const mx = field.mul(m, x);
      for (let c = 0; c < q; c++) links.add(x * q + field.add(mx, c), half + m * q + c, 1);
    }
  }
  return routerNetwork({
    family: 'slimfly',
    spec: opts.spec ?? `slimfly:q=${q},p=${p}`,
    routers: 2 * half,
    p,
    links: links.done(),
    link: opts.link,
    params: { q, routerDiameter: 2, delta, degree, primitive: field.primitive, construction: 'McKay-Miller-Siran (Besta & Hoefler 2014, Sec. 2.1)' },
    vertexTransitive: 'McKay-Miller-Siran graphs are vertex-transitive (Hafner 2004)',
  });
}

export const slimFlyFamily: TopologyFamily = {
  name: 'slimfly',
  aliases: ['slim-fly'],
  usage: "slimfly:q=Q[,p=ceil(k'/2),bw=25Gbps,lat=100ns]",
  description: "Slim Fly (McKay-Miller-Siran graph over GF(q)): 2q² routers of degree k' = (3q−δ)/2, diameter 2",
  build(spec: Spec, link: LinkAttributes): Topology {
    const q = spec.int('q', { min: 3, max: MAX_FIELD_ORDER });
    const p = spec.has('p') ? spec.int('p', { min: 1, max: 1 << 12 }) : undefined;
    return slimFly({ q, p, link, spec: spec.text });
  },
  defaultRouting: 'hop-vc',
};
