/**
 * Timing the collective libraries (issue 25): nccl-tests' algbw/busbw in results, the tuning
 * model's picks, the protocol lowering against its closed form, the perf sweep and its CLI, and
 * ASTRA-sim's analytical regression case pinned.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, FlowProgramBuilder, simulate, simulateCollective } from '../../src/index.js';
import { librarySendLanes, librarySendQueues } from '../../src/sim/program/send-lanes.js';
import { PacketNicQueues } from '../../src/sim/packet/nic-queues.js';
import { busbwFactor, ncclTestsBandwidth } from '../../src/sim/nccl-tests.js';
import { LIBRARY_MACHINES, tuneCollective } from '../../src/collectives/algorithms/library/tuning.js';
import { checkMeasuredTable, parseMeasuredTable, perfSizes } from '../../src/sim/perf.js';
import { fileURLToPath } from 'node:url';
import { parseNcclTestsSize } from '../../src/sim/perf.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe("nccl-tests' bandwidths", () => {
  it('busbw factors of nccl-tests doc/PERFORMANCE.md', () => {
    expect(busbwFactor('allreduce', 16)).toBe(30 / 16);
    expect(busbwFactor('allgather', 8)).toBe(7 / 8);
    expect(busbwFactor('reduce-scatter', 8)).toBe(7 / 8);
    expect(busbwFactor('broadcast', 8)).toBe(1);
    // allgather: nccl-tests' size is all n blocks.
    expect(ncclTestsBandwidth('allgather', 1000, 8, 1e-3)!.algbw_Bps).toBe(8000 / 1e-3);
  });
  it('every collective run records algbw and busbw from its makespan', () => {
    const r = simulateCollective({ topology: buildTopology('torus:4x4'), collective: 'allreduce', algorithm: 'ring', size: 1 << 20 });
    expect(r.bandwidth!.algbw_Bps).toBeCloseTo((1 << 20) / r.makespan_s, 3);
    expect(r.bandwidth!.busbw_Bps).toBeCloseTo(((1 << 20) / r.makespan_s) * (30 / 16), 3);
  });
});

describe('the tuning model', () => {
  it("generic ring latencies are NCCL's: base + 2(n−1) steps (8 ranks, Simple: 8.4 + 14 × 3.4 µs)", () => {
    const choice = tuneCollective({ topology: buildTopology('fullmesh:8'), collective: 'allreduce', size: 1 << 20, library: 'nccl' });
    const simple = choice.candidates.find((c) => c.protocol === 'Simple')!;
    expect(simple.latency_s).toBeCloseTo(56e-6, 12);
    expect(choice.machine).toBe('generic');
  });
  it('picks the fastest predicted candidate: with NCCL on an 8-GPU mesh LL for small, LL128 for mid, Simple for large sizes', () => {
    const t = buildTopology('fullmesh:8');
    const pick = (size: number): string => tuneCollective({ topology: t, collective: 'allreduce', size, library: 'nccl' }).pick.protocol;
    expect([pick(1024), pick(512 << 10), pick(64 << 20)]).toEqual(['LL', 'LL128', 'Simple']);
    for (const size of [1024, 512 << 10, 64 << 20]) {
      const c = tuneCollective({ topology: t, collective: 'allreduce', size, library: 'nccl' });
      expect(c.pick.predicted_s).toBe(Math.min(...c.candidates.map((x) => x.predicted_s)));
    }
  });
  it("RCCL on MI300X: its MSCCL allpairs where the float count is a multiple of the XML's chunks per loop (1 KiB–16 MiB), its ring otherwise, never LL128", () => {
    const t = buildTopology('mi300x');
    const pick = (size: number, elementBytes = 4): string => {
      const c = tuneCollective({ topology: t, collective: 'allreduce', size, library: 'rccl', elementBytes });
      return `${c.pick.algorithm}/${c.pick.protocol}${c.msccl ? `/${c.msccl.file}` : ''}`;
    };
    // RCCL tools/msccl-algorithms: ll-32tb-op 0–64 KiB (256 chunks), ll-64tb-op to 512 KiB − 1 (512), simple-op 512 KiB–16 MiB (512).
    expect(pick(512)).toBe('nccl-ring/LL'); // 128 floats: not a multiple of 256
    expect(pick(1024)).toBe('direct/LL/allreduce-allpairs-8n-ll-32tb-op.xml');
    expect(pick(1028)).toBe('nccl-ring/LL'); // 257 floats
    expect(pick(128 << 10)).toBe('direct/LL/allreduce-allpairs-8n-ll-64tb-op.xml');
    expect(pick(512 << 10)).toBe('direct/Simple/allreduce-allpairs-8n-simple-op.xml');
    expect(pick(16 << 20)).toBe('direct/Simple/allreduce-allpairs-8n-simple-op.xml');
    expect(pick(32 << 20)).toBe('nccl-ring/Simple');
    // NCCL has no MSCCL table: its tuning model alone.
    expect(tuneCollective({ topology: t, collective: 'allreduce', size: 1024, library: 'nccl' }).msccl).toBeUndefined();
    // LL128 is disabled (RCCL tuning model 5): no candidate runs it.
    expect(tuneCollective({ topology: t, collective: 'allreduce', size: 4 << 20, library: 'rccl' }).candidates.some((c) => c.protocol === 'LL128')).toBe(false);
  });
  it("RCCL's ring LL on MI300X below 1 KiB costs its own constants: baseLat 12 µs + 14 × hwLat 0.8 µs = 23.2 µs", () => {
    const r = simulateCollective({ topology: buildTopology('mi300x'), collective: 'allreduce', algorithm: 'rccl', size: 256 });
    expect(r.workload!.algorithm_spec).toMatch(/^nccl-ring:channels=7,proto=LL,/);
    expect(r.makespan_s * 1e6).toBeGreaterThan(23.2);
    expect(r.makespan_s * 1e6).toBeLessThan(23.3);
  });
  it('the result records the pick and the protocol timing', () => {
    const r = simulateCollective({ topology: buildTopology('mi300x'), collective: 'allreduce', algorithm: 'rccl', size: 1024 });
    expect(r.workload!.algorithm).toBe('rccl');
    expect(r.workload!.algorithm_spec).toMatch(/^direct:mode=twoshot,proto=LL,/);
    expect(r.model.library).toMatchObject({ machine: 'mi300x', protocol: 'LL', pickedBy: 'rccl', efficiency: 0.25 });
  });
  it('across nodes the hierarchical decomposition beats the flat ring (each NIC carries S/G, not 2(n−1)/n·S)', () => {
    const c = tuneCollective({ topology: buildTopology('hgx-h100:nodes=2,nvls=off'), collective: 'allreduce', size: 1 << 30, library: 'nccl' });
    expect(c.pick.algorithm).toBe('hierarchical');
  });
  it("NCCL's Tree and NVLS are candidates where the preset carries NCCL's constants for them: which algorithm is picked where", () => {
    const pick = (spec: string, size: number): string => {
      const c = tuneCollective({ topology: buildTopology(spec), collective: 'allreduce', size, library: 'nccl' });
      return `${c.pick.algorithm}/${c.pick.protocol}`;
    };
    // One HGX H100: ring LL for small messages, NVLS (25 µs, 0.85 of the NVLink rate) from a few MiB, as NCCL on Hopper.
    expect([pick('hgx-h100', 4096), pick('hgx-h100', 16 << 20), pick('hgx-h100', 1 << 30)]).toEqual(['nccl-ring/LL', 'nvls/Simple', 'nvls/Simple']);
    // Without NVLS in the switches, ring again.
    expect(pick('hgx-h100:nvls=off', 1 << 30)).toBe('nccl-ring/Simple');
    // 16 nodes: the tree's 2 log2(16) network steps beat the rings' 2 × 15 for small messages; NVLS Tree (its 2 log2(16)
    // network steps of 20.9 µs) for mid sizes, the ring (LL128) for the largest, within 1 % of NVLS Tree and ring Simple.
    // No NVLS across nodes (NCCL disables it without CollNet), and no hierarchical stand-in beyond 2 nodes.
    expect([pick('hgx-h100:nodes=16', 4096), pick('hgx-h100:nodes=16', 16 << 20), pick('hgx-h100:nodes=16', 8 * 2 ** 30)]).toEqual(['nccl-tree/LL', 'nvls-tree/Simple', 'nccl-ring/LL128']);
    // 72 GPUs behind NVSwitches: the ring's 142 steps cost more than NVLS's 25 µs from the smallest size.
    expect(pick('gb200-nvl72', 8)).toBe('nvls/Simple');
    // The tree candidate's latency is NCCL's (2.30.7): baseLat 6.8 + 2 × (7 × 0.6 + log2(16) × 5.0) µs (LL).
    const c = tuneCollective({ topology: buildTopology('hgx-h100:nodes=16'), collective: 'allreduce', size: 8, library: 'nccl' });
    expect(c.candidates.find((x) => x.algorithm === 'nccl-tree' && x.protocol === 'LL')!.latency_s).toBeCloseTo((6.8 + 2 * (7 * 0.6 + 4 * 5.0)) * 1e-6, 12);
    // A3 Mega's TCPXO preset: ring, tree (NCCL_ALGO=Ring,Tree in Google's profile) and hierarchical; no NVLS across nodes.
    const a3 = tuneCollective({ topology: buildTopology('hgx-h100:nodes=2,nicbw=200Gbps'), collective: 'allreduce', size: 1 << 30, library: 'nccl', machine: 'h100-tcpxo' });
    expect(new Set(a3.candidates.map((x) => x.algorithm))).toEqual(new Set(['nccl-ring', 'nccl-tree', 'hierarchical']));
  });
  it('PAT for allgather and reduce-scatter with one accelerator per node: small and mid sizes, the ring for large; never with several per node', () => {
    const pick = (spec: string, collective: 'allgather' | 'reduce-scatter', size: number): string => tuneCollective({ topology: buildTopology(spec), collective, size, library: 'nccl' }).pick.algorithm;
    expect([pick('fabric:gpus=1,nodes=64,nics=1', 'allgather', 1024), pick('fabric:gpus=1,nodes=64,nics=1', 'reduce-scatter', 64 * 1024), pick('fabric:gpus=1,nodes=64,nics=1', 'allgather', 16 << 20)]).toEqual(['pat', 'pat', 'nccl-ring']);
    expect(pick('hgx-h100:nodes=8', 'allgather', 1024)).toBe('nccl-ring');
    // NCCL's PAT latency: 8 + log2(64) × 14 / 3.5 + 64 × 2.8 µs.
    const c = tuneCollective({ topology: buildTopology('fabric:gpus=1,nodes=64,nics=1'), collective: 'allgather', size: 1024, library: 'nccl' });
    expect(c.pick.latency_s).toBeCloseTo((8 + 6 * 4 + 64 * 2.8) * 1e-6, 12);
    const r = simulateCollective({ topology: buildTopology('fabric:gpus=1,nodes=16,nics=1'), collective: 'allgather', algorithm: 'nccl', size: 1024 });
    expect(r.workload!.algorithm_spec).toBe('pat:machine=auto');
    expect(r.model.library).toMatchObject({ algorithm: 'pat', protocol: 'Simple', pickedBy: 'nccl', efficiency: 0.75 });
  });
  it('the picked tree and NVLS schedules run, and the result records the pick', () => {
    const tree = simulateCollective({ topology: buildTopology('hgx-h100:nodes=16'), collective: 'allreduce', algorithm: 'nccl', size: 4096 });
    expect(tree.workload!.algorithm_spec).toMatch(/^nccl-tree:chunks=1,proto=LL,/);
    // NCCL's tree LL factor on NVLink at NCCL's own NVLink4 bandwidth, 20.6 of 25 GB/s per link (topo.h SM90_NVLINK_BW).
    expect(tree.model.library).toMatchObject({ algorithm: 'nccl-tree', protocol: 'LL', pickedBy: 'nccl' });
    expect((tree.model.library as { efficiency: number }).efficiency).toBeCloseTo((0.92 / 3.8) * (20.6 / 25), 12);
    const nvls = simulateCollective({ topology: buildTopology('hgx-h100'), collective: 'allreduce', algorithm: 'nccl', size: 16 << 20 });
    expect(nvls.workload!.algorithm_spec).toMatch(/^nvls:proto=Simple,/);
    // nvlsEfficiency 0.85 × the NVLink efficiency, over the S (1 + 1/8) each link carries.
    expect(nvls.model.library).toMatchObject({ algorithm: 'nvls' });
    expect((nvls.model.library as { efficiency: number }).efficiency).toBeCloseTo((0.85 * (20.6 / 25)) / (1 + 1 / 8), 12);
    expect((nvls.model.library as { latency_s: number }).latency_s).toBeCloseTo(25e-6, 12);
  });
});

describe('protocol lowering', () => {
  it('ring Simple on MI300X: latency up front, then 14 steps of S/(7·8) over 64 GB/s × efficiency plus the link latency', () => {
    const S = 64 << 20;
    const r = simulateCollective({ topology: buildTopology('mi300x'), collective: 'allreduce', algorithm: 'nccl-ring:proto=Simple', size: S });
    const p = LIBRARY_MACHINES.mi300x.protocols.Simple;
    const expected = p.base_s + 14 * p.step_s + 14 * (S / 56 / (64e9 * p.efficiency) + 150e-9);
    // The 7 channel slices of 2^24 floats differ by one element, each step waits for the largest: within 1e-5.
    expect(Math.abs(r.makespan_s / expected - 1)).toBeLessThan(1e-5);
    // And the protocol matters: LL over the same links is slower by its efficiency (0.25 against 0.706).
    const ll = simulateCollective({ topology: buildTopology('mi300x'), collective: 'allreduce', algorithm: 'nccl-ring:proto=LL', size: S });
    expect(ll.makespan_s).toBeGreaterThan(2 * r.makespan_s);
  });
});

describe("a library's hw operations take the library's latency", () => {
  it('NVLS on one HGX H100: no combining-tree level latency unless hwLevelLatency is set (then 2⌈log2 8⌉ levels of it, once: one hw allreduce per rank)', () => {
    const S = 16 << 20;
    const run = (model = {}) => simulateCollective({ topology: buildTopology('hgx-h100'), collective: 'allreduce', algorithm: 'nvls', size: S }, { model });
    const library = run();
    expect(library.model.libraryHwLevelLatency).toBe(0);
    expect(library.model.hwLevelLatency).toBe(100e-9);
    const set = run({ hwLevelLatency: 100e-9 });
    expect(set.model.libraryHwLevelLatency).toBe(100e-9);
    expect(set.makespan_s - library.makespan_s).toBeCloseTo(2 * 3 * 100e-9, 15);
  });

  it('nvls-tree with 64 chunks on 2 nodes: the level latency its 8 hw operations per chunk and phase no longer pay would add over 64 × 8 × 600 ns', () => {
    const run = (model = {}) => simulateCollective({ topology: buildTopology('hgx-h100:nodes=2'), collective: 'allreduce', algorithm: 'nvls-tree:chunks=64', size: 256 << 20 }, { model });
    // 8 hw ops per chunk and phase, each 600 ns when set: the set run is at least a 64-chunk pipeline's worth slower.
    expect(run({ hwLevelLatency: 100e-9 }).makespan_s - run().makespan_s).toBeGreaterThan(64 * 8 * 600e-9);
  });
});

describe("a library's channels send from queues of their own (program/send-lanes.ts)", () => {
  const GiB = 2 ** 30;
  /** Rank 0: a plain stream and a library one (local index 1); rank 1: a plain stream receiving both. */
  const plainAndLibraryStreams = () => {
    const b = new FlowProgramBuilder(2);
    b.beginStream(0).send(1, 8, 0);
    b.beginStream(0).send(1, 8, 1);
    b.markLibrary(1);
    b.beginStream(1).recv(0, 8, 0).recv(0, 8, 1);
    return b.build();
  };
  it('an 8-channel ring allreduce on two HGX H100 nodes runs at its links’ bound (it ran at half: the channel leaving the node held the NVLink queue)', () => {
    const r = simulateCollective({ topology: buildTopology('hgx-h100:nodes=2'), collective: 'allreduce', algorithm: 'nccl-ring:channels=8,proto=Simple', size: GiB });
    // The schedule bound: every GPU's NVLink carries 1.875 GiB at 450 GB/s × 0.824, every NIC 1.875 GiB / 8 at 50 GB/s × 0.9335.
    expect(r.schedule_bound_s).toBeCloseTo((1.875 * GiB) / (450e9 * 0.824), 6);
    // 1.86 with one queue per link for all channels.
    expect(r.makespan_s / r.schedule_bound_s!).toBeLessThan(1.04);
    expect((r.model.library as { sendQueues: string }).sendQueues).toBe('per-channel');
  });

  it('the packet engine gives a library stream its lane as an injection port after the NICs', () => {
    const p = plainAndLibraryStreams();
    const queues = new PacketNicQueues('fifo', p, {} as never, 1, librarySendLanes(p, 'fifo', false), 8, new Float64Array(p.numStreams), { sendPacket: () => undefined });
    expect([0, 1, 2].map((s) => queues.port(s))).toEqual([0, 2, 0]);
  });

  it('lanes: one per library stream (its local index), none for other streams, where a NIC injection bandwidth is modelled or under the shared order', () => {
    const p = plainAndLibraryStreams();
    expect(Array.from(librarySendLanes(p, 'fifo', false)!.lane)).toEqual([-1, 1, -1]);
    expect(librarySendLanes(p, 'per-destination', false)!.count).toBe(2);
    expect(librarySendLanes(p, 'fifo', true)).toBeNull();
    expect(librarySendLanes(p, 'shared', false)).toBeNull();
    expect([librarySendQueues('fifo', false), librarySendQueues('fifo', true), librarySendQueues('shared', false)]).toEqual(['per-channel', 'nic', 'none']);
  });

  it('the run records where the channels queue: none under the shared order (every send flows at once)', () => {
    const topology = buildTopology('hgx-h100');
    const schedule = buildSchedule({ topology, collective: 'allreduce', algorithm: 'nccl-ring:channels=2,proto=Simple', size: 2 ** 20 });
    const r = simulate({ topology, schedule, model: { injectionOrder: 'shared' } });
    expect((r.model.library as { sendQueues: string }).sendQueues).toBe('none');
  });
});

