/**
 * The exact rate update (model.rateUpdate 'exact'): after a batch of flow starts and finishes, only
 * the flows whose max-min rate the batch can move are filled again, from the capacity the others
 * leave; every other flow keeps its rate. The result is the rates of re-solving every active flow
 * (ExactRateUpdate, rateUpdate 'full'), up to the order of floating-point operations
 * (test/sim/flow/component-rate-update.test.ts holds makespans to 1e-9 relative on the agreement
 * matrix, and test/sim/flow/incremental-maxmin.test.ts the rates themselves on random instances).
 *
 * Which flows can move. Progressive filling raises a level λ; flow f runs at λ·w_f until a resource
 * it crosses saturates (or its cap is reached) at its freezing level λ_f. Call the process with the
 * batch applied "new" and the previous one "old". Let T be the largest level below which both
 * processes freeze the same flows at the same levels. Then:
 *
 * (1) Every flow of level < T keeps its rate, and the flows of old level ≥ T plus the started ones,
 *     filled from 0 within the residual capacities c_r − Σ (rates of the flows of level < T on r),
 *     get their new rates. Proof: at level λ < T the new process has the same frozen flows as the
 *     old, so its load on r is Σ_{frozen} x + λ·W_r (W_r: weight of the unfrozen flows on r) ≤ c_r up
 *     to T; filling the rest from 0 within the residuals loads r by Σ_{level<T} x + λ·W_r, which is
 *     at least the process's load at λ (each x_g = λ_g·w_g ≥ λ·w_g) and at most its load at T⁻ ≤ c_r,
 *     so nothing freezes below T there either and from T on the two fillings are one process.
 *     Any T' ≤ T is as good (more flows are filled again, to the same rates).
 * (2) A finished flow f of level λ_f: T ≥ λ_f. Every resource f crosses saturates at ≥ λ_f (else f
 *     would have frozen lower), and without f it loads less, so it saturates no earlier than λ_f;
 *     every other resource loads the same below λ_f; by induction over the freezing events below
 *     λ_f the two processes agree there.
 * (3) A started flow g: T ≥ min(g's cap level, t_r over the resources r g crosses), where t_r is the
 *     lowest λ at which r would saturate with g added, from the old levels of the flows still on r:
 *     Σ_h w_h·min(λ_h, λ) + W_new(r)·λ = c_r (W_new(r): the started flows' weight on r). Below it no
 *     resource g crosses saturates in the new process; a resource that the old process saturates at
 *     s < T is crossed by no started flow (its t_r ≤ s) and by no finished one (by (2)), so it
 *     saturates at s in both. The same induction gives agreement below T.
 * So T = min over the batch of (2) and (3), taken 1e-9 lower so that roundings (and the solver's own
 * 1e-12 tolerance when it freezes near-equal shares together) can only add flows to the re-fill.
 *
 * The re-filled set is then narrowed to components: the flows of level ≥ T and the started ones,
 * joined by the resources they share, fill independently, and a component that holds no resource
 * the batch touched has its old rates (its residual capacities did not change, and the old process
 * from T on is the same filling). So the update walks breadth first from the touched resources, over
 * flows of level ≥ T only, summing on the way what the lower flows use on each resource reached.
 * Equal flows started together finish highest rate first, so a pairwise step re-fills few flows per
 * finish; a batch that starts or finishes a quarter of the active flows or more (a new step) fills
 * every flow from scratch without walking.
 *
 * Bit for bit where it matters. A run amplifies a last-bit difference in a rate whenever flows
 * finish within the simultaneity tolerance of each other (a different batching, then a different
 * schedule: 3.5e-5 on an agreement case, 1e-3 on pairwise alltoall over torus:16x16x16, from residuals
 * summed in another order). So a resource's residual takes the lower flows' rates away one at a time
 * from the lowest, the order the full solve freezes them in; under plain max-min every flow of a
 * level runs at that level, so the residual, the shares and the re-fill are the full solve's bit for
 * bit, except where the solver's 1e-12 tolerance would have frozen a re-filled resource together
 * with a kept flow's resource whose share is an ulp lower (a solve of the whole component or of
 * every flow sees both; the re-fill sees its own): 3 % of the first 20,000 updates of that 16³ run,
 * by at most 8e-16, which moves its makespan by 2.3e-5 from the update by components. That update
 * differs from 'full' the same way across components (by 2.5e-3 on torus:16x16x8), so neither is
 * the reference there; on the agreement matrix all three agree to 1e-9. Under CM02 weights a
 * level's flows run at different rates and the share weights are sums, whose roundings depend on
 * the order, so weighted runs keep the threshold at -∞: whole touched components are filled again,
 * as before.
 *
 * The per-batch bookkeeping is the full update's, operation for operation (bytes left brought forward
 * for every active flow by each batch's step, finish times and the aggregate rate recomputed over all
 * of them): it is O(active flows) per batch, and lazily kept bytes left moved a makespan by 1.1 %
 * before (pairwise alltoall on torus:6x6x6: flows finishing within the simultaneity tolerance of each
 * other amplify a last-bit difference). Only the pass moves: advance() records the step, and each
 * flow takes it off its bytes left (one subtraction per step, in order) just before its re-fill or
 * in the pass that sets its finish time, one pass over the active flows per update instead of two.
 *
 * Kept ties were tried and dropped (commit 4b00d87 and its revert): the re-filled flows tied at a
 * finished flow's level that cross an untouched resource on which every re-filled flow ties re-freeze
 * at that level, and keeping them out of the re-fill, with a first round forced at that level and
 * the conditions under which the solver's order cannot matter checked (else re-filling them all),
 * gave the same makespans bit for bit. But only a batch whose threshold is a finished flow's level
 * (about half of them) can keep any, and on torus:16x16x8 pairwise alltoall the solver's work fell
 * by 4.5 % while the extra walk bookkeeping made the run slower (15.5 against 14.3 CPU s). Resources list their active flows by flow id (not by arena
 * position), so compaction moves nothing here.
 */
