/**
 * DCE and MDCE networks of seed 004 (spec/seed004_mdce.md §1.3–1.5), built by one generator: a DCE
 * is the r = 1 case of the MDCE product.
 *
 * Node (x0, x1, …, xr): x0 is the position in the unidirectional ring (0 ≤ x0 < L), x1…xr are the
 * ring indices (n-bit numbers). Node id = x0 + L·(x1 + 2^n·(x2 + …)), dimension 0 fastest as
 * everywhere in Meshwork. Links (spec §1.4):
 *   parallel ("ring"):      (x0, …) → ((x0+1) mod L, …), P copies;
 *   cross of dimension i:   (x0, …, xi, …) → ((x0+δi) mod L, …, xi XOR 2^bit(x0), …)
 *     with δi = 1 ("banyan-<axis>", c-Banyan type) or δi = 0 ("ccc-<axis>", CCC type).
 *
 * The complete network has L = n and bit(x0) = x0 (f = brev, spec §1.3). Table 1's 8×128 and
 * 16×32768 DCEs add one stage to the complete 7×128 and 15×32768 networks (spec §1.5); the paper
 * does not say how, so `extraStage` offers the two readings of spec §3.5:
 *   'a': L = n+1 and the added stage x0 = n has no cross link (out-degree 1 there);
 *   'b': L = n+1 and the added stage flips bit 0 again (bit(x0) = x0 mod n; degree stays 2+2).
 *
 * Output ports of every node, in order: the P parallel links, then the cross link of each
 * dimension 1…r (absent only at the added stage under reading 'a'). Routing relies on this order.
 */
import { InputError, LimitError } from '../../util/errors.js';
import { checkSize, LinkAttributes, MAX_NODES, TopologyBuilder } from '../builder.js';
import { axisName } from '../cartesian.js';
import { NodeKind, Topology } from '../graph.js';

export type ExtraStage = 'none' | 'a' | 'b';
export const EXTRA_STAGES: readonly ExtraStage[] = ['none', 'a', 'b'];

export interface DceNetworkOptions {
  /** Bits per ring index; the complete network has rings of n nodes. */
  n: number;
  /** δ of each ring-index dimension 1…r, in order (1 = c-Banyan, 0 = CCC; DCE allows any δ < L). */
  deltas: readonly number[];
  /** Multiplicity of the parallel (ring) links. */
  P?: number;
  extraStage?: ExtraStage;
  link?: LinkAttributes;
  family?: string;
  /** Spec text recorded in the topology; derived from the options when absent. */
  spec?: string;
}

/** The shape a routing function or a formula needs, read back from a built topology's params. */
export interface DceShape {
  n: number;
  ringLength: number;
  deltas: number[];
  P: number;
  extraStage: ExtraStage;
  B: number;
  C: number;
}

/** Ring length: n for the complete network, n+1 with an added stage. */
export function ringLength(n: number, extraStage: ExtraStage): number {
  return extraStage === 'none' ? n : n + 1;
}

/** The ring-index bit a cross link at ring position x0 flips, or -1 where the stage has no cross link. */
export function crossBit(x0: number, n: number, extraStage: ExtraStage): number {
  if (x0 < n) return x0;
  return extraStage === 'b' ? x0 - n : -1;
}

/** Name of the channel class of dimension i's cross links (i ≥ 1), e.g. "banyan-y", "ccc-z". */
export function crossClassName(dim: number, delta: number): string {
  const kind = delta === 1 ? 'banyan' : delta === 0 ? 'ccc' : `cross${delta}`;
  return `${kind}-${axisName(dim)}`;
}

