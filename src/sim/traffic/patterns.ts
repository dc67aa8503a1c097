/**
 * Synthetic traffic patterns: destination rank as a function of the source rank and a seeded
 * generator. BookSim 2.0's patterns (traffic.cpp) and seed 004's five (spec §5.3), registered by
 * registry.ts; `makePattern` builds one by name.
 * Mesh emulation is closed-loop and lives in closed-loop.ts; here it only names its mapping.
 */
import { InputError } from '../../util/errors.js';
import { Rng, type RandomStream } from '../../util/rng.js';
import { bookSimRandomPermutation } from '../../util/knuth-rng.js';
import type { Topology } from '../../topology/graph.js';
import { familyOf, type QuarterPartition } from '../../topology/registry.js';

export interface TrafficPattern {
  readonly name: string;
  /** Every parameter that shaped the pattern, for result records. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Destination rank for a packet from `src`. */
  dest(src: number, rng: RandomStream): number;
}

export interface PatternOptions {
  /** Seed for randperm's permutation. */
  permSeed?: number;
  /**
   * randperm's generator: `meshwork` (the default: a Fisher–Yates shuffle on Meshwork's Rng, seed 1
   * unless permSeed) or `booksim` (BookSim 2.0's own permutation for perm_seed = permSeed, default 0:
   * Knuth's ran_array and traffic.cpp's slot-filling draw, util/knuth-rng.ts).
   */
  permutation?: 'meshwork' | 'booksim';
  /** Hot-spot rank and fraction (seed 004: 5 % of all packets to one PE; rank 0 by default). */
  hotRank?: number;
  hotFraction?: number;
  /**
   * Several hot spots (BookSim's `hotspot({h1,h2,...},{w1,w2,...})`), in place of hotRank: a hot
   * packet goes to one of them with probability proportional to its weight (hotWeights, default 1 each).
   */
  hotRanks?: readonly number[];
  hotWeights?: readonly number[];
  /** background: the ranks no packet is sent to (BookSim's `background({e1,e2,...})`). */
  exclude?: readonly number[];
  /**
   * How the 1/4 partition is formed: `rings` (DCE/MDCE only: by ring-index bits, spec §2.4; the
   * default there) or `address` (rank div N/4; the default and only choice elsewhere).
   */
  quarterBy?: 'rings' | 'address';
  /**
   * Edges of seed 004's emulated grid (mesh emulation, localized): `wrap` (torus-like; the default
   * for compatibility) or `open` (mesh-like: no neighbour or partner across an edge; spec §5.3 [R]).
   */
  edges?: GridEdges;
  /**
   * Coordinates of localized traffic: `own` (the topology's coordinates where it has them, else the
   * address grid; the default) or `address` (every network on the same square address grid, spec §5.3 [R]).
   */
  coordinates?: 'own' | 'address';
  /**
   * tornado and neighbor: BookSim's digit parameters (traffic.cpp DigitPermutationTrafficPattern,
   * `tornado(k,n,xr)`): the rank read as n digits of radix xr·k. k and n default to the topology's
   * (its equal sides and their count), xr to 1. On BookSim's flatfly and cmesh the terminal ids run
   * across an (xr·k)-wide grid, so xr = 2 there moves every terminal, not every router.
   */
  digits?: { k?: number; n?: number; xr?: number };
}

export type GridEdges = 'wrap' | 'open';
export const GRID_EDGES: readonly GridEdges[] = ['wrap', 'open'];

/** Radix and dimension count of a k-ary n-cube view of the ranks (BookSim's gK, gN). */
function kn(topology: Topology): { k: number; n: number } {
  const dims = topology.params.dims as number[] | undefined;
  if (dims && dims.every((d) => d === dims[0])) return { k: dims[0], n: dims.length };
  // A k-ary n-tree and a k-ary n-fly number their k^n terminals by n k-ary digits, BookSim's gK and gN.
  const { k, n, levels } = topology.params as { k?: unknown; n?: unknown; levels?: unknown };
  const depth = typeof n === 'number' ? n : levels;
  if (typeof k === 'number' && typeof depth === 'number' && k ** depth === topology.numEndpoints) return { k, n: depth };
  return { k: topology.numEndpoints, n: 1 };
}

function log2Exact(field: string, n: number): number {
  const b = Math.round(Math.log2(n));
  if (2 ** b !== n) throw new InputError(field, n, 'a power-of-two number of terminals for this pattern');
  return b;
}

function uniformExcludingSelf(src: number, n: number, rng: RandomStream): number {
  if (n === 1) return src;
  const d = rng.int(n - 1);
  return d >= src ? d + 1 : d;
}

