/**
 * Seed 004's Table 1 (spec/seed004_mdce.md §4): mean distance of nine networks at 1,024 and
 * 524,288 PEs. For every entry: the paper's printed value, Meshwork's exact value (BFS with the
 * declared symmetry, or the exact per-dimension sum of BFS results for mesh and torus, or a closed
 * form checked against BFS in the tests for fat tree and omega), the paper's formula or rule, and
 * a note wherever the exact value and the paper's differ at the paper's two decimals.
 *
 * Convention: means over all N² ordered PE pairs, self-pairs included (the one under which Eqs. (2),
 * (3), (6) and the torus rule are exact, spec §3.3); the N(N−1) mean is reported alongside.
 */
import { InputError } from '../../util/errors.js';
import { fatTree } from '../fattree.js';
import type { Topology } from '../graph.js';
import { distanceSummary, type DistanceSummary } from '../metrics/distances.js';
import { productHistogram } from '../metrics/product.js';
import { omega } from '../omega.js';
import {
  eq1Diameter,
  eq2CBanyanMean,
  eq6MdceMean,
  extraStageRule,
  fatTreeExactMean,
  fatTreeRule,
  meshRule,
  omegaExactMean,
  omegaRule,
  torusRule,
} from './formulas.js';
import { dceNetwork, ExtraStage, mdceDeltas } from './network.js';
import { circularOmega, circularOmegaDistances, circularOmegaIndexBits, type CircularOmegaReading } from './circular-omega.js';

export type Table1Size = 1024 | 524288;
export const TABLE1_SIZES: readonly Table1Size[] = [1024, 524288];

export interface Table1Exact {
  meanWithSelf: number;
  meanWithoutSelf: number;
  diameter: number;
  /** How the exact value was obtained. */
  method: string;
  /** Topology spec the value was computed on, when a Meshwork generator built it. */
  spec?: string;
}

export interface Table1Row {
  network: string;
  label: string;
  degree: string;
  pes: Table1Size;
  config: string;
  /** Table 1's printed mean distance. */
  paper: number;
  exact: Table1Exact;
  /** The other reading of the extra DCE stage (spec §3.5), for the CB and CCC rows. */
  exactOtherWiring?: Table1Exact;
  /** The paper's formula, or the inferred rule that reproduces its entry (spec §3.5). */
  formula: { value: number; source: string };
  /** Eq. (1) for the complete MDCE rows. */
  formulaDiameter?: number;
  notes: string[];
}

interface Network {
  network: string;
  label: string;
  degree: string;
  config: Record<Table1Size, string>;
  paper: Record<Table1Size, number>;
  compute(pes: Table1Size, opts: Required<Table1Options>): Omit<Table1Row, keyof Network | 'pes' | 'config' | 'paper' | 'notes'> & { notes?: string[] };
}

/** The default reading of the added DCE stage in the exact column: 'b' keeps degree 2+2 as Table 1 lists. */
export const TABLE1_EXTRA_STAGE: Exclude<ExtraStage, 'none'> = 'b';

export interface Table1Options {
  /** Wiring of the added DCE stage for the exact column (the other one goes to exactOtherWiring). */
  extraStage?: Exclude<ExtraStage, 'none'>;
}

