/**
 * Seed 001 claims about the control unit and the document's arithmetic (spec/seed001_fullmesh.md
 * §1.4, §3, §8): the worked example A/B/C, the unit's choice against the flow-level times over a
 * sweep, the control header, the fibre count, the largest N and the tree latency M·L.
 */
import { ControlUnit, controlHeaderFields, type ControlCommType } from '../../collectives/fullmesh-control.js';
import type { Claim } from '../../report/checklist.js';
import type { Table } from '../../report/table.js';
import { buildTopology } from '../../topology/index.js';
import { runRequest } from './run-request.js';
import { SEED001_T0, type Seed001Timer } from './seed001-timing.js';
import { minOf } from '../../util/arrays.js';

const STEPS_A_B_C = 'the worked example of [0079]–[0086]';

/** The worked example A/B/C on N = 4 (3rd embodiment, 20 Gbps, T1 = 2.1 µs, 4-byte elements), step by step. */
export function workedExample(): { claim: Claim; table: Table } {
  const cu = new ControlUnit({ nodes: 4, bandwidth: 2.5e9, t0: SEED001_T0, t1: 2.1e-6 });
  const rows: Array<Array<string | number>> = [];
  const log = (event: string): void => {
    for (const r of cu.table()) rows.push([event, r.id, r.comm.type, r.state, r.decision.step, r.decision.links.map(([a, b]) => `${a + 1}-${b + 1}`).join(' ')]);
  };
  const a = cu.submit({ type: 'one-to-one', sender: 0, receiver: 1, count: 5000, precision: 4 });
  log('A arrives');
  cu.submit({ type: 'scatter', sender: 1, count: 5000, precision: 4 });
  log('B arrives');
  const c = cu.submit({ type: 'multicast', sender: 2, count: 50, precision: 4 });
  log('C arrives');
  const started = cu.complete(a.id);
  log('A completes');
  const ok = a.decision.choice === 'both' && a.decision.K === 2 && c.state === 'communicating' && started.length === 1 && started[0].id === c.id && c.decision.links.map(([x, y]) => `${x}-${y}`).join(' ') === '2-0 2-1 2-3';
  return {
    table: { id: '001-worked-example', title: 'Seed 001 worked example A/B/C through the control unit (N = 4; links named 1-based as in the document)', figure: '001 図17–図28', columns: ['event', 'comm. number', 'type', 'state', 'flowchart step', 'links'], rows },
    claim: {
      id: '001.control.example',
      claim: 'The control unit runs A (1-to-1, 5000 elements) on direct + 1-hop links, B (scatter) on direct links, holds C (multicast, 50 elements) on direct links waiting for link 3-2, and starts C when A completes',
      where: `${STEPS_A_B_C}, 図17–図28, 図19–図21, 図26`,
      expected: 'A: direct + 1-hop; B: direct, starts; C: direct, waits; A completes → C starts',
      measured: rows.map((r) => `${r[0]}: ${r[1]} ${r[3]}`).join('; '),
      ...(ok
        ? { verdict: 'reproduced-under-reading' as const, reading: 'B sent from node 2, as its recorded links 2-1, 2-3, 2-4 say (the text\'s "from node 1" would wait on A, spec §7.4); 1-hop use when the size is above the threshold (spec §7.1); 4-byte elements, 20 Gbps, T1 = 2.1 µs' }
        : { verdict: 'not-reproduced' as const, why: 'the control unit took a different path through the flowcharts' }),
      source: 'document',
      threshold: 'every decision and state as the text describes it',
      setup: ['N = 4, B = 20 Gbps ([0011]), T0 = 2 µs, T1 = 2.1 µs ([0057])', 'element size 4 B (the document gives none)', 'completion pass stops at the first communication that still cannot start (S262–S270 open, spec §3.5)'],
    },
  };
}

const COMM_OF: Readonly<Record<string, ControlCommType>> = { 'one-to-one': 'one-to-one', broadcast: 'multicast', reduce: 'reduce', allreduce: 'allreduce' };

/**
 * Claims 1 and 6: the unit picks whichever option is faster. Its choice at each size of the sweep
 * is checked against the flow-level times of the two schedules (Seed001Timer); the header is left
 * out here because the engine does not carry it (the header claim is separate).
 */
