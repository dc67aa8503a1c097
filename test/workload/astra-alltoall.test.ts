/**
 * ASTRA-sim's all-to-all run in Meshwork (`--algorithm alltoall=ring-relay` or `direct:window=W`)
 * beside ASTRA-sim itself. ASTRA-sim (astra-sim/astra-sim @ 518bd513, built outside this repository,
 * binary AstraSim_Analytical_Congestion_Unaware) ran the shared microbenchmarks
 * (../shared/reference/chakra/astra-sim/et_microbenchmarks/all_to_all/{4,8,16}npus_1MB) with the
 * side-by-side system configuration of astra-side-by-side.test.ts (the regression's, ring
 * implementations, endpoint-delay 10, preferred-dataset-splits 1, local-mem-bw 1600) and
 * `all-to-all-implementation` ["ring"], ["direct"] (window P − 1), ["direct1"], ["direct2"] or
 * ["direct3"]; network `topology: [Ring | FullyConnected | Switch]`, `bandwidth: [50.0]`,
 * `latency: [500.0]`:
 *   nice -n 19 AstraSim_Analytical_Congestion_Unaware --workload-configuration=<…>/all_to_all/8npus_1MB/all_to_all
 *     --system-configuration=sys.json --remote-memory-configuration=examples/remote_memory/analytical/no_memory_expansion.json
 *     --network-configuration=net.yml
 * Its figure is the largest `sys[i] finished, N cycles` (ns). Its timing, read from its source
 * (Ring.cc, AllToAll.cc, MemBus.cc: every send passes the endpoint delay, and the collective ends
 * with one more), is steps × (delay + hops × latency + ⌊block / bandwidth⌋) + delay, to the ns:
 * Meshwork's flow time is steps × (α + hops × L + block / B), so the two differ by that last
 * delay and the truncation, under 0.05 %.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import { loadChakraTrace } from '../../src/node/chakra.js';
import { runWorkload } from '../../src/workload/run.js';
import type { WorkloadRunRequest } from '../../src/workload/run.js';
import { astraSystemSettings } from '../../src/workload/astra-system.js';
import type { ChakraNodeInit } from '../../src/workload/chakra/write.js';
import { comp, traceOf } from './chakra-helpers.js';
import { readFileSync } from 'node:fs';
import { loadTopology, readStructured } from '../../src/node/load-topology.js';
import '../../src/node/index.js';
import { flowPreset } from '../../src/sim/flow/presets.js';

const MB = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_to_all';
const S = 1 << 20;
const B = 50 * 2 ** 30;
const ALPHA = 10;
const L = 500;
const NETWORKS = ['Ring', 'FullyConnected', 'Switch'] as const;
type Network = (typeof NETWORKS)[number];
/** ASTRA-sim's figures, ns: [implementation, NPUs, Ring, FullyConnected, Switch]. */
const ASTRA: ReadonlyArray<readonly [string, number, number, number, number]> = [
  ['ring', 4, 32362, 32362, 35362], ['ring', 8, 82638, 82638, 96638], ['ring', 16, 207610, 207610, 267610],
  ['direct', 4, 5902, 5402, 5902], ['direct', 8, 4461, 2961, 3461], ['direct', 16, 5240, 1740, 2240],
  ['direct1', 4, 16686, 16186, 17686], ['direct1', 8, 25167, 20667, 24167], ['direct1', 16, 50460, 25960, 33460],
  ['direct2', 4, 10794, 10794, 11794], ['direct2', 8, 13814, 11814, 13814], ['direct2', 16, 25850, 13850, 17850],
  ['direct3', 4, 5902, 5402, 5902], ['direct3', 8, 10363, 8863, 10363], ['direct3', 16, 17160, 8660, 11160],
];
const astra = (impl: string, n: number, net: Network): number => {
  const [, , ring, fullyConnected, sw] = ASTRA.find(([i, p]) => i === impl && p === n)!;
  return { Ring: ring, FullyConnected: fullyConnected, Switch: sw }[net];
};
/** Meshwork's topology for ASTRA-sim's network (docs/workloads.md): the switch is one switch, two links a path. */
const topologyOf = (net: Network, n: number): string =>
  `${net === 'Ring' ? `ring:${n}` : net === 'FullyConnected' ? `fullmesh:${n}` : `twolevel:leaves=1,hosts=${n},spines=1,uplinks=1`},bw=50GiBps,lat=500ns`;
const rel = (a: number, b: number): number => Math.abs(a - b) / b;

