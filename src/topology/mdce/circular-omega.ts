/**
 * The circular omega network (seed 004 §2, spec §1.2; EM-4, ref 4) that DCE generalises. The paper
 * gives only the construction: take an omega MIN (Lawrie: a perfect shuffle before each stage of
 * 2×2 switches), replace every switch by a processing node and wrap the output side straight back
 * to the input side. It never writes out nodes or links, so two readings are built:
 *
 *   'omega' — the construction as stated: the omega MIN of 2^m lines has m stages of 2^(m−1)
 *             switches, so m·2^(m−1) nodes (EM-4's 80 PEs are m = 5; Table 1's 1,024 and 524,288
 *             PEs are m = 8 and 16, the same "8×128" and "16×32768" as its DCE rows);
 *   'dce'     — rings as long as the switch index has bits, as a DCE's are: m stages of 2^m nodes.
 *
 * Node (s, j): stage s (0 ≤ s < m, the ring position), switch index j (k bits: k = m−1 or m).
 * Switch j's outputs are lines 2j and 2j+1; the shuffle before the next stage rotates a (k+1)-bit
 * line number left by one, which lands line 2j+b on switch (2j+b) mod 2^k. So the links are
 *   (s, j) → ((s+1) mod m, (2j + b) mod 2^k), b = 0, 1 (output port b, class "shuffle-b"),
 * the last stage wrapping to stage 0 through the same shuffle. Node id = s + m·j (ring position
 * fastest, as in a DCE); coords (s, j). Degree 2+2.
 *
 * Distances (proof in docs/seed004.md, checked against BFS by the tests): a walk of h hops from
 * index j reaches t iff h ≥ k or the low k−h bits of j equal the high k−h bits of t; the stage fixes
 * h mod m. With m ≥ k the distance from (s, j) to (w, t) is d = (w − s) mod m when that walk exists,
 * else d + m.
 */
import { InputError } from '../../util/errors.js';
import type { Spec } from '../../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from '../builder.js';
import { NodeKind, Topology } from '../graph.js';
import type { TopologyFamily } from '../registry.js';
import { positionalInt } from '../ring.js';

export type CircularOmegaReading = 'omega' | 'dce';
export const CIRCULAR_OMEGA_READINGS: readonly CircularOmegaReading[] = ['omega', 'dce'];

/** Bits of the switch index under a reading: the omega MIN of 2^m lines has 2^(m−1) switches per stage. */
export function circularOmegaIndexBits(m: number, reading: CircularOmegaReading): number {
  return reading === 'omega' ? m - 1 : m;
}

export function circularOmega(m: number, reading: CircularOmegaReading = 'omega', link?: LinkAttributes, specText?: string): Topology {
  if (!CIRCULAR_OMEGA_READINGS.includes(reading)) throw new InputError('comega.reading', reading, CIRCULAR_OMEGA_READINGS.join(' | '));
  if (!Number.isInteger(m) || m < 2 || m > 24) throw new InputError('comega.m', m, 'an integer from 2 to 24 (stages)');
  const k = circularOmegaIndexBits(m, reading);
  const perStage = 2 ** k;
  const nodes = m * perStage;
  checkSize('comega.m', nodes, 2 * nodes);
  const b = new TopologyBuilder(2, { nodes, channels: 2 * nodes }, link);
  b.classId('shuffle-0');
  b.classId('shuffle-1');
  for (let j = 0; j < perStage; j++) for (let s = 0; s < m; s++) b.addNode(NodeKind.Terminal, [s, j]);
  const mask = perStage - 1;
  for (let v = 0; v < nodes; v++) {
    const s = v % m;
    const j = (v - s) / m;
    const next = (s + 1) % m;
    for (let bit = 0; bit < 2; bit++) b.addChannel(v, next + m * ((2 * j + bit) & mask), `shuffle-${bit}`);
  }
  return b.build({
    family: 'comega',
    spec: specText ?? `comega:${m}${reading === 'omega' ? '' : ',reading=dce'}`,
    params: { m, stages: m, indexBits: k, nodesPerStage: perStage, reading, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    // Every stage is wired alike, so (s, j) ↦ (s+1 mod m, j) is an automorphism: one BFS source per
    // switch index. (No XOR translation here, unlike a DCE: the shuffle does not commute with it.)
    symmetry: {
      reason: 'stage rotation is an automorphism: one source per switch index',
      classes: Array.from({ length: perStage }, (_, j) => ({ rank: m * j, count: m })),
    },
  });
}

/**
 * Exact mean distance over all N² ordered pairs (self-pairs included) and diameter of a circular
 * omega with L stages and k index bits, L ≥ k (both readings): a pair at stage offset d < k is d
 * apart with probability 2^(d−k) and d + L apart otherwise; offsets d ≥ k are always d apart.
 */
export function circularOmegaDistances(L: number, k: number): { meanWithSelf: number; diameter: number } {
  if (L < k) throw new InputError('comega.m', L, `at least the index bits (${k}) for the closed form`);
  let mean = (L - 1) / 2;
  for (let d = 0; d < Math.min(L, k); d++) mean += 1 - 2 ** (d - k);
  return { meanWithSelf: mean, diameter: Math.min(L, k) - 1 + L };
}

export const circularOmegaFamily: TopologyFamily = {
  name: 'comega',
  usage: 'comega:M[,reading=omega|dce]',
  description:
    'circular omega (seed 004, EM-4): an omega MIN with switches as nodes and outputs wrapped to inputs; ' +
    'M stages of 2^(M-1) nodes (reading=omega, the 2^M-line MIN) or of 2^M nodes (reading=dce, isomorphic to cbanyan:M)',
  defaultRouting: 'shuffle-tag',
  build(spec: Spec, link: LinkAttributes): Topology {
    const m = positionalInt(spec, 'm', { min: 2, max: 24 });
    const reading = spec.choice('reading', CIRCULAR_OMEGA_READINGS, 'omega');
    return circularOmega(m, reading, link, spec.text);
  },
};