export function dceNetwork(opts: DceNetworkOptions): Topology {
  const family = opts.family ?? (opts.deltas.length === 1 ? 'dce' : 'mdce');
  const { n, deltas } = opts;
  const P = opts.P ?? 1;
  const extraStage = opts.extraStage ?? 'none';
  const r = deltas.length;
  if (!Number.isInteger(n) || n < 2) throw new InputError(`${family}.n`, n, 'an integer >= 2 (bits per ring index)');
  if (r < 1) throw new InputError(`${family}.B`, 'B+C = 0', 'B + C >= 1 (at least one cross-link dimension)');
  if (!Number.isInteger(P) || P < 1 || P > 16) throw new InputError(`${family}.P`, P, 'an integer from 1 to 16');
  if (!EXTRA_STAGES.includes(extraStage)) throw new InputError(`${family}.extra-stage`, extraStage, EXTRA_STAGES.join(', '));
  const L = ringLength(n, extraStage);
  for (const delta of deltas) {
    if (!Number.isInteger(delta) || delta < 0 || delta >= L) {
      throw new InputError(`${family}.delta`, delta, `an integer from 0 to ${L - 1} (ring length - 1)`);
    }
  }
  // Refuse before computing 2^(n·r), which would overflow long before the node limit.
  if (n * r > 24) throw new LimitError(`${family}.n`, `${L}·2^${n * r} nodes (n=${n}, ${r} dimension(s))`, `${MAX_NODES} nodes (2^24)`);
  const rings = 2 ** (n * r);
  const nodes = L * rings;
  const degree = P + r;
  checkSize(`${family}.n`, nodes, nodes * degree);

  const b = new TopologyBuilder(r + 1, { nodes, channels: nodes * degree }, opts.link);
  b.classId('ring'); // class 0 is the parallel links, whatever order channels are added in
  const crossNames = deltas.map((delta, i) => crossClassName(i + 1, delta));
  const coord = new Int32Array(r + 1);
  const mask = (1 << n) - 1;
  for (let v = 0; v < nodes; v++) {
    coord[0] = v % L;
    const ringIndex = (v - coord[0]) / L;
    for (let i = 1; i <= r; i++) coord[i] = (ringIndex >>> (n * (i - 1))) & mask;
    b.addNode(NodeKind.Terminal, coord);
  }
  for (let v = 0; v < nodes; v++) {
    const x0 = v % L;
    const base = v - x0;
    const next = (x0 + 1) % L;
    for (let p = 0; p < P; p++) b.addChannel(v, base + next, 'ring');
    const bit = crossBit(x0, n, extraStage);
    if (bit < 0) continue;
    const ringIndex = base / L;
    for (let i = 1; i <= r; i++) {
      // Coordinate i occupies bits n(i−1)… of the ring index.
      const flipped = ringIndex ^ (1 << (n * (i - 1) + bit));
      b.addChannel(v, flipped * L + ((x0 + deltas[i - 1]) % L), crossNames[i - 1]);
    }
  }
  const B = deltas.filter((d) => d === 1).length;
  const C = deltas.filter((d) => d === 0).length;
  const spec = opts.spec ?? defaultSpec(family, n, deltas, P, extraStage);
  return b.build({
    family,
    spec,
    params: { n, ringLength: L, rings, B, C, P, deltas: [...deltas], extraStage, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    symmetry: symmetryOf(L, rings, extraStage),
  });
}

/**
 * Cross links flip a bit chosen by x0 alone, so y ↦ y XOR t (every ring-index coordinate) is an
 * automorphism: all nodes at one ring position share a distance profile (one BFS source per position).
 * A complete network (L = n) is moreover vertex-transitive: (x0, y1…yr) ↦ (x0+1 mod n, rot(y1)…rot(yr)),
 * rot rotating the n bits up by one, maps the parallel link to a parallel link and the cross link
 * flipping bit x0 to the one flipping bit x0+1, for every δ. The added stage breaks that rotation.
 */
function symmetryOf(L: number, rings: number, extraStage: ExtraStage) {
  if (extraStage === 'none') {
    return { reason: 'vertex-transitive: XOR translation of the ring indices and rotation of ring position with bit rotation', classes: [{ rank: 0, count: L * rings }] };
  }
  return {
    reason: 'XOR translation of the ring indices is an automorphism: one source per ring position',
    classes: Array.from({ length: L }, (_, x0) => ({ rank: x0, count: rings })),
  };
}

function defaultSpec(family: string, n: number, deltas: readonly number[], P: number, extraStage: ExtraStage): string {
  const stage = extraStage === 'none' ? '' : `,extra-stage=${extraStage}`;
  if (family === 'dce') return `dce:n=${n},delta=${deltas[0]}${stage}`;
  const B = deltas.filter((d) => d === 1).length;
  return `mdce:B=${B},C=${deltas.length - B},P=${P},n=${n}${stage}`;
}

/** The δ list of a (B, C)-MDCE: the B c-Banyan dimensions first, then the C CCC dimensions (Fig. 5). */
export function mdceDeltas(B: number, C: number): number[] {
  return [...new Array<number>(B).fill(1), ...new Array<number>(C).fill(0)];
}

export function cBanyan(n: number, extraStage: ExtraStage = 'none', link?: LinkAttributes): Topology {
  return dceNetwork({ n, deltas: [1], extraStage, link });
}

export function cubeConnectedCycles(n: number, extraStage: ExtraStage = 'none', link?: LinkAttributes): Topology {
  return dceNetwork({ n, deltas: [0], extraStage, link });
}

export function mdce(B: number, C: number, P: number, n: number, extraStage: ExtraStage = 'none', link?: LinkAttributes): Topology {
  return dceNetwork({ n, deltas: mdceDeltas(B, C), P, extraStage, link, family: 'mdce' });
}

/** Reads the DCE/MDCE shape back from a topology built here; throws for any other family. */
export function dceShape(t: Topology, field = 'topology'): DceShape {
  if (t.family !== 'dce' && t.family !== 'mdce') throw new InputError(field, t.spec, 'a dce, cbanyan, ccc or mdce topology');
  const p = t.params as Record<string, unknown>;
  return {
    n: p.n as number,
    ringLength: p.ringLength as number,
    deltas: [...(p.deltas as number[])],
    P: p.P as number,
    extraStage: p.extraStage as ExtraStage,
    B: p.B as number,
    C: p.C as number,
  };
}
