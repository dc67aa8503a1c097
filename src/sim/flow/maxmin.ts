/**
 * Max-min fair rates by progressive filling (water-filling): raise every unfrozen flow's rate
 * together; when a resource (channel, injection or ejection port) saturates, freeze the flows that
 * cross it at its fair share; a flow's own cap (pacing) freezes it when reached. Runs in
 * Two phases over flat typed arrays: first level by level (all resources at the lowest share
 * freeze together; collectives have few distinct levels, so this is a few linear passes), then,
 * if many levels remain, a lazy heap in O(P log P) for P path entries (a resource remembers its
 * latest key, so older heap entries are dropped when they surface).
 *
 * SubsetFiller is the same filling for the engine's local (incremental) updates: it re-rates a
 * subset of the active flows within what the others leave, reading the flows on a resource from the
 * engine's live incidence lists instead of rebuilding member lists per solve.
 */
import { resized } from '../../util/typed-arrays.js';

/**
 * A flow's share weight under SimGrid's CM02 network model (network_cm02.cpp, `communicate`): its
 * LMM variable's sharing penalty is the route latency plus weight-S / bandwidth per link (weight-S
 * is 0 in CM02, 8775 in SMPI's model), and the LMM gives each flow on a saturated constraint a rate
 * inversely proportional to its penalty. A penalty of 0 keeps SimGrid's initial penalty of 1.
 */
export function cm02Weight(penalty: number): number {
  return penalty > 0 ? 1 / penalty : 1;
}

/**
 * Path entries that load a resource at a fraction of the flow's rate (SimGrid's cross-traffic:
 * a transfer's acknowledgements on its reverse route): an entry `base + r` stands for resource r
 * with coefficient `coef`; every other entry loads its resource with coefficient 1.
 */
export interface FractionalEntries {
  readonly base: number;
  readonly coef: number;
}

/**
 * The level at which capped flow f freezes at its cap: cap × its CM02 penalty when penalties are
 * given (the product SimGrid's LMM compares: see MaxMinSolver.solve's `penalty`), else cap / weight.
 */
export function capLevelOf(f: number, cap: Float64Array, weight: Float64Array | null, penalty: Float64Array | null): number {
  return weight === null ? cap[f] : penalty === null ? cap[f] / weight[f] : cap[f] * penalty[f];
}

/** Level-by-level rounds before the solver switches to its heap (see solve). */
export const LEVEL_ROUNDS = 32;

/**
 * Phase 1 checks, for the freeze tolerance of 1e-12, only the resources whose share at the round's
 * start is within this factor of the round's level (unweighted solves; see solve). The margin over
 * 1e-12 covers the roundings of a resource's capacity left as flows freeze during the round.
 */
const CANDIDATE_BAND = 1 + 1e-9;

export class MaxMinSolver {
  private localIndex: Int32Array;
  private touched: Int32Array;
  private order: Int32Array;
  /** The resources one round of phase 1 checks, in the order of the live ones. */
  private candidates: Int32Array;
  private count: Int32Array;
  private unfrozen: Int32Array;
  /** Sum of the share weights of a resource's unfrozen flows (its unfrozen count when unweighted). */
  private weightSum: Float64Array;
  private rem: Float64Array;
  private latestKey: Float64Array;
  private start: Int32Array;
  private members: Int32Array;
  private heap = new ShareHeap();
  private capped: Int32Array;
  private capHeap = new CapHeap();
  /** A capped flow freezes at its cap when the level reaches cap / weight (the cap itself when unweighted). */
  private capLevel = new Float64Array(16);
  /** The share weights of the current solve, or null for plain max-min. */
  private weight: Float64Array | null = null;
  /** Where the current solve records each flow's freezing level, or null. */
  private levelOut: Float64Array | null = null;
  /**
   * The local resource index of every path entry of the solve, flow by flow from flowEntry[f]: the
   * member fill and every freeze then read it in order instead of looking resources up again
   * (random reads into per-resource state were most of the solve at 32×32×32).
   */
  private entryLocal = new Int32Array(1024);
  private flowEntry = new Int32Array(1024);
  /** Solves performed, and path entries visited (for the result record). */
  solves = 0;
  work = 0;

