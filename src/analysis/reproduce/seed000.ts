/**
 * Seed 000: US 2014/0201475 A1 (Fujitsu), all-to-all on a mesh or torus sending data with the
 * same direction and hop count together. Spec: shared/spec/seed000_torus.md.
 *
 * Every schedule comes from the collectives area (hop-grouped, per-step-barrier, linear, pairwise)
 * and is run by the executor, which verifies the all-to-all byte for byte and counts barriers.
 * Flow-level timing runs each schedule through `runCollectiveFlow` (lowered schedule, max-min fair
 * sharing); packet-level timing runs the same lowered schedules on the packet network
 * (`simulate` with engine packet, router arbitration round-robin or age); the link-utilisation heatmap
 * bins the flow engine's per-channel rates (the `channelRates` trace hook) over time.
 */
import { buildSchedule, executeSchedule } from '../../collectives/index.js';
import type { Claim } from '../../report/checklist.js';
import { groupedBarPlot, linePlot, type BarDatum } from '../../report/plot.js';
import { heatmapPlot } from '../../report/plot.js';
import type { FlowTraceRecorder } from '../../sim/flow/index.js';
import { runCollectiveFlow } from '../../sim/simulate.js';
import type { RunRequest } from '../../sim/request.js';
import { runRequest } from './run-request.js';
import type { Topology } from '../../topology/graph.js';
import { buildTopology } from '../../topology/index.js';
import { emptyReproduction, type SeedModule } from './types.js';
import { appendAll, minOf } from '../../util/arrays.js';
import { FIGURE_BYTES, figureClaims } from './seed000-figures.js';
import { noiseResults, noiseSweep } from './seed000-noise.js';

/** Bytes per block: divisible by 1, 2, 3, 4 and 6 so every areas= setting cuts it evenly. */
const BLOCK_BYTES = 12;

const ALGOS = [
  { label: 'hop-grouped (paced)', spec: 'hop-grouped' },
  { label: 'hop-grouped (no pacing)', spec: 'hop-grouped:pacing=off' },
  { label: 'hop-grouped areas=n (claims 2/6)', spec: 'hop-grouped:areas=n' },
  { label: 'hop-grouped areas=2n (Meshwork extension)', spec: 'hop-grouped:areas=2n' },
  { label: 'per-step-barrier (FIG. 9)', spec: 'per-step-barrier' },
  { label: 'per-step-barrier (FIG. 9, no pacing)', spec: 'per-step-barrier:pacing=off' },
  { label: 'linear', spec: 'linear' },
  { label: 'pairwise', spec: 'pairwise' },
] as const;

/**
 * Flow-level cases left out of the full run: linear on 8x8x8 starts all 261,632 flows at once, and
 * max-min re-rating them took over 10 minutes of CPU (more than the rest of the seed together).
 */
const FLOW_SKIPPED = [{ torus: '8x8x8', spec: 'linear' }] as const;

const HG = 'hop-grouped (paced)';
/** Claims 2 and 6 split each block and send the pieces along different axes: areas = n (in 3-D the default). */
const HG_SPLIT = 'hop-grouped areas=n (claims 2/6)';
const FIG9 = 'per-step-barrier (FIG. 9)';
const FIG9_UNPACED = 'per-step-barrier (FIG. 9, no pacing)';
/** The schedules the "faster than FIG. 9" verdicts compare, run at every size of the sweep. */
const SWEEP_LABELS: readonly string[] = [HG, HG_SPLIT, FIG9, FIG9_UNPACED];
/** Setup the patent leaves open, listed beside every timing verdict. */
const TIMING_SETUP = [
  'torus shapes and block sizes (the patent gives none)',
  'α = 1 µs per message, barrier = ⌈log2 P⌉ stages (Meshwork defaults)',
  'FIG. 9 paced by its real link sharing, gap = max(d) − 1 (the literal FIG. 7 rule, (dx+dy+dz) − 1, over-throttles it) and unpaced; the faster of the two is the baseline',
];

interface Row {
  readonly torus: string;
  readonly algo: string;
  readonly pass: boolean;
  readonly barriers: number;
  readonly messages: number;
  readonly maxSent: number;
}

type Arbitration = 'round-robin' | 'age';

interface PacketCase {
  readonly torus: string;
  /** Bytes per block at packet level. */
  readonly block: number;
  /** Also run the arbitration comparison (age-based) on this torus. */
  readonly age: boolean;
  /** Further block sizes at which hop-grouped and both FIG. 9 forms are compared (the size sweep). */
  readonly sweep: readonly number[];
  /** Relative cost, for the progress bar only. */
  readonly weight: number;
}

const QUICK_PACKET_CASES: readonly PacketCase[] = [{ torus: '4x4', block: 2048, age: true, sweep: [256, 16384], weight: 1 }];
/**
 * Full run: block sizes fall as the torus grows so each case costs at most about 30 s of CPU per
 * schedule (measured with `meshwork run --engine packet`, docs/reproduce.md). 8x8x8 sends one
 * 8-flit packet per message and skips the age-based runs (round-robin only) to fit the budget.
 */
const FULL_PACKET_CASES: readonly PacketCase[] = [
  { torus: '8x8', block: 4096, age: true, sweep: [256, 16384], weight: 2 },
  { torus: '16x16', block: 512, age: true, sweep: [], weight: 6 },
  { torus: '4x4x4', block: 2048, age: true, sweep: [256, 8192], weight: 1 },
  { torus: '8x8x8', block: 256, age: false, sweep: [], weight: 20 },
];