function meshwork(net: Network, n: number, alltoall: string, extra: Partial<WorkloadRunRequest> = {}): number {
  const trace = loadChakraTrace([`${MB}/${n}npus_1MB`]);
  return runWorkload({ topology: buildTopology(topologyOf(net, n)), trace, algorithms: { alltoall }, model: { alpha: ALPHA * 1e-9 }, ...extra }).report.step_time_s * 1e9;
}

/** ASTRA-sim's own time from its source: `waves` sends one after another, each paying the delay, its hops and the truncated transfer, then one last delay. */
const astraFormula = (waves: number, hops: number, n: number): number => waves * (ALPHA + hops * L + Math.floor(S / n / B * 1e9)) + ALPHA;

describe("ASTRA-sim's ring all-to-all (`ring`) as ring-relay", () => {
  it("ASTRA-sim's figures are its relay to the ns: P(P−1)/2 sends one after another, one hop each (two on the switch)", () => {
    for (const n of [4, 8, 16]) for (const net of NETWORKS) expect(astra('ring', n, net)).toBe(astraFormula((n * (n - 1)) / 2, net === 'Switch' ? 2 : 1, n));
  });

  it("Meshwork's flow figure within 0.05 % of ASTRA-sim's on its Ring, FullyConnected and Switch (4, 8, 16 NPUs)", () => {
    for (const n of [4, 8, 16]) {
      for (const net of NETWORKS) {
        const step = meshwork(net, n, 'ring-relay');
        expect(rel(step, astra('ring', n, net)), `${net} ${n}`).toBeLessThan(5e-4);
        // Without ASTRA-sim's final endpoint delay and its truncation, the same steps exactly.
        expect(step / ((n * (n - 1) / 2) * (ALPHA + (net === 'Switch' ? 2 : 1) * L + (S / n / B) * 1e9))).toBeCloseTo(1, 9);
      }
    }
  });

  it('packet level (--vc-buf 2048) within 0.5 % on the ring, 8 NPUs', () => {
    expect(rel(meshwork('Ring', 8, 'ring-relay', { engine: 'packet', packet: { config: { vcBuf: 2048 } } }), astra('ring', 8, 'Ring'))).toBeLessThan(5e-3);
  });

  it("the regression's 4 chunks (preferred-dataset-splits 4, one at a time): ASTRA-sim's 41,560 / 125,480 ns are 4 relays of S/4 in sequence, within 0.1 %", () => {
    // ASTRA-sim with sys.json's preferred-dataset-splits 4 (the rest as above), Ring.
    for (const [n, astraChunked] of [[4, 41560], [8, 125480]] as const) {
      expect(astraChunked).toBe(4 * astraFormula((n * (n - 1)) / 2, 1, 4 * n));
      const chunks: ChakraNodeInit[] = [comp(0, 0)];
      for (let k = 1; k <= 4; k++) chunks.push({ id: k, name: `chunk${k}`, kind: 'coll', collective: 'alltoall', commSize: S / 4, dataDeps: [k - 1] });
      const step = runWorkload({ topology: buildTopology(topologyOf('Ring', n)), trace: traceOf(Array(n).fill(chunks)), algorithms: { alltoall: 'ring-relay' }, model: { alpha: ALPHA * 1e-9 } }).report.step_time_s * 1e9;
      expect(rel(step, astraChunked)).toBeLessThan(1e-3);
    }
  });

  it("the default pairwise alltoall is not ASTRA-sim's: 33 % and more below it on the ring", () => {
    for (const n of [4, 8, 16]) expect(meshwork('Ring', n, 'pairwise')).toBeLessThan(astra('ring', n, 'Ring') * 0.67);
  });
});

