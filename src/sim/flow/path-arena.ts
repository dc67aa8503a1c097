/**
 * The flow engine's path arena: every flow's resource path (channel ids, then injection and ejection
 * port ids) stored back to back in one Int32Array. A finished flow's entries become dead; when the
 * arena is full and at least half of it is dead, the live paths move to the front (compaction)
 * instead of the arena growing.
 */
import type { FlowTable } from './flow-table.js';

/** What `reserve` did to make room: nothing, */
export const ARENA_FITS = 0;
/** moved the live paths (positions held elsewhere, as the local rate update's lists, are stale), */
export const ARENA_COMPACTED = 1;
/** or replaced the array by a longer one, positions unchanged. */
export const ARENA_GROWN = 2;

export class PathArena {
  path = new Int32Array(1 << 16);
  /** Entries written so far (live and dead). */
  used = 0;
  /** Entries of flows that have not finished (active or waiting in a NIC queue). */
  live = 0;

  /** Whether `extra` more entries fit without moving anything. */
  fits(extra: number): boolean {
    return this.used + extra <= this.path.length;
  }

  /**
   * Makes room for `extra` more entries. Compaction keeps the paths of the flows listed in `holders`
   * (the active flows, then the waiting ones), in that order.
   */
  reserve(extra: number, flows: FlowTable, holders: readonly (readonly [Int32Array, number])[]): number {
    if (this.used + extra <= this.path.length) return ARENA_FITS;
    if (this.live + extra <= this.path.length / 2) {
      const fresh = new Int32Array(this.path.length);
      let w = 0;
      for (const [ids, n] of holders) {
        for (let a = 0; a < n; a++) {
          const f = ids[a];
          fresh.set(this.path.subarray(flows.start[f], flows.start[f] + flows.len[f]), w);
          flows.start[f] = w;
          w += flows.len[f];
        }
      }
      this.path = fresh;
      this.used = w;
      return ARENA_COMPACTED;
    }
    const bigger = new Int32Array(Math.max(this.path.length * 2, this.used + extra));
    bigger.set(this.path.subarray(0, this.used));
    this.path = bigger;
    return ARENA_GROWN;
  }

  /** Appends the first n entries of `resources` (room reserved); returns where they start. */
  append(resources: number[] | Int32Array, n: number): number {
    const start = this.used;
    const path = this.path;
    for (let i = 0; i < n; i++) path[start + i] = resources[i];
    this.used = start + n;
    this.live += n;
    return start;
  }
}
