/**
 * Seed 001: JP 2020-046713 A (NEC, PETRA, Fujitsu), full mesh with 1-hop links.
 * Spec: shared/spec/seed001_fullmesh.md.
 *
 * The embodiments' schedules come from the collectives area (fullmesh-split, fullmesh-multicast,
 * fullmesh-turnaround, fullmesh-two-group) and are executed and verified byte for byte on
 * `fullmesh:8`. Their times against data size (図16/35/37/40) need the schedule-to-flow-engine
 * lowering, which is not on main yet.
 */
import { buildSchedule, executeSchedule } from '../../collectives/index.js';
import type { CollectiveKind } from '../../collectives/types.js';
import type { Claim } from '../../report/checklist.js';
import { linePlot, type SeriesPoint } from '../../report/plot.js';
import { runCollectiveFlow } from '../../sim/flow/index.js';
import { buildTopology } from '../../topology/index.js';
import { pendingClaims } from './pending.js';
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

const TIMING_CLAIMS = [
  { id: '001.mcast3.ratio', claim: 'Multicast with the sender as a turnaround node (K = N) takes ≈ 2/N of the direct time, from 4 kbit at N = 8', where: '[0058], 図16', expected: '≈ 2/N = 1/4; 4 kbit' },
  { id: '001.mcast6.ratio', claim: 'Multicast with K = N−1 turnaround nodes takes 1/K of the direct time', where: '[0109], 図40', expected: '1/7 at N = 8' },
  { id: '001.reduce4.ratio', claim: 'Reduce/allreduce with every node a turnaround node takes ≈ 2/N of the direct time; benefit from 70 kbit', where: '[0100], 図35', expected: '≈ 2/N; 70 kbit' },
  { id: '001.reduce5.threshold', claim: '5th-embodiment reduce pays off from 20 kbit', where: '[0103], 図37', expected: '20 kbit' },
  { id: '001.reduce6.ratio', claim: '6th-embodiment reduce improves by K/2 over the full mesh', where: '[0110], 図41', expected: 'K/2' },
  { id: '001.scatter.ratio', claim: 'Scatter across two groups of four is 2× faster with direct plus 1-hop paths', where: '[0066], 図29', expected: '2×' },
];

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
    // 1-to-1 at flow level in the document's units: N = 8, 20 Gbps per link, 2 µs direct latency (spec §4).
    const timed = buildTopology(`fullmesh:${N},bw=20Gbps,lat=0`);
    const model = { alpha: 2e-6 };
    const bits = ctx.quick ? [1e3, 1e4, 2e4, 8e4, 1e6, 1e8] : [1e3, 4e3, 1e4, 2e4, 4e4, 8e4, 2e5, 1e6, 1e7, 1e8, 5e8];
    const curve: SeriesPoint[] = [];
    const ratios: Array<{ bits: number; ratio: number }> = [];
    bits.forEach((b, i) => {
      ctx.progress(0.6 + (0.4 * i) / bits.length, `1-to-1 at ${b} bit`);
      const size = Math.round(b / 8 / (N - 1)) * (N - 1);
      const direct = runCollectiveFlow({ topology: timed, collective: 'one-to-one', algorithm: 'direct', size, root: 0, model }).makespan_s;
      const split = runCollectiveFlow({ topology: timed, collective: 'one-to-one', algorithm: 'fullmesh-split', size, root: 0, model }).makespan_s;
      curve.push({ series: 'direct only', x: size * 8, y: direct * 1e6 }, { series: 'direct + N−2 1-hop links', x: size * 8, y: split * 1e6 });
      ratios.push({ bits: size * 8, ratio: split / direct });
    });
    r.plots.push(
      linePlot({
        id: '001-p2p-time',
        title: '1-to-1 time against data size on a full mesh, N = 8',
        figure: '001 図3 / 図7',
        caption: '20 Gbps per link, 2 µs per transfer (α), 1-hop turnaround with the flow engine\'s default switch model.',
        x: { title: 'data size (bit, log scale)', log: true },
        y: { title: 'communication time (µs, log scale)', log: true },
        legend: 'links used',
        points: curve,
      }),
    );
    const big = ratios[ratios.length - 1];
    const crossing = ratios.find((x) => x.ratio < 1);
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
    const missing = 'flow-level runs of the multicast, reduce and scatter embodiments in this reproduction (not wired in before the deadline)';
    r.claims.push(...pendingClaims(TIMING_CLAIMS, missing));
    r.unavailable.push(`not yet available: time against data size for multicast, reduce/allreduce and scatter (図16/35/37/40) and their ratios (${missing}); the 1-to-1 curve and every schedule's correctness are complete`);
    r.params.timing = { topology: `fullmesh:${N},bw=20Gbps,lat=0`, model, sizesBits: ratios.map((x) => x.bits) };
    r.params.topology = `fullmesh:${N}`;
    r.params.size = size;
    r.params.schedules = SCHEDULES.map((s) => `${s.collective} ${s.algorithm}`);
    r.notes.push('The document\'s graphs (図3/7/16/35/37/40) have no numbers in the text; only the ratios and thresholds in words can be checked (spec §4), with the spec\'s caveats about the formulas (§8).');
    r.headline = `1-to-1 with 1-hop links: ${big.ratio.toFixed(3)} of direct time (1/(N−1) = ${(1 / (N - 1)).toFixed(3)}); ${rows.filter((x) => x.pass).length}/${rows.length} schedules verified`;
    return r;
  },
};