describe('perf sweeps', () => {
  it("sizes as nccl-tests makes them: -b 8 -e 8G -f 2 is 31 rows; K/M/G are powers of 1024", () => {
    expect(parseNcclTestsSize('8G', 'maxbytes')).toBe(8 * 2 ** 30);
    expect(parseNcclTestsSize('1K', 'minbytes')).toBe(1024);
    expect(perfSizes(8, 8 * 2 ** 30, 2).length).toBe(31);
    // -f 1 steps nowhere: one size when -b = -e, refused otherwise (it gave the -b row alone, -e ignored).
    expect(perfSizes(64, 64, 1)).toEqual([64]);
    expect(() => perfSizes(8, 8 * 2 ** 30, 1)).toThrow('stepfactor: got 1; accepted: a number > 1 when -e (8589934592) exceeds -b (8); 1 only with -b equal to -e');
  });
  it('a largest size beyond the buffer limit is refused as -e, before any row runs (it named --size)', () => {
    expect(expectOneLineError(runCli(['perf', '--topology', 'hgx-h100', '-b', '8', '-e', '8P']))).toMatch(
      /^meshwork: error: maxbytes: got 8000000000000000; accepted: nccl-tests sizes this collective runs at: at most 1125899906842624 bytes = 1024TiB for allreduce on 8 ranks/,
    );
  });
  it('meshwork perf prints the all_reduce_perf table', () => {
    const r = runCli(['perf', '--topology', 'mi300x', '--algorithm', 'rccl', '-b', '8', '-e', '1M', '-f', '4']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[2]).toMatch(/size\s+count\s+type\s+redop\s+root\s+time\s+algbw\s+busbw #wrong/);
    const rows = lines.filter((l) => /^\s+\d/.test(l));
    expect(rows.map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual([8, 32, 128, 512, 2048, 8192, 32768, 131072, 524288]);
  });
  it('refuses a bad factor in one line', () => {
    expectOneLineError(runCli(['perf', '--topology', 'mi300x', '-f', '0.5']));
  });
});

describe("ASTRA-sim's analytical regression case (tests_rt_template: ring of 8, 50 GB/s, 500 ns, 1 MiB allreduce, 117,780 ns)", () => {
  // What ASTRA-sim charges (astra-sim @ 518bd513, astra-network-analytical): the analytical backend reads
  // 50 "GB/s" as 50 × 2^30 B/s (NetworkFunction.cpp bw_GBps_to_Bpns); the system layer splits the 1 MiB into
  // 4 chunks (preferred-dataset-splits) run one after another (active-chunks-per-dimension 1); every ring message
  // crosses the 10 ns endpoint bus (MemBus, Fast), and each reduce-scatter message is reduced at local-mem-bw
  // 50e9 B/s with a write and two reads (PacketBundle::call). Per chunk: 15 × 10 + 14 × ⌊500 + 32,768 / 53.687⌋
  // + 7 × 3 × ⌊32,768 / 50⌋ = 150 + 15,540 + 13,755 = 29,445 ns; × 4 = 117,780 ns.
  const topology = buildTopology('ring:8,bw=50GiB/s,lat=500ns');
  const astraModel = { alpha: 10e-9, gammaReduce: 3 / 50e9 };
  it('Meshwork with ASTRA-sim’s own parameters gives 117,790 ns: its 4 serial chunks of 262,144 B, α = endpoint delay, γ = 3 accesses at local-mem-bw', () => {
    const chunk = simulateCollective({ topology, collective: 'allreduce', algorithm: 'ring', size: (1 << 20) / 4 }, { model: astraModel });
    // 14 × (10 + 500 + 32,768 / 53.687) + 7 × 3 × 32,768 / 50 = 29,447.48 ns per chunk.
    expect(chunk.makespan_s * 1e9).toBeCloseTo(14 * (10 + 500 + 32768 / (50 * 2 ** 30 / 1e9)) + 7 * 3 * (32768 / 50), 3);
    // ASTRA-sim: 117,780. The 10 ns left: ASTRA truncates every delay to whole ns (−4.9 − 7.6 per chunk) and adds one more endpoint crossing (+10).
    expect(Math.abs(4 * chunk.makespan_s * 1e9 - 117_780)).toBeLessThan(12);
  });
  it('without the chunking and the reduction cost, the same ring gives 41,320 ns (the 50 GiB/s pin of the Chakra comparison)', () => {
    const whole = simulateCollective({ topology, collective: 'allreduce', algorithm: 'ring', size: 1 << 20 }, { model: { alpha: 10e-9 } });
    expect(whole.makespan_s * 1e9).toBeCloseTo(14 * (10 + 500 + 131072 / (50 * 2 ** 30 / 1e9)), 3);
  });
});

describe('comparing with a measured table', () => {
  it("reads all_reduce_perf's own output and the CSV form alike", () => {
    const text = '#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n     1048576        262144     float     sum      -1    28.39   36.94   64.64      0    28.04   37.40   65.45      0\n';
    expect(parseMeasuredTable(text)).toEqual([{ size_bytes: 1048576, time_s: 28.39e-6, busbw_Bps: 64.64e9 }]);
    const csv = 'size_B,count,type,redop,root,oop_time_us,oop_algbw_GBps,oop_busbw_GBps\n1048576,262144,float,sum,-1,28.39,36.94,64.64\n';
    expect(parseMeasuredTable(csv)).toEqual(parseMeasuredTable(text));
    expect(() => parseMeasuredTable('a,b\n1,2')).toThrow(/size_B/);
  });
  it('reads a pasted run whole: the banners NCCL and rccl-tests print without a #, and a launcher\'s line prefixes, are skipped', () => {
    // rccl-tests on 2 x 8 MI300X (github hisohara/ai-scripts @ 0780bb3c, training/01_rccl-smoketest/README.md, AAC10):
    // its version and host banners have no '#', and its device lines no Group column.
    const rccl = [
      '# nThread 1 nGpus 1 minBytes 8 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
      'rccl-tests: Version develop:448c4c7',
      '#   Rank  0 Pid 3844613 on     gpu-53 device  0 [0000:05:00.0] AMD Instinct MI300X',
      '#   Rank  1 Pid 3844614 on     gpu-53 device  1 [0000:25:00.0] AMD Instinct MI300X',
      'RCCL version : 2.22.3-HEAD:7d8d67c',
      'HIP version  : 6.4.43484-123eb5128',
      'Librccl path : /shared/apps/ubuntu/opt/rocm-6.4.2/lib/librccl.so.1',
      '           8             2     float     sum      -1    256.5    0.00    0.00      0    254.7    0.00    0.00      0',
      ' 17179869184    4294967296     float     sum      -1    90115  190.64  357.46      0    90127  190.62  357.41      0',
      '# Avg bus bandwidth    : 92.3318',
    ].join('\n');
    expect(parseMeasuredTable(rccl)).toEqual([
      { size_bytes: 8, time_s: 256.5 * 1e-6, busbw_Bps: 0 },
      { size_bytes: 17179869184, time_s: 90115 * 1e-6, busbw_Bps: 357.46e9 },
    ]);
    // Its rank lines are counted like nccl-tests' (2 here): a table of another machine size is refused.
    expect(() => checkMeasuredTable(rccl, 'allreduce', 16)).toThrow(/measured on 2 ranks/);
    // nccl-tests on 2 x HGX H100 (NVIDIA/nccl-tests#309, NCCL 2.26.2, NCCL_DEBUG=VERSION): MPI's warning and NCCL's banner
    // between the header and the rows; srun --label and mpirun --tag-output prefixes.
    const nccl = [
      'WARNING: Could not generate an xpmem segment id for this process\'',
      '[bm-h100-01:29250] 15 more processes have sent help message help-btl-vader.txt / xpmem-make-failed',
      'NCCL version 2.26.2+cuda12.8',
      '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong',
      ' 0:      1048576        262144     float     sum      -1    71.93   14.58   27.33      0    71.47   14.67   27.51      0',
      '[1,0]<stdout>: 17179869184    4294967296     float     sum      -1    68652  250.24  469.21      0    68668  250.19  469.10      0',
    ].join('\n');
    expect(parseMeasuredTable(nccl)).toEqual([
      { size_bytes: 1048576, time_s: 71.93 * 1e-6, busbw_Bps: 27.33e9 },
      { size_bytes: 17179869184, time_s: 68652 * 1e-6, busbw_Bps: 469.21e9 },
    ]);
    // Out-of-place columns only (9 fields with the root column): the time is still the 6th field.
    expect(parseMeasuredTable('17179869184    4294967296     float     sum      -1  62123.4  276.55  483.96      0')).toEqual([
      { size_bytes: 17179869184, time_s: 62123.4 * 1e-6, busbw_Bps: 483.96e9 },
    ]);
    // Nothing that reads as a row: refused, as before.
    expect(() => parseMeasuredTable('NCCL version 2.26.2+cuda12.8\nno table here')).toThrow(/no rows/);
  });
  it('meshwork perf --measured prints each row with its error and the geometric means; --csv one row per size and source', () => {
    const file = fileURLToPath(new URL('../reference/hardware/mi300x_1node_8gpu_allreduce.csv', import.meta.url));
    const r = runCli(['perf', '--topology', 'mi300x', '--algorithm', 'rccl', '--measured', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/geometric-mean error: below 1 MiB \d+\.\d %, from 1 MiB \d+\.\d %/);
    // The MI300X preset was calibrated on this table: its 4 anchor rows are marked, the held-out figures printed.
    expect(r.stdout.split('\n').filter((l) => l.endsWith('(anchor)')).length).toBe(4);
    expect(r.stdout).toMatch(/# held out \(every row but the anchors a preset parameter was solved from\): below 1 MiB 9\.2 %, from 1 MiB 2\.8 %/);
    const csv = runCli(['perf', '--topology', 'mi300x', '--algorithm', 'rccl', '--measured', file, '--csv']);
    expect(csv.stdout.trim().split('\n').length).toBe(1 + 2 * 31);
    expectOneLineError(runCli(['perf', '--topology', 'mi300x', '--measured', '/nonexistent/table.csv']));
  });
});