  /** Each path entry's coefficient in the current solve (1, or the fractional entries' coef). */
  private entryCoef = new Float64Array(1024);
  /** Per local resource: 1 for a FATPIPE one (see `fatpipe`). */
  private fat: Uint8Array;
  /** Per local FATPIPE resource: 1 when a member froze since its largest unfrozen weight was taken. */
  private fatStale: Uint8Array;
  /** Per member slot, its entry's weight × coefficient (filled when the solve touches a FATPIPE resource). */
  private memberLoad = new Float64Array(16);
  /** Whether the current solve touches a FATPIPE resource. */
  private anyFat = false;

  constructor(
    readonly capacity: Float64Array,
    /** Level-by-level rounds before the heap takes over. */
    readonly levelRounds = LEVEL_ROUNDS,
    /** Entries at or above fractional.base load resource (entry − base) at fractional.coef of the flow's rate; null: none. */
    readonly fractional: FractionalEntries | null = null,
    /**
     * 1 for a resource shared as SimGrid shares a FATPIPE link (lmm maxmin.cpp): its flows do not
     * add up; its usage is the largest weight × coefficient among its unfrozen flows, so it
     * saturates when the level reaches capacity / that weight, and then every unfrozen flow on it
     * freezes at once, each at that level × its own weight (equal weights: each alone at the
     * capacity). Its capacity is never drawn down. Null: none.
     */
    readonly fatpipe: Uint8Array | null = null,
  ) {
    const r = capacity.length;
    this.fat = new Uint8Array(r);
    this.fatStale = new Uint8Array(r);
    this.localIndex = new Int32Array(r).fill(-1);
    this.touched = new Int32Array(r);
    this.order = new Int32Array(r);
    this.candidates = new Int32Array(r);
    this.count = new Int32Array(r);
    this.unfrozen = new Int32Array(r);
    this.weightSum = new Float64Array(r);
    this.rem = new Float64Array(r);
    this.latestKey = new Float64Array(r);
    this.start = new Int32Array(r + 1);
    this.members = new Int32Array(16);
    this.capped = new Int32Array(16);
  }