export function choiceClaim(timers: ReadonlyArray<{ id: string; n: number; timer: Seed001Timer }>, sizesBits: readonly number[], packetTimers: ReadonlyArray<{ id: string; n: number; timer: Seed001Timer; sizesBits: readonly number[] }> = []): Claim {
  const points: Array<{ engine: string; id: string; n: number; bits: number; loss: number; choice: string }> = [];
  const judge = (engine: string, id: string, n: number, timer: Seed001Timer, sizes: readonly number[]): void => {
    const v = timer.c.variant;
    const cu = new ControlUnit({ nodes: n, bandwidth: timer.gbps * 1e9 / 8, t0: SEED001_T0, t1: timer.c.t1, headerBits: 0, policy: v.algorithm.includes('embodiment=6') ? 'variable-K' : 'max-K' });
    for (const bits of sizes) {
      const t = timer.time(bits / 8);
      const d = cu.verify({ type: COMM_OF[v.collective], sender: 0, receiver: 1, count: bits / 8, precision: 1 });
      const picked = d.choice === 'direct' ? t.direct : t.variant;
      points.push({ engine, id, n, bits, loss: picked / Math.min(t.direct, t.variant) - 1, choice: d.choice });
    }
  };
  for (const { id, n, timer } of timers) judge('flow', id, n, timer, sizesBits);
  for (const { id, n, timer, sizesBits: sizes } of packetTimers) judge('packet', id, n, timer, sizes);
  const at = (x: (typeof points)[number]) => `${x.engine} ${x.id} N=${x.n} ${(x.bits / 1e3).toPrecision(3)} kbit`;
  const misses = points.filter((x) => x.loss > 1e-9);
  const worst = points.reduce((a, x) => (x.loss > a.loss ? x : a));
  const within = worst.loss <= CHOICE_TOLERANCE;
  const perEngine = (e: string) => `${points.filter((x) => x.engine === e && x.loss <= 1e-9).length} of ${points.filter((x) => x.engine === e).length}`;
  return {
    id: '001.control.choice',
    form: 'ordering',
    claim: 'Depending on the data amount, the control unit selects whichever of direct, 1-hop or both gives the shorter transfer time',
    where: 'claims 1, 6; [0022]; F02; S215/S425 ([0071], [0123])',
    expected: 'the faster option at every size',
    decides: `largest loss of the chosen form against the faster one ${(worst.loss * 100).toFixed(1)}% (${at(worst)}) against ${CHOICE_TOLERANCE * 100}%`,
    rule: `the chosen form within ${CHOICE_TOLERANCE * 100}% of the faster at every (case, N, size) point, timed at flow level and at packet level (the unit predicts with its flow-level cost model either way)`,
    evidence: { columns: ['engine', 'case', 'N', 'kbit', 'chosen', 'loss against the faster'], rows: points.filter((x) => x.loss > 1e-9).map((x) => [x.engine, x.id, x.n, (x.bits / 1e3).toPrecision(3), x.choice, `${(x.loss * 100).toFixed(2)}%`]) },
    measured: `the faster schedule picked at ${perEngine('flow')} flow-level and ${perEngine('packet')} packet-level points${misses.length ? `; the others: ${misses.slice(0, 8).map((x) => `${at(x)} (${(x.loss * 100).toFixed(1)}%)`).join(', ')}${misses.length > 8 ? ', …' : ''}` : ''}`,
    ...(within
      ? { verdict: 'reproduced-under-reading' as const, reading: 'spec §7.1–§7.3: the unit predicts T0 + S/B against T1 + rounds·S/(paths·B) (spec §8), i.e. the printed inequalities with ">" for "<" and K read as the number of paths' }
      : { verdict: 'not-reproduced' as const, why: `a wrong choice costs up to ${(worst.loss * 100).toFixed(1)}% (${at(worst)}): the unit's flow-level cost model puts the crossover below where packet timing (router pipeline, whole flits) puts it, so between the two it picks the slower form` }),
    source: 'document',
    threshold: `a choice counts when it is within ${CHOICE_TOLERANCE * 100}% of the faster schedule`,
    sensitivity: `at 0% tolerance ${points.length - misses.length} of ${points.length} points agree; the misses sit between the model's crossover and the engine's`,
    setup: ['1-to-1 (2nd embodiment), multicast (3rd and 6th), reduce and allreduce (4th); N = 4 and 8 at flow level, N = 8 at packet level; 20 Gbps', 'header left out of the prediction because the engines do not carry it'],
  };
}

/** A choice counts as right when it is within this share of the faster form's time. */
const CHOICE_TOLERANCE = 0.05;

