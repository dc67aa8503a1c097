/**
 * Shared core of the torus/mesh alltoalls that move data one axis at a time: seed 000's
 * `hop-grouped` (Examples 1 and 2, spec/seed000_torus.md §3–§4), Meshwork's `areas=2n` extension
 * and the classic `dimension-ordered` alltoall. They differ only in how the offsets of one axis
 * are grouped, paced, routed and separated by barriers, so the data movement is written once here.
 *
 * Data movement of one axis phase (spec §4.4 AXIS_PHASE): rank h sends, for offset group d, the
 * slab of areas {r : r_k = h_k + d} to the transit node h + d·e_k, which stores it in its slab
 * {r : r_k = h_k}. Invariant (spec §3.4): after a piece has crossed the axes in set T it sits at the
 * node with coord_k = t_k for k in T and s_k otherwise, in the area with s_k for k in T and t_k
 * otherwise. Zero-offset areas (r_k = h_k) are copied locally (spec §3.3: dy = 0 / dx = 0 included).
 */
import { InputError } from '../../../util/errors.js';
import type { Topology } from '../../../topology/graph.js';
import { familyOf } from '../../../topology/registry.js';
import type { ScheduleBuilder } from '../../schedule.js';
import type { RotationStreams } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { maxOf } from '../../../util/arrays.js';

/** The Cartesian shape behind a torus/mesh topology, or the reason it has none. */
export interface GridShape {
  readonly dims: readonly number[];
  readonly wrap: boolean;
  /** stride[k] = product of dims[0..k-1] (axis 0 fastest, as the generator numbers nodes). */
  readonly stride: readonly number[];
  readonly ranks: number;
}

export function gridShape(topology: Topology): GridShape | string {
  const grid = topology.coords ? familyOf(topology)?.grid?.(topology) : undefined;
  if (!grid) return `a torus or mesh topology, got ${topology.family}`;
  const dims = grid.dims;
  const ranks = topology.numEndpoints;
  for (let r = 0; r < ranks; r++) if (topology.endpoints[r] !== r) return 'ranks numbered as the torus/mesh nodes';
  const stride: number[] = [];
  let s = 1;
  for (const k of dims) {
    stride.push(s);
    s *= k;
  }
  if (s !== ranks) return `one rank per node (${s} nodes, ${ranks} ranks)`;
  return { dims, wrap: grid.wrap, stride, ranks };
}

export function coordOf(g: GridShape, rank: number, axis: number): number {
  return Math.floor(rank / g.stride[axis]) % g.dims[axis];
}

/** One hop group of an axis: every rank moves its data by `offset` (signed) along the axis. */
export interface HopGroup {
  /** Signed coordinate offset (on a torus taken mod N). */
  readonly offset: number;
  /** Physical hops of the route the group uses (the gap is hops − 1, spec §1.6). */
  readonly hops: number;
  /** +1 or −1: the direction the route travels. */
  readonly sign: number;
}

export type Direction = 'positive' | 'negative' | 'shortest';

/**
 * Hop groups of one axis of size n.
 * - torus, positive (the patent's wording, spec §3.3): offsets +1..+(n−1), hops = offset.
 * - torus, negative: the mirror image (used by the −direction areas of `areas=2n`).
 * - torus, shortest: the same offsets, each routed the short way; ordered +1, −1, +2, −2, ...
 *   (ties at n/2 go +). Groups stay keyed by (direction, hops), as claim 1 asks.
 * - mesh: signed offsets ±1..±(n−1) (spec §3.3 "Mesh networks"), ordered +1, −1, +2, −2, ...
 */
export function hopGroups(n: number, wrap: boolean, dir: Direction): HopGroup[] {
  const out: HopGroup[] = [];
  if (!wrap) {
    for (let d = 1; d < n; d++) out.push({ offset: d, hops: d, sign: 1 }, { offset: -d, hops: d, sign: -1 });
    return out;
  }
  if (dir === 'positive') for (let d = 1; d < n; d++) out.push({ offset: d, hops: d, sign: 1 });
  else if (dir === 'negative') for (let d = 1; d < n; d++) out.push({ offset: -d, hops: d, sign: -1 });
  else {
    for (let h = 1; 2 * h <= n; h++) {
      out.push({ offset: h, hops: h, sign: 1 });
      if (2 * h < n) out.push({ offset: -h, hops: h, sign: -1 });
    }
  }
  return out;
}

