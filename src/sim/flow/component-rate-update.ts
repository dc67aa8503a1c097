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
 * The per-batch bookkeeping is the full update's, operation for operation (bytes left brought forward
 * for every active flow each batch, finish times and the aggregate rate recomputed over all of them):
 * it is O(active flows) per batch, a small part of a full solve, and keeps the results those of
 * 'full' bit for bit wherever the solver freezes the same levels (a schedule whose flows finish within
 * the simultaneity tolerance of each other amplifies any last-bit difference, which lazily kept bytes
 * left gave: 1.9 % on pairwise alltoall over torus:8x8x8).
 * Resources list their active flows by flow id (not by arena position), so compaction moves nothing here.
 */
import { resized } from '../../util/typed-arrays.js';
import type { FlowTable } from './flow-table.js';
import type { PathArena } from './path-arena.js';
import { ExactRateUpdate, ResourceLists } from './rate-update.js';

/** The full update's per-batch passes (ExactRateUpdate), with the solve narrowed to the touched components. */
export class ComponentRateUpdate extends ExactRateUpdate {
  /** Per resource, the active flows crossing it (once per crossing). */
  private readonly resFlows: ResourceLists;
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

  constructor(flows: FlowTable, arena: PathArena, capacity: Float64Array) {
    super(flows, arena, capacity);
    const n = capacity.length;
    this.resFlows = new ResourceLists(n);
    this.resStamp = new Int32Array(n);
    this.queue = new Int32Array(n);
  }

  override activate(f: number): void {
    this.changed++;
    const { flows } = this;
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      if (this.listed) this.resFlows.add(path[p], f);
      this.markDirty(path[p]);
    }
  }

  override finish(f: number): void {
    this.changed++;
    const { flows, resFlows } = this;
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      const r = path[p];
      // A resource lists each flow once per crossing; swap-remove one of them.
      if (this.listed) resFlows.removeAt(r, resFlows.lastIndexOf(r, f));
      this.markDirty(r);
    }
  }

  override rerate(now: number): number {
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
    const { flowStamp, resStamp, dirty } = this;
    const { lists: resFlows, count: resCount } = this.resFlows;
    const path = this.arena.path;
    const { start, len } = flows;
    // The components the batch touched: breadth first from the dirty resources (stamped with the
    // current mark when they were dirtied), over flows and the resources they cross.
    let queue = this.queue;
    let tail = 0;
    for (const r of dirty) queue[tail++] = r;
    dirty.length = 0;
    let affected = this.affected;
    let nA = 0;
    for (let head = 0; head < tail; head++) {
      const r = queue[head];
      const list = resFlows[r];
      for (let i = 0, n = resCount[r]; i < n; i++) {
        const f = list[i];
        if (flowStamp[f] === mark) continue;
        flowStamp[f] = mark;
        if (nA === affected.length) affected = this.affected = resized(affected, nA * 2);
        affected[nA++] = f;
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
    return this.solveFlows(affected, nA, now);
  }

  /** Every active flow re-solved (a batch that changed a quarter of them or more). */
  private solveAll(now: number): number {
    const flows = this.flows;
    this.dirty.length = 0;
    this.epoch++;
    return this.solveFlows(flows.active, flows.numActive, now);
  }

  /** Solves `subset` (whole components), then finish times and the aggregate over every active flow; returns the aggregate. */
  private solveFlows(subset: Int32Array, n: number, now: number): number {
    const flows = this.flows;
    if (n > 0) this.solver.solve(subset, n, flows.start, flows.len, this.arena.path, flows.maxRate, flows.rate, this.capacity, flows.weight);
    return this.settle(now);
  }

  /** Lists every active flow on its resources again (after batches that re-solved everything). */
  private relist(): void {
    const { flows, resFlows } = this;
    const path = this.arena.path;
    resFlows.clear();
    for (let a = 0; a < flows.numActive; a++) {
      const f = flows.active[a];
      for (let p = flows.start[f], e = p + flows.len[f]; p < e; p++) resFlows.add(path[p], f);
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
