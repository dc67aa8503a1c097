/**
 * Age-based (oldest first) arbitration priority: the packet created earliest wins; equal ages fall
 * back to round-robin order so the choice stays deterministic and fair.
 */
import { registerArbiter } from './table.js';
import { roundRobinKey } from './round-robin.js';

export function ageKey(createdCycle: number, requester: number, pointer: number, size: number): number {
  return createdCycle * size + roundRobinKey(requester, pointer, size);
}

registerArbiter({ name: 'age', description: 'oldest packet first, round-robin among equals', bookSimName: 'age', key: ageKey });
