/**
 * Jellyfish `jellyfish:routers=N,degree=D[,p=1,seed=1]` (Singla, Hong, Popa, Godfrey, NSDI'12): a
 * random D-regular graph of N routers, P terminals each, built as the paper builds it: join random
 * pairs of routers that both have a free port and are not yet linked, until no such pair is left;
 * then, while a router r has two or more free ports, remove a random link (x, y) with x, y not
 * linked to r, and link r to x and to y (two routers left with one free port each take one end each). The draws come from Rng(seed): the same seed always gives
 * the same graph. At most one port stays free (when N·D is odd), recorded as `freePorts`.
 * Distances take one BFS per router (a random graph has no symmetry to declare).
 */
import { InputError } from '../util/errors.js';
import { Rng } from '../util/rng.js';
import type { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes } from './builder.js';
import type { Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { routerNetwork } from './router-network.js';

export interface JellyfishOptions {
  routers: number;
  degree: number;
  p?: number;
  seed?: number;
  link?: LinkAttributes;
  spec?: string;
}

/** The random regular router graph: flat link ends (a0, b0, a1, b1, …) and the ports left free. */
export function randomRegularLinks(n: number, degree: number, rng: Rng): { ends: Int32Array; freePorts: number } {
  const nbr = new Int32Array(n * degree).fill(-1);
  const deg = new Int32Array(n);
  const linked = (u: number, v: number): boolean => {
    for (let i = 0; i < deg[u]; i++) if (nbr[u * degree + i] === v) return true;
    return false;
  };
  const link = (u: number, v: number): void => {
    nbr[u * degree + deg[u]++] = v;
    nbr[v * degree + deg[v]++] = u;
  };
  const unlink = (u: number, v: number): void => {
    for (const [a, b] of [[u, v], [v, u]]) {
      const base = a * degree;
      for (let i = 0; i < deg[a]; i++) {
        if (nbr[base + i] === b) {
          nbr[base + i] = nbr[base + deg[a] - 1];
          deg[a]--;
          break;
        }
      }
    }
  };
  // Routers with a free port, with each one's position for O(1) removal.
  const open = Int32Array.from({ length: n }, (_, i) => i);
  const where = Int32Array.from({ length: n }, (_, i) => i);
  let openCount = degree > 0 ? n : 0;
  const close = (v: number): void => {
    const last = open[--openCount];
    open[where[v]] = last;
    where[last] = where[v];
    open[openCount] = v;
    where[v] = openCount;
  };
  const anyJoinable = (): boolean => {
    for (let i = 0; i < openCount; i++) for (let j = i + 1; j < openCount; j++) if (!linked(open[i], open[j])) return true;
    return false;
  };
  let misses = 0;
  while (openCount >= 2) {
    const u = open[rng.int(openCount)];
    const v = open[rng.int(openCount)];
    if (u !== v && !linked(u, v)) {
      link(u, v);
      misses = 0;
      if (deg[u] === degree) close(u);
      if (deg[v] === degree) close(v);
      continue;
    }
    // Many misses in a row: check whether any joinable pair is left at all (few open routers by then).
    if (++misses > 4 * openCount * openCount + 64) {
      if (!anyJoinable()) break;
      misses = 0;
    }
  }
  // Routers with two or more free ports take over a random link (x, y) of routers they are not
  // linked to. Two routers left with one free port each, already linked to each other, take over a
  // random link the same way, one end each (the paper's step, extended to this case).
  for (let guard = 0; openCount > 0 && guard < 64 * n * degree; guard++) {
    const r = open.subarray(0, openCount).find((v) => degree - deg[v] >= 2);
    if (r === undefined && openCount < 2) break;
    const [u, w] = r !== undefined ? [r, r] : [open[0], open[1]];
    const x = rng.int(n);
    if (deg[x] === 0) continue;
    const y = nbr[x * degree + rng.int(deg[x])];
    if (x === u || x === w || y === u || y === w || linked(u, x) || linked(w, y)) continue;
    unlink(x, y);
    link(u, x);
    link(w, y);
    if (deg[u] === degree) close(u);
    if (w !== u && deg[w] === degree) close(w);
  }
  let freePorts = 0;
  for (let v = 0; v < n; v++) freePorts += degree - deg[v];
  const ends: number[] = [];
  for (let u = 0; u < n; u++) {
    for (let i = 0; i < deg[u]; i++) {
      const v = nbr[u * degree + i];
      if (v > u) ends.push(u, v);
    }
  }
  return { ends: Int32Array.from(ends), freePorts };
}

export function jellyfish(opts: JellyfishOptions): Topology {
  const { routers, degree } = opts;
  const p = opts.p ?? 1;
  const seed = opts.seed ?? 1;
  if (!Number.isInteger(routers) || routers < 2) throw new InputError('jellyfish.routers', routers, 'an integer >= 2');
  if (!Number.isInteger(degree) || degree < 1 || degree >= routers) throw new InputError('jellyfish.degree', degree, `an integer from 1 to routers − 1 = ${routers - 1}`);
  checkSize('jellyfish', routers * (p + 1), 2 * routers * p + routers * degree);
  const { ends, freePorts } = randomRegularLinks(routers, degree, new Rng(seed));
  return routerNetwork({
    family: 'jellyfish',
    spec: opts.spec ?? `jellyfish:routers=${routers},degree=${degree},p=${p},seed=${seed}`,
    routers,
    p,
    links: { ends, classNames: ['link'] },
    link: opts.link,
    params: { degree, seed, freePorts, construction: 'random regular graph, Singla et al. 2012 incremental construction' },
  });
}

export const jellyfishFamily: TopologyFamily = {
  name: 'jellyfish',
  usage: 'jellyfish:routers=N,degree=D[,p=1,seed=1,bw=25Gbps,lat=100ns]',
  description: 'Jellyfish: a seeded random D-regular graph of N routers, P terminals each',
  build(spec: Spec, link: LinkAttributes): Topology {
    const routers = spec.int('routers', { min: 2, max: 1 << 22, aliases: ['n'] });
    const degree = spec.int('degree', { min: 1, max: 1 << 12, aliases: ['d'] });
    const p = spec.int('p', { min: 1, max: 1 << 12, default: 1 });
    const seed = spec.int('seed', { min: 0, max: 2 ** 32 - 1, default: 1 });
    return jellyfish({ routers, degree, p, seed, link, spec: spec.text });
  },
  // Shortest path; the packet engine routes it on up*/down* for deadlock freedom (a random graph's
  // diameter is not fixed in advance, so hop-indexed classes are not offered by default).
  defaultRouting: 'shortest',
};
