/**
 * HyperX `hyperx:S1xS2x...[,k=K,p=P]` (Ahn, Binkert, Davis, McLaren, Schreiber, SC'09): routers at
 * the points of an S1×S2×… lattice, each linked to every router that differs in exactly one
 * coordinate (a Hamming graph), with K parallel links ("trunking") per such pair, and P terminals
 * per router. The flattened butterfly (Kim, Dally, Abts, ISCA'07) is the HyperX with equal sides:
 * `flatfly:k=K,n=N[,c=C]` is BookSim's `flatfly` (K routers per dimension, N dimensions, C terminals
 * per router).
 *
 * Router r has coordinates x_d = floor(r / (S1·…·S_d)) mod S_{d+1} (dimension 0 fastest). Its ports:
 * terminals, then dimension 0 links (by coordinate, K trunks each), dimension 1, …; so the lowest
 * minimal port corrects the lowest differing dimension: shortest path with the lowest-port tie is
 * dimension-order routing, deadlock free with one VC class (a dimension-d channel only ever waits on
 * channels of higher dimensions). Channel classes `d0`, `d1`, …; terminal links `terminal`.
 */
import { InputError } from '../util/errors.js';
import { parseDims, Spec } from '../util/spec.js';
import { checkSize, LinkAttributes } from './builder.js';
import type { Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { LinkList, routerNetwork } from './router-network.js';

export interface HyperXOptions {
  dims: readonly number[];
  /** Parallel links per router pair in a dimension (trunking); default 1. */
  trunking?: number;
  /** Terminals per router; default 1. */
  p?: number;
  link?: LinkAttributes;
  spec?: string;
  /** Family name recorded (flatfly builds a HyperX). */
  family?: string;
  /** More parameters recorded (flatfly's on-chip layout). */
  params?: Readonly<Record<string, unknown>>;
}

export function hyperx(opts: HyperXOptions): Topology {
  const { dims } = opts;
  const k = opts.trunking ?? 1;
  const p = opts.p ?? 1;
  const family = opts.family ?? 'hyperx';
  if (dims.length === 0 || dims.some((s) => !Number.isInteger(s) || s < 2)) throw new InputError(`${family}.dims`, dims.join('x'), 'sides >= 2 joined by "x", e.g. 4x4x4');
  if (!Number.isInteger(k) || k < 1) throw new InputError(`${family}.k`, k, 'an integer >= 1 (links per router pair)');
  if (!Number.isInteger(p) || p < 1) throw new InputError(`${family}.p`, p, 'an integer >= 1');
  const routers = dims.reduce((a, b) => a * b, 1);
  const degree = k * dims.reduce((a, s) => a + s - 1, 0);
  // Refuse before the link list is built: R·p terminals, R·degree/2 links, 2 channels each.
  checkSize(family, routers * (p + 1), 2 * routers * p + routers * degree);
  const names = dims.map((_, d) => `d${d}`);
  const links = new LinkList(names);
  let stride = 1;
  for (let d = 0; d < dims.length; d++) {
    const side = dims[d];
    for (let r = 0; r < routers; r++) {
      const x = Math.floor(r / stride) % side;
      for (let y = x + 1; y < side; y++) for (let trunk = 0; trunk < k; trunk++) links.add(r, r + (y - x) * stride, d);
    }
    stride *= side;
  }
  // Links were added dimension by dimension; each router's ports must list dimension 0 first, so the
  // router network's stable per-router order keeps it.
  return routerNetwork({
    family,
    spec: opts.spec ?? `hyperx:${dims.join('x')},k=${k},p=${p}`,
    routers,
    p,
    links: links.done(),
    link: opts.link,
    params: { dims: [...dims], trunking: k, degree, routerDiameter: dims.length, ...opts.params },
    coordDims: dims.length,
    coords: (r, out) => {
      let rest = r;
      for (let d = 0; d < dims.length; d++) {
        out[d] = rest % dims[d];
        rest = Math.floor(rest / dims[d]);
      }
    },
    vertexTransitive: 'HyperX (Hamming graph) is vertex-transitive: per-dimension coordinate shifts',
  });
}

export const hyperxFamily: TopologyFamily = {
  name: 'hyperx',
  aliases: ['hamming'],
  usage: 'hyperx:S1xS2x...[,k=1,p=1,bw=25Gbps,lat=100ns]',
  description: 'HyperX: routers on an S1×S2×… lattice, all-to-all in each dimension (K trunked links), P terminals each',
  build(spec: Spec, link: LinkAttributes): Topology {
    const dims = parseDims(spec.positional ?? spec.raw('dims'), spec.field('dims'), { min: 2, max: 1 << 12 });
    const trunking = spec.int('k', { min: 1, max: 64, default: 1 });
    const p = spec.int('p', { min: 1, max: 1 << 12, default: 1 });
    return hyperx({ dims, trunking, p, link, spec: spec.text });
  },
  defaultRouting: 'shortest',
  lowestPortIsDeadlockFree: true,
};

/** How a flatfly numbers its terminals: router by router (rank r·c + t), or BookSim's, across the chip's tiles. */
export const FLATFLY_NUMBERINGS = ['routers', 'tiles'] as const;
export type FlatflyNumbering = (typeof FLATFLY_NUMBERINGS)[number];

/**
 * BookSim's terminal id of port t of router r on a flatfly laid out on tiles (flatfly_onchip.cpp
 * _BuildNet's `link`, the inverse of flatfly_transformation): the terminals form a grid x·xr wide,
 * router r's tile holds columns xr·(r mod x) .. +xr−1 of rows yr·(r div x) .. +yr−1, and its ports
 * list them row by row.
 */
export function flatflyTerminalId(layout: { x: number; xr: number; yr: number }, r: number, t: number): number {
  const { x, xr, yr } = layout;
  return x * xr * (yr * Math.floor(r / x) + Math.floor(t / xr)) + xr * (r % x) + (t % xr);
}

export const flatflyFamily: TopologyFamily = {
  name: 'flatfly',
  aliases: ['flattened-butterfly'],
  usage: 'flatfly:k=K,n=N[,c=K,x=X,xr=XR,yr=YR,numbering=routers|tiles,bw=25Gbps,lat=100ns]',
  description: "flattened butterfly (BookSim flatfly): K^N routers, all-to-all in each of N dimensions, C terminals each",
  build(spec: Spec, link: LinkAttributes): Topology {
    const k = spec.int('k', { min: 2, max: 1 << 12 });
    const n = spec.int('n', { min: 1, max: 24 });
    const c = spec.int('c', { min: 1, max: 1 << 12, default: k });
    const x = spec.int('x', { min: 1, max: 1 << 12, default: 0 });
    const xr = spec.int('xr', { min: 1, max: 1 << 12, default: 0 });
    const yr = spec.int('yr', { min: 1, max: 1 << 12, default: 0 });
    if ((x > 0 || xr > 0 || yr > 0) && !(x > 0 && xr > 0 && yr > 0)) throw new InputError(spec.field('x'), `x=${x || '-'},xr=${xr || '-'},yr=${yr || '-'}`, "all three of x, xr and yr (BookSim's on-chip layout), or none");
    const numbering = spec.choice('numbering', FLATFLY_NUMBERINGS, 'routers');
    if (numbering === 'tiles') {
      if (x === 0) throw new InputError(spec.field('numbering'), numbering, 'routers, or tiles with the layout x, xr and yr given (BookSim numbers terminals across the tiles)');
      if (xr * yr !== c) throw new InputError(spec.field('c'), c, `xr·yr = ${xr * yr} with numbering=tiles (each router's tile holds its c terminals; BookSim asserts c = xr·yr)`);
      // The tiles fill x columns of routers; a partial last row would give BookSim terminal ids past the last router.
      const routers = k ** n;
      if (routers % x !== 0) throw new InputError(spec.field('x'), x, `a divisor of the ${routers} routers with numbering=tiles (whole rows of tiles)`);
    }
    const built = hyperx({ dims: new Array<number>(n).fill(k), p: c, link, spec: spec.text, family: 'flatfly', ...(x > 0 ? { params: { onChip: { x, xr, yr }, numbering } } : {}) });
    if (numbering === 'routers') return built;
    // hyperx numbers terminals router by router (r·c + t); rank = BookSim's terminal id.
    const perm = new Int32Array(built.numEndpoints);
    for (let r = 0; r < built.numEndpoints / c; r++) for (let t = 0; t < c; t++) perm[flatflyTerminalId({ x, xr, yr }, r, t)] = r * c + t;
    return built.withRankOrder(perm, 'booksim-flatfly');
  },
  defaultRouting: 'shortest',
  lowestPortIsDeadlockFree: true,
  booksimChannelCycles: (t) => (t.params.onChip ? onChipChannelCycles(t) : undefined),
};

/**
 * BookSim's flatfly with `use_noc_latency = 1` (flatfly_onchip.cpp @ 28f43299): router r sits at
 * tile (r mod x, r div x) of the chip, and a channel between routers a and b takes its wire length,
 * xr·|Δcolumn| + yr·|Δrow| cycles (x, xr, yr: the spec's, BookSim's keys). Terminal channels take
 * 1 cycle (BookSim's client-to-router lengths, 1 while xr and yr are at most 3).
 */
function onChipChannelCycles(t: Topology): Int32Array {
  const { x, xr, yr } = t.params.onChip as { x: number; xr: number; yr: number };
  const firstRouter = t.numEndpoints;
  const cycles = new Int32Array(t.numChannels).fill(1);
  for (let ch = 0; ch < t.numChannels; ch++) {
    const a = t.chSrc[ch] - firstRouter;
    const b = t.chDst[ch] - firstRouter;
    if (a < 0 || b < 0) continue;
    cycles[ch] = xr * Math.abs((a % x) - (b % x)) + yr * Math.abs(Math.floor(a / x) - Math.floor(b / x));
  }
  return cycles;
}
