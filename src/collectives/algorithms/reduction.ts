/**
 * Building blocks shared by the classic reduction algorithms. Ranks are relative (v = 0 is the
 * root for reduce); `real(v)` maps to the global rank. `acc` is the buffer that accumulates the
 * result on every rank, `tmp` receives partner data before it is reduced into `acc`.
 */
import { RECV, SEND, type ScheduleBuilder } from '../schedule.js';
import { floorPow2, mod, unitOf } from './common.js';
import type { AlgorithmContext, RotationStreams } from '../registry.js';

type RotationVisit = Parameters<RotationStreams['forEachOp']>[1];
import { maxOf } from '../../util/arrays.js';

export interface Work {
  b: ScheduleBuilder;
  n: number;
  real: (v: number) => number;
  acc: number;
  tmp: number;
  /** Segment boundaries in bytes (element-aligned). */
  bounds: number[];
}

/** Every rank starts its accumulator `acc` as a copy of its whole send buffer; returns the acc region. */
export function seedAccumulators(b: ScheduleBuilder, n: number, bytes: number, acc: number): number {
  const whole = b.region(acc, 0, bytes);
  const send = b.region(SEND, 0, bytes);
  for (let r = 0; r < n; r++) b.copy(r, send, whole);
  return whole;
}

/** Bytes of the largest segment (what tmp must hold when only one segment arrives at a time). */
export function largestSegment(bounds: readonly number[]): number {
  return maxOf(bounds.slice(1).map((x, i) => x - bounds[i]));
}

/**
 * Reduce's last step after a reduce-scatter: segment i is held by relative rank holder(i) and goes
 * to the root's recv (segment 0 is the root's own).
 */
export function segmentsToRoot(w: Work, root: number, count: number, holder: (i: number) => number): void {
  w.b.copy(root, segs(w, w.acc, 0, 1), segs(w, RECV, 0, 1));
  for (let i = 1; i < count; i++) {
    w.b.send(w.real(holder(i)), root, segs(w, w.acc, i, i + 1), 8);
    w.b.recv(root, w.real(holder(i)), segs(w, RECV, i, i + 1), 8);
  }
}

/** Region of segments [from, to) in `buf`. */
export function segs(w: Work, buf: number, from: number, to: number): number {
  return w.b.region(buf, w.bounds[from], w.bounds[to] - w.bounds[from]);
}

/** Same length as segs(from, to) but at offset 0 of tmp (tmp only ever holds one incoming piece). */
function tmpFor(w: Work, from: number, to: number): number {
  return w.b.region(w.tmp, 0, w.bounds[to] - w.bounds[from]);
}

/** Receive segments [from, to) from `src` into tmp and reduce them into acc. */
function recvReduce(w: Work, v: number, src: number, from: number, to: number, tag: number): void {
  w.b.recv(w.real(v), w.real(src), tmpFor(w, from, to), tag);
  w.b.reduce(w.real(v), tmpFor(w, from, to), segs(w, w.acc, from, to));
}

/**
 * The one segment size of a ring over `ctx.ranks` ranks when every segment has it (whole units),
 * else undefined: the rings' rotation declarations (Algorithm.rotation) hold only then.
 */
export function equalRingSegment(ctx: AlgorithmContext): number | undefined {
  const n = ctx.ranks;
  const unit = unitOf(ctx);
  const units = Math.floor(ctx.size / unit);
  return n < 2 || units % n !== 0 ? undefined : (units / n) * unit;
}

/** Rank r's ring reduce-scatter steps as a rotation declaration visits them: per step a send to r+1, its receive from r-1 (tag 1), a reduce. */
export function visitRingReduceScatter(r: number, n: number, seg: number, visit: RotationVisit): void {
  for (let k = 0; k < n - 1; k++) {
    visit('send', mod(r + 1, n), seg, 1);
    visit('recv', mod(r - 1, n), seg, 1);
    visit('reduce', r, seg, 0);
  }
}

/** Ring reduce-scatter over n segments: afterwards rank v holds segment v fully reduced. */
export function ringReduceScatter(w: Work): void {
  const { n } = w;
  for (let k = 0; k < n - 1; k++) {
    for (let v = 0; v < n; v++) {
      const out = mod(v - k - 1, n);
      const inn = mod(v - k - 2, n);
      w.b.send(w.real(v), w.real(mod(v + 1, n)), segs(w, w.acc, out, out + 1), 1);
      recvReduce(w, v, mod(v - 1, n), inn, inn + 1, 1);
    }
  }
}

/**
 * The same ring with the next receive posted before the current one is waited for (Open MPI's and
 * SMPI's reduce_scatter `ompi_ring`, reduce_scatter-ompi.cpp): irecv the first segment, send segment
 * v-1; then per step irecv the next segment, wait for the previous, reduce it, send it on. Incoming
 * segments alternate between `tmp` and `tmp2` (SMPI's inbuf[0] and inbuf[1]).
 */
