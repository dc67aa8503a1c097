/**
 * The flow engine's path arena: every flow's resource path (channel ids, then injection and ejection
 * port ids) stored back to back in one Int32Array. A finished flow's entries become dead; when the
 * arena is full and at least half of it is dead, the live paths move to the front (compaction)
 * instead of the arena growing.
 *
 * Compaction moves the path of every unfinished flow, whatever phase it is in (spending its route
 * latency before transfer, waiting in a NIC queue, or active): a flow left out would keep a stale
 * offset and later run over other flows' channels. Which flows are unfinished is the flow table's
 * own record (`inUse`), not a list the engine passes in, so a new phase cannot be forgotten here.
 */
import type { FlowTable } from './flow-table.js';
import { hash32 } from '../../util/rng.js';
import { resized } from '../../util/typed-arrays.js';

/** What `reserve` did to make room: nothing, */
export const ARENA_FITS = 0;
/** moved the live paths (positions held elsewhere, as the local rate update's lists, are stale), */
export const ARENA_COMPACTED = 1;
/** or replaced the array by a longer one, positions unchanged. */
export const ARENA_GROWN = 2;

/** The default first size: large enough that small runs never compact or grow. */
export const DEFAULT_ARENA_ENTRIES = 1 << 16;

export class PathArena {
  path: Int32Array;
  /** Entries written so far (live and dead). */
  used = 0;
  /** Entries of flows that have not finished (in any phase). */
  live = 0;
  /** Compactions and growths so far (tests check that a small arena really exercised both). */
  compactions = 0;
  growths = 0;
  /**
   * With `verify`, a hash of each flow's path is kept at append and every unfinished flow's path is
   * checked against it after each move (tests run this at scale; off by default: it costs a pass).
   */
  private hashes: Int32Array | null;

  constructor(initialEntries = DEFAULT_ARENA_ENTRIES, verify = false) {
    if (!Number.isInteger(initialEntries) || initialEntries < 1) throw new RangeError(`path arena size: got ${initialEntries}; accepted: a positive integer`);
    this.path = new Int32Array(initialEntries);
    this.hashes = verify ? new Int32Array(1024) : null;
  }

  /** Whether `extra` more entries fit without moving anything. */
  fits(extra: number): boolean {
    return this.used + extra <= this.path.length;
  }

  /**
   * Makes room for `extra` more entries. Compaction keeps the paths of every unfinished flow: first
   * those listed in `order` (the active flows, then the queued ones: the order the local rate update
   * rebuilds its lists in), then every other unfinished flow of the table in row order.
   */
  reserve(extra: number, flows: FlowTable, order: readonly (readonly [Int32Array, number])[]): number {
    if (this.used + extra <= this.path.length) return ARENA_FITS;
    if (this.live + extra <= this.path.length / 2) {
      const fresh = new Int32Array(this.path.length);
      const moved = new Uint8Array(flows.rows);
      let w = 0;
      for (const [ids, n] of order) {
        for (let a = 0; a < n; a++) if (moved[ids[a]] === 0) w = this.move(ids[a], flows, fresh, w, moved);
      }
      for (let f = 0; f < flows.rows; f++) if (flows.inUse[f] === 1 && moved[f] === 0) w = this.move(f, flows, fresh, w, moved);
      // Every live entry moved, and nothing else: otherwise some flow's offset is stale.
      if (w !== this.live) throw new Error(`path arena: compaction moved ${w} entries, ${this.live} are live`);
      this.path = fresh;
      this.used = w;
      this.compactions++;
      this.verifyAll(flows);
      return ARENA_COMPACTED;
    }
    const bigger = new Int32Array(Math.max(this.path.length * 2, this.used + extra));
    bigger.set(this.path.subarray(0, this.used));
    this.path = bigger;
    this.growths++;
    return ARENA_GROWN;
  }

  /**
   * Copies flow f's path to `fresh` at w and points the flow there; returns the next free entry. A
   * loop rather than a subarray per flow (16 K of them per compaction of a 32,768-rank step).
   */
  private move(f: number, flows: FlowTable, fresh: Int32Array, w: number, moved: Uint8Array): number {
    const path = this.path;
    const from = flows.start[f];
    const n = flows.len[f];
    for (let i = 0; i < n; i++) fresh[w + i] = path[from + i];
    flows.start[f] = w;
    moved[f] = 1;
    return w + n;
  }

  /** Appends the first n entries of `resources` (room reserved) as flow f's path; returns where they start. */
  append(f: number, resources: number[] | Int32Array, n: number): number {
    const start = this.used;
    const path = this.path;
    for (let i = 0; i < n; i++) path[start + i] = resources[i];
    this.used = start + n;
    this.live += n;
    if (this.hashes !== null) {
      if (f >= this.hashes.length) this.hashes = resized(this.hashes, 2 * (f + 1));
      this.hashes[f] = hashPath(path, start, n);
    }
    return start;
  }

  /** Under `verify`: throws unless flow f's arena entries are still the path it was given. */
  verifyFlow(flows: FlowTable, f: number): void {
    if (this.hashes === null) return;
    if (hashPath(this.path, flows.start[f], flows.len[f]) !== this.hashes[f]) {
      throw new Error(`path arena: flow ${f}'s channels are no longer its route (start ${flows.start[f]}, ${flows.len[f]} entries)`);
    }
  }

  /** Under `verify`: checks every unfinished flow's path. */
  verifyAll(flows: FlowTable): void {
    if (this.hashes === null) return;
    for (let f = 0; f < flows.rows; f++) if (flows.inUse[f] === 1) this.verifyFlow(flows, f);
  }
}

function hashPath(path: Int32Array, start: number, n: number): number {
  let h = n;
  for (let i = 0; i < n; i++) h = hash32(h, path[start + i], i) | 0;
  return h;
}