  /**
   * Sets rate[f] for every f in active[0..n). Flow f crosses resources arena[pathStart[f] ..
   * pathStart[f] + pathLen[f]); cap[f] is its own rate limit (Infinity for none). `capacity`
   * overrides the resources' capacities (the engine's local update passes what other flows leave).
   *
   * `weight` makes the filling weighted (SimGrid's LMM, see `sharingWeight`): the level λ rises on
   * every resource, flow f runs at λ × weight[f], a resource saturates when Σ λ × weight = its
   * capacity, and a capped flow freezes when λ × weight[f] reaches its cap. Without it every weight
   * is 1 and this is plain max-min, with the same floating-point operations as before.
   *
   * `level`, when given, receives each flow's freezing level (its rate / weight, or cap / weight for
   * a flow frozen by its cap; Infinity for a flow that crosses no resource): the incremental exact
   * update (component-rate-update.ts) decides from the levels which flows a change can move.
   */
  solve(
    active: Int32Array,
    n: number,
    pathStart: Int32Array,
    pathLen: Int32Array,
    arena: Int32Array,
    cap: Float64Array,
    rate: Float64Array,
    capacity: Float64Array = this.capacity,
    weight: Float64Array | null = null,
    level: Float64Array | null = null,
    /**
     * Each flow's CM02 sharing penalty (1 / its weight, as SimGrid holds it), with `weight`: a capped
     * flow's level is then cap × penalty, the product SimGrid's LMM compares with a constraint's
     * remaining / usage (maxmin.cpp: var.bound × var.sharing_penalty < min_usage). Where a flow's cap
     * and its share of a FATPIPE link are the same level in exact arithmetic, that rounding decides
     * whether it freezes alone at its cap or with the link's other flows; null: cap / weight.
     */
    penalty: Float64Array | null = null,
  ): void {
    this.solves++;
    this.weight = weight;
    this.levelOut = level;
    const idx = this.localIndex;
    let nt = 0;
    let entries = 0;
    let nCapped = 0;
    if (this.flowEntry.length < pathStart.length) this.flowEntry = new Int32Array(pathStart.length);
    const flowEntry = this.flowEntry;
    let local = this.entryLocal;
    const { touched, count, weightSum } = this;
    // Fractional entries (cross-traffic): resource and coefficient per entry; x × 1 is x exactly, so
    // without them the solve performs the same floating-point operations as before.
    const fractional = this.fractional;
    const fBase = fractional === null ? Infinity : fractional.base;
    const fCoef = fractional === null ? 1 : fractional.coef;
    const fatpipe = this.fatpipe;
    const fat = this.fat;
    let anyFat = false;
    let coefs = this.entryCoef;
    for (let a = 0; a < n; a++) {
      const f = active[a];
      rate[f] = -1;
      const s = pathStart[f];
      const e = s + pathLen[f];
      if (entries + pathLen[f] > local.length) local = this.entryLocal = resized(local, Math.max(2 * local.length, entries + pathLen[f]));
      if (entries + pathLen[f] > coefs.length) coefs = this.entryCoef = resized(coefs, Math.max(2 * coefs.length, entries + pathLen[f]));
      flowEntry[f] = entries;
      const w = weight === null ? 1 : weight[f];
      for (let p = s; p < e; p++) {
        let r = arena[p];
        let c = 1;
        if (r >= fBase) {
          r -= fBase;
          c = fCoef;
        }
        let i = idx[r];
        if (i < 0) {
          i = idx[r] = nt;
          touched[nt++] = r;
          count[i] = 0;
          weightSum[i] = 0;
          if (fatpipe !== null) {
            fat[i] = fatpipe[r];
            this.fatStale[i] = 0;
            if (fat[i] === 1) anyFat = true;
          }
        }
        count[i]++;
        // A FATPIPE resource's usage is its largest load, not their sum.
        if (fatpipe !== null && fat[i] === 1) weightSum[i] = Math.max(weightSum[i], w * c);
        else weightSum[i] += w * c;
        coefs[entries] = c;
        local[entries++] = i;
      }
      if (cap[f] !== Infinity) {
        if (nCapped === this.capped.length) this.capped = resized(this.capped, nCapped * 2);
        this.capped[nCapped++] = f;
      }
    }
    this.work += entries;
    if (this.members.length < entries) this.members = new Int32Array(Math.max(entries, this.members.length * 2));
    const start = this.start;
    start[0] = 0;
    for (let i = 0; i < nt; i++) {
      start[i + 1] = start[i] + this.count[i];
      this.unfrozen[i] = this.count[i];
      this.rem[i] = capacity[this.touched[i]];
      this.count[i] = start[i];
    }
    const members = this.members;
    if (anyFat && this.memberLoad.length < entries) this.memberLoad = new Float64Array(Math.max(entries, this.memberLoad.length * 2));
    const memberLoad = this.memberLoad;
    for (let a = 0; a < n; a++) {
      const f = active[a];
      const s = flowEntry[f];
      const e = s + pathLen[f];
      if (!anyFat) {
        for (let p = s; p < e; p++) members[count[local[p]]++] = f;
        continue;
      }
      const w = weight === null ? 1 : weight[f];
      for (let p = s; p < e; p++) {
        const m = count[local[p]]++;
        members[m] = f;
        memberLoad[m] = w * coefs[p];
      }
    }
    this.anyFat = anyFat;
    // Capped flows by increasing cap (ties by flow id, for determinism), in a heap: a solve
    // usually freezes few of them by their cap, so sorting them all was wasted (3 % of a
    // 32×32×32 run).
    const capHeap = this.capHeap;
    let capLevel = cap;
    if (weight !== null) {
      if (this.capLevel.length < cap.length) this.capLevel = new Float64Array(cap.length);
      capLevel = this.capLevel;
      for (let k = 0; k < nCapped; k++) {
        const f = this.capped[k];
        capLevel[f] = capLevelOf(f, cap, weight, penalty);
      }
    }
    capHeap.build(this.capped, nCapped, capLevel);

    // Phase 1, level by level: freeze every resource at the lowest fair share at once. Symmetric
    // workloads (collectives) have few distinct levels, so this is a few linear passes. One pass per
    // round drops the resources left with no unfrozen flow, finds the lowest share and lists the
    // candidates to freeze at it (scanning every live resource three times a round was most of the
    // solve on pairwise alltoall over a 16×16×8 torus).
    const order = this.order;
    for (let i = 0; i < nt; i++) order[i] = i;
    let live = nt;
    // Unweighted, a resource whose share exceeds the round's level by more than 1e-9 relative never
    // comes within the 1e-12 freeze tolerance during the round: freezing flows at that level only
    // raises its share (its weight sum is an exact count, and roundings of its capacity left move the
    // share by a few ulps per flow), so only the candidates are checked, in the order of every live
    // resource before. Weighted sums are rounded, so there every live resource stays a candidate.
    const everyCandidate = weight !== null || fractional !== null || anyFat;
    const { unfrozen, rem, candidates } = this;
    let rounds = 0;
    for (;;) {
      let w = 0;
      let level = Infinity;
      let nCand = 0;
      for (let k = 0; k < live; k++) {
        const i = order[k];
        if (unfrozen[i] === 0) continue;
        order[w++] = i;
        if (anyFat && this.fatStale[i] === 1) this.refreshFat(i, rate);
        const sh = Math.max(0, rem[i]) / weightSum[i];
        if (sh < level) level = sh;
        if (everyCandidate || sh <= level * CANDIDATE_BAND) candidates[nCand++] = i;
      }
      live = w;
      if (live === 0 || rounds === this.levelRounds) break;
      rounds++;
      while (capHeap.size > 0 && rate[capHeap.top()] >= 0) capHeap.pop();
      if (capHeap.size > 0 && capLevel[capHeap.top()] < level) {
        const f = capHeap.top();
        capHeap.pop();
        this.freeze(f, capLevel[f], pathLen, rate, -2);
        continue;
      }
      const top = level * (1 + 1e-12);
      for (let c = 0; c < nCand; c++) {
        const i = candidates[c];
        if (unfrozen[i] === 0 || Math.max(0, rem[i]) / weightSum[i] > top) continue;
        for (let m = start[i]; m < start[i + 1]; m++) {
          const f = this.members[m];
          if (rate[f] < 0) this.freeze(f, level, pathLen, rate, -2);
        }
      }
    }

    // Phase 2, for workloads with many distinct levels: a lazy heap over the remaining resources.
    const heap = this.heap;
    heap.size = 0;
    for (let k = 0; k < live; k++) {
      const i = order[k];
      if (anyFat && this.fatStale[i] === 1) this.refreshFat(i, rate);
      this.pushShare(i, Math.max(0, this.rem[i]) / this.weightSum[i]);
    }
    while (heap.size > 0) {
      const key = heap.key[0];
      const i = heap.val[0];
      if (this.unfrozen[i] === 0 || key !== this.latestKey[i]) {
        heap.pop();
        continue;
      }
      // A FATPIPE resource whose flows froze elsewhere: its share only rose, so its key was a lower bound.
      if (anyFat && this.fatStale[i] === 1) {
        this.refreshFat(i, rate);
        heap.pop();
        this.pushShare(i, Math.max(0, this.rem[i]) / this.weightSum[i]);
        continue;
      }
      while (capHeap.size > 0 && rate[capHeap.top()] >= 0) capHeap.pop();
      if (capHeap.size > 0 && capLevel[capHeap.top()] < key) {
        const f = capHeap.top();
        capHeap.pop();
        this.freeze(f, capLevel[f], pathLen, rate, -1);
        continue;
      }
      heap.pop();
      for (let m = start[i]; m < start[i + 1]; m++) {
        const f = this.members[m];
        if (rate[f] < 0) this.freeze(f, key, pathLen, rate, i);
      }
    }
    // Flows that cross no resource (zero-length paths) run at their cap, or unbounded.
    for (let a = 0; a < n; a++) {
      const f = active[a];
      if (rate[f] < 0) {
        rate[f] = cap[f];
        if (level !== null) level[f] = Infinity;
      }
    }
    for (let i = 0; i < nt; i++) idx[this.touched[i]] = -1;
  }