describe("ASTRA-sim's direct all-to-all (`directW`) as direct:window=W", () => {
  const windows: ReadonlyArray<readonly [string, string, (n: number) => number]> = [
    ['direct1', 'direct:window=1', () => 1], ['direct2', 'direct:window=2', () => 2], ['direct3', 'direct:window=3', () => 3], ['direct', 'direct', (n) => n - 1],
  ];

  it("on a full mesh, where the models coincide, within 0.2 % for windows below P − 1; ASTRA-sim's figures are ⌈(P−1)/W⌉ waves", () => {
    for (const [impl, spec, window] of windows) {
      for (const n of [4, 8, 16]) {
        const w = Math.min(window(n), n - 1);
        expect(astra(impl, n, 'FullyConnected')).toBe(astraFormula(Math.ceil((n - 1) / w), 1, n));
        if (w < n - 1) expect(rel(meshwork('FullyConnected', n, spec), astra(impl, n, 'FullyConnected')), `${spec} ${n}`).toBeLessThan(2e-3);
      }
    }
  });

  it('every send at once: each exchange on a stream of its own, so their α overlap as ASTRA-sim\'s endpoint delays do (its figure adds one more at the end)', () => {
    for (const n of [4, 8, 16]) {
      const step = meshwork('FullyConnected', n, 'direct');
      expect(step / (ALPHA + L + (S / n / B) * 1e9)).toBeCloseTo(1, 9);
      expect(rel(step + ALPHA, astra('direct', n, 'FullyConnected'))).toBeLessThan(6e-3);
    }
  });

  it("on the ring Meshwork's k-hop messages share links (ASTRA-sim's congestion-unaware network gives each the whole link): window 1 is ASTRA-sim + Σ (hops − 1) × block / B", () => {
    for (const n of [4, 8, 16]) {
      let extra = 0;
      for (let k = 1; k < n; k++) extra += (Math.min(k, n - k) - 1) * (S / n / B) * 1e9;
      expect(rel(meshwork('Ring', n, 'direct:window=1'), astra('direct1', n, 'Ring') + extra)).toBeLessThan(1e-3);
    }
  });

  it("on the switch a rank's sends share its one uplink (fifo NIC): all at once, α + 2L + (P − 1) × block / B against ASTRA-sim's one block time", () => {
    for (const n of [4, 8, 16]) {
      expect(meshwork('Switch', n, 'direct') / (ALPHA + 2 * L + (n - 1) * (S / n / B) * 1e9)).toBeCloseTo(1, 9);
      // One send in flight per rank: the models coincide again.
      expect(rel(meshwork('Switch', n, 'direct:window=1'), astra('direct1', n, 'Switch'))).toBeLessThan(1e-3);
    }
  });
});

/** ASTRA-sim's congestion-unaware backend as Meshwork models it (`--preset astra`: every message alone on its links, no NIC queue). */
const UNAWARE = { alpha: ALPHA * 1e-9, sharing: 'none', injectionOrder: 'shared' } as const;