/** Target coordinate of a group from coordinate c, or -1 on a mesh when it falls off the edge. */
export function shifted(g: GridShape, axis: number, c: number, offset: number): number {
  const n = g.dims[axis];
  const t = c + offset;
  if (g.wrap) return ((t % n) + n) % n;
  return t >= 0 && t < n ? t : -1;
}

/** Byte range [lo, lo+len) of piece p when a block of B bytes is split into `pieces` parts. */
export function pieceRange(blockBytes: number, pieces: number, p: number): { lo: number; len: number } {
  const lo = Math.floor((p * blockBytes) / pieces);
  return { lo, len: Math.floor(((p + 1) * blockBytes) / pieces) - lo };
}

/**
 * Region of the areas {r : r_axis = c} (piece p of each block), ordered by rank index of the
 * other coordinates: the same order on sender and receiver, so one merged message per hop group.
 */
export function slabRegion(b: ScheduleBuilder, g: GridShape, buf: number, axis: number, c: number, blockBytes: number, pieces: number, p: number, pieceMajor = false): number {
  if (pieceMajor && pieces > 1) {
    // Piece p of every block stored together: piece p of block t at ranks·lo + t·len.
    const { lo, len } = pieceRange(blockBytes, pieces, p);
    const inner = g.stride[axis];
    const outer = g.ranks / (inner * g.dims[axis]);
    return b.strided(buf, g.ranks * lo + c * inner * len, inner * len, inner * g.dims[axis] * len, outer);
  }
  const inner = g.stride[axis];
  const outer = g.ranks / (inner * g.dims[axis]);
  const outerStride = inner * g.dims[axis] * blockBytes;
  const base = c * inner * blockBytes;
  if (pieces === 1) return b.strided(buf, base, inner * blockBytes, outerStride, outer);
  const { lo, len } = pieceRange(blockBytes, pieces, p);
  if (inner === 1) return b.strided(buf, base + lo, len, outerStride, outer);
  if (outer === 1) return b.strided(buf, base + lo, len, blockBytes, inner);
  // A middle axis: piece p of inner × outer blocks, as one two-level vector (O(1) storage).
  return b.strided2(buf, base + lo, len, blockBytes, inner, outerStride, outer);
}

/** Explicit node path from rank h, `hops` steps of `sign` along `axis` (seed 000's transit route). */
export function axisPath(g: GridShape, topology: Topology, h: number, axis: number, hops: number, sign: number): number[] {
  const path = [topology.endpoints[h]];
  let c = coordOf(g, h, axis);
  let r = h;
  for (let i = 0; i < hops; i++) {
    const next = shifted(g, axis, c, sign);
    r += (next - c) * g.stride[axis];
    c = next;
    path.push(topology.endpoints[r]);
  }
  return path;
}

/** One area (sub-area of every block, seed 000 Example 2's a/b/c) and how it travels. */
export interface AreaPlan {
  /** Axis crossed at each stage. */
  readonly order: readonly number[];
  readonly dir: Direction;
  readonly stream: number;
}

export interface AxisPhaseOptions {
  readonly areas: readonly AreaPlan[];
  /** Insert pace(hops − 1) before each hop group (seed 000 S103/S112). */
  readonly pacing: boolean;
  /** 'group': a barrier between hop groups, placed as the literal flowcharts (spec §3.7/§4.5); 'none'. */
  readonly barriers: 'group' | 'none';
  /** A whole-rank barrier after the last phase (spec §3.7 [R]: X+Y−2 in 2D instead of X+Y−3). */
  readonly finalBarrier?: boolean;
  /** Route hints: 'path' = explicit node path along the axis; 'none' = the engine's routing. */
  readonly hints: 'path' | 'none';
  /** One buffer for everything (spec §3.5's hazard, for demonstration); the executor must object. */
  readonly inPlace: boolean;
}

export interface AxisPhaseStats {
  /** Barrier ops executed by rank 0 (all ranks execute the same number). */
  readonly barriersPerRank: number;
}

/**
 * Areas of stage s in the order they are emitted, and the last area of each stream (its last
 * group carries no barrier: S114/S223, no end barrier). Literal flowchart order within a stage:
 * X, then Z, then Y (FIG. 17A, 17B, 17C); in n dims axis 0, then n−1 down to 1. It matters only
 * when several areas share a stream.
 */