  /** Freezes flow f at `level` (its rate is level × its weight). */
  private freeze(f: number, level: number, pathLen: Int32Array, rate: Float64Array, skip: number): void {
    const w = this.weight === null ? 1 : this.weight[f];
    const r = level * w;
    rate[f] = r;
    if (this.levelOut !== null) this.levelOut[f] = level;
    const s = this.flowEntry[f];
    const e = s + pathLen[f];
    const local = this.entryLocal;
    const coefs = this.entryCoef;
    const rem = this.rem;
    const unfrozen = this.unfrozen;
    const weightSum = this.weightSum;
    const fat = this.fat;
    const anyFat = this.anyFat;
    for (let p = s; p < e; p++) {
      const j = local[p];
      const c = coefs[p];
      if (anyFat && fat[j] === 1) {
        // Its capacity is not drawn down; its usage is re-taken when next read (refreshFat).
        --unfrozen[j];
        this.fatStale[j] = 1;
        continue;
      }
      rem[j] -= r * c;
      const u = --unfrozen[j];
      weightSum[j] -= w * c;
      if (skip !== -2 && j !== skip && u > 0) this.pushShare(j, Math.max(0, rem[j]) / weightSum[j]);
    }
  }

  /** A FATPIPE resource's usage again: the largest load among its members not yet frozen. */
  private refreshFat(i: number, rate: Float64Array): void {
    let most = 0;
    for (let m = this.start[i]; m < this.start[i + 1]; m++) if (rate[this.members[m]] < 0) most = Math.max(most, this.memberLoad[m]);
    this.weightSum[i] = most;
    this.fatStale[i] = 0;
  }

