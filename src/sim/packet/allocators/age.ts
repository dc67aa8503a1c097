/**
 * Age-based (oldest first) arbitration priority: the packet created earliest wins; equal ages fall
 * back to round-robin order so the choice stays deterministic and fair. BookSim's other priorities
 * use the same key on another value (registry.ts PriorityValue).
 */
import { registerArbiter } from './table.js';
import { roundRobinKey } from './round-robin.js';

export function ageKey(value: number, requester: number, pointer: number, size: number): number {
  return value * size + roundRobinKey(requester, pointer, size);
}

registerArbiter({ name: 'age', description: 'oldest packet first, round-robin among equals', bookSimName: 'age', key: ageKey });

// BookSim's other `priority` values (trafficmanager.cpp, vc.cpp): the same order, lowest value
// first, on another quantity of the flit at the front of the requesting VC.
registerArbiter({ name: 'network-age', description: 'the flit that entered the network first, round-robin among equals', bookSimName: 'network_age', key: ageKey, reads: 'injected' });
registerArbiter({ name: 'local-age', description: 'the flit that entered this VC buffer first, round-robin among equals', bookSimName: 'local_age', key: ageKey, reads: 'arrived' });
registerArbiter({ name: 'hop-count', description: 'the packet that has crossed the most routers first, round-robin among equals', bookSimName: 'hop_count', key: ageKey, reads: 'hops' });
registerArbiter({ name: 'queue-length', description: 'the VC holding the most flits first, round-robin among equals', bookSimName: 'queue_length', key: ageKey, reads: 'queue-length' });
registerArbiter({ name: 'sequence', description: "the packet its source created earliest among its own first, round-robin among equals", bookSimName: 'sequence', key: ageKey, reads: 'sequence' });