function stagePlan(areas: readonly AreaPlan[], s: number, n: number): { seq: number[]; lastAreaOfStream: Map<number, number> } {
  for (const area of areas) if (!(area.order[s] >= 0 && area.order[s] < n)) throw new InputError('areas', area.order, `axes 0..${n - 1}`);
  const axisRank = (k: number): number => (k === 0 ? 0 : n - k);
  const seq = [...areas.keys()].sort((x, y) => axisRank(areas[x].order[s]) - axisRank(areas[y].order[s]) || x - y);
  const lastAreaOfStream = new Map<number, number>();
  for (const i of seq) lastAreaOfStream.set(areas[i].stream, i);
  return { seq, lastAreaOfStream };
}

/**
 * Op and message counts of `emitAxisPhases` with the same options, without building anything:
 * O(stages × areas × hop groups × axis size). Mirrors the emission loop below (a test checks
 * that both agree), so that the flow level can refuse a schedule too large before allocating it.
 */
export function countAxisPhases(g: GridShape, opts: AxisPhaseOptions): { ops: number; messages: number } {
  const n = g.dims.length;
  const P = g.ranks;
  const stages = opts.areas[0].order.length;
  const streams = new Set(opts.areas.map((a) => a.stream)).size;
  let ops = 0;
  let messages = 0;
  for (let s = 0; s < stages; s++) {
    if (s > 0 && (opts.barriers === 'group' || streams > 1)) ops += P * streams;
    const { seq, lastAreaOfStream } = stagePlan(opts.areas, s, n);
    for (const a of seq) {
      const area = opts.areas[a];
      const axis = area.order[s];
      const N = g.dims[axis];
      const groups = hopGroups(N, g.wrap, area.dir);
      if (!opts.inPlace) ops += P;
      groups.forEach((grp, gi) => {
        // Ranks per coordinate of the axis: P / N; count the coordinates whose target and source exist.
        let sends = 0;
        let recvs = 0;
        for (let c = 0; c < N; c++) {
          if (shifted(g, axis, c, grp.offset) >= 0) sends++;
          if (shifted(g, axis, c, -grp.offset) >= 0) recvs++;
        }
        messages += (P / N) * sends;
        ops += (P / N) * (sends + recvs);
        if (opts.pacing) ops += P;
        const last = gi === groups.length - 1 && lastAreaOfStream.get(area.stream) === a;
        if (opts.barriers === 'group' && !last) ops += P;
      });
    }
  }
  if (opts.finalBarrier) ops += P * streams;
  return { ops, messages };
}

/**
 * What the axis phases do, op by op (walkAxisPhases): emitAxisPhases writes it into a schedule,
 * axisPhaseDeclaration states one rank's ops for the symmetry declaration without a schedule.
 * `s` is the stage, `a` the area, `c` the coordinate of `axis` whose slab (area a's piece of every
 * block with that coordinate) is copied, sent or received.
 */
interface AxisPhaseSink {
  /** A barrier of every rank: on every stream in use (`acrossStreams`: between stages, at the end) or on this stream (between hop groups). */
  barrier(h: number, stream: number, acrossStreams: boolean): void;
  copy(h: number, stream: number, s: number, a: number, axis: number, c: number): void;
  pace(h: number, stream: number, gap: number): void;
  send(h: number, stream: number, to: number, s: number, a: number, axis: number, c: number, tag: number, grp: HopGroup): void;
  recv(h: number, stream: number, from: number, s: number, a: number, axis: number, c: number, tag: number): void;
}

/** The streams the areas use, in order of first use. */
function streamsOf(opts: AxisPhaseOptions): number[] {
  return [...new Set(opts.areas.map((a) => a.stream))];
}

/**
 * The axis phases of every area, for the given ranks (default: every rank), in the order the
 * schedule adds them. Stage s of area a crosses axis order[s].
 * Barriers: within a stage, after every hop group except the stage's very last one on that stream;
 * between stages, one whole-rank barrier (the data dependency of spec §4.3, S107 in 2D).
 */