import { resized } from '../../util/typed-arrays.js';
import type { FlowTable } from './flow-table.js';
import type { PathArena } from './path-arena.js';
import { ExactRateUpdate, ResourceLists } from './rate-update.js';
import { capLevelOf } from './maxmin.js';

/** How far below the computed threshold the re-fill starts (relative), so that roundings only widen it. */
const THRESHOLD_MARGIN = 1e-9;

/** The full update's per-batch passes (ExactRateUpdate), with only the flows a batch can move filled again. */
export class ComponentRateUpdate extends ExactRateUpdate {
  /** Per resource, the active flows crossing it (once per crossing). */
  private readonly resFlows: ResourceLists;
  /** Per resource, the epoch it was last reached in (dirty, or by the walk). */
  private readonly resStamp: Int32Array;
  /** Per resource, the capacity left by the flows below the threshold (the re-fill's capacities). */
  private readonly residual: Float64Array;
  /** Per resource, the epoch whose threshold already computed its saturation level. */
  private readonly resSeen: Int32Array;
  /** Resources a start or finish touched since the last update. */
  private readonly dirty: Int32Array;
  /** Entries of `dirty` in use: each resource at most once per epoch, and every update drains it, so n slots suffice. */
  private numDirty = 0;
  /** Per flow: its freezing level in the current solution (by flow id). */
  private level = new Float64Array(1024);
  /** Per flow: the epoch it was re-filled in, and the epoch it started in. */
  private flowStamp = new Int32Array(1024);
  private startStamp = new Int32Array(1024);
  private epoch = 1;
  /** Flows started since the last update. */
  private started = new Int32Array(1024);
  private numStarted = 0;
  /** The lowest level of the flows finished since the last update (Infinity for none). */
  private lowestFinished = Infinity;
  /** Flows started or finished since the last update. */
  private changed = 0;
  /**
   * Whether resFlows lists every active flow. A batch that fills every flow from scratch leaves the
   * lists stale (a step of whole batches never reads them, and removing a flow from a long list costs
   * its length); the next smaller batch lists the active flows again.
   */
  private listed = true;
  private queue: Int32Array;
  private affected = new Int32Array(1024);
  /** The rates of the flows below the threshold on one resource (scratch). */
  private lower = new Float64Array(64);
  /**
   * The time steps since the last update, not yet taken off the flows' bytes left: a flow's bytes
   * left are brought forward by each step in turn (the full update's operations) in the pass that
   * sets its finish time, or just before its re-fill, instead of in a pass of their own per batch.
   */
  private lag = new Float64Array(16);
  private nLag = 0;

  constructor(flows: FlowTable, arena: PathArena, capacity: Float64Array) {
    super(flows, arena, capacity);
    const n = capacity.length;
    this.resFlows = new ResourceLists(n);
    this.resStamp = new Int32Array(n);
    this.residual = new Float64Array(n);
    this.resSeen = new Int32Array(n);
    this.queue = new Int32Array(Math.max(16, n));
    this.dirty = new Int32Array(n);
  }