/**
 * The hot spots of `hotspot`: hotRanks with their weights (BookSim: RandomInt(Σw − 1) walked over the
 * cumulative weights), or the one hotRank (default 0).
 */
function hotSpots(N: number, opts: PatternOptions): { ranks: number[]; weights: number[]; pick: (rng: RandomStream) => number } {
  const ranks = [...(opts.hotRanks ?? [opts.hotRank ?? 0])];
  if (ranks.length === 0) throw new InputError('hotRanks', '[]', 'at least one hot rank');
  for (const r of ranks) if (!Number.isInteger(r) || r < 0 || r >= N) throw new InputError(opts.hotRanks ? 'hotRanks' : 'hot', r, `a rank in [0, ${N - 1}]`);
  const weights = [...(opts.hotWeights ?? ranks.map(() => 1))];
  if (weights.length !== ranks.length || weights.some((w) => !Number.isInteger(w) || w < 1)) {
    throw new InputError('hotWeights', weights.join(','), `${ranks.length} positive integer weights, one per hot rank`);
  }
  const total = weights.reduce((a, b) => a + b, 0);
  if (ranks.length === 1) return { ranks, weights, pick: () => ranks[0] };
  return {
    ranks,
    weights,
    pick: (rng) => {
      let draw = rng.int(total);
      for (let i = 0; i < ranks.length - 1; i++) {
        if (draw < weights[i]) return ranks[i];
        draw -= weights[i];
      }
      return ranks[ranks.length - 1];
    },
  };
}

/** A traffic pattern as the registry (registry.ts) builds it. */
export interface PatternEntry {
  /** The name `--pattern` takes. */
  readonly name: string;
  /** One line for help text. */
  readonly description: string;
  /** Builds the pattern for a topology; throws InputError naming what it needs when it does not fit. */
  create(topology: Topology, opts: PatternOptions): TrafficPattern;
}

/** Bit-permutation patterns over a power-of-two number of terminals (BookSim's bitrev, transpose, shuffle). */
function bitPattern(name: string, description: string, make: (bits: number, N: number) => (s: number) => number, check?: (bits: number) => void): PatternEntry {
  return {
    name,
    description,
    create(topology) {
      const N = topology.numEndpoints;
      const bits = log2Exact('pattern', N);
      check?.(bits);
      const dest = make(bits, N);
      return { name, params: { bits }, dest: (s) => dest(s) };
    },
  };
}

/**
 * BookSim's tornado and neighbor: the rank read as n digits of radix xr·k (PatternOptions.digits;
 * by default the topology's k and n, xr = 1), every digit moved by `shift(xr·k)` modulo the radix.
 */
function digitShiftPattern(name: string, description: string, shiftOf: (radix: number) => number): PatternEntry {
  return {
    name,
    description,
    create(topology, opts) {
      const own = kn(topology);
      const { k = own.k, n = own.n, xr = 1 } = opts.digits ?? {};
      for (const [key, v] of [['k', k], ['n', n], ['xr', xr]] as const) {
        if (!Number.isInteger(v) || v < (key === 'k' ? 2 : 1)) throw new InputError(`digits.${key}`, v, `an integer >= ${key === 'k' ? 2 : 1}`);
      }
      const radix = xr * k;
      // BookSim does not check that its destinations exist; a rank must.
      if (radix ** n > topology.numEndpoints) {
        // Only xr given (--xr): that is the value to name; k and n are the topology's own.
        const onlyXr = opts.digits?.k === undefined && opts.digits?.n === undefined;
        throw new InputError(onlyXr ? 'xr' : 'digits', onlyXr ? xr : `k=${k},n=${n},xr=${xr}`, `(xr·k)^n <= ${topology.numEndpoints}, the terminals, with k=${k} and n=${n} (${name}'s destinations are ranks)`);
      }
      const shift = shiftOf(radix);
      return {
        name,
        params: { k, n, ...(xr !== 1 ? { xr } : {}), shift },
        dest: (s) => {
          let d = 0;
          let stride = 1;
          let rest = s;
          for (let i = 0; i < n; i++) {
            d += (((rest % radix) + shift) % radix) * stride;
            rest = Math.floor(rest / radix);
            stride *= radix;
          }
          return d;
        },
      };
    },
  };
}

