/**
 * The exact rate update by components (model.rateUpdate 'exact'): max-min rates decompose over the
 * connected components of the flow–resource graph (flows joined by the resources they share), since
 * the filling of one component never reads another's resources. So after a batch of starts and
 * finishes only the components holding a resource the batch touched are solved again, with the full
 * solver on their flows alone, and every other flow keeps its rate: the same rates as re-solving every
 * active flow (ExactRateUpdate, rateUpdate 'full'), up to the order of floating-point operations
 * (test/sim/flow/component-rate-update.test.ts holds them to 1e-9 relative), at a cost proportional to
 * the components touched instead of to all active flows. A batch that starts or ends a quarter of
 * the active flows or more (a whole step at once) re-solves them all without looking for components,
 * which would cost more than they save there.
 *
 * Flow state is lazy, as in LocalRateUpdate: flows.rem[f] is exact at flows.t[f] (brought forward when
 * the flow is re-solved), finish times wait in an indexed heap, and the aggregate rate is a running sum.
 * The rates are the full solve's (up to its 1e-12 grouping of nearly equal shares); the lazy bytes-left (one subtraction per re-rate,
 * where 'full' subtracts once per batch) round differently in the last bits, which a schedule whose
 * flows finish within the simultaneity tolerance of each other can amplify (docs/flow.md).
 * Resources list their active flows by flow id (not by arena position), so compaction moves nothing here.
 */
import { resized } from '../../util/typed-arrays.js';
import { IndexedTimeHeap } from '../program/event-queue.js';
import { MaxMinSolver } from './maxmin.js';
import type { FlowTable } from './flow-table.js';
import type { PathArena } from './path-arena.js';
import type { RateUpdater } from './rate-update.js';

export class ComponentRateUpdate implements RateUpdater {
  private readonly solver: MaxMinSolver;
  private readonly finishQueue = new IndexedTimeHeap();
  private totalRate = 0;
  /** Per resource, the active flows crossing it: the first resCount[r] entries of resFlows[r]. */
  private readonly resFlows: number[][];
  private readonly resCount: Int32Array;
  /** Resources whose flows changed since the last update. */
  private readonly resStamp: Int32Array;
  private readonly dirty: number[] = [];
  private flowStamp = new Int32Array(1024);
  private epoch = 1;
  private queue: Int32Array;
  private affected = new Int32Array(1024);
  /**
   * Whether resFlows lists every active flow. A batch that changes at least a quarter as many flows
   * as are active (a step starting or ending at once) re-solves every active flow instead: finding
   * components would reach nearly all of them anyway, so the lists are left stale then and rebuilt by
   * the next smaller batch.
   */
  private listed = true;
  /** Flows started or finished since the last update. */
  private changed = 0;

  constructor(
    private readonly flows: FlowTable,
    private readonly arena: PathArena,
    private readonly capacity: Float64Array,
  ) {
    const n = capacity.length;
    this.solver = new MaxMinSolver(capacity);
    this.resFlows = Array.from({ length: n }, () => []);
    this.resCount = new Int32Array(n);
    this.resStamp = new Int32Array(n);
    this.queue = new Int32Array(n);
  }

  get solves(): number {
    return this.solver.solves;
  }

  get work(): number {
    return this.solver.work;
  }