function walkAxisPhases(g: GridShape, opts: AxisPhaseOptions, sink: AxisPhaseSink, ranks?: readonly number[]): AxisPhaseStats {
  const n = g.dims.length;
  const R = ranks ? ranks.length : g.ranks;
  const A = opts.areas.length;
  const stages = opts.areas[0].order.length;
  const streamsUsed = streamsOf(opts);
  let barriers = 0;
  for (let s = 0; s < stages; s++) {
    // Needed when several streams hand data to each other between stages (spec §4.3); with one
    // stream, program order already orders the stages, and only the patent's barriers are kept.
    if (s > 0 && (opts.barriers === 'group' || streamsUsed.length > 1)) {
      for (let i = 0; i < R; i++) for (const st of streamsUsed) sink.barrier(ranks ? ranks[i] : i, st, true);
      barriers++;
    }
    const { seq, lastAreaOfStream } = stagePlan(opts.areas, s, n);
    for (const a of seq) {
      const area = opts.areas[a];
      const axis = area.order[s];
      const groups = hopGroups(g.dims[axis], g.wrap, area.dir);
      const tag = s * A + a;
      for (let i = 0; i < R; i++) {
        const h = ranks ? ranks[i] : i;
        const hc = coordOf(g, h, axis);
        if (!opts.inPlace) sink.copy(h, area.stream, s, a, axis, hc);
        groups.forEach((grp, gi) => {
          if (opts.pacing) sink.pace(h, area.stream, grp.hops - 1);
          const tc = shifted(g, axis, hc, grp.offset);
          if (tc >= 0) sink.send(h, area.stream, h + (tc - hc) * g.stride[axis], s, a, axis, tc, tag, grp);
          const fc = shifted(g, axis, hc, -grp.offset);
          if (fc >= 0) sink.recv(h, area.stream, h + (fc - hc) * g.stride[axis], s, a, axis, fc, tag);
          const last = gi === groups.length - 1 && lastAreaOfStream.get(area.stream) === a;
          if (opts.barriers === 'group' && !last) {
            sink.barrier(h, area.stream, false);
            if (i === 0 && area.stream === streamsUsed[0]) barriers++;
          }
        });
      }
    }
  }
  if (opts.finalBarrier) {
    for (let i = 0; i < R; i++) for (const st of streamsUsed) sink.barrier(ranks ? ranks[i] : i, st, true);
    barriers++;
  }
  return { barriersPerRank: barriers };
}

/**
 * Emits the axis phases of every area (walkAxisPhases). Buffers alternate so that each phase reads
 * one buffer and writes another (spec §3.5: receiving into the buffer being sent from destroys
 * unsent blocks); the last stage writes `recv`. With `inPlace`, every phase reads and writes
 * `recv` (the hazard the executor must report).
 */
export function emitAxisPhases(b: ScheduleBuilder, topology: Topology, g: GridShape, opts: AxisPhaseOptions): AxisPhaseStats {
  const n = g.dims.length;
  const P = g.ranks;
  const B = b.size;
  const A = opts.areas.length;
  const stages = opts.areas[0].order.length;
  // Intermediate buffers. One area: `tmp` alternates with `recv` (block-major, like the I/O
  // buffers). Several areas: two piece-major temporaries (piece p of every block together), so a
  // slab of one piece is a few long runs instead of one extent per block: the executor's cost is
  // per extent, and a 16×16×16 torus has 16.7 M blocks.
  const pieceMajor = A > 1 && !opts.inPlace;
  const tmp = stages > 1 && !opts.inPlace ? b.tmpBuffer(pieceMajor ? 'tmpA' : 'tmp', P * B) : RECV;
  const tmp2 = pieceMajor && stages > 2 ? b.tmpBuffer('tmpB', P * B) : RECV;
  const outBuf = (s: number): number => {
    if (opts.inPlace || s === stages - 1) return RECV;
    if (pieceMajor) return s % 2 === 0 ? tmp : tmp2;
    return (stages - 1 - s) % 2 === 0 ? RECV : tmp;
  };
  const inBuf = (s: number): number => (opts.inPlace ? RECV : s === 0 ? SEND : outBuf(s - 1));
  const isPieceMajor = (buf: number): boolean => pieceMajor && buf !== SEND && buf !== RECV;
  const streamsUsed = streamsOf(opts);
  const all = Array.from({ length: P }, (_, i) => i);
  const stageBarrier = b.group(all, streamsUsed);
  const streamBarrier = new Map(streamsUsed.map((s) => [s, b.group(all, [s])]));
  // Regions and hints repeat across ranks and stages; interning by key text in the builder costs
  // a string per call (256 extents for a middle axis of 16×16×16), so look them up by number here.
  const maxN = maxOf(g.dims);
  const slabs = new Map<number, number>();
  const slab = (buf: number, axis: number, c: number, p: number): number => {
    const key = ((buf * n + axis) * maxN + c) * A + p;
    let id = slabs.get(key);
    if (id === undefined) slabs.set(key, (id = slabRegion(b, g, buf, axis, c, B, A, p, isPieceMajor(buf))));
    return id;
  };
  // One path hint per (rank, axis, hops, sign), used once per area crossing that axis: a flat
  // table (hint id + 1, 0 = not yet) instead of a Map, which at 32×32×32 holds 3 M entries.
  const hints = opts.hints === 'path' ? new Int32Array(P * n * (maxN + 1) * 2) : new Int32Array(0);
  const pathHint = (h: number, axis: number, grp: HopGroup): number => {
    const key = ((h * n + axis) * (maxN + 1) + grp.hops) * 2 + (grp.sign > 0 ? 1 : 0);
    if (hints[key] === 0) hints[key] = b.hint('path', axisPath(g, topology, h, axis, grp.hops, grp.sign)) + 1;
    return hints[key] - 1;
  };
  return walkAxisPhases(g, opts, {
    barrier: (h, stream, acrossStreams) => b.barrier(h, acrossStreams ? stageBarrier : streamBarrier.get(stream)!, stream),
    copy: (h, stream, s, a, axis, c) => b.copy(h, slab(inBuf(s), axis, c, a), slab(outBuf(s), axis, c, a), stream),
    pace: (h, stream, gap) => b.pace(h, gap, stream),
    send: (h, stream, to, s, a, axis, c, tag, grp) => b.send(h, to, slab(inBuf(s), axis, c, a), tag, stream, opts.hints === 'path' ? pathHint(h, axis, grp) : -1),
    recv: (h, stream, from, s, a, axis, c, tag) => b.recv(h, from, slab(outBuf(s), axis, c, a), tag, stream),
  });
}

