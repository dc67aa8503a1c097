/**
 * Round-robin arbitration priority: the requester at or after the pointer wins.
 * Expressed as a key (lower wins) so one sparse allocator loop serves every arbitration policy
 * without a closure per decision.
 */
import { registerArbiter } from './table.js';

export function roundRobinKey(requester: number, pointer: number, size: number): number {
  const d = requester - pointer;
  return d >= 0 ? d : d + size;
}

/** (i + 1) mod n for i in [0, n), a pointer moving past a match: a compare, not an integer division (it runs per match). */
export function nextIndex(i: number, n: number): number {
  return i + 1 === n ? 0 : i + 1;
}

registerArbiter({
  name: 'round-robin',
  description: 'the requester at or after the rotating pointer wins (per input: seed 000 FIG. 6 parking-lot split)',
  bookSimName: 'round_robin',
  key: (_created, requester, pointer, size) => roundRobinKey(requester, pointer, size),
  ignoresCreated: true,
});