  activate(f: number): void {
    this.changed++;
    const { flows } = this;
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      if (this.listed) this.list(path[p], f);
      this.markDirty(path[p]);
    }
  }

  private list(r: number, f: number): void {
    const n = this.resCount[r]++;
    const list = this.resFlows[r];
    if (n === list.length) list.push(f);
    else list[n] = f;
  }

  finish(f: number): void {
    this.changed++;
    const { flows, resFlows, resCount } = this;
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      const r = path[p];
      if (this.listed) {
        const list = resFlows[r];
        const last = --resCount[r];
        // A resource lists each flow once per crossing; swap-remove one of them.
        for (let i = last; i >= 0; i--) {
          if (list[i] === f) {
            list[i] = list[last];
            break;
          }
        }
      }
      this.markDirty(r);
    }
    this.totalRate -= flows.rate[f];
  }

  advance(): void {}

  arenaChanged(): void {}

  earliestFinish(): number {
    return this.finishQueue.peekTime();
  }

  takeFinishing(horizon: number, out: number[]): void {
    const queue = this.finishQueue;
    while (queue.peekTime() <= horizon) {
      const f = queue.peekId();
      this.flows.finish[f] = NaN; // collected
      out.push(f);
      queue.pop();
    }
  }

  rerate(now: number): number {
    const flows = this.flows;
    if (this.flowStamp.length < flows.capacity) this.flowStamp = resized(this.flowStamp, flows.capacity);
    const whole = 4 * this.changed >= flows.numActive;
    this.changed = 0;
    if (whole) {
      this.listed = false;
      return this.solveAll(now);
    }
    if (!this.listed) this.relist();
    const mark = this.epoch;
    const { flowStamp, resStamp, resFlows, resCount, dirty } = this;
    const path = this.arena.path;
    const { start, len, rate, rem, t: since } = flows;
    // The components the batch touched: breadth first from the dirty resources (stamped with the
    // current mark when they were dirtied), over flows and the resources they cross.
    let queue = this.queue;
    let tail = 0;
    for (const r of dirty) queue[tail++] = r;
    dirty.length = 0;
    let affected = this.affected;
    let nA = 0;
    let removed = 0;
    for (let head = 0; head < tail; head++) {
      const r = queue[head];
      const list = resFlows[r];
      for (let i = 0, n = resCount[r]; i < n; i++) {
        const f = list[i];
        if (flowStamp[f] === mark) continue;
        flowStamp[f] = mark;
        if (nA === affected.length) affected = this.affected = resized(affected, nA * 2);
        affected[nA++] = f;
        const old = rate[f];
        rem[f] -= old * (now - since[f]);
        since[f] = now;
        removed += old;
        for (let p = start[f], e = p + len[f]; p < e; p++) {
          const q = path[p];
          if (resStamp[q] === mark) continue;
          resStamp[q] = mark;
          if (tail === queue.length) queue = this.queue = resized(queue, tail * 2);
          queue[tail++] = q;
        }
      }
    }
    this.epoch++;
    return this.solveFlows(affected, nA, removed, now);
  }

  /** Every active flow re-solved (a batch that changed a quarter of them or more). */
  private solveAll(now: number): number {
    const flows = this.flows;
    const { active, numActive, rate, rem, t: since } = flows;
    this.dirty.length = 0;
    this.epoch++;
    let removed = 0;
    for (let a = 0; a < numActive; a++) {
      const f = active[a];
      const old = rate[f];
      rem[f] -= old * (now - since[f]);
      since[f] = now;
      removed += old;
    }
    return this.solveFlows(active, numActive, removed, now);
  }

  /** Solves `subset` (whole components), moves their finish times, returns the aggregate rate. */
  private solveFlows(subset: Int32Array, n: number, removed: number, now: number): number {
    const flows = this.flows;
    const { rate, rem, finish } = flows;
    if (n > 0) this.solver.solve(subset, n, flows.start, flows.len, this.arena.path, flows.maxRate, rate, this.capacity, flows.weight);
    let added = 0;
    for (let a = 0; a < n; a++) {
      const f = subset[a];
      const r = rate[f];
      added += r;
      const fin = r > 0 ? now + rem[f] / r : Infinity;
      if (fin !== finish[f]) {
        finish[f] = fin;
        this.finishQueue.set(f, fin);
      }
    }
    this.totalRate += added - removed;
    if (flows.numActive === 0) this.totalRate = 0;
    return this.totalRate;
  }

  /** Lists every active flow on its resources again (after batches that re-solved everything). */
  private relist(): void {
    const { flows, resCount } = this;
    const path = this.arena.path;
    resCount.fill(0);
    for (let a = 0; a < flows.numActive; a++) {
      const f = flows.active[a];
      for (let p = flows.start[f], e = p + flows.len[f]; p < e; p++) this.list(path[p], f);
    }
    this.listed = true;
  }

  private markDirty(r: number): void {
    if (this.resStamp[r] !== this.epoch) {
      this.resStamp[r] = this.epoch;
      this.dirty.push(r);
    }
  }
}
