/**
 * The packet engine on compute-dominated workloads: while the network is empty and only compute
 * is running, the engine jumps to the next wake-up instead of stepping empty cycles, and its cycle
 * limit counts stepped cycles only (sim/packet/schedule-run.ts). A real trace's second of compute
 * is 10^8-10^9 cycles, beyond the 10^8 limit if every cycle were stepped.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { runWorkload } from '../../src/workload/run.js';
import { comp, traceOf, RING_ALGORITHMS } from './chakra-helpers.js';
import type { ChakraNodeInit } from '../../src/workload/chakra/write.js';

const allreduce = (id: number, deps: number[]): ChakraNodeInit => ({ id, name: 'grad allreduce', kind: 'coll', collective: 'allreduce', commSize: 1 << 20, dataDeps: deps });

describe('packet engine: compute stretches are skipped, not stepped', () => {
  const topology = buildTopology('ring:4');
  const run = (rank: ChakraNodeInit[]) => runWorkload({ topology, trace: traceOf(Array(4).fill(rank)), algorithms: RING_ALGORITHMS, engine: 'packet' });

  it('2 s of compute then an allreduce: step = whole cycles of the compute + the allreduce alone, exactly', () => {
    const alone = run([allreduce(1, [])]);
    const after = run([comp(1, 2e6), allreduce(2, [1])]);
    const cycle = (alone.result.model as { cycleSeconds: number }).cycleSeconds;
    const computeCycles = Math.ceil(2 / cycle - 1e-9);
    expect(computeCycles).toBeGreaterThan(1e8); // beyond the stepped-cycle limit
    expect(after.result.makespan_s / cycle).toBeCloseTo(computeCycles + alone.result.makespan_s / cycle, 3);
    expect(after.result.stats.messages).toBe(alone.result.stats.messages);
    expect((after.result.model as { cyclesSkipped: number }).cyclesSkipped).toBeGreaterThan(computeCycles - 10);
  });

  it('a stretch that must be stepped still meets the limit, named', () => {
    expect(() => runWorkload({ topology, trace: traceOf(Array(4).fill([allreduce(1, [])])), algorithms: RING_ALGORITHMS, engine: 'packet', packet: { maxCycles: 100 } })).toThrow(/maxCycles.*100 stepped cycles of packet simulation/);
  });
});