interface PacketRow {
  readonly torus: string;
  readonly block: number;
  readonly algo: string;
  readonly arbitration: Arbitration;
  readonly makespan: number;
  readonly bound: number;
  readonly efficiency: number;
  /** (latest − earliest rank finish) / latest: 0 when every rank finishes together. */
  readonly finishSpread: number;
}

/** One point of a "faster than FIG. 9" sweep: ratio = the faster FIG. 9 form's makespan / hop-grouped's (> 1: hop-grouped wins). */
interface SweepPoint {
  readonly torus: string;
  readonly block: number;
  readonly ratio: number;
  readonly engine: 'flow' | 'packet';
  /** The makespans behind the ratio, as text. */
  readonly detail: string;
}

/**
 * A "hop-grouped is faster than FIG. 9" verdict judged over a sweep of tori and block sizes: it holds
 * only if it holds at every point, and the claim says where it does not.
 */
function sweepClaim(o: { id: string; claim: string; where: string; points: readonly SweepPoint[]; reading: string; model: string; source?: 'document' | 'meshwork' }): Claim {
  const lost = o.points.filter((p) => p.ratio <= 1);
  const worst = o.points.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  const best = o.points.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const at = (p: SweepPoint) => `${p.engine} ${p.torus}, ${p.block} B`;
  const base = {
    id: o.id,
    source: o.source ?? ('document' as const),
    form: 'ordering' as const,
    claim: o.claim,
    where: o.where,
    expected: 'hop-grouped faster than the comparative example',
    decides: `smallest FIG. 9 / hop-grouped ratio ${worst.ratio.toFixed(3)} (${at(worst)})`,
    rule: 'ordering: ratio > 1 at every torus and block size of the sweep, on both engines, against the faster FIG. 9 form',
    evidence: { columns: ['engine', 'torus', 'block (B)', 'FIG. 9 / hop-grouped', 'makespans'], rows: o.points.map((p) => [p.engine, p.torus, p.block, p.ratio.toFixed(3), p.detail]) },
    measured: `FIG. 9 / hop-grouped makespan: ${o.points.map((p) => `${at(p)}: ${p.ratio.toFixed(2)} (${p.detail})`).join('; ')}`,
    threshold: 'hop-grouped faster than the faster FIG. 9 form (paced by link sharing, or unpaced) at every torus and block size of the sweep: ratio > 1',
    sensitivity:
      lost.length === 0
        ? `the smallest ratio is ${worst.ratio.toFixed(3)} (${at(worst)}): the verdict survives any required margin below ${((worst.ratio - 1) * 100).toFixed(1)}%`
        : `holds at ${o.points.length - lost.length} of ${o.points.length} points (up to ${best.ratio.toFixed(2)}× at ${at(best)}); no margin makes the losing points hold`,
    setup: TIMING_SETUP,
  };
  return lost.length === 0
    ? { ...base, verdict: 'reproduced-under-reading', reading: o.reading }
    : { ...base, verdict: 'not-reproduced', why: `${o.model}: FIG. 9 is as fast or faster at ${lost.map(at).join('; ')}` };
}

/** One schedule on the packet network (2 VCs, 16-flit buffers, 8-flit packets, 32-byte flits). */
function packetRun(topology: Topology, torus: string, spec: string, blockBytes: number, arbitration: Arbitration, label: string): PacketRow {
  const request: RunRequest = { topology: topology.spec, workload: { kind: 'collective', collective: 'alltoall', algorithm: spec, size: blockBytes }, engine: 'packet', packet: { config: { arbitration } } };
  const res = runRequest(request, topology);
  let first = Infinity;
  let last = 0;
  for (const f of res.ranks.finish_s) {
    first = Math.min(first, f);
    last = Math.max(last, f);
  }
  return { torus, block: blockBytes, algo: label, arbitration, makespan: res.makespan_s, bound: res.bound_s, efficiency: res.efficiency, finishSpread: last > 0 ? (last - first) / last : 0 };
}

/** Per-channel bytes/s samples from the flow engine, binned into utilisation per time bin. */
class ChannelUtilisation implements FlowTraceRecorder {
  private readonly times: number[] = [];
  private readonly samples: Float64Array[] = [];
  rates(): void {}
  channelRates(t: number, perChannel: Float64Array): void {
    this.times.push(t);
    this.samples.push(perChannel.slice());
  }
  /** utilisation[channel][bin] = bytes carried in the bin / (bandwidth × bin width). */
  bin(topology: Topology, channels: readonly number[], end: number, bins: number): Float64Array[] {
    const width = end / bins;
    const out = channels.map(() => new Float64Array(bins));
    for (let i = 0; i < this.times.length; i++) {
      const t0 = this.times[i];
      const t1 = i + 1 < this.times.length ? this.times[i + 1] : end;
      if (t1 <= t0) continue;
      for (let b = Math.floor(t0 / width); b < bins && b * width < t1; b++) {
        const overlap = Math.min(t1, (b + 1) * width) - Math.max(t0, b * width);
        if (overlap <= 0) continue;
        channels.forEach((c, k) => {
          out[k][b] += this.samples[i][c] * overlap;
        });
      }
    }
    channels.forEach((c, k) => {
      for (let b = 0; b < bins; b++) out[k][b] /= topology.chBandwidth[c] * width;
    });
    return out;
  }
}