  override activate(f: number): void {
    const { flows } = this;
    this.fitFlows();
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      if (this.listed) this.resFlows.add(path[p], f);
      this.markDirty(path[p]);
    }
    this.startStamp[f] = this.epoch;
    // No level yet: above every threshold, so the walk re-fills it without reading its start stamp.
    this.level[f] = Infinity;
    this.changed++;
    if (this.numStarted === this.started.length) this.started = resized(this.started, 2 * this.numStarted);
    this.started[this.numStarted++] = f;
  }

  override finish(f: number): void {
    const { flows, resFlows } = this;
    const path = this.arena.path;
    const end = flows.start[f] + flows.len[f];
    for (let p = flows.start[f]; p < end; p++) {
      const r = path[p];
      // A resource lists each flow once per crossing; swap-remove one of them.
      if (this.listed) resFlows.removeAt(r, resFlows.lastIndexOf(r, f));
      this.markDirty(r);
    }
    this.changed++;
    // A flow started in this batch has no level yet (its row may be a finished flow's, reused).
    if (this.startStamp[f] !== this.epoch && this.level[f] < this.lowestFinished) this.lowestFinished = this.level[f];
  }

  override advance(dt: number): void {
    if (dt <= 0) return;
    if (this.nLag === this.lag.length) this.lag = resized(this.lag, 2 * this.nLag);
    this.lag[this.nLag++] = dt;
  }

  override rerate(now: number): number {
    const flows = this.flows;
    this.fitFlows();
    if (4 * this.changed >= flows.numActive) return this.solveAll(now);
    if (!this.listed) this.relist();
    // Weighted (CM02) sharing fills whole components: see the header.
    const threshold = flows.weight === null ? this.threshold() : -Infinity;
    const cut = threshold === Infinity ? Infinity : threshold - Math.abs(threshold) * THRESHOLD_MARGIN;
    const mark = this.epoch;
    const { flowStamp, resStamp, residual, dirty, level, capacity } = this;
    const { lists: resFlows, count: resCount } = this.resFlows;
    const path = this.arena.path;
    const { start, len, rate } = flows;
    // Breadth first from the touched resources (stamped with the current mark when dirtied), over
    // the started flows and those of level ≥ cut; each resource reached sums what the others use.
    let queue = this.queue;
    let tail = 0;
    for (let i = 0; i < this.numDirty; i++) queue[tail++] = dirty[i];
    this.numDirty = 0;
    let affected = this.affected;
    let lower = this.lower;
    let nA = 0;
    for (let head = 0; head < tail; head++) {
      const r = queue[head];
      const list = resFlows[r];
      let nLower = 0;
      for (let i = 0, n = resCount[r]; i < n; i++) {
        const f = list[i];
        if (level[f] < cut) {
          if (nLower === lower.length) lower = this.lower = resized(lower, 2 * nLower);
          lower[nLower++] = rate[f];
          continue;
        }
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
      residual[r] = residualCapacity(capacity[r], lower, nLower);
    }
    // Started flows that cross no resource are reached by no walk.
    for (let k = 0; k < this.numStarted; k++) {
      const f = this.started[k];
      if (flowStamp[f] === mark || flows.inUse[f] === 0) continue;
      flowStamp[f] = mark;
      if (nA === affected.length) affected = this.affected = resized(affected, nA * 2);
      affected[nA++] = f;
    }
    // The re-filled flows' bytes left move forward at their old rates before the solve replaces them.
    const nLag = this.nLag;
    this.bringForward(affected, nA);
    this.endBatch();
    if (nA > 0) this.solver.solve(affected, nA, start, len, path, flows.maxRate, rate, residual, flows.weight, level, flows.penalty);
    this.nLag = 0;
    // The others (every flow not re-filled, stamped other than mark) in the pass over every active flow.
    return this.settle(now, this.lag, nLag, flowStamp, mark);
  }

  /** Every active flow filled from scratch (a batch that started or finished a quarter of them or more). */
  private solveAll(now: number): number {
    const flows = this.flows;
    // Every active flow is filled again: bring its bytes left forward first.
    this.bringForward(flows.active, flows.numActive);
    this.nLag = 0;
    this.numDirty = 0;
    this.listed = false;
    this.endBatch();
    if (flows.numActive > 0) this.solver.solve(flows.active, flows.numActive, flows.start, flows.len, this.arena.path, flows.maxRate, flows.rate, this.capacity, flows.weight, this.level, flows.penalty);
    return this.settle(now);
  }

  /** Takes the steps since the last update off the bytes left of flows[0..n), at their current rates (a flow started in this batch has not run yet). */
  private bringForward(list: Int32Array, n: number): void {
    const { lag, nLag, startStamp, epoch } = this;
    if (nLag === 0) return;
    const { rate, rem } = this.flows;
    for (let a = 0; a < n; a++) {
      const f = list[a];
      if (startStamp[f] === epoch) continue;
      let left = rem[f];
      for (let k = 0; k < nLag; k++) left -= rate[f] * lag[k];
      rem[f] = left;
    }
  }

  private endBatch(): void {
    this.numStarted = 0;
    this.changed = 0;
    this.lowestFinished = Infinity;
    this.epoch++;
  }

  /**
   * The level below which the batch changes nothing (the header's T): the lowest level of a finished
   * flow, a started flow's cap level, and for each resource a started flow crosses, the level at
   * which it would saturate with the started flows added to the old levels.
   */
  private threshold(): number {
    const flows = this.flows;
    const { startStamp, level, capacity } = this;
    const { lists: resFlows, count: resCount } = this.resFlows;
    const path = this.arena.path;
    const weight = flows.weight;
    const { resSeen } = this;
    const mark = this.epoch;
    let t = this.lowestFinished;
    for (let k = 0; k < this.numStarted; k++) {
      const g = this.started[k];
      if (flows.inUse[g] === 0 || startStamp[g] !== mark) continue;
      const capLevel = capLevelOf(g, flows.maxRate, weight, flows.penalty);
      if (capLevel < t) t = capLevel;
      for (let p = flows.start[g], e = p + flows.len[g]; p < e; p++) {
        const r = path[p];
        if (resSeen[r] === mark) continue;
        resSeen[r] = mark;
        const c = capacity[r];
        if (c === Infinity) continue;
        const s = saturationLevel(resFlows[r], resCount[r], c, startStamp, mark, level, flows.rate, weight);
        if (s < t) t = s;
      }
    }
    return t;
  }

  /** Lists every active flow on its resources again (after batches that filled every flow). */
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

  /** Grows the per-flow columns with the flow table. */
  private fitFlows(): void {
    const n = this.flows.capacity;
    if (this.level.length < n) {
      this.level = resized(this.level, n);
      this.flowStamp = resized(this.flowStamp, n);
      this.startStamp = resized(this.startStamp, n);
    }
  }

  private markDirty(r: number): void {
    if (this.resStamp[r] !== this.epoch) {
      this.resStamp[r] = this.epoch;
      this.dirty[this.numDirty++] = r;
    }
  }
}