/** The built-in patterns: BookSim 2.0's (traffic.cpp) and seed 004's five (spec §5.3). */
export const BUILTIN_PATTERNS: readonly PatternEntry[] = [
  {
    name: 'uniform',
    description: 'uniform random destination, self included (BookSim)',
    // BookSim: RandomInt(nodes − 1), self included.
    create: (t) => ({ name: 'uniform', params: { self: 'included' }, dest: (_s, rng) => rng.int(t.numEndpoints) }),
  },
  bitPattern('bitrev', 'bit-reversed address (BookSim)', (bits) => (s) => {
    let d = 0;
    for (let i = 0; i < bits; i++) if (s & (1 << i)) d |= 1 << (bits - 1 - i);
    return d;
  }),
  bitPattern(
    'transpose',
    'address halves swapped: (x, y) -> (y, x) on a k×k grid (BookSim)',
    (bits) => {
      const half = bits / 2;
      const lo = (1 << half) - 1;
      return (s) => ((s >> half) & lo) | ((s << half) & (lo << half));
    },
    (bits) => {
      if (bits % 2 !== 0) throw new InputError('pattern', 'transpose', 'an even number of address bits (a square k×k grid)');
    },
  ),
  bitPattern('bitcomp', 'address bits complemented (BookSim)', (_bits, N) => (s) => ~s & (N - 1)),
  bitPattern('shuffle', 'address rotated left by one bit (BookSim)', (bits, N) => (s) => ((s << 1) & (N - 1)) | ((s >> (bits - 1)) & 1)),
  digitShiftPattern('tornado', 'every coordinate moves ⌈k/2⌉ − 1 (BookSim; digits of radix xr·k with xr)', (radix) => Math.ceil(radix / 2) - 1),
  digitShiftPattern('neighbor', 'every coordinate moves +1 (BookSim; digits of radix xr·k with xr)', () => 1),
  {
    name: 'randperm',
    description: 'a seeded random permutation (BookSim; --perm-seed)',
    create(t, opts) {
      const N = t.numEndpoints;
      if (opts.permutation === 'booksim') {
        const permSeed = opts.permSeed ?? 0;
        const perm = bookSimRandomPermutation(N, permSeed);
        return { name: 'randperm', params: { permSeed, permutation: 'booksim' }, dest: (s) => perm[s] };
      }
      const seed = opts.permSeed ?? 1;
      const perm = new Int32Array(N);
      for (let i = 0; i < N; i++) perm[i] = i;
      const rng = new Rng(seed);
      for (let i = N - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        const tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
      }
      return { name: 'randperm', params: { permSeed: seed }, dest: (s) => perm[s] };
    },
  },
  {
    name: 'random',
    description: 'uniform over the other PEs (seed 004 §5.3.1)',
    // Seed 004 "completely random destinations": a PE does not send to itself.
    create: (t) => ({ name: 'random', params: { self: 'excluded' }, dest: (s, rng) => uniformExcludingSelf(s, t.numEndpoints, rng) }),
  },
  {
    name: 'quarter',
    description: 'uniform within the source\'s quarter (seed 004 §5.3.2; --quarter-by)',
    create(topology, opts) {
      const N = topology.numEndpoints;
      if (N % 4 !== 0) throw new InputError('pattern', 'quarter', 'a number of terminals divisible by 4');
      const part = quarterPartition(topology, opts.quarterBy);
      const q = N / 4;
      // members[k·q + i] = the i-th rank of quarter k; pos[rank] = its index within its quarter.
      const members = new Int32Array(N);
      const pos = new Int32Array(N);
      const fill = new Int32Array(4);
      for (let r = 0; r < N; r++) {
        const k = part.of(r);
        if (fill[k] === q) throw new InputError('pattern', 'quarter', `four equal quarters (${part.label} gives unequal ones on ${topology.spec})`);
        pos[r] = fill[k];
        members[k * q + fill[k]++] = r;
      }
      return {
        name: 'quarter',
        params: { partitions: 4, by: part.label },
        dest: (s, rng) => members[part.of(s) * q + uniformExcludingSelf(pos[s], q, rng)],
      };
    },
  },
  {
    name: 'hotspot',
    description: 'a fraction of all packets to a hot rank, the rest random (seed 004 §5.3.3; --hot; BookSim with every packet hot)',
    create(t, opts) {
      const N = t.numEndpoints;
      const frac = opts.hotFraction ?? 0.05;
      const hot = hotSpots(N, opts);
      return {
        name: 'hotspot',
        params: hot.ranks.length === 1 ? { hotRank: hot.ranks[0], fraction: frac } : { hotRanks: hot.ranks, hotWeights: hot.weights, fraction: frac },
        // Every packet hot (BookSim's hotspot) draws no coin, as BookSim draws none.
        dest: frac >= 1 ? (_s, rng) => hot.pick(rng) : (s, rng) => (rng.next() < frac ? hot.pick(rng) : uniformExcludingSelf(s, N, rng)),
      };
    },
  },
  // BookSim 2.0's random patterns beside uniform (traffic.cpp), each destination drawn per packet.
  // BookSim's RandomInt(m) is uniform on 0..m, so RandomInt(2) == 0 has probability 1/3.
  {
    name: 'diagonal',
    description: 'a third of packets to rank + 1, the rest to the source itself (BookSim)',
    create: (t) => ({ name: 'diagonal', params: { next: 1 / 3, self: 2 / 3 }, dest: (s, rng) => (rng.int(3) === 0 ? (s + 1) % t.numEndpoints : s) }),
  },
  {
    name: 'asymmetric',
    description: 'rank mod N/2, in the lower or the upper half at random (BookSim)',
    create(t) {
      const half = Math.floor(t.numEndpoints / 2);
      if (half < 1) throw new InputError('pattern', 'asymmetric', 'at least 2 terminals');
      return { name: 'asymmetric', params: { half }, dest: (s, rng) => (s % half) + (rng.int(2) === 1 ? half : 0) };
    },
  },
  {
    name: 'taper64',
    description: 'on 64 terminals: half of packets to a rank within ±8 ± 1 (mod 64), half uniform (BookSim)',
    create(t) {
      if (t.numEndpoints !== 64) throw new InputError('pattern', 'taper64', `exactly 64 terminals (BookSim's taper64 requires it; ${t.spec} has ${t.numEndpoints})`);
      return {
        name: 'taper64',
        params: { near: 0.5 },
        dest: (s, rng) => (rng.int(2) === 1 ? (64 + s + 8 * (rng.int(3) - 1) + (rng.int(3) - 1)) % 64 : rng.int(64)),
      };
    },
  },
  {
    name: 'bad-dragon',
    description: "every packet to a random terminal of the next dragonfly group (BookSim's bad_dragon)",
    create(t, opts) {
      const N = t.numEndpoints;
      // BookSim's group is 2k routers of k terminals (dragonflynew's k); a Meshwork dragonfly's, a·p.
      const { a, p } = t.params as { a?: unknown; p?: unknown };
      const k = opts.digits?.k;
      const group = k !== undefined ? 2 * k * k : t.family === 'dragonfly' && typeof a === 'number' && typeof p === 'number' ? a * p : undefined;
      if (group === undefined) throw new InputError('pattern', 'bad-dragon', "a dragonfly, or digits.k (BookSim's dragonflynew k: groups of 2k·k terminals)");
      if (group > N || N % group !== 0) throw new InputError('digits.k', k, `groups of 2k·k terminals that divide the ${N} terminals`);
      return { name: 'bad-dragon', params: { group }, dest: (s, rng) => (rng.int(group) + (Math.floor(s / group) + 1) * group) % N };
    },
  },
  {
    name: 'badperm-yarc',
    description: "rank s to a random row r of an (xr·k)-wide grid, column ⌊s / (xr·k)⌋ (BookSim's badperm_yarc)",
    create(t, opts) {
      const N = t.numEndpoints;
      const own = kn(t);
      const { k = own.k, xr = 1 } = opts.digits ?? {};
      const width = xr * k;
      // BookSim does not check that its destinations exist; a rank must.
      if (!Number.isInteger(width) || width < 2 || (width - 1) * width + Math.floor((N - 1) / width) >= N) {
        throw new InputError('digits', `k=${k},xr=${xr}`, `an (xr·k)-wide grid whose destinations are terminals: (xr·k − 1)·xr·k + ⌊(N − 1)/(xr·k)⌋ < ${N}`);
      }
      return { name: 'badperm-yarc', params: { width }, dest: (s, rng) => rng.int(width) * width + Math.floor(s / width) };
    },
  },
  {
    name: 'background',
    description: 'uniform over the ranks not excluded, self included (BookSim; exclude)',
    create(t, opts) {
      const N = t.numEndpoints;
      const excluded = new Set(opts.exclude ?? []);
      for (const r of excluded) if (!Number.isInteger(r) || r < 0 || r >= N) throw new InputError('exclude', r, `ranks in [0, ${N - 1}]`);
      if (excluded.size === N) throw new InputError('exclude', [...excluded].join(','), 'at least one rank left to send to');
      const isExcluded = Uint8Array.from({ length: N }, (_, r) => (excluded.has(r) ? 1 : 0));
      // Drawn as BookSim draws it: RandomInt(nodes − 1) again until the rank is not excluded.
      const dest = (_s: number, rng: RandomStream): number => {
        let d: number;
        do d = rng.int(N);
        while (isExcluded[d] === 1);
        return d;
      };
      return { name: 'background', params: { excluded: [...excluded].sort((x, y) => x - y) }, dest };
    },
  },
  {
    name: 'localized',
    description: 'exponentially distributed coordinate offsets (seed 004 §5.3.5)',
    create(topology, opts) {
      const edges = opts.edges ?? 'wrap';
      if (!GRID_EDGES.includes(edges)) throw new InputError('edges', edges, GRID_EDGES.join(' | '));
      const coords = localizedCoordinates(topology, opts.coordinates ?? 'own', edges);
      return {
        name: 'localized',
        params: { coordinates: coords.label, meanOffset: 'half of each coordinate maximum', sign: 'random', outOfRange: edges === 'wrap' ? 'wrap' : 'redraw the offset' },
        dest: (s, rng) => coords.pick(s, rng),
      };
    },
  },
];