export function ringReduceScatterPreposted(w: Work, tmp2: number): void {
  const { n, b } = w;
  if (n === 1) return;
  const into = (k: number, seg: number): number => b.region(k % 2 === 0 ? w.tmp : tmp2, 0, w.bounds[seg + 1] - w.bounds[seg]);
  for (let v = 0; v < n; v++) {
    const rank = w.real(v);
    const from = w.real(mod(v - 1, n));
    const to = w.real(mod(v + 1, n));
    // Step k receives segment v-k-2 into tmp k mod 2, reduces it, and (but the last) sends it on.
    let pending = b.irecv(rank, from, into(0, mod(v - 2, n)), 1);
    b.send(rank, to, segs(w, w.acc, mod(v - 1, n), mod(v - 1, n) + 1), 1);
    for (let k = 0; k < n - 1; k++) {
      const seg = mod(v - k - 2, n);
      const next = k + 1 < n - 1 ? b.irecv(rank, from, into(k + 1, mod(v - k - 3, n)), 1) : -1;
      b.wait(rank, pending);
      b.reduce(rank, into(k, seg), segs(w, w.acc, seg, seg + 1));
      if (next >= 0) b.send(rank, to, segs(w, w.acc, seg, seg + 1), 1);
      pending = next;
    }
  }
}

/** Ring allgather over n segments: rank v starts with segment v of acc, ends with all. */
export function ringAllgather(w: Work): void {
  const { n } = w;
  for (let k = 0; k < n - 1; k++) {
    for (let v = 0; v < n; v++) {
      const out = mod(v - k, n);
      const inn = mod(v - k - 1, n);
      w.b.sendrecv(w.real(v), w.real(mod(v + 1, n)), segs(w, w.acc, out, out + 1), w.real(mod(v - 1, n)), segs(w, w.acc, inn, inn + 1), 2);
    }
  }
}

/**
 * The non-power-of-two fold: with p2 = floorPow2(n) and rem = n - p2, odd v < 2·rem send their whole
 * acc to v-1 and sit out (MPICH), or with `evenOut` even v send to v+1 (SimGrid SMPI's allreduce
 * rab_rdb, allreduce-rab-rdb.cpp); returns the active ranks' new numbering.
 */
export function foldIn(w: Work, whole: number, evenOut = false): { p2: number; rem: number; vOf: (nr: number) => number } {
  const p2 = floorPow2(w.n);
  const rem = w.n - p2;
  const tmpWhole = w.b.region(w.tmp, 0, w.bounds[w.bounds.length - 1]);
  const out = evenOut ? 0 : 1;
  for (let v = 0; v < 2 * rem; v++) {
    const partner = v % 2 === out ? (evenOut ? v + 1 : v - 1) : evenOut ? v - 1 : v + 1;
    // MPI_Send, the foldOut's MPI_Recv after it (SMPI's fold, as MPICH's): not a sendrecv.
    if (v % 2 === out) w.b.separateSend(w.real(v), w.real(partner), whole, 3);
    else {
      w.b.recv(w.real(v), w.real(partner), tmpWhole, 3);
      w.b.reduce(w.real(v), tmpWhole, whole);
    }
  }
  return { p2, rem, vOf: (nr) => (nr < rem ? 2 * nr + (evenOut ? 1 : 0) : nr + rem) };
}

/** Undoes foldIn for allreduce: the ranks that stayed in send the result back to the ones that sat out. */
export function foldOut(w: Work, rem: number, whole: number, evenOut = false): void {
  for (let v = 0; v < 2 * rem; v += 2) {
    const [active, idle] = evenOut ? [v + 1, v] : [v, v + 1];
    w.b.separateSend(w.real(active), w.real(idle), whole, 4);
    w.b.recv(w.real(idle), w.real(active), whole, 4);
  }
}

/** Recursive-doubling exchange of the whole acc among p2 active ranks (after foldIn). */
export function recursiveDoubling(w: Work, p2: number, vOf: (nr: number) => number, whole: number): void {
  const tmpWhole = w.b.region(w.tmp, 0, w.bounds[w.bounds.length - 1]);
  for (let mask = 1; mask < p2; mask <<= 1) {
    for (let nr = 0; nr < p2; nr++) {
      const v = vOf(nr);
      const p = vOf(nr ^ mask);
      w.b.sendrecv(w.real(v), w.real(p), whole, w.real(p), tmpWhole, 5);
      w.b.reduce(w.real(v), tmpWhole, whole);
    }
  }
}

