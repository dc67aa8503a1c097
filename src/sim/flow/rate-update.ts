/**
 * The flow engine's rate updates (model.rateUpdate): after each batch of flow starts and finishes,
 * new max-min rates, the bytes each flow has left, and when the next flow finishes.
 *
 * - `ExactRateUpdate` re-rates every active flow with the full solver and keeps plain per-batch
 *   passes (its results must not move by a rounding).
 * - `LocalRateUpdate` re-rates only the flows crossing a resource that a started or finished flow
 *   touched, and keeps flow state lazy, so that a batch costs what it touches, not O(active flows):
 *   flows.rem[f] is exact at time flows.t[f] (brought forward when the flow is re-rated), finish
 *   times wait in an indexed heap (one entry per flow, moved when re-rated), and the aggregate rate
 *   is kept as a running sum.
 */
import { resized } from '../../util/typed-arrays.js';
import { IndexedTimeHeap } from '../program/event-queue.js';
import { LEVEL_ROUNDS, MaxMinSolver, SubsetFiller, type FractionalEntries } from './maxmin.js';
import type { FlowTable } from './flow-table.js';
import { ARENA_COMPACTED, type PathArena } from './path-arena.js';

export interface RateUpdater {
  /** Flow f joined the active flows (its path is in the arena). */
  activate(f: number): void;
  /** Active flow f finished (it is still in the table, at its last rate). */
  finish(f: number): void;
  /** Time moved on by dt seconds since the last batch. */
  advance(dt: number): void;
  /** Re-rates after a batch at time `now`; returns the aggregate rate. */
  rerate(now: number): number;
  /** The earliest finish time of the active flows, as of the last rerate. */
  earliestFinish(): number;
  /** Appends the flows that finish by `horizon` to `out` (any order). */
  takeFinishing(horizon: number, out: FlowIdList): void;
  /** The arena compacted or grew (ARENA_COMPACTED, ARENA_GROWN). */
  arenaChanged(change: number): void;
  /** Solves performed, and path entries visited (for the result record). */
  readonly solves: number;
  readonly work: number;
}

/**
 * A list of flow ids kept across batches: `clear()` keeps its storage (a number[] emptied with
 * `length = 0` dropped its backing store every batch, about 12 MB per 32,768-rank recursive doubling).
 */
export class FlowIdList {
  ids = new Int32Array(1024);
  n = 0;

  push(f: number): void {
    if (this.n === this.ids.length) this.ids = resized(this.ids, 2 * this.n);
    this.ids[this.n++] = f;
  }

  clear(): void {
    this.n = 0;
  }
}

/**
 * What every rate update shares: its solver's counters for the result record (solves, path
 * entries visited).
 */
export abstract class RateUpdateBase implements RateUpdater {
  protected abstract readonly counters: { readonly solves: number; readonly work: number };

  get solves(): number {
    return this.counters.solves;
  }

  get work(): number {
    return this.counters.work;
  }

  abstract activate(f: number): void;
  abstract finish(f: number): void;
  abstract advance(dt: number): void;
  abstract rerate(now: number): number;
  abstract earliestFinish(): number;
  abstract takeFinishing(horizon: number, out: FlowIdList): void;
  abstract arenaChanged(change: number): void;
}

/** The list of every resource never added to: shared, never written (its length stays 0). */
const NO_ENTRIES: number[] = [];

/**
 * Per resource, a list of entries (flow ids or arena positions) whose live part is its first
 * count[r] entries. The arrays never shrink, so a resource whose flows come and go does not
 * reallocate (pop/push churn was a tenth of the event handling). A resource's array is made at
 * its first entry, holding just that entry: one empty array per resource up front and a first
 * push (which reserves 17 slots) were about 19 MB per 32,768-rank recursive doubling, whose
 * resources mostly carry one flow at a time (docs/performance.md, "Outside the rate update").
 */
export class ResourceLists {
  readonly lists: number[][];
  readonly count: Int32Array;