  private pushShare(i: number, share: number): void {
    this.latestKey[i] = share;
    this.heap.push(share, i);
  }
}

/** A binary min-heap of flow ids by (cap, id), built in place over the caller's id array. */
class CapHeap {
  private ids: Int32Array = new Int32Array(0);
  private cap: Float64Array = new Float64Array(0);
  size = 0;

  build(ids: Int32Array, n: number, cap: Float64Array): void {
    this.ids = ids;
    this.cap = cap;
    this.size = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.siftDown(i, ids[i]);
  }

  top(): number {
    return this.ids[0];
  }

  pop(): void {
    const n = --this.size;
    if (n > 0) this.siftDown(0, this.ids[n]);
  }

  private before(a: number, b: number): boolean {
    const ca = this.cap[a];
    const cb = this.cap[b];
    return ca < cb || (ca === cb && a < b);
  }

  private siftDown(start: number, f: number): void {
    const ids = this.ids;
    const n = this.size;
    let i = start;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.before(ids[c + 1], ids[c])) c++;
      if (!this.before(ids[c], f)) break;
      ids[i] = ids[c];
      i = c;
    }
    ids[i] = f;
  }
}

/** A binary min-heap of (share, resource) pairs over typed arrays (no allocation per push). */
export class ShareHeap {
  key = new Float64Array(64);
  val = new Int32Array(64);
  size = 0;

  push(key: number, val: number): void {
    if (this.size === this.key.length) {
      this.key = resized(this.key, this.size * 2);
      this.val = resized(this.val, this.size * 2);
    }
    const hk = this.key;
    const hv = this.val;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = hk[p];
      if (pk <= key) break;
      hk[i] = pk;
      hv[i] = hv[p];
      i = p;
    }
    hk[i] = key;
    hv[i] = val;
  }

  /** Adds an entry without ordering it: call heapify() before the next push or pop. */
  append(key: number, val: number): void {
    if (this.size === this.key.length) {
      this.key = resized(this.key, this.size * 2);
      this.val = resized(this.val, this.size * 2);
    }
    this.key[this.size] = key;
    this.val[this.size++] = val;
  }

  /** Orders the entries in O(size) (Floyd). */
  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i, this.key[i], this.val[i], this.size);
  }

  /** Replaces the top entry (a key that rose) and restores the order. */
  replaceTop(key: number, val: number): void {
    this.siftDown(0, key, val, this.size);
  }

  pop(): void {
    const n = --this.size;
    if (n === 0) return;
    const hk = this.key;
    const hv = this.val;
    this.siftDown(0, hk[n], hv[n], n);
  }

  private siftDown(start: number, key: number, val: number, n: number): void {
    const hk = this.key;
    const hv = this.val;
    let i = start;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let ck = hk[c];
      if (c + 1 < n) {
        const rk = hk[c + 1];
        if (rk < ck) {
          c++;
          ck = rk;
        }
      }
      if (key <= ck) break;
      hk[i] = ck;
      hv[i] = hv[c];
      i = c;
    }
    hk[i] = key;
    hv[i] = val;
  }
}


/**
 * Progressive filling of a subset of the active flows within what the other flows leave on each
 * resource: the engine's local (incremental) rate updates. The rates are those MaxMinSolver.solve
 * gives for the subset with `avail` as capacities, up to the order of floating-point updates (tested
 * against it). Hand-written for the hot loop of 32×32 pairwise alltoall (a third of a million updates):
 * per-resource state is indexed by resource id, and the flows on a resource come from the caller's
 * live incidence lists, so a solve costs the subset's path entries with no per-solve rebuild of
 * member lists (half the CPU profile before).
 *
 * One heap holds resources and flow limits. A resource that only one subset flow crosses (half of
 * them in a local update) limits that flow exactly like a cap, so it enters as part of the flow's
 * limit; the others enter with their share. A frozen flow takes at most the lowest share, so the
 * other shares only rise: each resource keeps one entry, a lower bound of its share, raised when it
 * surfaces stale. The filling stops as soon as every flow is rated.
 */