/**
 * The quarter (0..3) of each rank for seed 004's 1/4 partition: `rings`, the family's own partition
 * (DCE/MDCE: whole rings split on ring-index bits, spec §2.4; the default where the family declares
 * one), or `address` (rank div N/4; the default elsewhere).
 */
export function quarterPartition(topology: Topology, by?: 'rings' | 'address'): QuarterPartition {
  const N = topology.numEndpoints;
  const own = familyOf(topology)?.quarters;
  const mode = by ?? (own ? 'rings' : 'address');
  if (mode !== 'rings' && mode !== 'address') throw new InputError('quarter-by', mode, 'rings | address');
  if (mode === 'address') {
    const q = N / 4;
    return { label: 'address (rank div N/4)', of: (r) => Math.floor(r / q) };
  }
  if (!own) throw new InputError('quarter-by', 'rings', `address on ${topology.family} (ring-index quarters are defined for DCE/MDCE networks)`);
  return own(topology);
}

/**
 * Localized traffic (seed 004 §5.3.5): per coordinate, an offset drawn from an exponential
 * distribution with mean half that coordinate's maximum (k−1)/2, floored, with a random sign;
 * out of range it wraps modulo k (`wrap`) or is drawn again (`open`: no partner across an edge, so
 * a 2D mesh never gets a wrapped 31-hop partner). Coordinates are the topology's own when asked and
 * available (torus, mesh), else the square mapping of the address (32×32 at 1,024 PEs). An all-zero
 * draw is redrawn so a PE never sends to itself.
 */
