/**
 * Allocator and arbiter registries (issue 17): built-ins are registered on import, a new arbiter or
 * allocator is one registration, unknown names are refused with the registered ones listed.
 */
import { describe, expect, it } from 'vitest';
import {
  allocatorNames,
  arbiterNames,
  buildTopology,
  bookSimNames,
  getArbiter,
  IslipAllocator,
  registerAllocator,
  registerArbiter,
  simulateTraffic,
  type LoadPoint,
} from '../../../src/index.js';

const run = (config: Record<string, unknown>): LoadPoint =>
  simulateTraffic({ topology: buildTopology('mesh:4x4'), pattern: 'uniform', rates: [0.3], preset: 'booksim', config: { seed: 1, ...config } }).points[0] as LoadPoint;

describe('allocator and arbiter registries', () => {
  it('hold the built-ins with their BookSim names', () => {
    expect(arbiterNames()).toEqual(expect.arrayContaining(['round-robin', 'age']));
    expect(allocatorNames()).toContain('islip');
    expect(bookSimNames('arbiter')).toEqual(expect.arrayContaining(['round_robin', 'age']));
    expect(bookSimNames('allocator')).toContain('islip');
    // Round-robin: the requester at the pointer wins, then the ones after it, wrapping.
    expect([0, 1, 2, 3].map((r) => getArbiter('round-robin').key(0, r, 2, 4))).toEqual([2, 3, 0, 1]);
    // Age: the older packet wins whatever the pointer says.
    expect(getArbiter('age').key(5, 2, 2, 4)).toBeGreaterThan(getArbiter('age').key(4, 1, 2, 4));
  });

  it('refuses an unknown name, listing the registered ones', () => {
    expect(() => run({ arbitration: 'lottery' })).toThrow(/arbitration: got "lottery"; accepted: round-robin \| age/);
    expect(() => run({ allocator: 'wavefront' })).toThrow(/allocator: got "wavefront"; accepted: islip/);
  });

  it('a newly registered arbiter and allocator are usable by name, and change the result', () => {
    // Fixed priority: the lowest-numbered requester always wins (no rotation).
    registerArbiter({ name: 'test-fixed-priority', description: 'lowest index wins', key: (_c, requester) => requester });
    registerAllocator({ name: 'test-islip-copy', description: 'iSLIP under another name', create: (i, o, r) => new IslipAllocator(i, o, r) });
    const base = run({});
    expect(run({ allocator: 'test-islip-copy' })).toEqual(base);
    const fixed = run({ arbitration: 'test-fixed-priority' });
    expect(fixed.packet_latency).not.toBe(base.packet_latency);
  });
});