  constructor(numResources: number) {
    this.lists = new Array<number[]>(numResources).fill(NO_ENTRIES);
    this.count = new Int32Array(numResources);
  }

  /** Appends x to r's list; returns its index there. */
  add(r: number, x: number): number {
    const n = this.count[r]++;
    const list = this.lists[r];
    if (n < list.length) list[n] = x;
    else if (n === 0) this.lists[r] = [x];
    else list.push(x);
    return n;
  }

  /** Removes the entry at index i of r's list (its last entry takes the place); returns the entry moved to i, or -1 when i was the last. */
  removeAt(r: number, i: number): number {
    const list = this.lists[r];
    const last = --this.count[r];
    if (i === last) return -1;
    list[i] = list[last];
    return list[i];
  }

  /** The index of the live entry x in r's list, searched from the end (-1 when absent). */
  lastIndexOf(r: number, x: number): number {
    const list = this.lists[r];
    for (let i = this.count[r] - 1; i >= 0; i--) if (list[i] === x) return i;
    return -1;
  }

  /** Empties every list (keeping the arrays). */
  clear(): void {
    this.count.fill(0);
  }
}

/**
 * The full exact update (rateUpdate 'full'): every active flow re-solved after each batch, with
 * eager per-batch passes (bytes left brought forward and finish times recomputed for every active
 * flow): its results must not move by a rounding. ComponentRateUpdate keeps these passes and solves
 * fewer flows.
 */
export class ExactRateUpdate extends RateUpdateBase {
  protected readonly solver: MaxMinSolver;
  protected readonly counters: MaxMinSolver;
  private soonest = Infinity;

  constructor(
    protected readonly flows: FlowTable,
    protected readonly arena: PathArena,
    protected readonly capacity: Float64Array,
    /** Path entries that load a resource at a fraction of the rate (SimGrid's cross-traffic); null: none. */
    fractional: FractionalEntries | null = null,
    /** FATPIPE resources (1 per resource index), or null: see MaxMinSolver's `fatpipe`. */
    fatpipe: Uint8Array | null = null,
  ) {
    super();
    this.solver = this.counters = new MaxMinSolver(capacity, LEVEL_ROUNDS, fractional, fatpipe);
  }

  activate(_f: number): void {}

  finish(_f: number): void {}

  arenaChanged(_change: number): void {}

  advance(dt: number): void {
    if (dt <= 0) return;
    const { rate, rem, active, numActive } = this.flows;
    for (let a = 0; a < numActive; a++) {
      const f = active[a];
      rem[f] -= rate[f] * dt;
    }
  }

  rerate(now: number): number {
    const flows = this.flows;
    this.solver.solve(flows.active, flows.numActive, flows.start, flows.len, this.arena.path, flows.maxRate, flows.rate, this.capacity, flows.weight, null, flows.penalty);
    return this.settle(now);
  }

  /**
   * After a solve: finish times and the earliest, over every active flow; returns the aggregate rate.
   * With `lag`, the bytes left of every active flow not stamped `mark` are first brought forward by
   * the steps lag[0..nLag) at its rate, one subtraction per step as advance() would have done.
   */
  protected settle(now: number, lag: Float64Array | null = null, nLag = 0, stamp: Int32Array | null = null, mark = 0): number {
    let total = 0;
    let soonest = Infinity;
    // Columns through locals in the per-batch loop (no flow is created here, so none moves).
    const { active, numActive, rate, rem, finish } = this.flows;
    for (let a = 0; a < numActive; a++) {
      const f = active[a];
      const r = rate[f];
      if (nLag > 0 && stamp![f] !== mark) {
        let left = rem[f];
        for (let k = 0; k < nLag; k++) left -= r * lag![k];
        rem[f] = left;
      }
      total += r;
      const fin = r > 0 ? now + rem[f] / r : Infinity;
      finish[f] = fin;
      if (fin < soonest) soonest = fin;
    }
    this.soonest = soonest;
    return total;
  }