/**
 * Partner order of recursive halving. 'far-first': masks p2/2 … 1, active nr ends with segment nr
 * (MPICH). 'near-first': masks 1 … p2/2, so the first and largest exchange is with nr XOR 1 and nr
 * ends with segment bit-reverse(nr) (SimGrid SMPI's allreduce `rab_rdb`).
 */
export type HalvingOrder = 'far-first' | 'near-first';
export const HALVING_ORDERS: readonly HalvingOrder[] = ['far-first', 'near-first'];

/** What recursive halving leaves: the masks in the order used and, after each step, each rank's first kept segment. */
export interface Halving {
  readonly masks: readonly number[];
  readonly kept: readonly Int32Array[];
}

/** Recursive-halving reduce-scatter among p2 active ranks over p2 segments (see HalvingOrder). */
export function recursiveHalving(w: Work, p2: number, vOf: (nr: number) => number, order: HalvingOrder = 'far-first'): Halving {
  const lo = new Int32Array(p2);
  const masks: number[] = [];
  const kept: Int32Array[] = [];
  let half = p2;
  for (let step = 1; step < p2; step <<= 1) {
    const mask = order === 'far-first' ? p2 / (2 * step) : step;
    half >>= 1;
    for (let nr = 0; nr < p2; nr++) {
      const v = vOf(nr);
      const keepLow = (nr & mask) === 0;
      const keep = keepLow ? lo[nr] : lo[nr] + half;
      const give = keepLow ? lo[nr] + half : lo[nr];
      w.b.send(w.real(v), w.real(vOf(nr ^ mask)), segs(w, w.acc, give, give + half), 6);
      recvReduce(w, v, vOf(nr ^ mask), keep, keep + half, 6);
      lo[nr] = keep;
    }
    masks.push(mask);
    kept.push(Int32Array.from(lo));
  }
  return { masks, kept };
}

/**
 * Binomial gather of the halving's result to active rank nr 0 (MPICH's and SMPI's reduce
 * `scatter_gather`, reduce-scatter-gather.cpp): the halving's steps undone in reverse order, one way
 * only. In each step the partner on the far side of the mask sends everything it holds and drops out,
 * so the data held doubles per step and nr 0 ends with the whole buffer in acc.
 */
export function binomialGather(w: Work, p2: number, vOf: (nr: number) => number, halving: Halving): void {
  const alive = new Uint8Array(p2).fill(1);
  for (let s = halving.masks.length - 1; s >= 0; s--) {
    const mask = halving.masks[s];
    const kept = halving.kept[s];
    const len = p2 >> (s + 1);
    for (let nr = 0; nr < p2; nr++) {
      if (!alive[nr] || (nr & mask) === 0) continue;
      const to = nr ^ mask;
      const held = segs(w, w.acc, kept[nr], kept[nr] + len);
      w.b.send(w.real(vOf(nr)), w.real(vOf(to)), held, 9);
      w.b.recv(w.real(vOf(to)), w.real(vOf(nr)), held, 9);
      alive[nr] = 0;
    }
  }
}

/** Recursive-doubling allgather among p2 active ranks: the halving's steps undone in reverse order. */
export function recursiveDoublingGather(w: Work, p2: number, vOf: (nr: number) => number, halving: Halving): void {
  for (let s = halving.masks.length - 1; s >= 0; s--) {
    const mask = halving.masks[s];
    const kept = halving.kept[s];
    const len = p2 >> (s + 1);
    for (let nr = 0; nr < p2; nr++) {
      const p = nr ^ mask;
      const mine = kept[nr];
      const theirs = kept[p];
      w.b.sendrecv(w.real(vOf(nr)), w.real(vOf(p)), segs(w, w.acc, mine, mine + len), w.real(vOf(p)), segs(w, w.acc, theirs, theirs + len), 7);
    }
  }
}

/**
 * SMPI's ireduce (smpi_nbc_impl.cpp), the default selector's reduce: every other rank sends its
 * whole buffer to `root`, which has a receive from each posted at once (rank order, one slot of
 * `slots` per sender), waits for all, then reduces them into `dst` in rank order after its own.
 * `offset`: where in the send buffer the `bytes` reduced start.
 */
export function linearReduce(b: ScheduleBuilder, n: number, root: number, bytes: number, slots: number, dst: number, offset = 0): void {
  const send = b.region(SEND, offset, bytes);
  b.copy(root, send, dst);
  for (let r = 0; r < n; r++) if (r !== root) b.send(r, root, send);
  for (let r = 0; r < n; r++) if (r !== root) b.irecv(root, r, b.region(slots, r * bytes, bytes));
  if (n > 1) b.waitall(root);
  for (let r = 0; r < n; r++) if (r !== root) b.reduce(root, b.region(slots, r * bytes, bytes), dst);
}