/** [0039], [0049], [0051], spec §8: header size and share, fibre count, largest N. */
export function arithmeticClaims(): { claims: Claim[]; table: Table } {
  const rows: Array<Array<string | number>> = [];
  let fibresOk = true;
  for (const n of [4, 8, 16, 32, 40, 80, 120]) {
    const t = buildTopology(`fullmesh:${n}`);
    // One fibre per direction of every link of the plain full mesh (図47); 2N through the cyclic AWG (in and out of each node).
    const mesh = t.numChannels;
    fibresOk &&= mesh === n * (n - 1);
    const cu = new ControlUnit({ nodes: n, bandwidth: 2.5e9, t0: SEED001_T0, t1: 2.1e-6 });
    const d = cu.verify({ type: 'one-to-one', sender: 0, receiver: 1, count: 1e7, precision: 1 });
    rows.push([n, mesh, n * n, 2 * n, (mesh / (2 * n)).toFixed(1), controlHeaderFields(n).total, d.K]);
  }
  const h = controlHeaderFields(32);
  const packetBits = 25e9 * 50e-9;
  const share = 100 / packetBits;
  const claims: Claim[] = [
    {
      id: '001.fibres',
      claim: 'A full mesh needs about N² fibres; the cyclic-AWG system needs 2N, with N up to 40 (80 or 120 with patent document 3)',
      where: '[0039]',
      expected: '≈ N² against 2N; N = 40, 80, 120',
      measured: `fullmesh:N has N(N−1) directed links: ${rows.map((r) => `N=${r[0]}: ${r[1]} vs ${r[3]}`).join(', ')}; the control unit plans K = N−2 at N = 120`,
      ...(fibresOk ? { verdict: 'reproduced' as const } : { verdict: 'not-reproduced' as const, why: 'the built full mesh does not have N(N−1) links' }),
      source: 'document',
      threshold: 'exact counts',
      setup: ['one fibre per link direction in the plain full mesh (図47); one fibre in and one out per node through the cyclic AWG'],
    },
    {
      id: '001.header',
      claim: 'The control signal is 100 bits, at most 10% of a ≈ 50 ns packet at 25 Gbps; its fields (10-bit number, 1-bit step, 1 bit per own link, 32-bit process ID) fit for 32 nodes',
      where: '[0047]–[0051], 図10',
      expected: '100 bits ≤ 10%; ≈ 1000 links at N = 32 with 31 bits',
      measured: `100 / ${packetBits} bits = ${(share * 100).toFixed(1)}%; fields at N = 32: ${h.management} + ${h.step} + ${h.linkInfo} + ${h.processId} = ${h.total} bits; 32 × 31 = ${32 * 31} links`,
      ...(share <= 0.1 && h.total <= 100 ? { verdict: 'reproduced' as const } : { verdict: 'not-reproduced' as const, why: 'the header exceeds its stated share' }),
      source: 'document',
      threshold: 'share ≤ 10%, fields ≤ 100 bits',
      sensitivity: `at 20 Gbps the same packet is 1000 bits and the share 10.0%: the claim holds from 20 Gbps up`,
      setup: ['the control unit and fullmesh-adaptive charge the header as a payload share (p − 100)/p of each packet'],
    },
  ];
  return { claims, table: { id: '001-arithmetic', title: 'Seed 001 fibre count, header and K against N', figure: '001 [0039], [0049]', columns: ['N', 'full-mesh links N(N−1)', 'N²', 'cyclic-AWG fibres 2N', 'ratio', 'header fields (bits)', 'K for 1-to-1'], rows } };
}

/** [0006], 図46: a tree collective of M steps takes M·L, M ∝ log2 N; the 1-hop multicast stays at two steps. */
export function treeLatencyClaim(): Claim {
  const rows: string[] = [];
  const ratios: number[] = [];
  let ok = true;
  for (const n of [4, 8, 16, 32, 64]) {
    const topology = buildTopology(`fullmesh:${n},lat=0`);
    // The document's latency model is the library's `seed001` preset; the full mesh's default routing is `direct`.
    const time = (algorithm: string): number => runRequest({ topology: topology.spec, preset: 'seed001', workload: { kind: 'collective', collective: 'broadcast', algorithm, size: n, root: 0 } }, topology).makespan_s;
    const tree = time('binomial');
    const steps = Math.ceil(Math.log2(n));
    ok &&= tree / SEED001_T0 >= steps * 0.99;
    ratios.push(tree / SEED001_T0 / steps);
    rows.push(`N=${n}: ${(tree * 1e6).toFixed(2)} µs = ${(tree / SEED001_T0).toFixed(2)} L (log2 N = ${steps}); 1-hop ${(time('fullmesh-multicast:embodiment=6') * 1e6).toFixed(2)} µs`);
  }
  return {
    id: '001.tree-latency',
    claim: 'A tree collective of M steps with per-communication latency L takes M·L, with M at least proportional to log2 N',
    where: '[0006], 図46',
    expected: 'M·L with M ≥ ⌈log2 N⌉ (the 1-hop collectives: two steps at any N)',
    measured: rows.join('; '),
    ...(ok ? { verdict: 'reproduced' as const } : { verdict: 'not-reproduced' as const, why: 'the binomial broadcast does not take ⌈log2 N⌉·L' }),
    source: 'document',
    threshold: 'tree time ≥ 0.99·⌈log2 N⌉·L at every N of the sweep',
    sensitivity: `M/⌈log2 N⌉ is ${minOf(ratios).toFixed(3)} at its smallest, so any tolerance keeps the verdict; the 1-hop multicast stays at one T1 for every N`,
    setup: ['binomial broadcast (Meshwork\'s tree) and fullmesh-multicast of N bytes on fullmesh:N, α = L = 2 µs, link latency 0, flow level'],
  };
}