  earliestFinish(): number {
    return this.soonest;
  }

  takeFinishing(horizon: number, out: FlowIdList): void {
    const { finish, active, numActive } = this.flows;
    for (let a = 0; a < numActive; a++) if (finish[active[a]] <= horizon) out.push(active[a]);
  }
}

/**
 * No sharing (model.sharing 'none', ASTRA-sim's congestion-unaware analytical backend): every active
 * flow moves at its cap, which the engine sets to its route's bottleneck bandwidth (paced, and
 * within the injection bandwidth: FlowTable.maxRate), whatever else crosses its channels. No solve.
 */
export class UnsharedRateUpdate extends ExactRateUpdate {
  override rerate(now: number): number {
    const { active, numActive, rate, maxRate } = this.flows;
    for (let a = 0; a < numActive; a++) rate[active[a]] = maxRate[active[a]];
    return this.settle(now);
  }
}

export class LocalRateUpdate extends RateUpdateBase {
  private readonly filler: SubsetFiller;
  protected readonly counters: SubsetFiller;
  private readonly finishQueue = new IndexedTimeHeap();
  private totalRate = 0;
  /** Per resource, the sum of the rates of the active flows crossing it. */
  private readonly resRate: Float64Array;
  /** Per resource, the arena positions of the active flows that cross it (swap-remove through `slot`). */
  private readonly resLists: ResourceLists;
  /** Per arena position: its index in its resource's list, and the flow whose path it is. */
  private slot: Int32Array;
  private owner: Int32Array;
  /** Resources touched since the last update. */
  private readonly dirtyMark: Uint8Array;
  private readonly dirtyList: number[] = [];
  // Scratch of one update: flows re-rated this time (stamped), and what the others leave per resource.
  private stamp = new Int32Array(1024);
  private epoch = 0;
  private readonly resStamp: Int32Array;
  private readonly avail: Float64Array;
  private readonly resAffected: Int32Array;
  /** A re-rated flow crossing the resource (the only one when resAffected is 1). */
  private readonly resOnly: Int32Array;
  private touchedRes = new Int32Array(1024);
  private affected = new Int32Array(1024);

  constructor(
    private readonly flows: FlowTable,
    private readonly arena: PathArena,
    private readonly capacity: Float64Array,
  ) {
    super();
    const n = capacity.length;
    this.filler = this.counters = new SubsetFiller(n);
    this.resRate = new Float64Array(n);
    this.resLists = new ResourceLists(n);
    this.slot = new Int32Array(arena.path.length);
    this.owner = new Int32Array(arena.path.length);
    this.dirtyMark = new Uint8Array(n);
    this.resStamp = new Int32Array(n);
    this.avail = new Float64Array(n);
    this.resAffected = new Int32Array(n);
    this.resOnly = new Int32Array(n);
  }

