/**
 * Max-min fair rates by progressive filling (water-filling): raise every unfrozen flow's rate
 * together; when a resource (channel, injection or ejection port) saturates, freeze the flows that
 * cross it at its fair share; a flow's own cap (pacing) freezes it when reached. Runs in
 * Two phases over flat typed arrays: first level by level (all resources at the lowest share
 * freeze together; collectives have few distinct levels, so this is a few linear passes), then,
 * if many levels remain, a lazy heap in O(P log P) for P path entries (a resource remembers its
 * latest key, so older heap entries are dropped when they surface).
 */
import { resized } from '../../util/typed-arrays.js';

/** Level-by-level rounds before the solver switches to its heap (see solve). */
export const LEVEL_ROUNDS = 32;

export class MaxMinSolver {
  private localIndex: Int32Array;
  private touched: Int32Array;
  private order: Int32Array;
  private count: Int32Array;
  private unfrozen: Int32Array;
  private rem: Float64Array;
  private latestKey: Float64Array;
  private start: Int32Array;
  private members: Int32Array;
  private heapKey: Float64Array;
  private heapVal: Int32Array;
  private heapSize = 0;
  private capped: Int32Array;
  private pending = new Int32Array(16);
  private nPending = 0;
  private pendingMark: Uint8Array;
  /** Solves performed, and path entries visited (for the result record). */
  solves = 0;
  work = 0;

  constructor(
    readonly capacity: Float64Array,
    /** Level-by-level rounds before the heap takes over. */
    readonly levelRounds = LEVEL_ROUNDS,
    /**
     * Push a resource's new share once per frozen resource rather than once per frozen flow: fewer
     * stale heap entries, same rates up to the order in which equal shares pop (so a rounding may
     * differ). The engine's local updates use it; exact updates keep the per-flow pushes.
     */
    readonly batchPushes = false,
  ) {
    const r = capacity.length;
    this.localIndex = new Int32Array(r).fill(-1);
    this.touched = new Int32Array(r);
    this.order = new Int32Array(r);
    this.count = new Int32Array(r);
    this.unfrozen = new Int32Array(r);
    this.rem = new Float64Array(r);
    this.latestKey = new Float64Array(r);
    this.start = new Int32Array(r + 1);
    this.members = new Int32Array(16);
    this.heapKey = new Float64Array(64);
    this.heapVal = new Int32Array(64);
    this.capped = new Int32Array(16);
    this.pendingMark = new Uint8Array(batchPushes ? r : 0);
  }

