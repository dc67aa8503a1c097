/**
 * The cross-engine agreement matrix (issue 17): every registered algorithm × a torus, a two-level
 * fat tree and a full mesh, at a bandwidth-bound size: flow and packet makespans within 10% (25%
 * for the latency-bound barrier). The packet engine runs in its schedule configuration, which is
 * the flow model's equivalent: a cycle is one 32-byte flit on the slowest link (so a link moves
 * its bandwidth), channel latency rounded to cycles, NIC injection into every link at once when
 * the flow model has no NIC limit, the same α, barrier, routing and NIC model (injectionOrder
 * fifo). Cases outside the band are named model differences (docs/flow.md, "Where the engines
 * differ") pinned to the ratio measured here, never skipped.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, listAlgorithms, simulate, type CollectiveKind } from '../../../src/index.js';

const TOPOLOGIES = ['torus:4x4,bw=25Gbps,lat=100ns', 'twolevel:leaves=4,hosts=4,bw=25Gbps,lat=100ns', 'fullmesh:8,bw=25Gbps,lat=100ns'];
const COLLECTIVES: CollectiveKind[] = ['alltoall', 'broadcast', 'reduce', 'allreduce', 'scatter', 'gather', 'allgather', 'reduce-scatter', 'one-to-one', 'barrier'];
/** Bytes per block for alltoall/allgather (16 ranks × 16 blocks each), the whole buffer otherwise. */
const SIZE: Partial<Record<CollectiveKind, number>> = { alltoall: 16384, allgather: 16384, barrier: 0 };
const LARGE = 65536;

/**
 * Named model differences: packet / flow ratio measured on this matrix (± 0.03).
 * - torus-contention: on the 4×4 torus, schedules whose messages cross each other on shared links
 *   (alltoall, recursive doubling, Bruck) are 10–35% slower at packet level. Not yet explained:
 *   neither deeper buffers (vcBuf 64), nor exact tie splitting, nor the NIC model moves it; the
 *   likely cause is unequal shares from round-robin switch allocation where flows merge at
 *   different routers (max-min gives them equal shares, and the slowest message of a step gates
 *   the next). Pinned so that a change either way is seen.
 */
const DIFFERENCES: Record<string, { ratio: number; why: 'torus-contention' }> = {
  'torus:4x4 allgather bruck': { ratio: 1.137, why: 'torus-contention' },
  'torus:4x4 allgather recursive-doubling': { ratio: 1.129, why: 'torus-contention' },
  'torus:4x4 allreduce recursive-doubling': { ratio: 1.106, why: 'torus-contention' },
  'torus:4x4 alltoall bruck': { ratio: 1.105, why: 'torus-contention' },
  'torus:4x4 alltoall hop-grouped': { ratio: 1.346, why: 'torus-contention' },
  'torus:4x4 alltoall linear': { ratio: 1.154, why: 'torus-contention' },
  'torus:4x4 alltoall pairwise': { ratio: 1.246, why: 'torus-contention' },
  // FIG. 9 paced by its real link sharing (gap = max(d) − 1, issue 10) joins the class; with the
  // literal gap = hops − 1 its sends were throttled enough to agree within 10%.
  'torus:4x4 alltoall per-step-barrier': { ratio: 1.395, why: 'torus-contention' },
  'torus:4x4 alltoall ring': { ratio: 1.075, why: 'torus-contention' }, // 1.109 before issue 15's next-cycle credits and free-VC allocation
  'torus:4x4 reduce-scatter pairwise': { ratio: 1.136, why: 'torus-contention' },
};

interface Case {
  topology: string;
  collective: CollectiveKind;
  algorithm: string;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const topology of TOPOLOGIES) {
    const t = buildTopology(topology);
    for (const collective of COLLECTIVES) {
      for (const a of listAlgorithms(collective)) {
        try {
          buildSchedule({ collective, algorithm: a.name, topology: t, size: SIZE[collective] ?? LARGE, root: 0, peer: 1 });
        } catch {
          continue; // the algorithm does not apply to this topology (its own error says why)
        }
        out.push({ topology, collective, algorithm: a.name });
      }
    }
  }
  return out;
}

describe('flow and packet engines agree', () => {
  const all = cases();
  it('covers every registered algorithm on at least one topology', () => {
    const covered = new Set(all.map((c) => `${c.collective}/${c.algorithm}`));
    for (const collective of COLLECTIVES) for (const a of listAlgorithms(collective)) expect(covered.has(`${collective}/${a.name}`), `${collective}/${a.name}`).toBe(true);
  });
  it.each(all)('$collective $algorithm on $topology', ({ topology, collective, algorithm }) => {
    const t = buildTopology(topology);
    const schedule = buildSchedule({ collective, algorithm, topology: t, size: SIZE[collective] ?? LARGE, root: 0, peer: 1 });
    const flow = simulate({ topology: t, schedule, engine: 'flow' });
    const packet = simulate({ topology: t, schedule, engine: 'packet' });
    expect(packet.model.injectionOrder).toBe(flow.model.injectionOrder);
    const ratio = packet.makespan_s / flow.makespan_s;
    const key = `${topology.split(',')[0]} ${collective} ${algorithm}`;
    const named = DIFFERENCES[key];
    if (named) expect(Math.abs(ratio - named.ratio), `${key}: ${named.why}`).toBeLessThan(0.03);
    else expect(Math.abs(ratio - 1), key).toBeLessThan(collective === 'barrier' ? 0.25 : 0.1);
  });
});