  activate(f: number): void {
    const { flows, resLists, slot, owner } = this;
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      const r = path[p];
      slot[p] = resLists.add(r, p);
      owner[p] = f;
      this.markDirty(r);
    }
  }

  finish(f: number): void {
    const { flows, resLists, slot, resRate } = this;
    const path = this.arena.path;
    const rate = flows.rate[f];
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      const r = path[p];
      const moved = resLists.removeAt(r, slot[p]);
      if (moved >= 0) slot[moved] = slot[p];
      this.markDirty(r);
      resRate[r] -= rate;
    }
    this.totalRate -= rate;
  }

  advance(_dt: number): void {}

  arenaChanged(change: number): void {
    const length = this.arena.path.length;
    if (this.slot.length < length) {
      this.slot = resized(this.slot, length);
      this.owner = resized(this.owner, length);
    }
    if (change === ARENA_COMPACTED) this.rebuildLists();
  }

  earliestFinish(): number {
    return this.finishQueue.peekTime();
  }

  takeFinishing(horizon: number, out: FlowIdList): void {
    const queue = this.finishQueue;
    while (queue.peekTime() <= horizon) {
      const f = queue.peekId();
      this.flows.finish[f] = NaN; // collected
      out.push(f);
      queue.pop();
    }
  }

  /** Re-rates only the flows crossing a resource that a started or finished flow touched. */
  rerate(now: number): number {
    const flows = this.flows;
    const mark = ++this.epoch;
    if (this.stamp.length < flows.capacity) this.stamp = resized(this.stamp, flows.capacity);
    // The hot loops read the growable columns through locals.
    const st = this.stamp;
    const owner = this.owner;
    const path = this.arena.path;
    const { start, len, rate, rem: remBytes, t: since, finish } = flows;
    const { lists: resList, count: resCount } = this.resLists;
    const { resRate, resStamp, resAffected, resOnly, avail, dirtyMark, dirtyList, capacity } = this;
    let affected = this.affected;
    let nA = 0;
    for (let d = 0; d < dirtyList.length; d++) {
      const r = dirtyList[d];
      dirtyMark[r] = 0;
      const list = resList[r];
      const live = resCount[r];
      for (let i = 0; i < live; i++) {
        const f = owner[list[i]];
        if (st[f] === mark) continue;
        st[f] = mark;
        if (nA === affected.length) affected = this.affected = resized(affected, nA * 2);
        affected[nA++] = f;
      }
    }
    dirtyList.length = 0;
    let nTouched = 0;
    let touched = this.touchedRes;
    let removed = 0;
    // What the other flows leave on each resource: the running sum minus the re-rated flows' rates
    // (a resource all of whose flows are re-rated starts again from exactly zero, so the running
    // sum does not drift; a residue of a rounding is treated as full).
    for (let a = 0; a < nA; a++) {
      const f = affected[a];
      const old = rate[f];
      remBytes[f] -= old * (now - since[f]);
      since[f] = now;
      removed += old;
      const end = start[f] + len[f];
      for (let p = start[f]; p < end; p++) {
        const r = path[p];
        if (resStamp[r] !== mark) {
          resStamp[r] = mark;
          resAffected[r] = 1;
          if (nTouched === touched.length) touched = this.touchedRes = resized(touched, nTouched * 2);
          touched[nTouched++] = r;
        } else resAffected[r]++;
        resOnly[r] = f;
        resRate[r] -= old;
      }
    }
    this.totalRate -= removed;
    for (let k = 0; k < nTouched; k++) {
      const r = touched[k];
      if (resAffected[r] === resCount[r]) resRate[r] = 0;
      const c = capacity[r];
      const left = c - resRate[r];
      avail[r] = left > c * 1e-12 || c === Infinity ? left : 0;
    }
    // The filler adds the new rates to resRate as it freezes each flow.
    this.filler.solve(affected, nA, start, len, path, flows.maxRate, rate, touched, nTouched, avail, resAffected, resOnly, resList, resCount, owner, st, mark, resRate);
    let added = 0;
    for (let a = 0; a < nA; a++) {
      const f = affected[a];
      const r = rate[f];
      added += r;
      const fin = r > 0 ? now + remBytes[f] / r : Infinity;
      if (fin !== finish[f]) {
        finish[f] = fin;
        this.finishQueue.set(f, fin);
      }
    }
    this.totalRate += added;
    if (flows.numActive === 0) this.totalRate = 0;
    return this.totalRate;
  }

  private markDirty(r: number): void {
    if (!this.dirtyMark[r]) {
      this.dirtyMark[r] = 1;
      this.dirtyList.push(r);
    }
  }

  /** After compaction moved the paths, re-enter every active flow in the resource lists. */
  private rebuildLists(): void {
    const { flows, resLists } = this;
    const path = this.arena.path;
    resLists.clear();
    for (let a = 0; a < flows.numActive; a++) {
      const f = flows.active[a];
      for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) {
        this.slot[p] = resLists.add(path[p], p);
        this.owner[p] = f;
      }
    }
  }
}
