/**
 * Seed 001: JP 2020-046713 A (NEC, PETRA, Fujitsu), full mesh with 1-hop links.
 * Spec: shared/spec/seed001_fullmesh.md.
 *
 * The embodiments' schedules come from the collectives area (fullmesh-split, fullmesh-multicast,
 * fullmesh-turnaround, fullmesh-two-group) and are executed and verified byte for byte on
 * `fullmesh:8`, then timed against data size at flow level (図3/7/16/29/35/37/40/41) next to a
 * direct-only baseline carrying the comparative example's traffic.
 */
import { buildSchedule, executeSchedule } from '../../collectives/index.js';
import type { CollectiveKind } from '../../collectives/types.js';
import type { Claim } from '../../report/checklist.js';
import { linePlot, type SeriesPoint } from '../../report/plot.js';
import { runCollectiveFlow } from '../../sim/flow/index.js';
import { buildTopology } from '../../topology/index.js';
import { emptyReproduction, type SeedModule } from './types.js';

const N = 8;

const SCHEDULES: ReadonlyArray<{ readonly label: string; readonly collective: CollectiveKind; readonly algorithm: string; readonly where: string }> = [
  { label: '1-to-1, direct + N−2 1-hop links (1st–3rd)', collective: 'one-to-one', algorithm: 'fullmesh-split', where: '図2, 図6' },
  { label: '1-to-1, 1-hop only, K = N−2 (6th)', collective: 'one-to-one', algorithm: 'fullmesh-split:L=0', where: '図38' },
  { label: 'multicast, sender a turnaround node, K = N (3rd)', collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=3', where: '図11–図16' },
  { label: 'multicast, K = N−1 (6th)', collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=6', where: '図39, 図40' },
  { label: 'reduce, K = N (4th)', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=4', where: '図32–図35' },
  { label: 'allreduce, K = N (4th)', collective: 'allreduce', algorithm: 'fullmesh-turnaround:embodiment=4', where: '図32–図35' },
  { label: 'allreduce (5th)', collective: 'allreduce', algorithm: 'fullmesh-turnaround:embodiment=5', where: '図36, 図37' },
  { label: 'allreduce, K = 4 (6th)', collective: 'allreduce', algorithm: 'fullmesh-turnaround:embodiment=6,K=4', where: '図41' },
  { label: 'scatter across two groups of four', collective: 'scatter', algorithm: 'fullmesh-two-group', where: '図17–図29' },
];

interface Variant { readonly label: string; readonly collective: CollectiveKind; readonly algorithm: string; readonly why?: string }
interface Comparison { readonly id: string; readonly title: string; readonly figure: string; readonly quantum: number; readonly direct: Variant; readonly variant: Variant }

/**
 * Direct-only baselines: the same traffic as the document's comparative example (spec §1.1, §8),
 * expressed with existing schedules so the flow engine times them: multicast = the root sends the
 * whole buffer to each rank over its own link (scatter linear, block = buffer); reduce = every rank
 * sends its whole buffer to the root (gather linear, block = buffer).
 */
const MCAST_DIRECT: Variant = { label: 'direct only', collective: 'scatter', algorithm: 'linear', why: 'the root sends the whole buffer to each rank over its direct link' };
const REDUCE_DIRECT: Variant = { label: 'direct only', collective: 'gather', algorithm: 'linear', why: 'every rank sends its whole buffer to the root over its direct link; reduction compute not modelled' };
const COMPARISONS: readonly Comparison[] = [
  { id: 'p2p', title: '1-to-1', figure: '図3 / 図7', quantum: N - 1, direct: { label: 'direct only', collective: 'one-to-one', algorithm: 'direct', why: 'one link' }, variant: { label: 'direct + N−2 1-hop links', collective: 'one-to-one', algorithm: 'fullmesh-split' } },
  { id: 'mcast3', title: 'Multicast, 3rd embodiment (K = N)', figure: '図16', quantum: 4 * N, direct: MCAST_DIRECT, variant: { label: 'K = N turnaround nodes', collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=3' } },
  { id: 'mcast6', title: 'Multicast, 6th embodiment (K = N−1)', figure: '図40', quantum: 4 * (N - 1), direct: MCAST_DIRECT, variant: { label: 'K = N−1 turnaround nodes', collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=6' } },
  { id: 'reduce4', title: 'Reduce, 4th embodiment (K = N)', figure: '図35', quantum: 4 * N * N, direct: REDUCE_DIRECT, variant: { label: 'K = N turnaround nodes', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=4' } },
  { id: 'reduce5', title: 'Reduce, 5th embodiment', figure: '図37', quantum: 4 * N * N, direct: REDUCE_DIRECT, variant: { label: '5th embodiment', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=5' } },
  { id: 'reduce6', title: 'Reduce, 6th embodiment (K = 4)', figure: '図41', quantum: 4 * N * N, direct: REDUCE_DIRECT, variant: { label: 'K = 4 turnaround nodes', collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=6,K=4' } },
  { id: 'scatter', title: 'Scatter across two groups of four', figure: '図29', quantum: 4 * N, direct: { label: 'direct only', collective: 'scatter', algorithm: 'linear', why: 'the root sends each rank its block over its direct link' }, variant: { label: 'direct + 1-hop paths, two groups', collective: 'scatter', algorithm: 'fullmesh-two-group' } },
];

interface TimingClaim { readonly id: string; readonly claim: string; readonly where: string; readonly expected: string; readonly comparison: string; readonly ratio?: number; readonly thresholdBits?: number }
const TIMING_CLAIMS: readonly TimingClaim[] = [
  { id: '001.mcast3.ratio', claim: 'Multicast with the sender as a turnaround node (K = N) takes ≈ 2/N of the direct time, from 4 kbit at N = 8', where: '[0058], 図16', expected: '≈ 2/N = 1/4; 4 kbit', comparison: 'mcast3', ratio: 2 / N, thresholdBits: 4e3 },
  { id: '001.mcast6.ratio', claim: 'Multicast with K = N−1 turnaround nodes takes 1/K of the direct time', where: '[0109], 図40', expected: '1/7 at N = 8', comparison: 'mcast6', ratio: 1 / (N - 1) },
  { id: '001.reduce4.ratio', claim: 'Reduce/allreduce with every node a turnaround node takes ≈ 2/N of the direct time; benefit from 70 kbit', where: '[0100], 図35', expected: '≈ 2/N; 70 kbit', comparison: 'reduce4', ratio: 2 / N, thresholdBits: 7e4 },
  { id: '001.reduce5.threshold', claim: '5th-embodiment reduce pays off from 20 kbit', where: '[0103], 図37', expected: '20 kbit', comparison: 'reduce5', thresholdBits: 2e4 },
  { id: '001.reduce6.ratio', claim: '6th-embodiment reduce improves by K/2 over the full mesh', where: '[0110], 図41', expected: 'K/2 = 2 at K = 4 (time ratio 0.5)', comparison: 'reduce6', ratio: 2 / 4 },
  { id: '001.scatter.ratio', claim: 'Scatter across two groups of four is 2× faster with direct plus 1-hop paths', where: '[0066], 図29', expected: '2× (time ratio 0.5)', comparison: 'scatter', ratio: 0.5 },
];

/**
 * Ratio: the largest sampled size within 10% of the document's ratio. Threshold: spec §8 says the
 * document's kbit values are figure readings, not outputs of one parameter set, so the measured
 * crossover is only required to lie within a factor of 4 of the stated one.
 */
const last = (xs: ReadonlyArray<{ ratio: number }>): number => xs[xs.length - 1].ratio;

function timingClaim(t: TimingClaim, ratios: ReadonlyArray<{ bits: number; ratio: number }>, points: number): Claim {
  const big = ratios[ratios.length - 1];
  const at = ratios.findIndex((x) => x.ratio < 1);
  const parts: string[] = [];
  const fails: string[] = [];
  if (t.ratio !== undefined) {
    parts.push(`time ratio ${big.ratio.toFixed(3)} at ${big.bits.toExponential(0)} bit`);
    if (Math.abs(big.ratio / t.ratio - 1) > 0.1) fails.push(`the large-data ratio ${big.ratio.toFixed(3)} is not within 10% of ${t.ratio.toFixed(3)}`);
  }
  if (t.thresholdBits !== undefined) {
    const crossing = at < 0 ? undefined : ratios[at];
    const below = at > 0 ? ratios[at - 1].bits : 0;
    parts.push(crossing ? `faster from between ${below.toExponential(1)} and ${crossing.bits.toExponential(1)} bit (${points} sampled sizes)` : 'never faster on the sampled sizes');
    if (!crossing || crossing.bits > 4 * t.thresholdBits || crossing.bits < t.thresholdBits / 4) fails.push(`the crossover is not within a factor of 4 of ${t.thresholdBits / 1e3} kbit with the flow engine's single turnaround latency (the document uses a different T1 per embodiment)`);
  }
  const base = { id: t.id, claim: t.claim, where: t.where, expected: t.expected, measured: parts.join('; ') };
  if (fails.length > 0) return { ...base, verdict: 'not-reproduced', why: fails.join('; ') };
  return { ...base, verdict: 'reproduced-under-reading', reading: 'flow level, N = 8, 20 Gbps per link, α = 2 µs, cut-through turnaround; direct-only baseline as the comparative example\'s traffic (spec §8); thresholds to a factor of 4 (spec §8: figure values)' };
}

export const seed001: SeedModule = {
  id: '001',
  title: 'Full mesh with 1-hop links',
  document: 'JP 2020-046713 A (NEC, PETRA, Fujitsu; Mizutani, Urino, Usuki, 2020): parallel computer system with direct and 1-hop links on a full mesh',
  run(ctx) {
    const r = emptyReproduction();
    const topology = buildTopology(`fullmesh:${N}`);
    const size = 8 * 1024; // bytes; a multiple of N·K·4 for every schedule's pieces of int32 elements
    const rows = SCHEDULES.map((s, i) => {
      ctx.progress(i / SCHEDULES.length, s.label);
      const rep = executeSchedule(buildSchedule({ collective: s.collective, algorithm: s.algorithm, topology, size, root: 0, peer: 1 }), { mode: 'chunks' });
      return { ...s, pass: rep.pass, messages: rep.messages, maxSent: rep.stats.sentBytes.reduce((a, b) => Math.max(a, b), 0) };
    });
    r.tables.push({
      id: '001-executed',
      title: `Seed 001 schedules on fullmesh:${N}, executed and verified (${size} bytes)`,
      figure: '001 図2, 図11–図16, 図32–図41',
      columns: ['embodiment', 'where', 'algorithm', 'verified', 'messages', 'most bytes sent by one node'],
      rows: rows.map((x) => [x.label, x.where, `${x.collective} ${x.algorithm}`, x.pass ? 'yes' : 'NO', x.messages, x.maxSent]),
    });
    const allPass = rows.every((x) => x.pass);
    const claim: Claim = {
      id: '001.correct',
      claim: 'Splitting the data over direct and 1-hop links (turnaround nodes replicating or reducing) still delivers exactly the collective\'s result',
      where: 'claims 1–10; 付記15–23',
      expected: 'the collective\'s postcondition',
      measured: `${rows.length} schedules on fullmesh:${N}: ${allPass ? 'all verified byte for byte' : 'some FAILED'}`,
      verdict: allPass ? 'reproduced' : 'not-reproduced',
      ...(allPass ? {} : { why: 'the executor found a wrong result' }),
    };
    r.claims.push(claim);
    // Timing at flow level in the document's units: N = 8, 20 Gbps per link, 2 µs per transfer (spec §4).
    const timedSpec = `fullmesh:${N},bw=20Gbps,lat=0`;
    const timed = buildTopology(timedSpec);
    const model = { alpha: 2e-6 };
    const bits = ctx.quick ? [1e3, 4e3, 1e4, 2e4, 4e4, 8e4, 2e5, 1e6, 1e8] : [1e3, 4e3, 1e4, 2e4, 4e4, 8e4, 2e5, 1e6, 1e7, 1e8, 5e8];
    const measuredRatios: Record<string, Array<{ bits: number; ratio: number }>> = {};
    COMPARISONS.forEach((c, ci) => {
      const curve: SeriesPoint[] = [];
      const ratios: Array<{ bits: number; ratio: number }> = [];
      bits.forEach((b, i) => {
        ctx.progress(0.3 + (0.7 * (ci + i / bits.length)) / COMPARISONS.length, `${c.id} at ${b} bit`);
        // Sizes a multiple of N·K·4 bytes so every schedule splits into whole int32 pieces.
        const size = Math.max(1, Math.round(b / 8 / c.quantum)) * c.quantum;
        const time = (v: Variant): number => runCollectiveFlow({ topology: timed, collective: v.collective, algorithm: v.algorithm, size, root: 0, model }).makespan_s;
        const base = time(c.direct);
        const variant = time(c.variant);
        curve.push({ series: c.direct.label, x: size * 8, y: base * 1e6 }, { series: c.variant.label, x: size * 8, y: variant * 1e6 });
        ratios.push({ bits: size * 8, ratio: variant / base });
      });
      measuredRatios[c.id] = ratios;
      r.plots.push(
        linePlot({
          id: `001-${c.id}-time`,
          title: `${c.title} time against data size on a full mesh, N = 8 (seed 001 ${c.figure})`,
          figure: `001 ${c.figure}`,
          caption: `20 Gbps per link, 2 µs per transfer (α), turnaround with the flow engine's default switch model. Direct only: ${c.direct.collective} ${c.direct.algorithm} (${c.direct.why}).`,
          x: { title: 'data size (bit, log scale)', log: true },
          y: { title: 'communication time (µs, log scale)', log: true },
          legend: 'links used',
          points: curve,
        }),
      );
    });
    const p2p = measuredRatios.p2p;
    const big = p2p[p2p.length - 1];
    const crossing = p2p.find((x) => x.ratio < 1);
    const ratioOk = Math.abs(big.ratio * (N - 1) - 1) < 0.02;
    r.claims.push(
      {
        id: '001.p2p.ratio',
        claim: '1-to-1 with N−2 1-hop links plus the direct link takes 1/(N−1) of the direct-only time',
        where: '[0023], 図3',
        expected: '1/(N−1) = 0.1429 at N = 8',
        measured: `${big.ratio.toFixed(4)} at ${big.bits.toExponential(0)} bit`,
        verdict: ratioOk ? 'reproduced-under-reading' : 'not-reproduced',
        ...(ratioOk ? { reading: 'large data, flow level: N = 8, 20 Gbps per link, α = 2 µs, equal pieces over the direct link and N−2 turnaround nodes' } : { why: 'the measured ratio is not 1/(N−1) within 2%' }),
      },
      {
        id: '001.p2p.threshold',
        claim: '1-hop links pay off above 80 kbit (1st embodiment), from 20 kbit (2nd)',
        where: '[0023], 図3, 図7',
        expected: '80 kbit (1st), 20 kbit (2nd)',
        measured: crossing ? `the split is faster from ${crossing.bits.toExponential(1)} bit on the sampled sizes (${bits.length} points)` : 'never faster on the sampled sizes',
        verdict: crossing && crossing.bits <= 8e4 ? 'reproduced-under-reading' : 'not-reproduced',
        ...(crossing && crossing.bits <= 8e4
          ? { reading: 'the crossover lies at or below 80 kbit with the flow engine\'s turnaround model; the document\'s thresholds come from its graphs, whose latency model is not consistent with its own formulas (spec §8)' }
          : { why: 'the sampled crossover lies above 80 kbit in this model' }),
      },
    );
    for (const t of TIMING_CLAIMS) r.claims.push(timingClaim(t, measuredRatios[t.comparison], bits.length));
    r.params.timing = { topology: timedSpec, model, sizesBits: bits, comparisons: COMPARISONS.map((c) => ({ id: c.id, direct: `${c.direct.collective} ${c.direct.algorithm}`, variant: `${c.variant.collective} ${c.variant.algorithm}` })) };
    r.params.topology = `fullmesh:${N}`;
    r.params.size = size;
    r.params.schedules = SCHEDULES.map((s) => `${s.collective} ${s.algorithm}`);
    r.notes.push('The document\'s graphs (図3/7/16/35/37/40) have no numbers in the text; only the ratios and thresholds in words can be checked (spec §4), with the spec\'s caveats about the formulas (§8).');
    r.headline = `time ratios at large data: 1-to-1 ${big.ratio.toFixed(3)} (1/(N−1) = ${(1 / (N - 1)).toFixed(3)}), multicast K=N ${last(measuredRatios.mcast3).toFixed(3)} (2/N), reduce K=N ${last(measuredRatios.reduce4).toFixed(3)}, scatter ${last(measuredRatios.scatter).toFixed(3)}; ${rows.filter((x) => x.pass).length}/${rows.length} schedules verified`;
    return r;
  },
};
