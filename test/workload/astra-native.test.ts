/**
 * ASTRA-sim's inputs in Meshwork: the `astra` topology family (its network file), the `astra`
 * collectives (its system layer's chunked, per-dimension ring phases), `sharing: 'none'` (its
 * congestion-unaware backend) and `--astra-system` (its system file). The figures against
 * ASTRA-sim itself are test/reference/astra-sim-native.test.ts; here, the parts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, executeSchedule, simulate, lowerSchedule, astraSystemSettings, OpKind, type CollectiveKind } from '../../src/index.js';
import { loadTopology } from '../../src/node/load-topology.js';
import '../../src/node/index.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';

const HGX16 = '../shared/reference/chakra/astra-sim/configs/inputs_network_hgx_h100_16gpu.yml';
const CONFIGS = '../shared/reference/chakra/astra-sim/configs';
const GiB = 2 ** 30;

describe('the astra topology family', () => {
  it("reads ASTRA-sim's network file: NPUs numbered dimension 0 fastest, a switch per group of a Switch dimension, GB as 2^30 B, ns", () => {
    const t = loadTopology(HGX16);
    expect(t.family).toBe('astra');
    expect(t.numEndpoints).toBe(16);
    // 16 NPUs + 2 switches (Switch 8 twice); 16 switch links and 8 two-NPU ring links, both ways.
    expect(t.numNodes).toBe(18);
    expect(t.numChannels).toBe(2 * (16 + 8));
    // NPU 9 is (1, 1): its Ring partner across dimension 1 is NPU 1, its switch is the second.
    const ringLinks = [...Array(t.numChannels).keys()].filter((c) => t.classNames[t.chClass[c]].startsWith('d1'));
    expect(ringLinks.map((c) => [t.chSrc[c], t.chDst[c]]).filter(([a]) => a === 9)).toEqual([[9, 1]]);
    const ring = ringLinks[0];
    expect(t.chBandwidth[ring]).toBe(50 * GiB);
    expect(t.chLatency[ring]).toBeCloseTo(1000e-9, 15);
    const up = [...Array(t.numChannels).keys()].find((c) => t.classNames[t.chClass[c]] === 'd0-up')!;
    expect(t.chBandwidth[up]).toBe(400 * GiB);
    expect(t.chLatency[up]).toBeCloseTo(936.25e-9, 15);
  });

  it('inline specs equal the file; units may be written; the TPU 2-D torus file is torus:4x8', () => {
    const inline = buildTopology('astra:topology=Switch_Ring,npus=8x2,bandwidth=400x50,latency=936.25x1000');
    const file = loadTopology(HGX16);
    expect(Array.from(inline.chSrc)).toEqual(Array.from(file.chSrc));
    expect(Array.from(inline.chBandwidth)).toEqual(Array.from(file.chBandwidth));
    expect(buildTopology('astra:topology=Ring,npus=4,bandwidth=400GBps,latency=1us').chBandwidth[0]).toBe(400e9);
    const tpu = loadTopology(`${CONFIGS}/inputs_network_tpu_v3_32_2dtorus.yml`);
    const torus = buildTopology('torus:4x8,bw=80GiBps,lat=1000ns');
    expect(tpu.numChannels).toBe(torus.numChannels);
    const edges = (t: typeof tpu) => [...Array(t.numChannels).keys()].map((c) => `${t.chSrc[c]}-${t.chDst[c]}`).sort();
    expect(edges(tpu)).toEqual(edges(torus));
  });

  it('bad input: one line naming the field', () => {
    expect(() => loadTopology(`${CONFIGS}/inputs_network_dgx_v100_8gpu.yml`)).toThrow(/topology\.bandwidth\[0\]: got "tbd"/);
    expect(() => buildTopology('astra:topology=Ring_Tree,npus=2x2,bandwidth=1x1,latency=1x1')).toThrow(/topology\.topology\[1\]: got "Tree"; accepted: one of Ring, FullyConnected, Switch/);
    expect(() => buildTopology('astra:topology=Ring_Ring,npus=2x2,bandwidth=1,latency=1x1')).toThrow(/topology\.bandwidth: got "1"; accepted: 2 items/);
    expect(() => buildTopology('astra:topology=Ring,npus=4,bandwidth=1,latency=1,bw=1GBps')).toThrow(/topology\.bw/);
  });
});

const NETWORKS = [
  'astra:topology=Ring_FullyConnected_Switch,npus=3x2x4,bandwidth=1x2x3,latency=1x1x1',
  'astra:topology=Switch_Ring,npus=4x2,bandwidth=400x50,latency=936.25x1000',
  'astra:topology=Ring_Switch_Ring,npus=2x1x3,bandwidth=1x1x1,latency=1x1x1',
  'torus:4x3',
  'mesh:2x3',
];
const COLLECTIVES: CollectiveKind[] = ['allreduce', 'reduce-scatter', 'allgather'];

describe('the astra collectives', () => {
  it('deliver their postconditions byte for byte: any splits, active chunks, optimization, remainder, dtype', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NETWORKS),
        fc.constantFrom(...COLLECTIVES),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('localBWAware', 'baseline'),
        fc.constantFrom('astra', 'exact'),
        fc.integer({ min: 7, max: 40 }),
        (spec, collective, splits, active, opt, remainder, units) => {
          const topology = buildTopology(spec);
          const n = topology.numEndpoints;
          const size = collective === 'reduce-scatter' ? units * n * 4 : collective === 'allgather' ? units * 3 : units * n * 4 + 8;
          const s = buildSchedule({ topology, collective, algorithm: `astra:splits=${splits},active=${active},opt=${opt},remainder=${remainder}`, size, dtype: 'int32' });
          const report = executeSchedule(s);
          expect(report.pass, JSON.stringify(report.problems.slice(0, 2))).toBe(true);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });

  it("ASTRA-sim's other implementations per dimension deliver their postconditions byte for byte: halvingDoubling, direct, doubleBinaryTree", () => {
    // Power-of-two dimensions for halvingDoubling and doubleBinaryTree; the tree only where ASTRA-sim runs an allreduce phase.
    const networks = ['astra:topology=Ring,npus=8,bandwidth=50,latency=500', 'astra:topology=Switch_Ring,npus=4x2,bandwidth=400x50,latency=936.25x1000', 'astra:topology=Ring_Ring_Switch,npus=2x3x4,bandwidth=1x1x1,latency=1x1x1'];
    fc.assert(
      fc.property(
        fc.constantFrom(...networks),
        fc.constantFrom(...COLLECTIVES),
        fc.constantFrom('halvingDoubling', 'direct', 'doubleBinaryTree', 'ring'),
        fc.constantFrom('halvingDoubling', 'direct', 'doubleBinaryTree', 'ring'),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('localBWAware', 'baseline'),
        fc.integer({ min: 7, max: 30 }),
        (spec, collective, first, last, splits, active, opt, units) => {
          const topology = buildTopology(spec);
          const dims = topology.params.dims as number[];
          const impls = dims.map((_, d) => (d === 0 ? first : d === dims.length - 1 ? last : 'direct'));
          const n = topology.numEndpoints;
          const size = collective === 'reduce-scatter' ? units * n * 4 : collective === 'allgather' ? units * 3 : units * n * 4 + 8;
          const algorithm = `astra:splits=${splits},active=${active},opt=${opt},${impls.map((x, d) => `impl${d}=${x}`).join(',')}`;
          const build = () => buildSchedule({ topology, collective, algorithm, size, dtype: 'int32' });
          const powerOfTwo = (d: number) => (dims[d] & (dims[d] - 1)) === 0;
          const treeOk = (d: number) => collective === 'allreduce' && (opt === 'baseline' || d === dims.length - 1);
          if (impls.some((x, d) => (x === 'halvingDoubling' && !powerOfTwo(d)) || (x === 'doubleBinaryTree' && (!powerOfTwo(d) || !treeOk(d))))) {
            expect(build).toThrow(/power-of-two dimension|where ASTRA-sim runs an allreduce phase/);
            return;
          }
          const report = executeSchedule(build());
          expect(report.pass, `${algorithm} ${collective} ${JSON.stringify(report.problems.slice(0, 2))}`).toBe(true);
        },
      ),
      { numRuns: 80, seed: 11 },
    );
  });

  it("ASTRA-sim's one* variants, the direct all-to-all per dimension and directW's window deliver their postconditions byte for byte", () => {
    const networks = ['astra:topology=Ring_Ring,npus=4x2,bandwidth=50x25,latency=500x700', 'astra:topology=FullyConnected_Ring_Switch,npus=2x3x2,bandwidth=1x1x1,latency=1x1x1', 'astra:topology=Ring_Ring_Ring,npus=2x2x4,bandwidth=1x1x1,latency=1x1x1'];
    fc.assert(
      fc.property(
        fc.constantFrom(...networks),
        fc.constantFrom<CollectiveKind>(...COLLECTIVES, 'alltoall'),
        fc.constantFrom('oneRing', 'oneDirect', 'oneHalvingDoubling', 'direct'),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('localBWAware', 'baseline'),
        fc.integer({ min: 7, max: 30 }),
        (spec, collective, impl, window, splits, active, opt, units) => {
          const topology = buildTopology(spec);
          const n = topology.numEndpoints;
          // A window (directW) for the direct ones' reduce-scatter, allgather and all-to-all phases.
          const windowed = impl.endsWith('irect') ? window : 0;
          // direct on every dimension (the all-to-all's new case; the others have it already).
          const impls = impl === 'direct' ? (topology.params.dims as number[]).map((_, d) => `impl${d}=direct`).join(',') : `impl0=${impl}`;
          const size = collective === 'reduce-scatter' ? units * n * 4 : collective === 'allgather' || collective === 'alltoall' ? units * 4 : units * n * 4 + 8;
          const algorithm = `astra:splits=${splits},active=${active},opt=${opt},${impls},window=${windowed}`;
          const build = () => buildSchedule({ topology, collective, algorithm, size, dtype: 'int32' });
          if (impl === 'oneHalvingDoubling' && (collective === 'alltoall' || (n & (n - 1)) !== 0)) {
            expect(build).toThrow(collective === 'alltoall' ? /ASTRA-sim has no halvingDoubling all-to-all/ : /power-of-two dimension \(dimension 0 has 12 NPUs\)/);
            return;
          }
          const report = executeSchedule(build());
          expect(report.pass, `${algorithm} ${collective} ${JSON.stringify(report.problems.slice(0, 2))}`).toBe(true);
        },
      ),
      { numRuns: 80, seed: 13 },
    );
  });

  it('oneRing is one ring over every NPU in NPU order: the classic ring allreduce on the same 2-D network, to the picosecond; oneHalvingDoubling pairs NPUs at XOR distance 1 … P/2', () => {
    const topology = buildTopology('astra:topology=Ring_Ring,npus=4x2,bandwidth=50x25,latency=500x700');
    const time = (algorithm: string) => simulate({ topology, program: lowerSchedule(buildSchedule({ topology, collective: 'allreduce', algorithm, size: 1 << 20 }), topology), model: { alpha: 10e-9 } }).makespan_s;
    expect(time('astra:impl0=oneRing')).toBeCloseTo(time('ring'), 12);
    // Not the per-dimension ring: that one is faster here (its phases stay on single links).
    expect(time('astra:impl0=oneRing')).toBeGreaterThan(time('astra') * 1.05);
    const s = buildSchedule({ topology, collective: 'reduce-scatter', algorithm: 'astra:impl0=oneHalvingDoubling', size: 8 * 64 });
    const partners: number[] = [];
    for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send && s.opRank[o] === 5 && s.sendDests(o)[0] !== 5) partners.push(s.sendDests(o)[0]);
    expect(partners).toEqual([4, 7, 1]);
    // The later entries and dims would be ignored by ASTRA-sim: refused rather than silently dropped.
    expect(() => buildSchedule({ topology, collective: 'allreduce', algorithm: 'astra:impl0=oneRing,impl1=direct', size: 1024 })).toThrow(/impl1 … impl3 left at ring with impl0=oneRing/);
    expect(() => buildSchedule({ topology, collective: 'allreduce', algorithm: 'astra:impl0=oneRing,dims=1', size: 1024 })).toThrow(/dims=0 with impl0=oneRing/);
    expect(() => buildSchedule({ topology, collective: 'allreduce', algorithm: 'astra:impl1=oneRing', size: 1024 })).toThrow(/impl1/);
  });

  it('directW runs w exchanges at a time: on a full mesh without latency ⌈(n − 1)/w⌉ exchange times, every collective exact', () => {
    const topology = buildTopology('astra:topology=FullyConnected,npus=8,bandwidth=1GBps,latency=0');
    const run = (collective: CollectiveKind, window: number) => {
      const schedule = buildSchedule({ topology, collective, algorithm: `astra:impl0=direct,window=${window}`, size: collective === 'allgather' || collective === 'alltoall' ? 8 * 1024 : 64 * 1024, dtype: 'int32' });
      expect(executeSchedule(schedule).pass).toBe(true);
      return simulate({ topology, program: lowerSchedule(schedule, topology), model: { alpha: 0, sharing: 'none', injectionOrder: 'shared' } }).makespan_s;
    };
    for (const collective of ['reduce-scatter', 'allgather', 'alltoall', 'allreduce'] as CollectiveKind[]) {
      const phases = collective === 'allreduce' ? 2 : 1;
      // 7 exchanges of one 8 KiB segment each: all at once one exchange time, 2 at a time 4, 3 at a time 3, 1 at a time 7.
      for (const [window, steps] of [[2, 4], [3, 3], [1, 7]]) expect(run(collective, window) / run(collective, 0), `${collective} window ${window}`).toBeCloseTo(steps, 6);
      expect(run(collective, 0)).toBeCloseTo((phases * 8192) / 1e9, 12);
    }
  });

  it('halvingDoubling pairs at XOR distance with halving messages; direct sends to every peer at once; doubleBinaryTree moves the whole chunk up and down the tree', () => {
    const topology = buildTopology('astra:topology=Switch,npus=8,bandwidth=1,latency=1');
    const sends = (algorithm: string, collective: CollectiveKind) => {
      const s = buildSchedule({ topology, collective, algorithm, size: 8 * 64 });
      const out: Array<[number, number, number]> = [];
      for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send && s.sendDests(o)[0] !== s.opRank[o]) out.push([s.opRank[o], s.sendDests(o)[0], s.regionBytes(s.dataRegion(o))]);
      return out;
    };
    // Rank 5 (binary 101) reduce-scatters with 4, 7, 1 (offsets 1, 2, 4): 256, 128, 64 bytes.
    expect(sends('astra:impl0=halvingDoubling', 'reduce-scatter').filter(([r]) => r === 5).map(([, to, b]) => [to, b])).toEqual([[4, 256], [7, 128], [1, 64]]);
    // Allgather: offsets 4, 2, 1 with 64, 128, 256 bytes (everything held so far).
    expect(sends('astra:impl0=halvingDoubling', 'allgather').filter(([r]) => r === 5).map(([, to, b]) => [to, b])).toEqual([[1, 512], [7, 1024], [4, 2048]]);
    // Direct reduce-scatter: one block to each of the 7 others.
    expect(sends('astra:impl0=direct', 'reduce-scatter').filter(([r]) => r === 5).map(([, to, b]) => [to, b]).sort((a, b) => a[0] - b[0])).toEqual([0, 1, 2, 3, 4, 6, 7].map((to) => [to, 64]));
    // The tree (RootMax, 8 NPUs): 7 is the top, 3 its child, 1 and 5 inner nodes, the even ranks leaves; whole 512 B each way.
    const tree = sends('astra:impl0=doubleBinaryTree', 'allreduce');
    expect(tree.every(([, , b]) => b === 512)).toBe(true);
    expect(tree.filter(([r]) => r === 5).map(([, to]) => to).sort()).toEqual([3, 4, 6]);
    expect(tree.filter(([r]) => r === 7).map(([, to]) => to)).toEqual([3]);
  });

  it('on one ring dimension the allreduce is the classic ring allreduce, to the picosecond', () => {
    const topology = buildTopology('astra:topology=Ring,npus=8,bandwidth=50,latency=500');
    const time = (algorithm: string) => simulate({ topology, program: lowerSchedule(buildSchedule({ topology, collective: 'allreduce', algorithm, size: 1 << 20 }), topology), model: { alpha: 10e-9 } }).makespan_s;
    expect(time('astra')).toBeCloseTo(time('ring'), 12);
  });

  it('splits that do not divide the size add ASTRA-sim\'s extra chunk: 1 MiB in 3 splits, one active, costs 4/3 of 3 exact chunks on the bandwidth', () => {
    const topology = buildTopology('astra:topology=Ring,npus=8,bandwidth=50,latency=0');
    const time = (params: string) => simulate({ topology, program: lowerSchedule(buildSchedule({ topology, collective: 'allreduce', algorithm: `astra:${params}`, size: 1 << 20 }), topology), model: { alpha: 0 } }).makespan_s;
    expect(time('splits=3') / time('splits=3,remainder=exact')).toBeCloseTo(4 / 3, 4);
    expect(time('splits=4')).toBeCloseTo(time('splits=4,remainder=exact'), 15);
  });

  it('refuses a topology without dimensions, and a mapping that renumbers the NPUs', () => {
    expect(() => buildSchedule({ topology: buildTopology('fattree:k=2,levels=2'), collective: 'allreduce', algorithm: 'astra', size: 64 })).toThrow(/an astra: network, or a torus or mesh topology/);
    expect(() => buildSchedule({ topology: loadTopology(HGX16, { mapping: 'reverse' }), collective: 'allreduce', algorithm: 'astra', size: 1024 })).toThrow(/ranks numbered as the NPUs/);
  });
});

describe('sharing none (ASTRA-sim congestion-unaware)', () => {
  it('concurrent messages on one link each get the whole link; max-min shares it; the result says which', () => {
    // Four chunks in flight on one ring: each step's 4 messages share every link under max-min.
    const topology = buildTopology('astra:topology=Ring,npus=4,bandwidth=1GBps,latency=0');
    const program = lowerSchedule(buildSchedule({ topology, collective: 'allgather', algorithm: 'astra:splits=4,active=4', size: 1 << 20 }), topology);
    const none = simulate({ topology, program, model: { alpha: 0, sharing: 'none', injectionOrder: 'shared' } });
    const maxmin = simulate({ topology, program, model: { alpha: 0, injectionOrder: 'shared' } });
    // 3 steps of a 256 KiB piece at 1 GB/s, alone on the link; four times that when four share it.
    expect(none.makespan_s).toBeCloseTo((3 * (1 << 18)) / 1e9, 12);
    expect(maxmin.makespan_s / none.makespan_s).toBeCloseTo(4, 6);
    expect(none.model.engine).toMatch(/no sharing \(ASTRA-sim's congestion-unaware analytical backend\)/);
  });
});

describe("ASTRA-sim's system file (--astra-system)", () => {
  it('maps its collectives, endpoint delay, memory bandwidth and roofline', () => {
    const s = astraSystemSettings({ 'endpoint-delay': 1, 'local-mem-bw': 3350, 'preferred-dataset-splits': 4, 'active-chunks-per-dimension': 2, 'collective-optimization': 'localBWAware', 'all-reduce-implementation': ['ring', 'ring'], 'roofline-enabled': 1, 'peak-perf': 700, 'boost-mode': 0 }, 2);
    expect(s.algorithms).toEqual({ allreduce: 'astra:splits=4,active=2,opt=localBWAware' });
    expect(s.alpha).toBeCloseTo(1e-9, 20);
    expect(s.gammaReduce).toBeCloseTo(3 / 3350e9, 25);
    expect(s.device).toBe('custom:peak=700000000000000,bw=3350000000000');
    expect(s.compute).toBe('roofline');
    expect(s.comm).toBe('serial');
    expect(s.ignored.join(' ')).toMatch(/boost-mode/);
    // Earlier ASTRA-sim versions' scheduling keys, which 518bd513 does not read: accepted, named, no effect.
    const older = astraSystemSettings({ 'all-reduce-implementation': ['ring'], 'intra-dimension-scheduling': 'FIFO', 'inter-dimension-scheduling': 'themis' }, 1);
    expect(older.algorithms).toEqual(astraSystemSettings({ 'all-reduce-implementation': ['ring'] }, 1).algorithms);
    expect(older.ignored).toEqual([
      "intra-dimension-scheduling: not read by ASTRA-sim 518bd513 (an earlier version's key): it keeps a dimension's queue first come first served, as Meshwork does",
      "inter-dimension-scheduling: not read by ASTRA-sim 518bd513 (an earlier version's key; themis and the offline greedy orders cannot be chosen there): its phases go through the dimensions in ascending order, as Meshwork's",
    ]);
  });

  it('fewer implementations than dimensions: the collective within groups of the first ones, as ASTRA-sim, said in a note', () => {
    const s = astraSystemSettings({ 'all-reduce-implementation': ['ring'] }, 2);
    expect(s.algorithms.allreduce).toBe('astra:splits=1,active=1,opt=baseline,dims=1');
    expect(s.notes[0]).toMatch(/the allreduce runs within each group of its first 1 dimension/);
    // Two 4-NPU switch groups reduce on their own: each group ends with its own sum (verified byte for byte).
    const topology = buildTopology('astra:topology=Switch_Ring,npus=4x2,bandwidth=1x1,latency=1x1');
    const schedule = buildSchedule({ topology, collective: 'allreduce', algorithm: 'astra:dims=1', size: 64, dtype: 'int32' });
    expect(schedule.parts.map((p) => Array.from(p.ranks))).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(executeSchedule(schedule).pass).toBe(true);
  });

  it('refuses what would run differently: more implementations than dimensions, other implementations, the shared bus, unknown keys', () => {
    expect(() => astraSystemSettings({ 'all-reduce-implementation': ['ring', 'ring', 'ring'] }, 2)).toThrow(/at most one implementation per network dimension \(2\)/);
    expect(() => astraSystemSettings({ 'all-gather-implementation': ['ring', 'oneRing'] }, 2)).toThrow(/all-gather-implementation: got "\[\\"ring\\",\\"oneRing\\"\]"; accepted: oneRing only as the first entry/);
    expect(() => astraSystemSettings({ 'all-gather-implementation': ['tree'] }, 1)).toThrow(/got "tree"; accepted: ring, halvingDoubling, direct, doubleBinaryTree, oneRing, oneDirect, oneHalvingDoubling per dimension/);
    // directW: direct with the astra algorithm's window, which needs a direct dimension.
    expect(astraSystemSettings({ 'all-reduce-implementation': ['direct4', 'ring'] }, 2).algorithms.allreduce).toBe('astra:splits=1,active=1,opt=baseline,impl0=direct,window=4');
    expect(() => buildSchedule({ topology: buildTopology('astra:topology=Ring,npus=8,bandwidth=1,latency=1'), collective: 'allreduce', algorithm: 'astra:impl0=halvingDoubling,window=4', size: 1024 })).toThrow(/window only with a direct dimension/);
    expect(() => astraSystemSettings({ 'all-to-all-implementation': ['halvingDoubling', 'ring'] }, 2)).toThrow(/all-to-all-implementation: got "halvingDoubling"; accepted: ring, direct, oneRing, oneDirect per dimension \(each optionally directW \/ oneDirectW/);
    expect(() => astraSystemSettings({ 'all-reduce-implementation-custom': ['custom/allreduce'] }, 1)).toThrow(/custom collective is a Chakra trace of sends and receives, which runs on its own: meshwork workload run --trace/);
    expect(() => astraSystemSettings({ 'preferred-dataset-splits': 1000 }, 1)).toThrow(/preferred-dataset-splits: got 1000; accepted: an integer from 1 to 255/);
    expect(() => astraSystemSettings({ 'model-shared-bus': 1 }, 1)).toThrow(/model-shared-bus: got 1; accepted: 0/);
    expect(() => astraSystemSettings({ 'prefered-dataset-splits': 4 }, 1)).toThrow(/astra-system\.prefered-dataset-splits/);
  });

  it('CLI: the regression configuration gives ASTRA-sim\'s 117,780 ns; bad files are one line, exit 2', () => {
    const trace = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB';
    const r = runCli(['workload', 'run', '--trace', trace, '--topology', `${CONFIGS}/tests_rt_template_inputs_network_cfg.yml`, '--astra-system', `${CONFIGS}/tests_rt_template_inputs_system_cfg.json`, '--preset', 'astra']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('step time: 117.8us');
    expect(r.stdout).toContain('astra:splits=4,active=1,opt=localBWAware');
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', trace, '--topology', 'fattree:k=2,levels=3', '--astra-system', `${CONFIGS}/tests_rt_template_inputs_system_cfg.json`]))).toMatch(/astra-system: got ".*"; accepted: a topology with dimensions for it/);
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', trace, '--topology', `${CONFIGS}/tests_rt_template_inputs_network_cfg.yml`, '--mapping', 'reverse', '--astra-system', `${CONFIGS}/tests_rt_template_inputs_system_cfg.json`]))).toMatch(/accepted: a topology with dimensions for it: ranks numbered as the NPUs/);
  });
});
