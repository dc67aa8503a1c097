/**
 * The default algorithm of a workload's allreduce, allgather and reduce-scatter is the collective
 * library's pick for its communicator (workload/library-pick.ts, NCCL's tuning model in
 * collectives/algorithms/library/tuning.ts): these pin which algorithm given trace ops get, and
 * the timing the pick adds (its latency, NCCL tuning.cc's baseLat + steps × hwLat).
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { runWorkload } from '../../src/workload/run.js';
import { decodeChakraRank } from '../../src/workload/chakra/read.js';
import { encodeChakraRank, type ChakraNodeInit } from '../../src/workload/chakra/write.js';
import { assembleTrace } from '../../src/workload/chakra/trace.js';
import { traceOf } from './chakra-helpers.js';

const coll = (id: number, collective: 'allreduce' | 'allgather' | 'reduce-scatter', commSize: number, pgName?: string, deps: number[] = []): ChakraNodeInit => ({
  id, name: `${collective}${id}`, kind: 'coll', collective, commSize, pgName, dataDeps: deps,
});

describe('workload default algorithm: the library pick per communicator', () => {
  it('one node (ring:8): LL for 4 KiB, Simple for 64 MiB, one channel, recorded per collective', () => {
    const rank = [coll(1, 'allreduce', 4096), coll(2, 'allreduce', 64 << 20, undefined, [1])];
    const run = runWorkload({ topology: buildTopology('ring:8'), trace: traceOf(Array(8).fill(rank)) });
    // NCCL's model on one node: LL 6.6 + 14 × 0.6 µs at half the link rate wins on 4 KiB,
    // Simple 8.4 + 14 × 3.4 µs at the full rate on 64 MiB; a ring:8 has no NICs for channels to spread over.
    expect(run.report.collectives.map((c) => c.algorithm)).toEqual([
      'nccl-ring:channels=1,proto=LL,machine=generic (nccl pick)',
      'nccl-ring:channels=1,proto=Simple,machine=generic (nccl pick)',
    ]);
    expect(run.result.workload?.algorithms).toMatchObject({ allreduce: 'library', alltoall: 'pairwise' });
  });

  it("the pick pays its latency once per stream in place of α: Simple's 8.4 + 14 × 3.4 = 56 µs, less the bare schedule's 14 α of 1 µs, as the same algorithm named does", () => {
    const trace = traceOf(Array(8).fill([coll(1, 'allreduce', 64 << 20)]));
    const topology = buildTopology('ring:8');
    const picked = runWorkload({ topology, trace }).report.step_time_s;
    const named = runWorkload({ topology, trace, algorithms: { allreduce: 'nccl-ring:channels=1,proto=Simple' } }).report.step_time_s;
    // The bare schedule: the classic ring (the same 14 messages on one channel), no library timing,
    // each message paying the default α = 1 µs that the library's latency replaces.
    const bare = runWorkload({ topology, trace, algorithms: { allreduce: 'ring' } }).report.step_time_s;
    expect(named).toBe(picked);
    expect((picked - bare) * 1e6).toBeCloseTo(8.4 + 14 * 3.4 - 14 * 1, 6);
  });

  it('a fabric: the whole machine, a node slice and a one-per-node communicator each get their own pick', () => {
    const topology = buildTopology('fabric:gpus=4,nodes=2,nics=2');
    const groups = new Map([['tp', [0, 1, 2, 3]], ['dp', [1, 5]]]);
    const ranks = Array.from({ length: 8 }, (_, r) => {
      const nodes: ChakraNodeInit[] = [coll(1, 'allreduce', 64 << 20)];
      if (r < 4) nodes.push(coll(2, 'allreduce', 64 << 20, 'tp', [1]));
      if (r === 1 || r === 5) nodes.push(coll(3, 'allgather', 1 << 20, 'dp', [1]));
      return decodeChakraRank(encodeChakraRank(nodes), `w.${r}.et`, r);
    });
    const run = runWorkload({ topology, trace: assembleTrace(ranks, groups) });
    const picks = Object.fromEntries(run.report.collectives.map((c) => [c.group, c.algorithm]));
    expect(picks).toEqual({
      // 2 nodes × 4: the hierarchical allreduce (4 channels, one per accelerator), NCCL's 4 MiB chunks.
      world: 'hierarchical:channels=4,chunks=4,proto=Simple,machine=generic (nccl pick)',
      // One node's 4 accelerators: the ring on 4 channels, no network step.
      tp: 'nccl-ring:channels=4,proto=Simple,machine=generic (nccl pick)',
      // One accelerator on each of 2 nodes, 1 MiB allgather: Simple across the network (NCCL 2.30: ppn = 1 pays the
      // Tree network latency, Simple 14 µs against LL128's 8.5 µs, and Simple has the full rate).
      dp: 'nccl-ring:channels=1,proto=Simple,machine=generic (nccl pick)',
    });
  });
});