/**
 * What the flows below the threshold leave of capacity c, their rates taken away one at a time from
 * the lowest: the order in which a full solve freezes them (level by level), so that under plain
 * max-min (a level's flows all run at that level) the residual is the full solve's, bit for bit.
 */
function residualCapacity(c: number, rates: Float64Array, n: number): number {
  if (n > 1) {
    if (n <= 24) {
      for (let i = 1; i < n; i++) {
        const x = rates[i];
        let j = i - 1;
        while (j >= 0 && rates[j] > x) {
          rates[j + 1] = rates[j];
          j--;
        }
        rates[j + 1] = x;
      }
    } else rates.subarray(0, n).sort();
  }
  let left = c;
  for (let i = 0; i < n; i++) left -= rates[i];
  return left;
}

/**
 * The lowest level λ at which a resource of capacity c saturates when the flows started in this batch
 * (startStamp === mark) run at λ·w and every other flow on it at min(λ, its old level)·w: the root of
 * Σ_old w_h·min(λ_h, λ) + W_new·λ = c, by a fixed point from below. Each round takes the flows below
 * the current λ at their rates and the rest at λ; that line lies above the load, so its root is still
 * a lower bound, and when no more flows fall below it the load is that line there. At most one round
 * per flow, usually two.
 */
export function saturationLevel(
  list: readonly number[],
  n: number,
  c: number,
  startStamp: Int32Array,
  mark: number,
  level: Float64Array,
  rate: Float64Array,
  weight: Float64Array | null,
): number {
  let lambda = 0;
  let below = -1;
  for (;;) {
    let used = 0;
    let rising = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const h = list[i];
      const w = weight === null ? 1 : weight[h];
      if (startStamp[h] !== mark && level[h] < lambda) {
        used += rate[h];
        count++;
      } else rising += w;
    }
    if (count === below) return lambda;
    below = count;
    if (rising === 0) return Infinity; // the old flows alone fit (they are a feasible solution)
    const next = Math.max(0, c - used) / rising;
    if (!(next > lambda)) return lambda;
    lambda = next;
  }
}