describe("with ASTRA-sim's congestion-unaware network (--preset astra)", () => {
  it('direct:window=W within 0.2 % on Ring, FullyConnected and Switch for every W < P − 1', () => {
    for (const [impl, w] of [['direct1', 1], ['direct2', 2], ['direct3', 3]] as const) {
      for (const n of [4, 8, 16]) {
        if (w >= n - 1) continue;
        for (const net of NETWORKS) expect(rel(meshwork(net, n, `direct:window=${w}`, { model: UNAWARE }), astra(impl, n, net)), `${impl} ${n} ${net}`).toBeLessThan(2e-3);
      }
    }
  });

  it('all at once (plain direct): every send after one α, as ASTRA-sim\'s after one endpoint delay; its figure adds one more at the end', () => {
    for (const n of [4, 8, 16]) {
      for (const net of NETWORKS) {
        const hops = (k: number): number => (net === 'Ring' ? Math.min(k, n - k) : net === 'Switch' ? 2 : 1);
        const ks = Array.from({ length: n - 1 }, (_, i) => i + 1);
        const meshworkFormula = ALPHA + Math.max(...ks.map((k) => hops(k) * L)) + (S / n / B) * 1e9;
        const astraOwn = Math.max(...ks.map((k) => hops(k) * L)) + 2 * ALPHA + Math.floor((S / n / B) * 1e9);
        expect(meshwork(net, n, 'direct', { model: UNAWARE }) / meshworkFormula).toBeCloseTo(1, 9);
        expect(astra('direct', n, net)).toBe(astraOwn);
      }
    }
  });

  // ASTRA-sim on multi-dimensional networks, all-to-all-implementation ["ring", "ring"] (one per
  // dimension; with one entry it runs along dimension 0 only), preferred-dataset-splits and
  // active-chunks-per-dimension as listed, the rest as above. Networks: [Ring, Switch] 4 × 2 at 50 / 25
  // GB/s, 500 / 700 ns; [Ring, Ring] 4 × 4 at 50 GB/s, 500 ns; the HGX-H100 example's [Switch] 8 at
  // 400 GB/s, 936.25 ns (splits 4, active 2 are that example's system file).
  const MULTI: ReadonlyArray<readonly [string, number, string, number]> = [
    ['astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700', 8, 'astra', 53313],
    ['astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700', 8, 'astra:splits=4', 47862],
    ['astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700', 8, 'astra:splits=4,active=2', 27082],
    ['astra:topology=Ring_Ring,npus=4x4,bandwidth=50x50,latency=500x500', 16, 'astra', 64724],
    ['astra:topology=Ring_Ring,npus=4x4,bandwidth=50x50,latency=500x500', 16, 'astra:splits=4', 51950],
    ['astra:topology=Ring_Ring,npus=4x4,bandwidth=50x50,latency=500x500', 16, 'astra:splits=4,active=2', 31170],
    ['astra:topology=Switch,npus=8,bandwidth=400,latency=936.25', 8, 'astra', 61246],
    ['astra:topology=Switch,npus=8,bandwidth=400,latency=936.25', 8, 'astra:splits=4', 219336],
    ['astra:topology=Switch,npus=8,bandwidth=400,latency=936.25', 8, 'astra:splits=4,active=2', 109668],
    ['astra:topology=Ring,npus=8,bandwidth=50,latency=500', 8, 'astra:splits=4,active=2', 62740],
    // One implementation listed (["ring"]) on two dimensions: ASTRA-sim runs it within each group of
    // dimension 0 (its logical topology), each group's message comm_size / 4.
    ['astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700', 8, 'astra:dims=1', 32362],
    ['astra:topology=Ring_Ring,npus=4x4,bandwidth=50x50,latency=500x500', 16, 'astra:dims=1,splits=4,active=2', 20780],
  ];

  it('the astra alltoall (a relay per dimension, chunks, active queues) within 0.1 % of ASTRA-sim on one, two dimensions and the HGX-H100 example', () => {
    for (const [topology, n, spec, astraNs] of MULTI) {
      const trace = loadChakraTrace([`${MB}/${n}npus_1MB`]);
      const step = runWorkload({ topology: buildTopology(topology), trace, algorithms: { alltoall: spec }, model: UNAWARE }).report.step_time_s * 1e9;
      expect(rel(step, astraNs), `${topology} ${spec}`).toBeLessThan(1e-3);
    }
  });

  it('ASTRA-sim\'s [Ring, Switch] figure is a relay per dimension: 6 steps of S/4 on the ring, 1 of S/2 over the switch, an endpoint delay after each', () => {
    const ring = 6 * (ALPHA + 500 + Math.floor(S / 4 / B * 1e9)) + ALPHA;
    const sw = 1 * (ALPHA + 2 * 700 + Math.floor(S / 2 / (25 * 2 ** 30) * 1e9)) + ALPHA;
    expect(ring + sw).toBe(53313);
  });
});

describe("ASTRA-sim's system file (--astra-system) picks its all-to-all", () => {
  it('ring or direct on every dimension: the astra alltoall with its splits and active chunks; directW on one dimension and one chunk: direct:window=W; the rest refused, naming it', () => {
    const pick = (doc: object, dims: number): string | undefined => astraSystemSettings(doc, dims).algorithms.alltoall;
    expect(pick({ 'all-to-all-implementation': ['ring', 'ring'], 'preferred-dataset-splits': 4, 'active-chunks-per-dimension': 2 }, 2)).toBe('astra:splits=4,active=2,opt=baseline');
    expect(pick({ 'all-to-all-implementation': ['direct3'] }, 1)).toBe('direct:window=3');
    expect(pick({ 'all-to-all-implementation': ['direct'] }, 1)).toBe('direct:window=0');
    // Plain direct in chunks, or on several dimensions: the astra alltoall's direct phases.
    expect(pick({ 'all-to-all-implementation': ['direct'], 'preferred-dataset-splits': 4 }, 1)).toBe('astra:splits=4,active=1,opt=baseline,impl0=direct');
    expect(pick({ 'all-to-all-implementation': ['direct', 'ring'] }, 2)).toBe('astra:splits=1,active=1,opt=baseline,impl0=direct');
    // A window in chunks, per dimension or over every NPU: the astra alltoall's window.
    expect(pick({ 'all-to-all-implementation': ['oneDirect2'] }, 2)).toBe('astra:splits=1,active=1,opt=baseline,impl0=oneDirect,window=2');
    expect(pick({ 'all-to-all-implementation': ['direct3'], 'preferred-dataset-splits': 4 }, 1)).toBe('astra:splits=4,active=1,opt=baseline,impl0=direct,window=3');
    expect(pick({ 'all-to-all-implementation': ['direct3', 'direct3'] }, 2)).toBe('astra:splits=1,active=1,opt=baseline,impl0=direct,impl1=direct,window=3');
    // One window parameter; ASTRA-sim's window 0 never ends.
    expect(() => pick({ 'all-to-all-implementation': ['direct3', 'direct2'] }, 2)).toThrow(/one window for every directW entry/);
    expect(() => pick({ 'all-to-all-implementation': ['direct0'] }, 2)).toThrow(/got "direct0"; accepted: a window of at least 1/);
    expect(() => pick({ 'all-to-all-implementation': ['halvingDoubling'] }, 1)).toThrow(/halvingDoubling/);
    // One implementation on two dimensions: within each group of dimension 0, as ASTRA-sim's logical topology.
    expect(pick({ 'all-to-all-implementation': ['ring'] }, 2)).toBe('astra:splits=1,active=1,opt=baseline,dims=1');
    expect(pick({ 'all-to-all-implementation': ['direct'] }, 2)).toBe('astra:splits=1,active=1,opt=baseline,dims=1,impl0=direct');
  });
});