/**
 * One rank's ops of `emitAxisPhases` with the same options, as the symmetry declaration states them
 * (collectives/registry.ts `RotationStreams`, issue 29): stream by stream, bytes as the lowering
 * counts a slab (ranks / axis size blocks, area a's piece of each), a send's node path as its
 * hint, and the barriers' schedule groups as emitAxisPhases makes them (the builder interns a group
 * by its members: the stage barrier's first, then each stream's, the same one when a single stream
 * is in use). Undefined for `inPlace` (the executor's hazard report needs the schedule checked).
 * Only a torus is equivariant under the translations: on a mesh the edges cut groups short.
 */
export function axisPhaseDeclaration(topology: Topology, g: GridShape, opts: AxisPhaseOptions, blockBytes: number): RotationStreams | undefined {
  if (opts.inPlace || !g.wrap) return undefined;
  const A = opts.areas.length;
  const streamsUsed = streamsOf(opts);
  const streamGroup = new Map(streamsUsed.map((st, i) => [st, streamsUsed.length === 1 ? 0 : 1 + i]));
  const ordered = [...streamsUsed].sort((x, y) => x - y);
  const slabBytes = (axis: number, a: number): number => (g.ranks / g.dims[axis]) * pieceRange(blockBytes, A, a).len;
  return {
    action: { translation: g.dims },
    opsPerRank: countAxisPhases(g, opts).ops / g.ranks,
    streamsPerRank: ordered[ordered.length - 1] + 1,
    forEachOp(rank, visit) {
      // One walk per stream, keeping that stream's ops: the lowering lists a rank's streams one after another.
      for (const only of ordered) {
        visit('stream', only, 0, 0);
        walkAxisPhases(
          g,
          opts,
          {
            barrier: (_h, stream, acrossStreams) => {
              if (stream === only) visit('barrier', acrossStreams ? 0 : streamGroup.get(stream)!, 0, 0);
            },
            copy: (_h, stream, _s, a, axis) => {
              if (stream === only) visit('copy', rank, slabBytes(axis, a), 0);
            },
            pace: (_h, stream, gap) => {
              if (stream === only) visit('pace', 0, gap, 0);
            },
            send: (h, stream, to, _s, a, axis, _c, tag, grp) => {
              if (stream === only) visit('send', to, slabBytes(axis, a), tag, opts.hints === 'path' ? axisPath(g, topology, h, axis, grp.hops, grp.sign) : undefined);
            },
            recv: (_h, stream, from, _s, a, axis, _c, tag) => {
              if (stream === only) visit('recv', from, slabBytes(axis, a), tag);
            },
          },
          [rank],
        );
      }
    },
  };
}
