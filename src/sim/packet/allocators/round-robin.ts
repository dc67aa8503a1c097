/**
 * Round-robin arbitration priority: the requester at or after the pointer wins.
 * Expressed as a key (lower wins) so one sparse allocator loop serves every arbitration policy
 * without a closure per decision.
 */
export function roundRobinKey(requester: number, pointer: number, size: number): number {
  const d = requester - pointer;
  return d >= 0 ? d : d + size;
}