describe('end to end: ASTRA-sim\'s own HGX-H100 example files', () => {
  it('workload run --topology its network file --astra-system its system file --preset astra: 109,692 ns against ASTRA-sim\'s 109,668 (within 0.1 %)', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const C = '../shared/reference/chakra/astra-sim/configs';
    const out = JSON.parse(runCli(['workload', 'run', '--trace', `${MB}/8npus_1MB`, '--topology', `${C}/examples_network_analytical_HGX-H100-validated.yml`, '--astra-system', `${C}/examples_system_native_collectives_HGX-H100-validated.json`, '--preset', 'astra', '--json']).stdout);
    expect(out.result.workload.algorithms.alltoall).toBe('astra:splits=4,active=2,opt=localBWAware');
    expect(rel(out.report.step_time_s * 1e9, 109668)).toBeLessThan(1e-3);
  });
});

/**
 * The all_to_all microbenchmark on every network and system file of test/reference/astra-sim-native.test.ts
 * (6 networks of 1 to 3 dimensions × 7 system files, whose all-to-all-implementation is `ring` per
 * dimension, and the shared HGX and regression configurations): ASTRA-sim's figures in
 * test/reference/astra-sim/astra-sim-alltoall.csv, run as that test says (32 NPUs: 32 copies of the
 * 16-NPU trace's rank 0 file).
 */
describe("ASTRA-sim's network and system files: the all_to_all rows", () => {
  const DIR = 'test/reference/astra-sim';
  const SHARED = '../shared/reference/chakra/astra-sim';
  const pathOf = (name: string, dir: string, ext: string): string => (name.startsWith('shared:') ? `${SHARED}/configs/${name.slice(7)}` : `${DIR}/${dir}/${name}.${ext}`);
  const rows = readFileSync(`${DIR}/astra-sim-alltoall.csv`, 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));

  it('--astra-system picks the astra alltoall; with --preset astra every row within 0.2 %, with max-min every row of one active chunk per dimension', () => {
    expect(rows.length).toBe(46);
    for (const [network, system, , npusText, astraText] of rows) {
      const npus = Number(npusText);
      const topology = loadTopology(pathOf(network, 'networks', 'yml'));
      const settings = astraSystemSettings(readStructured(pathOf(system, 'systems', 'json'), 'system'), (topology.params.dims as number[]).length);
      expect(settings.algorithms.alltoall).toMatch(/^astra:/);
      const trace = npus === 32 ? loadChakraTrace([`${MB}/16npus_1MB/all_to_all.0.et`], undefined, 'both', 32) : loadChakraTrace([`${MB}/${npus}npus_1MB`]);
      const step = (preset?: 'astra') =>
        runWorkload({ topology, trace, algorithms: settings.algorithms, comm: settings.comm, model: { ...(preset ? flowPreset(preset).model : {}), alpha: settings.alpha, gammaReduce: settings.gammaReduce } }).report.step_time_s * 1e9;
      const label = `${network} ${system}`;
      expect(rel(step('astra'), Number(astraText)), label).toBeLessThan(2e-3);
      if (/active=1,/.test(settings.algorithms.alltoall!)) expect(rel(step(), Number(astraText)), `${label} max-min`).toBeLessThan(2e-3);
    }
  });
});