export const seed000: SeedModule = {
  id: '000',
  title: 'Hop-grouped all-to-all on a torus',
  document: 'US 2014/0201475 A1 (Fujitsu, Nose and Miura, 2014): sending data with the same transmission direction and hop count together',
  run(ctx) {
    const r = emptyReproduction();
    const tori = ctx.quick ? ['8x8', '4x4x4'] : ['8x8', '16x16', '4x4x4', '8x8x8'];
    const rows: Row[] = [];
    tori.forEach((shape, i) => {
      const topology = buildTopology(`torus:${shape}`);
      ALGOS.forEach((a, j) => {
        ctx.progress((0.1 * (i + j / ALGOS.length)) / tori.length, `torus ${shape}: ${a.spec}`);
        const schedule = buildSchedule({ collective: 'alltoall', algorithm: a.spec, topology, size: BLOCK_BYTES });
        const rep = executeSchedule(schedule, { mode: 'chunks' });
        rows.push({
          torus: shape,
          algo: a.label,
          pass: rep.pass,
          barriers: rep.stats.barriers.reduce((x, y) => Math.max(x, y), 0),
          messages: rep.messages,
          maxSent: rep.stats.sentBytes.reduce((x, y) => Math.max(x, y), 0),
        });
      });
    });
    const get = (torus: string, label: string) => rows.find((x) => x.torus === torus && x.algo === label)!;
    r.tables.push({
      id: '000-executed',
      title: `All-to-all schedules executed and verified (${BLOCK_BYTES}-byte blocks)`,
      figure: '000 FIG. 9, FIG. 12–17',
      columns: ['torus', 'schedule', 'verified', 'barriers per rank', 'messages', 'most bytes sent by one rank'],
      rows: rows.map((x) => [x.torus, x.algo, x.pass ? 'yes' : 'NO', x.barriers, x.messages, x.maxSent]),
    });
    const bars: BarDatum[] = rows.filter((x) => x.barriers > 0).map((x) => ({ group: x.algo, series: `torus ${x.torus}`, value: x.barriers }));
    r.plots.push(
      groupedBarPlot({
        id: '000-barriers',
        title: 'Barriers per rank in one all-to-all',
        figure: '000 FIG. 9 (comparative example) against FIG. 12/17 flowcharts',
        caption: 'Executor counts of barrier operations per rank (log scale: dots, since a bar on a log axis has no true base). linear and pairwise use none and are left out.',
        groupTitle: 'schedule',
        y: { title: 'barriers per rank (count, log scale)', log: true },
        shape: 'dot',
        legend: 'torus',
        bars,
      }),
    );

    const allPass = rows.every((x) => x.pass);
    const twoD = tori.filter((t) => t.split('x').length === 2);
    const barrier2dOk = twoD.every((t) => {
      const [X, Y] = t.split('x').map(Number);
      return get(t, 'hop-grouped (paced)').barriers === X + Y - 3;
    });
    const fewer = tori.every((t) => get(t, 'hop-grouped (paced)').barriers < get(t, 'per-step-barrier (FIG. 9)').barriers);
    const largest = tori[tori.length - 1];
    const claims: Claim[] = [
      {
        id: '000.correct',
        source: 'document',
        claim: 'After the exchange every node holds, for every origin, the block addressed to it (all-to-all)',
        where: '¶0036, ¶0059–¶0116, claims 1 and 5',
        expected: 'node j holds 1j, 2j, …, Nj',
        measured: `${rows.length} schedules on ${tori.map((t) => `torus ${t}`).join(', ')} verified byte for byte: ${allPass ? 'all pass' : 'some FAIL'}`,
        verdict: allPass ? 'reproduced-under-reading' : 'not-reproduced',
        ...(allPass
          ? { reading: 'torus wrap mod N, moving offsets 1..N−1 in + direction, non-moving offsets including 0, separate send and receive buffers per phase (spec §8 items 12, 21)' }
          : { why: 'the executor found a block in the wrong place' }),
      },
      {
        id: '000.barriers.2d',
        source: 'document',
        claim: 'Example 1 (2D) needs one barrier per change of hop group: X+Y−3 with the literal flowchart',
        where: 'FIG. 12A/12B, S107/S108/S116 (spec §3.7)',
        expected: 'X+Y−3 (spec derivation; the patent gives no number)',
        measured: twoD.map((t) => `${t}: ${get(t, 'hop-grouped (paced)').barriers}`).join(', '),
        verdict: barrier2dOk ? 'reproduced-under-reading' : 'not-reproduced',
        ...(barrier2dOk ? { reading: 'the literal flowchart: no barrier after the last Y group (spec §3.7)' } : { why: 'the executor counted a different number of barriers' }),
      },
      {
        id: '000.barriers.fewer',
        source: 'document',
        claim: 'Grouping by direction and hop count needs far fewer barriers than the comparative example (one per Z-hop change)',
        where: '¶0050, ¶0079, ¶0116; FIG. 9',
        expected: 'fewer barriers (O(ΣH) against O(ΠH))',
        measured: tori.map((t) => `${t}: ${get(t, 'hop-grouped (paced)').barriers} vs ${get(t, 'per-step-barrier (FIG. 9)').barriers}`).join('; '),
        verdict: fewer ? 'reproduced-under-reading' : 'not-reproduced',
        ...(fewer ? { reading: 'FIG. 9 baseline = one direct step per offset with a barrier between consecutive steps (spec §1.8)' } : { why: 'hop-grouped did not use fewer barriers on every torus' }),
      },
    ];
    appendAll(r.claims, claims);
    // Flow level: makespan and efficiency against the best topology bound, every schedule at the
    // base block size; hop-grouped and both FIG. 9 forms also over a size sweep.
    const pCases = ctx.quick ? QUICK_PACKET_CASES : FULL_PACKET_CASES;
    // Every packet-level torus and block size is timed at flow level too, so both engines are shown.
    const flowTori = [...new Set([...tori, ...pCases.map((c) => c.torus)])];
    const flowBlock = ctx.quick ? 4096 : 65536;
    const flowSizes = ctx.quick ? [256, 4096, 65536] : [256, 4096, 65536, 1048576];
    const sizesAt = (torus: string) => [...new Set([...flowSizes, ...pCases.filter((c) => c.torus === torus).flatMap((c) => [c.block, ...c.sweep])])].sort((x, y) => x - y);
    const flow: Array<{ torus: string; block: number; algo: string; makespan: number; bound: number; efficiency: number }> = [];
    flowTori.forEach((shape, i) => {
      const topology = buildTopology(`torus:${shape}`);
      const jobs = [
        ...ALGOS.map((a) => ({ a, block: flowBlock })),
        ...sizesAt(shape).filter((b) => b !== flowBlock).flatMap((block) => ALGOS.filter((a) => SWEEP_LABELS.includes(a.label)).map((a) => ({ a, block }))),
      ];
      jobs.forEach(({ a, block }, j) => {
        if (FLOW_SKIPPED.some((x) => x.torus === shape && x.spec === a.spec)) return;
        ctx.progress(0.1 + (0.5 * (i + j / jobs.length)) / flowTori.length, `flow level, torus ${shape}, ${block}-byte blocks: ${a.spec}`);
        const res = runRequest({ topology: topology.spec, workload: { kind: 'collective', collective: 'alltoall', algorithm: a.spec, size: block } }, topology);
        flow.push({ torus: shape, block, algo: a.label, makespan: res.makespan_s, bound: res.bound_s, efficiency: res.efficiency });
      });
    });
    const fget = (torus: string, label: string, block = flowBlock) => flow.find((x) => x.torus === torus && x.algo === label && x.block === block)!;
    const baseFlow = flow.filter((x) => x.block === flowBlock);
    r.plots.push(
      groupedBarPlot({
        id: '000-flow-makespan',
        title: 'All-to-all makespan at flow level (max-min fair sharing)',
        figure: '000 ¶0050 (the patent gives no timings)',
        caption: `${flowBlock} bytes per block, Meshwork's default link model; efficiency = best topology bound / makespan is in the table.`,
        groupTitle: 'schedule',
        y: { title: 'makespan (µs)' },
        legend: 'torus',
        bars: baseFlow.map((x) => ({ group: x.algo, series: `torus ${x.torus}`, value: x.makespan * 1e6 })),
      }),
    );
    r.tables.push({
      id: '000-flow',
      title: `Flow level: makespan and efficiency against the bound (${flowBlock}-byte blocks; hop-grouped and FIG. 9 also at ${flowSizes.filter((b) => b !== flowBlock).join(', ')} bytes and every packet-level block size)`,
      figure: '000 ¶0050',
      columns: ['torus', 'block (bytes)', 'schedule', 'makespan (µs)', 'bound (µs)', 'efficiency (bound / makespan)'],
      rows: flow.map((x) => [x.torus, x.block, x.algo, Number((x.makespan * 1e6).toFixed(2)), Number((x.bound * 1e6).toFixed(2)), Number(x.efficiency.toFixed(3))]),
    });
    // The baseline is the stronger FIG. 9: paced by its real link sharing or unpaced, whichever is faster.
    const fig9Best = (get1: (label: string) => { makespan: number }) => Math.min(get1(FIG9).makespan, get1(FIG9_UNPACED).makespan);
    const flowPointsOf = (label: string, keep: (torus: string) => boolean): SweepPoint[] =>
      flowTori.filter(keep).flatMap((t) => sizesAt(t).map((block) => ({
        torus: t,
        block,
        engine: 'flow' as const,
        ratio: fig9Best((l) => fget(t, l, block)) / fget(t, label, block).makespan,
        detail: `${(fget(t, label, block).makespan * 1e6).toFixed(1)} vs ${(fget(t, FIG9, block).makespan * 1e6).toFixed(1)} paced / ${(fget(t, FIG9_UNPACED, block).makespan * 1e6).toFixed(1)} unpaced µs`,
      })));
    const flowPoints = flowPointsOf(HG, () => true);
    const pacingGain = flowTori.map((t) => fget(t, 'hop-grouped (no pacing)').makespan / fget(t, HG).makespan);
    const flowReading = 'flow level: max-min fair sharing of every link, no router arbitration, lowered schedules with barriers and pacing';
    // Example 2 (¶0080–¶0083): three areas on three NICs, one per axis, against one NIC and one area.
    // Injection is limited to one link's bandwidth per NIC, so a single NIC cannot feed three axes.
    const ex2Topology = buildTopology('torus:4x4x4');
    const nicBandwidth = ex2Topology.chBandwidth[0];
    // One size in quick and full runs (flow level costs the same at any size), so both judge alike.
    const ex2Block = 65536;
    const ex2 = [
      { label: 'three areas, three NICs (Example 2)', spec: 'hop-grouped', nics: 3 },
      { label: 'three areas, one NIC', spec: 'hop-grouped', nics: 1 },
      { label: 'one area, one NIC', spec: 'hop-grouped:areas=1', nics: 1 },
      { label: 'three areas in flowchart order on one stream', spec: 'hop-grouped:streams=sequential', nics: 3 },
    ].map((c) => {
      const request: RunRequest = { topology: ex2Topology.spec, workload: { kind: 'collective', collective: 'alltoall', algorithm: c.spec, size: ex2Block }, model: { nics: c.nics, injectionBandwidth: nicBandwidth } };
      return { ...c, makespan: runRequest(request, ex2Topology).makespan_s };
    });
    const ex2Best = ex2[0].makespan < minOf(ex2.slice(1).map((c) => c.makespan));
    r.tables.push({
      id: '000-example2',
      title: `Example 2 on torus 4x4x4: areas and NICs (flow level, ${ex2Block}-byte blocks, injection ${nicBandwidth * 8e-9} Gbit/s per NIC)`,
      figure: '000 FIG. 15–17, ¶0080–¶0083',
      columns: ['configuration', 'schedule', 'NICs', 'makespan (µs)', 'relative to Example 2'],
      rows: ex2.map((c) => [c.label, c.spec, c.nics, Number((c.makespan * 1e6).toFixed(1)), (c.makespan / ex2[0].makespan).toFixed(2)]),
    });
    r.claims.push({
      id: '000.example2.nics',
      source: 'document',
      claim: 'Example 2: splitting each block into three areas, one per axis, each on its own NIC, lets a node transmit on every axis at once',
      where: '¶0080–¶0083, ¶0116; FIG. 15–17',
      expected: 'three areas on three NICs faster than one NIC or one area',
      measured: ex2.map((c) => `${c.label}: ${(c.makespan * 1e6).toFixed(1)} µs`).join('; '),
      threshold: 'Example 2 strictly fastest of the four configurations',
      sensitivity: `the next best (${[...ex2.slice(1)].sort((a, b) => a.makespan - b.makespan)[0].label}) is ${([...ex2.slice(1)].sort((a, b) => a.makespan - b.makespan)[0].makespan / ex2[0].makespan).toFixed(2)}× slower: the verdict holds for any margin below that`,
      setup: ['torus 4x4x4, flow level', `injection limited to one link's bandwidth per NIC (the patent gives no NIC bandwidth)`, `${ex2Block}-byte blocks`],
      ...(ex2Best
        ? { verdict: 'reproduced-under-reading' as const, reading: 'flow level with per-NIC injection limited to one link; the three areas run concurrently, one stream per NIC (¶0083), which the flowcharts draw one after another (spec §4.3)' }
        : { verdict: 'not-reproduced' as const, why: 'another configuration is as fast as three areas on three NICs' }),
    });
    r.params.example2 = { torus: 'torus:4x4x4', blockBytes: ex2Block, injectionBandwidthPerNic: nicBandwidth, configurations: ex2.map((c) => ({ label: c.label, algorithm: c.spec, nics: c.nics })) };
    // Packet level: the same schedules with router arbitration (round-robin, then age-based) on
    // every torus; block sizes shrink with the torus so the full run fits the budget (PACKET_CASES).
    const packet: PacketRow[] = [];
    const pBarriers = new Map<string, number>();
    const barrierKey = (torus: string, label: string) => `${torus} ${label}`;
    const ARB_ALGOS = ALGOS.filter((a) => a.spec === 'hop-grouped' || a.spec === 'hop-grouped:pacing=off' || a.spec === 'linear' || a.spec === 'per-step-barrier');
    const sweepAlgos = ALGOS.filter((a) => SWEEP_LABELS.includes(a.label));
    // Sweep sizes cost in proportion to their bytes (the progress bar only).
    const pWork = pCases.reduce((s, c) => s + c.weight * (ALGOS.length + (c.age ? ARB_ALGOS.length : 0) + c.sweep.reduce((w, b) => w + (sweepAlgos.length * b) / c.block, 0)), 0);
    let pDone = 0;
    for (const pc of pCases) {
      const pTopo = buildTopology(`torus:${pc.torus}`);
      const step = (label: string) => ctx.progress(0.6 + (0.35 * pDone) / pWork, `packet level, torus ${pc.torus}, ${pc.block}-byte blocks: ${label}`);
      for (const a of ALGOS) {
        step(a.spec);
        const rep = executeSchedule(buildSchedule({ collective: 'alltoall', algorithm: a.spec, topology: pTopo, size: BLOCK_BYTES }), { mode: 'chunks' });
        pBarriers.set(barrierKey(pc.torus, a.label), rep.stats.barriers.reduce((x, y) => Math.max(x, y), 0));
        packet.push(packetRun(pTopo, pc.torus, a.spec, pc.block, 'round-robin', a.label));
        pDone += pc.weight;
      }
      for (const block of pc.sweep) {
        for (const a of sweepAlgos) {
          step(`${a.spec}, ${block}-byte blocks`);
          packet.push(packetRun(pTopo, pc.torus, a.spec, block, 'round-robin', a.label));
          pDone += (pc.weight * block) / pc.block;
        }
      }
      if (!pc.age) continue;
      for (const a of ARB_ALGOS) {
        step(`${a.spec}, age arbitration`);
        packet.push(packetRun(pTopo, pc.torus, a.spec, pc.block, 'age', a.label));
        pDone += pc.weight;
      }
    }
    const baseBlock = (torus: string) => pCases.find((c) => c.torus === torus)!.block;
    const pget = (torus: string, label: string, arb: Arbitration, block = baseBlock(torus)) => packet.find((x) => x.torus === torus && x.algo === label && x.arbitration === arb && x.block === block)!;
    const us = (x: number) => Number((x * 1e6).toFixed(2));
    const sizesText = pCases.map((c) => `${c.torus}: ${c.block} B`).join(', ');
    r.tables.push({
      id: '000-packet',
      title: `Packet level: makespan, efficiency against the topology bound and barriers (blocks per torus: ${sizesText})`,
      figure: '000 ¶0050, FIG. 9 against FIG. 12–17',
      columns: ['torus', 'block (bytes)', 'schedule', 'arbitration', 'makespan (µs)', 'bound (µs)', 'efficiency (bound / makespan)', 'barriers per rank', 'rank finish spread ((last − first) / last)'],
      rows: packet.map((x) => [
        x.torus,
        x.block,
        x.algo,
        x.arbitration,
        us(x.makespan),
        us(x.bound),
        Number(x.efficiency.toFixed(3)),
        pBarriers.get(barrierKey(x.torus, x.algo)) ?? 0,
        Number(x.finishSpread.toFixed(3)),
      ]),
    });
    const rr = packet.filter((x) => x.arbitration === 'round-robin' && x.block === baseBlock(x.torus));
    const ageTori = pCases.filter((c) => c.age).map((c) => c.torus);
    r.plots.push(
      groupedBarPlot({
        id: '000-packet-efficiency',
        title: 'All-to-all efficiency at packet level (round-robin arbitration)',
        figure: '000 ¶0050, FIG. 9 (comparative example) against FIG. 12/17',
        caption: `Block sizes per torus: ${sizesText}; efficiency = best topology bound / makespan (1 = optimal).`,
        groupTitle: 'schedule',
        y: { title: 'efficiency (bound / makespan, fraction)' },
        legend: 'torus',
        bars: rr.map((x) => ({ group: x.algo, series: `torus ${x.torus}`, value: x.efficiency })),
      }),
      groupedBarPlot({
        id: '000-arbitration',
        title: 'Router arbitration and hop mixing: makespan at packet level',
        figure: '000 FIG. 6 (unfair band division when hop counts mix), ¶0040–¶0044',
        caption: `The same schedules under round-robin and age-based (oldest first) arbitration, makespan relative to round-robin; tori ${ageTori.join(', ')}.`,
        groupTitle: 'schedule',
        y: { title: 'makespan, age-based / round-robin (ratio)' },
        legend: 'torus',
        bars: packet
          .filter((x) => x.arbitration === 'age' && x.block === baseBlock(x.torus))
          .map((x) => ({ group: x.algo, series: `torus ${x.torus}`, value: x.makespan / pget(x.torus, x.algo, 'round-robin').makespan })),
      }),
    );
    const packetModel = 'iSLIP with round-robin priority, wormhole, 2 VCs × 16 flits, 8-flit packets of 32 bytes, default routing; barriers cost ⌈log2 P⌉ stages';
    const packetReading = `packet level, ${packetModel}; blocks ${sizesText}`;
    const sweepPoint = (torus: string, block: number, label = HG): SweepPoint => {
      const hg = pget(torus, label, 'round-robin', block).makespan;
      return {
        torus,
        block,
        engine: 'packet',
        ratio: Math.min(pget(torus, FIG9, 'round-robin', block).makespan, pget(torus, FIG9_UNPACED, 'round-robin', block).makespan) / hg,
        detail: `${us(hg)} vs ${us(pget(torus, FIG9, 'round-robin', block).makespan)} paced / ${us(pget(torus, FIG9_UNPACED, 'round-robin', block).makespan)} unpaced µs`,
      };
    };
    const blocksOf = (pc: PacketCase) => [pc.block, ...pc.sweep].sort((a, b) => a - b);
    const perTorus = pCases.map((pc) => ({ pc, points: blocksOf(pc).map((block) => sweepPoint(pc.torus, block)) }));
    const is2d = (torus: string) => torus.split('x').length === 2;
    // One sentence, one row (issue 27): [0116]'s embodiment, whose claims 2 and 6 split each block
    // over the axes (areas = n), judged in that form on every torus and both engines; [0079]'s
    // Example 1 (one area, 2-D) is its own row.
    r.claims.push(sweepClaim({
      id: '000.faster',
      claim: 'The embodiment (claims 2/6: hop groups, each block split over the axes, areas = n) finishes the all-to-all faster than the comparative example (FIG. 9), with fewer barriers',
      where: '¶0116; claims 2, 6',
      points: [...flowPointsOf(HG_SPLIT, () => true), ...pCases.flatMap((pc) => blocksOf(pc).map((block) => sweepPoint(pc.torus, block, HG_SPLIT)))],
      reading: `spec §4.3 (Example 2's areas generalised to n axes, claims 2/6): hop-grouped:areas=n, ${flowReading}; ${packetReading}; "closer to the optimum" judged against FIG. 9 only: barrier-free linear and pairwise can be closer still`,
      model: `hop-grouped:areas=n; ${packetReading}`,
    }));
    r.claims.push(sweepClaim({
      id: '000.faster.example1',
      claim: 'Example 1 (2-D, one area per block, X then Y) finishes the all-to-all faster than the comparative example (FIG. 9), with fewer barriers',
      where: '¶0079; FIG. 12A/12B',
      points: [...flowPoints.filter((p) => is2d(p.torus)), ...perTorus.filter((t) => is2d(t.pc.torus)).flatMap((t) => t.points)],
      reading: `${flowReading}; ${packetReading}`,
      model: 'Example 1 (hop-grouped, one area)',
    }));
    r.plots.push(
      linePlot({
        id: '000-fig9-ratio',
        title: 'FIG. 9 (the faster of paced by link sharing and unpaced) over hop-grouped, against block size',
        figure: '000 ¶0050, FIG. 9 against FIG. 12–17',
        caption: 'Above the line at 1 hop-grouped is faster. Flow level (max-min sharing) and packet level (round-robin) on every torus run; FIG. 9 is paced with gap = max(d) − 1, the most flows sharing one link in its step.',
        x: { title: 'block per rank pair (bytes, log scale)', log: true },
        y: { title: 'makespan, FIG. 9 / hop-grouped (ratio, log scale)', log: true },
        legend: 'torus, engine',
        points: [
          ...flowPoints.map((p) => ({ series: `${p.torus} flow`, x: p.block, y: p.ratio })),
          ...perTorus.flatMap((t) => t.points.map((p) => ({ series: `${p.torus} packet`, x: p.block, y: p.ratio }))),
        ],
        dashed: flowTori.map((t) => `${t} flow`),
        marks: [{ axis: 'y', value: 1, label: 'equal time' }],
      }),
    );
    const arbRows = ageTori.map((torus) => {
      const unpacedRR = pget(torus, 'hop-grouped (no pacing)', 'round-robin');
      const unpacedAge = pget(torus, 'hop-grouped (no pacing)', 'age');
      const linRR = pget(torus, 'linear', 'round-robin');
      const linAge = pget(torus, 'linear', 'age');
      const matters = Math.abs(unpacedAge.makespan / unpacedRR.makespan - 1) > 0.01 || Math.abs(linAge.makespan / linRR.makespan - 1) > 0.01;
      return { torus, unpacedRR, unpacedAge, linRR, linAge, matters };
    });
    const arbMatters = arbRows.every((x) => x.matters);
    r.claims.push({
      id: '000.arbitration',
      source: 'meshwork',
      claim: 'Hop mixing hurts under round-robin arbitration (FIG. 6 unfairness); age-based arbitration changes the picture',
      where: '¶0040–¶0041, ¶0050',
      expected: '(no number in the document)',
      measured: arbRows
        .map(
          (x) =>
            `${x.torus}: unpaced hop-grouped ${us(x.unpacedRR.makespan)} µs round-robin vs ${us(x.unpacedAge.makespan)} µs age (finish spread ${x.unpacedRR.finishSpread.toFixed(3)} vs ${x.unpacedAge.finishSpread.toFixed(3)}); linear ${us(x.linRR.makespan)} vs ${us(x.linAge.makespan)} µs (finish spread ${x.linRR.finishSpread.toFixed(3)} vs ${x.linAge.finishSpread.toFixed(3)})`,
        )
        .join('; '),
      threshold: 'a makespan difference above 1% between the two arbitrations, for unpaced hop-grouped or linear, on every torus run with both',
      sensitivity: `the largest difference per torus is ${arbRows.map((x) => `${x.torus} ${(Math.max(Math.abs(x.unpacedAge.makespan / x.unpacedRR.makespan - 1), Math.abs(x.linAge.makespan / x.linRR.makespan - 1)) * 100).toFixed(1)}%`).join(', ')}: the verdict holds for any threshold below the smallest of these`,
      setup: ['arbitration: iSLIP round-robin against age-based (oldest first); the patent names neither', ...TIMING_SETUP.slice(0, 2)],
      verdict: arbMatters ? 'reproduced-under-reading' : 'not-reproduced',
      ...(arbMatters
        ? { reading: `${packetReading}; "changes the picture" read as a makespan difference above 1 % on every torus run with both arbitrations` }
        : { why: `${packetReading}: the two arbitrations give makespans within 1 % on ${arbRows.filter((x) => !x.matters).map((x) => x.torus).join(', ')}` }),
    });
    const pacingRows = pCases.map((pc) => ({ torus: pc.torus, ratio: pget(pc.torus, 'hop-grouped (no pacing)', 'round-robin').makespan / pget(pc.torus, HG, 'round-robin').makespan }));
    const pacingHelps = pacingRows.every((x) => x.ratio > 1.01);
    r.claims.push({
      id: '000.pacing',
      source: 'document',
      claim: 'Pacing (gap = hops − 1 packets) makes band division fair and shortens the all-to-all',
      where: '¶0043–¶0044, FIG. 7',
      expected: 'paced faster than unpaced',
      threshold: 'unpaced / paced makespan above 1.01 at packet level on every torus',
      sensitivity: `the smallest ratio is ${minOf(pacingRows.map((x) => x.ratio)).toFixed(3)}: the verdict holds for any threshold below it; at flow level pacing changes nothing by construction`,
      setup: TIMING_SETUP.slice(0, 2),
      decides: `smallest unpaced / paced ratio ${minOf(pacingRows.map((x) => x.ratio)).toFixed(3)} (packet level) against 1.01`,
      rule: 'ordering: paced faster than unpaced by more than 1 % on every torus of the packet-level run (the flow level shares links fairly by construction, so pacing cannot change it)',
      // Rule 5: FIG. 7's own line is the alternative setup; there pacing cannot shorten the exchange.
      robustness: {
        status: 'depends',
        alternatives: [
          'on the all-to-alls of the packet-level run: paced faster (this verdict)',
          'on FIG. 7\'s 3-flow line (000.fig7.pacing): link 3–4 carries the three transfers whatever the pacing, so the time cannot fall (unpaced / paced just below 1); the sentence holds for all-to-alls whose bottleneck pacing can relieve',
          'at flow level: ratio 1 by construction (max-min sharing is already fair)',
        ],
      },
      measured: `unpaced / paced makespan: packet level (round-robin) ${pacingRows.map((x) => `${x.torus} ${x.ratio.toFixed(3)}`).join(', ')}; flow level ${flowTori.map((t, i) => `${t} ${pacingGain[i].toFixed(3)}`).join(', ')}`,
      verdict: pacingHelps ? 'reproduced-under-reading' : 'not-reproduced',
      ...(pacingHelps
        ? { reading: packetReading }
        : { why: `${packetReading}: within a hop group every message has the same hop count, so there is no hop mixing for pacing to correct, and the gaps only delay injection; at flow level max-min sharing is already fair (ratio 1)` }),
    });
    r.notes.push('Packet level: hop-grouped beats FIG. 9 (fewer barriers), but linear and pairwise, with no barriers at all, finish faster than both; efficiencies stay low because every message pays α and every barrier its stages at these small sizes.');
    r.params.packet = {
      cases: pCases.map((c) => ({ torus: `torus:${c.torus}`, blockBytes: c.block, sweepBlockBytes: c.sweep, arbitration: c.age ? ['round-robin', 'age'] : ['round-robin'] })),
      fig9Pacing: 'per-step-barrier paced with gap = max(d) − 1 (real link sharing) and unpaced; the faster form is the baseline',
      engine: 'simulatePacketSchedule (schedule-run defaults: 2 VCs × 16 flits, 8-flit packets, 32-byte flits)',
      ageRuns: ARB_ALGOS.map((a) => a.spec),
      sizes: 'block sizes chosen so every case fits the full-run budget (one packet per message on 8x8x8); see docs/reproduce.md for per-case times',
    };

    // The background figures (FIG. 5–8, ¶0042) on the small networks they draw.
    ctx.progress(0.95, 'FIG. 5–8 and the 1-D torus deadlock of ¶0042');
    appendAll(r.claims, figureClaims());
    r.params.figures = { bytesPerTransfer: FIGURE_BYTES, link: '25 Gb/s, 100 ns', networks: 'mesh:6 (FIG. 5, 7), mesh:4 (FIG. 6), torus:4 (FIG. 8), torus:3 (¶0042)' };
    // Disturbances (¶0048, ¶0050): the same lowered schedules under skew, jitter and OS noise.
    const noise = noiseSweep(ctx.quick, (f, label) => ctx.progress(0.955 + 0.004 * f, label));
    const noiseOut = noiseResults(noise.rows, noise.cases, ctx.quick);
    appendAll(r.claims, noiseOut.claims);
    r.tables.push(noiseOut.table);
    r.plots.push(noiseOut.plot);
    r.params.noise = noiseOut.params;

    // Link utilisation over time: hop-grouped on 8×8 at flow level, per-channel rates binned.
    ctx.progress(0.96, 'flow level: link utilisation of hop-grouped on torus 8x8');
    const hTopo = buildTopology('torus:8x8');
    const recorder = new ChannelUtilisation();
    const hRes = runCollectiveFlow({ topology: hTopo, collective: 'alltoall', algorithm: 'hop-grouped', size: flowBlock, model: { trace: recorder } });
    const bins = 40;
    const links: number[] = [];
    for (let c = 0; c < hTopo.numChannels; c++) if (hTopo.chSrc[c] < hTopo.numNodes && hTopo.chDst[c] < hTopo.numNodes && hTopo.chSrc[c] !== hTopo.chDst[c]) links.push(c);
    const util = recorder.bin(hTopo, links, hRes.makespan_s, bins);
    r.plots.push(
      heatmapPlot({
        id: '000-link-heatmap',
        title: 'Link utilisation over time, hop-grouped all-to-all on torus 8x8 (flow level)',
        figure: '000 FIG. 7 (band division over time) and FIG. 13–16 (hop groups)',
        caption: `${flowBlock} bytes per block; one row per directed inter-router link (source→destination router), ${bins} equal time bins over the makespan ${(hRes.makespan_s * 1e6).toFixed(1)} µs.`,
        rowTitle: 'link (router → router)',
        rows: links.map((c) => `${hTopo.chSrc[c]}→${hTopo.chDst[c]}`),
        columnTitle: 'time (s, bin start)',
        columns: Array.from({ length: bins }, (_, b) => (b * hRes.makespan_s) / bins),
        values: util,
        legend: 'utilisation (fraction of link bandwidth)',
      }),
    );
    r.params.heatmap = { torus: 'torus:8x8', algorithm: 'hop-grouped', blockBytes: flowBlock, bins, source: 'flow engine channelRates trace hook, time-weighted per bin' };
    r.params.flow = {
      tori: flowTori.map((t) => `torus:${t}`),
      blockBytes: flowBlock,
      sweep: { schedules: SWEEP_LABELS, blockBytes: Object.fromEntries(flowTori.map((t) => [t, sizesAt(t)])) },
      engine: 'runCollectiveFlow (default flow model and routing)',
      skipped: FLOW_SKIPPED.filter((x) => flowTori.includes(x.torus)).map((x) => `${x.spec} on torus:${x.torus} (all flows at once; over 10 minutes of CPU at flow level)`),
    };
    r.params.tori = tori.map((t) => `torus:${t}`);
    r.params.blockBytes = BLOCK_BYTES;
    r.params.algorithms = ALGOS.map((a) => a.spec);
    r.params.executor = { mode: 'chunks', check: 'every output slot against the all-to-all postcondition' };
    r.notes.push(
      'The patent gives no torus sizes, barrier totals or timings; the barrier counts it implies are the spec\'s derivations from the flowcharts (§3.7, §4.5).',
      'areas=2n is Meshwork\'s extension: each block split into 2n pieces, each axis direction carrying one (see docs/seed-algorithms.md).',
    );
    const ft = tori[tori.length - 1];
    r.headline = `torus ${largest}: ${get(largest, HG).barriers} barriers vs ${get(largest, FIG9).barriers} (FIG. 9); flow ${ft}: ${(fget(ft, HG).makespan * 1e6).toFixed(0)} vs ${(fig9Best((l) => fget(ft, l)) * 1e6).toFixed(0)} µs (faster FIG. 9 form)`;
    return r;
  },
};
