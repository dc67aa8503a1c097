/**
 * The flow engine's flows: one row per flow (its resource path's place in the path arena, bytes
 * left and in all, current and maximum rate, CM02 share weight, finish time, the time its bytes
 * left were last brought forward, and the message, stream and send op it carries), typed-array
 * columns recycled through a free list, and the list of active flows (those sharing bandwidth, not
 * waiting in a NIC queue). The engine reads the columns directly in its hot loops.
 */
import { LimitError } from '../../util/errors.js';
import { resized } from '../../util/typed-arrays.js';

/**
 * Most flows a run holds at once (posted and unfinished: spending their route latency, queued at a
 * NIC, or sharing bandwidth): 2^23. Each costs about 300-600 bytes in the engine (its row, path,
 * resource-list entries, message and match state; measured with linear alltoall, --symmetry off:
 * 293 B on torus:32x32 and 357 B on fattree:k=16,levels=3 over pairwise's peak, 400-600 B on
 * torus:40x40 mid-run), so 2.5-5 GiB: with a schedule at MAX_FLOW_OPS (about 16 GiB) a run stays
 * within a 24 GiB machine. The schedule-op limit cannot see this: an algorithm that posts every
 * message at once (linear alltoall: 16.8 M flows in flight at 4,096 ranks, 8.0 GB) needs far more per
 * op than one that keeps one in flight per rank. Refused when the table would grow past it, before
 * allocating.
 */
export const MAX_FLOWS_IN_FLIGHT = 2 ** 23;

/** The refusal of a message past `maxInFlight` messages in flight (the flow table's, and the store-and-forward links'). */
export function inFlightLimitError(maxInFlight: number): LimitError {
  return new LimitError(
    'algorithm',
    `more than ${maxInFlight} messages in flight at once`,
    `${maxInFlight} messages in flight at flow level${maxInFlight === MAX_FLOWS_IN_FLIGHT ? ' (2^23, 2.5-5 GiB at 300-600 bytes each)' : ''}; use fewer ranks or an algorithm that keeps fewer messages in flight (pairwise rather than linear)`,
  );
}

export class FlowTable {
  /** Rows allocated: every column holds this many. */
  capacity = 1024;
  start = new Int32Array(1024);
  len = new Int32Array(1024);
  rem = new Float64Array(1024);
  bytes = new Float64Array(1024);
  rate = new Float64Array(1024);
  maxRate = new Float64Array(1024);
  /** Share weight under CM02 sharing (1 / route latency); null under plain max-min. */
  weight: Float64Array | null;
  /** CM02 sharing penalty (the weight's reciprocal as SimGrid holds it; 1 for a penalty of 0); null under plain max-min. */
  penalty: Float64Array | null;
  finish = new Float64Array(1024);
  /** The time `rem` is exact at (local rate updates bring it forward lazily). */
  t = new Float64Array(1024);
  msg = new Int32Array(1024);
  stream = new Int32Array(1024);
  op = new Int32Array(1024);
  /** Position in the active list. */
  activePos = new Int32Array(1024);
  /** The active flows: the first `numActive` entries, in no particular order. */
  active = new Int32Array(1024);
  numActive = 0;
  /** Flows created so far. */
  created = 0;
  /** 1 for a row that holds an unfinished flow (in any phase: latency, NIC queue, active), else 0. */
  inUse = new Uint8Array(1024);
  /** Rows handed out so far (in use or free): every unfinished flow's row is below this. */
  rows = 0;
  private nextFree = new Int32Array(1024);
  private free = -1;

  /** `maxRows`: the limit (MAX_FLOWS_IN_FLIGHT; tests lower it). */
  constructor(
    weighted: boolean,
    private readonly maxRows = MAX_FLOWS_IN_FLIGHT,
  ) {
    this.weight = weighted ? new Float64Array(1024) : null;
    this.penalty = weighted ? new Float64Array(1024) : null;
  }

  add(): number {
    let f: number;
    if (this.free >= 0) {
      f = this.free;
      this.free = this.nextFree[f];
    } else {
      if (this.rows === this.maxRows) this.refuse();
      if (this.rows === this.capacity) this.grow(Math.min(2 * this.capacity, this.maxRows));
      f = this.rows++;
    }
    this.inUse[f] = 1;
    this.created++;
    return f;
  }

  /** Flow f starts sharing bandwidth. */
  activate(f: number): void {
    if (this.numActive === this.active.length) this.active = resized(this.active, this.numActive * 2);
    this.activePos[f] = this.numActive;
    this.active[this.numActive++] = f;
  }

  /** Flow f stops sharing bandwidth (the last active flow takes its place). */
  deactivate(f: number): void {
    const pos = this.activePos[f];
    const last = this.active[--this.numActive];
    this.active[pos] = last;
    this.activePos[last] = pos;
  }

  /** Flow f finished: its row is reused. */
  release(f: number): void {
    this.inUse[f] = 0;
    this.nextFree[f] = this.free;
    this.free = f;
  }

  /** A flow past the limit: refused before any allocation. */
  private refuse(): never {
    throw inFlightLimitError(this.maxRows);
  }

  private grow(n: number): void {
    this.capacity = n;
    this.start = resized(this.start, n);
    this.len = resized(this.len, n);
    this.rem = resized(this.rem, n);
    this.bytes = resized(this.bytes, n);
    this.rate = resized(this.rate, n);
    this.maxRate = resized(this.maxRate, n);
    if (this.weight !== null) this.weight = resized(this.weight, n);
    if (this.penalty !== null) this.penalty = resized(this.penalty, n);
    this.finish = resized(this.finish, n);
    this.t = resized(this.t, n);
    this.msg = resized(this.msg, n);
    this.stream = resized(this.stream, n);
    this.op = resized(this.op, n);
    this.nextFree = resized(this.nextFree, n);
    this.inUse = resized(this.inUse, n);
    this.activePos = resized(this.activePos, n);
  }
}