export interface Table1Progress {
  /** Called before each row with the fraction done (rows weighted by their PE count) and the row's network. */
  progress?: (fraction: number, row: string) => void;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const fmt = (x: number): string => x.toFixed(4);

function mdceRow(B: number, C: number) {
  return (pes: Table1Size) => {
    const n = pes === 1024 ? 4 : 8;
    const t = dceNetwork({ n, deltas: mdceDeltas(B, C), P: 1, family: 'mdce' });
    const s = exactBfs(t);
    const eq6 = eq6MdceMean(n, B, C);
    const notes: string[] = [];
    if (C > 0) {
      notes.push(
        `Eq. (6) drops CCC hops when C > 0 (spec §3.4): the paper prints Eq. (6) = ${fmt(eq6)}; exact BFS (= CCC-first self-routing) gives ${fmt(s.meanWithSelf)}`,
      );
    } else {
      notes.push(
        `likely error in the paper's (2,0,1) row (spec §3.5, §9 item 7): Eq. (6) and exact BFS agree at ${fmt(s.meanWithSelf)}; no variant of Eq. (6) gives the printed value`,
      );
    }
    return {
      exact: { ...statsOf(s), method: s.reason, spec: t.spec },
      formula: { value: eq6, source: 'Eq. (6)' },
      formulaDiameter: eq1Diameter(n, B, C),
      notes,
    };
  };
}

function dceRow(delta: 0 | 1) {
  return (pes: Table1Size, opts: Required<Table1Options>) => {
    const n = pes === 1024 ? 7 : 15;
    const stage = opts.extraStage;
    const other: ExtraStage = stage === 'a' ? 'b' : 'a';
    const t = dceNetwork({ n, deltas: [delta], extraStage: stage });
    const s = exactBfs(t);
    const tOther = dceNetwork({ n, deltas: [delta], extraStage: other });
    const sOther = exactBfs(tOther);
    const rule = extraStageRule(n, delta);
    const eq = delta === 1 ? 'Eq. (2)' : 'Eq. (3)';
    return {
      exact: { ...statsOf(s), method: s.reason, spec: t.spec },
      exactOtherWiring: { ...statsOf(sOther), method: sOther.reason, spec: tOther.spec },
      formula: { value: rule, source: `${eq} at n=${n}, +1 for the added stage` },
      notes: [
        `the extra stage: Table 1 uses the complete ${n}×${2 ** n} network plus one stage, and its value is ${eq} at n=${n} plus 1 (spec §3.5); ` +
          `exact BFS depends on the unstated wiring of that stage: ${fmt(s.meanWithSelf)} (extra-stage=${stage}), ${fmt(sOther.meanWithSelf)} (extra-stage=${other})`,
      ],
    };
  };
}

/** Exact distances from the metrics module; Table 1 must never fall back to sampling. */
function exactBfs(t: Topology): DistanceSummary {
  const s = distanceSummary(t);
  if (!s.exact || s.unreachablePairs > 0) throw new Error(`${t.spec}: expected exact, strongly connected distances (got ${s.method})`);
  return s;
}

/** Exact mean and diameter of a mesh or torus from the product histogram (convolution, no search). */
function cartesianRow(dims: number[], wrap: boolean): Table1Exact {
  const h = productHistogram({ dims, wrap });
  let pairs = 0;
  let sum = 0;
  for (let d = 0; d < h.length; d++) {
    pairs += h[d];
    sum += d * h[d];
  }
  const N = dims.reduce((a, b) => a * b, 1);
  return {
    meanWithSelf: sum / pairs,
    meanWithoutSelf: sum / (pairs - N),
    diameter: h.length - 1,
    method: 'product: convolution of per-dimension distance histograms (exact)',
    spec: `${wrap ? 'torus' : 'mesh'}:${dims.join('x')}`,
  };
}

/**
 * Fat tree and omega: BFS on the generators at 1,024 PEs; at 524,288 PEs (5.5 million nodes,
 * 1.7 GB for the fat tree) the closed form, which the tests check against the generators' BFS.
 */
function indirectRow(pes: Table1Size, build: () => Topology, closedForm: Omit<Table1Exact, 'method'>, formulaText: string): Table1Exact {
  if (pes === 1024) {
    const t = build();
    const s = exactBfs(t);
    return { ...statsOf(s), method: s.reason, spec: t.spec };
  }
  return { ...closedForm, method: `closed form ${formulaText} (checked against BFS on the generator at smaller sizes)` };
}

function statsOf(s: { meanWithSelf: number; meanWithoutSelf: number; diameter: number }) {
  return { meanWithSelf: s.meanWithSelf, meanWithoutSelf: s.meanWithoutSelf, diameter: s.diameter };
}

const meshDims: Record<Table1Size, number[]> = { 1024: [32, 32], 524288: [1024, 512] };
const torus3Dims: Record<Table1Size, number[]> = { 1024: [8, 8, 16], 524288: [64, 64, 128] };
const levels: Record<Table1Size, number> = { 1024: 10, 524288: 19 };

const NETWORKS: Network[] = [
  {
    network: '(2,0,1)-MDCE',
    label: '(CB)²',
    degree: '3+3',
    config: { 1024: '4×16×16', 524288: '8×256×256' },
    paper: { 1024: 8.15, 524288: 18.61 },
    compute: mdceRow(2, 0),
  },
  {
    network: '(1,1,1)-MDCE',
    label: 'CCCB',
    degree: '3+3',
    config: { 1024: '4×16×16', 524288: '8×256×256' },
    paper: { 1024: 6.44, 524288: 14.49 },
    compute: mdceRow(1, 1),
  },
  {
    network: 'c-Banyan',
    label: 'CB',
    degree: '2+2',
    config: { 1024: '8×128', 524288: '16×32768' },
    paper: { 1024: 10.01, 524288: 22.0 },
    compute: dceRow(1),
  },
  {
    network: 'Cube-Connected Cycles',
    label: 'CCC',
    degree: '2+2',
    config: { 1024: '8×128', 524288: '16×32768' },
    paper: { 1024: 12.52, 524288: 28.5 },
    compute: dceRow(0),
  },
  {
    network: '2D Mesh',
    label: '2DM',
    degree: '4+4',
    config: { 1024: '32×32', 524288: '1024×512' },
    paper: { 1024: 32.0, 524288: 768.0 },
    compute: (pes) => {
      const exact = cartesianRow(meshDims[pes], false);
      return {
        exact,
        formula: { value: meshRule(meshDims[pes]), source: 'rule (a+b)/2 (spec §3.5)' },
        notes: [
          `the paper's mesh rule (a+b)/2 is about 1.5× the exact mean Σ(k²−1)/(3k) = ${fmt(exact.meanWithSelf)} (spec §3.5, §9 item 9); the paper's method is unknown`,
        ],
      };
    },
  },
  {
    network: '2D Torus',
    label: '2DT',
    degree: '4+4',
    config: { 1024: '32×32', 524288: '1024×512' },
    paper: { 1024: 16.0, 524288: 384.0 },
    compute: (pes) => ({ exact: cartesianRow(meshDims[pes], true), formula: { value: torusRule(meshDims[pes]), source: 'rule Σk/4 (spec §3.5)' } }),
  },
  {
    network: '3D Torus',
    label: '3DT',
    degree: '6+6',
    config: { 1024: '8×8×16', 524288: '64×64×128' },
    paper: { 1024: 8.0, 524288: 64.0 },
    compute: (pes) => ({ exact: cartesianRow(torus3Dims[pes], true), formula: { value: torusRule(torus3Dims[pes]), source: 'rule Σk/4 (spec §3.5)' } }),
  },
  {
    network: 'binary Fat-Trees',
    label: 'FT',
    degree: '4+4',
    config: { 1024: '1024×10', 524288: '2^19×19' },
    paper: { 1024: 17.0, 524288: 35.0 },
    compute: (pes) => {
      const L = levels[pes];
      const N = 2 ** L;
      const mean = fatTreeExactMean(L);
      return {
        exact: indirectRow(
          pes,
          () => fatTree({ k: 2, levels: L }),
          { meanWithSelf: mean, meanWithoutSelf: (mean * N) / (N - 1), diameter: 2 * L - 1, spec: `fattree:k=2,levels=${L}` },
          '2L−3+3·2^−L',
        ),
        formula: { value: fatTreeRule(L), source: 'rule 2L−3 (spec §3.5)' },
      };
    },
  },
  {
    network: 'Omega',
    label: 'MIN',
    degree: '2+2',
    config: { 1024: '512×10', 524288: '2^18×19' },
    paper: { 1024: 10.0, 524288: 19.0 },
    compute: (pes) => {
      const exact = indirectRow(
        pes,
        () => omega(pes),
        { meanWithSelf: omegaExactMean(pes), meanWithoutSelf: Math.log2(pes), diameter: Math.log2(pes), spec: `omega:${pes}` },
        'log2 N·(N−1)/N',
      );
      return {
        exact,
        formula: { value: omegaRule(pes), source: 'rule log2 N (spec §3.5)' },
        notes: [
          `self-pairs convention: each PE is one terminal node, so a PE reaches itself in 0 switches and the N² mean is log2 N·(N−1)/N = ${fmt(exact.meanWithSelf)}; ` +
            `over distinct pairs every path crosses log2 N = ${fmt(exact.meanWithoutSelf)} switches, the paper's value`,
        ],
      };
    },
  },
];

/** The nine Table 1 networks, in the paper's order, as (network, label) pairs. */
export const TABLE1_NETWORKS: ReadonlyArray<{ network: string; label: string }> = NETWORKS.map(({ network, label }) => ({ network, label }));

export function parseTable1Sizes(text: string | undefined, field = 'size'): Table1Size[] {
  if (text === undefined || text === 'all') return [...TABLE1_SIZES];
  const size = Number(text);
  if (size === 1024 || size === 524288) return [size];
  throw new InputError(field, text, '1024, 524288 or all');
}

/** Computes Table 1 rows for the given sizes (paper order, 1,024 PEs first). */
export function mdceTable1(sizes: readonly Table1Size[] = TABLE1_SIZES, opts: Table1Options & Table1Progress = {}): Table1Row[] {
  const options: Required<Table1Options> = { extraStage: opts.extraStage ?? TABLE1_EXTRA_STAGE };
  const rows: Table1Row[] = [];
  // A row's BFS costs about its PE count: the 524,288-PE rows are nearly all of the time.
  const totalWork = sizes.reduce((a, pes) => a + pes * NETWORKS.length, 0);
  let work = 0;
  for (const pes of sizes) {
    for (const net of NETWORKS) {
      opts.progress?.(work / totalWork, `${net.network} at ${pes} PEs`);
      work += pes;
      const { notes: extraNotes, ...computed } = net.compute(pes, options);
      const paper = net.paper[pes];
      // A note only where the exact value and the paper's differ at the paper's two decimals.
      const notes = round2(computed.exact.meanWithSelf) === paper ? [] : (extraNotes ?? ['exact and paper differ; no known reason']);
      rows.push({ network: net.network, label: net.label, degree: net.degree, pes, config: net.config[pes], paper, ...computed, notes });
    }
  }
  return rows;
}

/** A row beside Table 1 for a network the paper builds on but does not list: no printed value. */
export type Table1BesideRow = Omit<Table1Row, 'paper' | 'pes'> & { paper: null; pes: number };

/** Largest circular omega measured by BFS for the table; larger ones take the closed form (checked against BFS in the tests). */
const COMEGA_BFS_MAX_NODES = 4096;

/**
 * Stages m of the omega-reading circular omega with `pes` nodes, m·2^(m−1) = pes: 8 at 1,024
 * (8×128), 16 at 524,288 (16×32768). (log2(pes) − 2 holds only at 1,024: at 524,288 it gave 17,
 * a 1,114,112-node network.)
 */
function omegaReadingStages(pes: number): number {
  for (let m = 2; m <= 30; m++) if (m * 2 ** (m - 1) === pes) return m;
  throw new RangeError(`no circular omega (omega reading) has ${pes} nodes`);
}

/**
 * The circular omega (EM-4, §2) beside Table 1, both readings (docs/seed004.md): the omega reading
 * at Table 1's sizes (comega:8 is 8×128 = 1,024 PEs, comega:16 16×32768), the dce reading at the
 * nearest complete size (comega:7,reading=dce = 896 PEs, comega:15 491,520), whose formula is Eq. (2).
 */
export function circularOmegaRows(sizes: readonly Table1Size[] = TABLE1_SIZES): Table1BesideRow[] {
  return sizes.flatMap((pes) =>
    (['omega', 'dce'] as const).map((reading: CircularOmegaReading) => {
      const m = reading === 'omega' ? omegaReadingStages(pes) : pes === 1024 ? 7 : 15;
      const k = circularOmegaIndexBits(m, reading);
      const closed = circularOmegaDistances(m, k);
      const nodes = m * 2 ** k;
      const spec = `comega:${m}${reading === 'dce' ? ',reading=dce' : ''}`;
      let exact: Table1Exact;
      if (nodes <= COMEGA_BFS_MAX_NODES) {
        const t = circularOmega(m, reading);
        const bfs = exactBfs(t);
        exact = { ...statsOf(bfs), method: bfs.reason, spec: t.spec };
      } else {
        exact = { meanWithSelf: closed.meanWithSelf, meanWithoutSelf: (closed.meanWithSelf * nodes) / (nodes - 1), diameter: closed.diameter, method: 'closed form (checked against BFS up to comega:7)', spec };
      }
      return {
        network: `circular omega (${reading} reading)`,
        label: 'CΩ',
        degree: '2+2',
        pes: nodes,
        config: `${m}×${2 ** k}`,
        paper: null,
        exact,
        formula: reading === 'dce' ? { value: eq2CBanyanMean(m), source: `Eq. (2) at n=${m} (isomorphic to c-Banyan)` } : { value: closed.meanWithSelf, source: "Meshwork's closed form (docs/seed004.md)" },
        notes: [reading === 'omega' ? 'not in Table 1: the EM-4 network DCE generalises, read literally (an omega MIN of 2^m lines, switches as nodes); same configuration as the DCE rows' : 'not in Table 1: rings as long as the index has bits; c-Banyan relabelled, so it has no 1,024-PE complete size'],
      };
    }),
  );
}

/** Whether a value agrees with the paper's printed entry at its two decimals. */
export function matchesPaper(value: number, paper: number): boolean {
  return round2(value) === paper;
}

export const TABLE1_CONVENTION =
  'mean distance over all N² ordered PE pairs, self-pairs included (the convention under which Eqs. (2), (3), (6) and the torus rule are exact); ' +
  'direct networks count router hops, fat tree and omega count switches traversed';