export class SubsetFiller {
  private rem: Float64Array;
  private unfrozen: Int32Array;
  private limit: Float64Array = new Float64Array(1024);
  private heap = new ShareHeap();
  /** Subset flows not yet rated. */
  private left = 0;
  private load: Float64Array;
  private noLoad: Float64Array;
  /** Solves performed, and path entries visited (for the result record). */
  solves = 0;
  work = 0;

  constructor(numResources: number) {
    this.rem = new Float64Array(numResources);
    this.unfrozen = new Int32Array(numResources);
    this.noLoad = new Float64Array(numResources);
    this.load = this.noLoad;
  }

  /**
   * Sets rate[f] for the subset flows[0..n): flow f crosses resources arena[pathStart[f] ..
   * pathStart[f] + pathLen[f]) and is capped at cap[f] (Infinity for none). The subset's resources
   * are touched[0..nTouched); resource r offers avail[r] to the subset and is crossed by count[r] of
   * its flows (when one, that flow is only[r]). lists[r][0..listLen[r]) holds the arena positions of
   * every active flow on r, owner[p] the flow at position p; the subset is the flows with
   * member[f] === mark.
   */
  solve(
    flows: Int32Array,
    n: number,
    pathStart: Int32Array,
    pathLen: Int32Array,
    arena: Int32Array,
    cap: Float64Array,
    rate: Float64Array,
    touched: Int32Array,
    nTouched: number,
    avail: Float64Array,
    count: Int32Array,
    only: Int32Array,
    lists: readonly (readonly number[])[],
    listLen: Int32Array,
    owner: Int32Array,
    member: Int32Array,
    mark: number,
    /** When given, each flow's new rate is added to load[r] for every resource r it crosses. */
    load?: Float64Array,
  ): void {
    this.load = load ?? this.noLoad;
    this.solves++;
    const rem = this.rem;
    const unfrozen = this.unfrozen;
    if (this.limit.length < rate.length) this.limit = new Float64Array(rate.length);
    const limit = this.limit;
    for (let a = 0; a < n; a++) {
      const f = flows[a];
      rate[f] = -1;
      limit[f] = cap[f];
      this.work += pathLen[f];
    }
    const heap = this.heap;
    heap.size = 0;
    for (let k = 0; k < nTouched; k++) {
      const r = touched[k];
      const c = count[r];
      const room = Math.max(0, avail[r]);
      rem[r] = avail[r];
      unfrozen[r] = c;
      if (c > 1) heap.append(room / c, r);
      else if (room < limit[only[r]]) limit[only[r]] = room;
    }
    // Flow limits enter as ~f (negative): they never go stale.
    for (let a = 0; a < n; a++) {
      const f = flows[a];
      if (limit[f] !== Infinity) heap.append(limit[f], ~f);
    }
    heap.heapify();
    this.left = n;
    while (heap.size > 0 && this.left > 0) {
      const v = heap.val[0];
      if (v < 0) {
        const f = ~v;
        const key = heap.key[0];
        heap.pop();
        if (rate[f] < 0) this.freeze(f, key, pathStart, pathLen, arena, rate);
        continue;
      }
      const u = unfrozen[v];
      if (u === 0) {
        heap.pop();
        continue;
      }
      const share = Math.max(0, rem[v]) / u;
      if (share > heap.key[0]) {
        heap.replaceTop(share, v);
        continue;
      }
      heap.pop();
      const list = lists[v];
      const live = listLen[v];
      for (let i = 0; i < live; i++) {
        const f = owner[list[i]];
        if (member[f] === mark && rate[f] < 0) this.freeze(f, share, pathStart, pathLen, arena, rate);
      }
    }
    // Flows with no limit at all run unbounded.
    for (let a = 0; a < n && this.left > 0; a++) {
      const f = flows[a];
      if (rate[f] < 0) this.freeze(f, Infinity, pathStart, pathLen, arena, rate);
    }
  }

  private freeze(f: number, r: number, pathStart: Int32Array, pathLen: Int32Array, arena: Int32Array, rate: Float64Array): void {
    rate[f] = r;
    this.left--;
    const rem = this.rem;
    const unfrozen = this.unfrozen;
    const load = this.load;
    const e = pathStart[f] + pathLen[f];
    for (let p = pathStart[f]; p < e; p++) {
      const j = arena[p];
      rem[j] -= r;
      unfrozen[j]--;
      load[j] += r;
    }
  }
}