function localizedCoordinates(topology: Topology, which: 'own' | 'address', edges: GridEdges): { label: string; pick: (s: number, rng: RandomStream) => number } {
  if (which !== 'own' && which !== 'address') throw new InputError('coordinates', which, 'own | address');
  const N = topology.numEndpoints;
  let dims: number[];
  let label: string;
  const own = topology.params.dims as number[] | undefined;
  if (which === 'own' && own && topology.coords && N === topology.numNodes) {
    dims = own;
    label = `topology coordinates ${own.join('x')}`;
  } else {
    const side = Math.round(Math.sqrt(N));
    dims = side * side === N ? [side, side] : [N];
    label = `address as ${dims.join('x')}`;
  }
  const strides = dims.map((_, i) => dims.slice(0, i).reduce((a, b) => a * b, 1));
  const wrap = edges === 'wrap';
  // An offset is drawn again while it leaves the grid (open edges); the inward direction always
  // has room, so a few draws suffice and the cap only guards against a pathological generator.
  const offset = (x: number, k: number, rng: RandomStream): number => {
    const mean = (k - 1) / 2;
    for (let draw = 0; draw < 64; draw++) {
      const off = mean > 0 ? Math.floor(-Math.log(1 - rng.next()) * mean) : 0;
      const y = x + (rng.next() < 0.5 ? -off : off);
      if (wrap) return ((y % k) + k) % k;
      if (y >= 0 && y < k) return y;
    }
    return x;
  };
  return {
    label,
    pick(s, rng) {
      for (let attempt = 0; attempt < 64; attempt++) {
        let d = 0;
        for (let i = 0; i < dims.length; i++) d += offset(Math.floor(s / strides[i]) % dims[i], dims[i], rng) * strides[i];
        if (d !== s || N === 1) return d;
      }
      return uniformExcludingSelf(s, N, rng);
    },
  };
}