  /**
   * Sets rate[f] for every f in active[0..n). Flow f crosses resources arena[pathStart[f] ..
   * pathStart[f] + pathLen[f]); cap[f] is its own rate limit (Infinity for none). `capacity`
   * overrides the resources' capacities (the engine's local update passes what other flows leave).
   */
  solve(active: Int32Array, n: number, pathStart: Int32Array, pathLen: Int32Array, arena: Int32Array, cap: Float64Array, rate: Float64Array, capacity: Float64Array = this.capacity): void {
    this.solves++;
    const idx = this.localIndex;
    let nt = 0;
    let entries = 0;
    let nCapped = 0;
    for (let a = 0; a < n; a++) {
      const f = active[a];
      rate[f] = -1;
      const s = pathStart[f];
      const e = s + pathLen[f];
      entries += pathLen[f];
      for (let p = s; p < e; p++) {
        const r = arena[p];
        let i = idx[r];
        if (i < 0) {
          i = idx[r] = nt;
          this.touched[nt++] = r;
          this.count[i] = 0;
        }
        this.count[i]++;
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
    for (let a = 0; a < n; a++) {
      const f = active[a];
      const s = pathStart[f];
      const e = s + pathLen[f];
      for (let p = s; p < e; p++) this.members[this.count[idx[arena[p]]]++] = f;
    }
    // Capped flows in increasing cap order (ties by flow id, for determinism).
    const cappedList = this.capped.subarray(0, nCapped);
    cappedList.sort((x, y) => cap[x] - cap[y] || x - y);
    let nextCap = 0;

    // Phase 1, level by level: freeze every resource at the lowest fair share at once. Symmetric
    // workloads (collectives) have few distinct levels, so this is a few linear passes.
    let live = nt;
    const order = this.order;
    for (let i = 0; i < nt; i++) order[i] = i;
    let rounds = 0;
    while (live > 0 && rounds < this.levelRounds) {
      rounds++;
      let level = Infinity;
      for (let k = 0; k < live; k++) {
        const i = order[k];
        const sh = Math.max(0, this.rem[i]) / this.unfrozen[i];
        if (sh < level) level = sh;
      }
      while (nextCap < nCapped && rate[cappedList[nextCap]] >= 0) nextCap++;
      if (nextCap < nCapped && cap[cappedList[nextCap]] < level) {
        const f = cappedList[nextCap++];
        this.freeze(f, cap[f], pathStart, pathLen, arena, rate, -2);
      } else {
        const top = level * (1 + 1e-12);
        for (let k = 0; k < live; k++) {
          const i = order[k];
          if (this.unfrozen[i] === 0 || Math.max(0, this.rem[i]) / this.unfrozen[i] > top) continue;
          for (let m = start[i]; m < start[i + 1]; m++) {
            const f = this.members[m];
            if (rate[f] < 0) this.freeze(f, level, pathStart, pathLen, arena, rate, -2);
          }
        }
      }
      let w = 0;
      for (let k = 0; k < live; k++) if (this.unfrozen[order[k]] > 0) order[w++] = order[k];
      live = w;
    }

    // Phase 2, for workloads with many distinct levels: a lazy heap over the remaining resources.
    this.heapSize = 0;
    for (let k = 0; k < live; k++) {
      const i = order[k];
      this.pushShare(i, Math.max(0, this.rem[i]) / this.unfrozen[i]);
    }
    while (this.heapSize > 0) {
      const key = this.heapKey[0];
      const i = this.heapVal[0];
      if (this.unfrozen[i] === 0 || key !== this.latestKey[i]) {
        this.heapPop();
        continue;
      }
      while (nextCap < nCapped && rate[cappedList[nextCap]] >= 0) nextCap++;
      if (nextCap < nCapped && cap[cappedList[nextCap]] < key) {
        const f = cappedList[nextCap++];
        this.freeze(f, cap[f], pathStart, pathLen, arena, rate, -1);
        continue;
      }
      this.heapPop();
      const skip = this.batchPushes ? -3 : i;
      for (let m = start[i]; m < start[i + 1]; m++) {
        const f = this.members[m];
        if (rate[f] < 0) this.freeze(f, key, pathStart, pathLen, arena, rate, skip);
      }
      for (let k = 0; k < this.nPending; k++) {
        const j = this.pending[k];
        this.pendingMark[j] = 0;
        const u = this.unfrozen[j];
        if (u > 0) this.pushShare(j, Math.max(0, this.rem[j]) / u);
      }
      this.nPending = 0;
    }
    // Flows that cross no resource (zero-length paths) run at their cap, or unbounded.
    for (let a = 0; a < n; a++) {
      const f = active[a];
      if (rate[f] < 0) rate[f] = cap[f];
    }
    for (let i = 0; i < nt; i++) idx[this.touched[i]] = -1;
  }

  private freeze(f: number, r: number, pathStart: Int32Array, pathLen: Int32Array, arena: Int32Array, rate: Float64Array, skip: number): void {
    rate[f] = r;
    const s = pathStart[f];
    const e = s + pathLen[f];
    for (let p = s; p < e; p++) {
      const j = this.localIndex[arena[p]];
      this.rem[j] -= r;
      const u = --this.unfrozen[j];
      if (skip === -3) {
        // Batched: remember j, push its share once the whole resource has frozen.
        if (!this.pendingMark[j]) {
          this.pendingMark[j] = 1;
          if (this.nPending === this.pending.length) this.pending = resized(this.pending, this.nPending * 2);
          this.pending[this.nPending++] = j;
        }
      } else if (skip !== -2 && j !== skip && u > 0) this.pushShare(j, Math.max(0, this.rem[j]) / u);
    }
  }

  private pushShare(i: number, share: number): void {
    this.latestKey[i] = share;
    this.heapPush(share, i);
  }

  private heapPush(key: number, val: number): void {
    if (this.heapSize === this.heapKey.length) {
      const k = new Float64Array(this.heapSize * 2);
      k.set(this.heapKey);
      this.heapKey = k;
      this.heapVal = resized(this.heapVal, this.heapSize * 2);
    }
    const hk = this.heapKey;
    const hv = this.heapVal;
    let i = this.heapSize++;
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

  private heapPop(): void {
    const n = --this.heapSize;
    if (n === 0) return;
    const hk = this.heapKey;
    const hv = this.heapVal;
    const key = hk[n];
    const val = hv[n];
    let i = 0;
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

