/**
 * Spec grammar of the seed 004 families (spec/seed004_mdce.md §1.3–1.5):
 *   dce:n=N,delta=D[,extra-stage=none|a|b]      DCE(n, δ, brev)
 *   cbanyan:N[,extra-stage=..]                   c-Banyan = DCE(n, 1, brev)
 *   ccc:N[,extra-stage=..]                       CCC = DCE(n, 0, brev)
 *   mdce:B=..,C=..,P=..,n=..[,extra-stage=..]    (B, C, P)-MDCE
 */
import { InputError } from '../../util/errors.js';
import { parseIntValue, Spec } from '../../util/spec.js';
import type { LinkAttributes } from '../builder.js';
import type { Topology } from '../graph.js';
import type { QuarterPartition, TopologyFamily } from '../registry.js';
import { dceNetwork, dceShape, EXTRA_STAGES, mdceDeltas } from './network.js';

/** n may be given positionally (cbanyan:7) or as n=7, not both. */
function readN(spec: Spec): number {
  const key = spec.raw('n');
  if (spec.positional !== undefined && key !== undefined) {
    throw new InputError(spec.field('n'), spec.text, 'n given once, either positionally or as n=');
  }
  const text = spec.positional ?? key;
  if (text === undefined) throw new InputError(spec.field('n'), undefined, 'an integer from 2 to 24 (required)');
  return parseIntValue(text, spec.field('n'), { min: 2, max: 24 });
}

const DCE_DESCRIPTION =
  'Directed Cycles Ensemble (seed 004): 2^n unidirectional rings of n nodes joined by cross links flipping bit x; ' +
  'cbanyan = delta 1, ccc = delta 0; extra-stage adds the ring position Table 1 uses (8x128, 16x32768)';

/** What every DCE/MDCE family shares: self-routing and ring-index quarters. */
const DCE_TRAITS = { defaultRouting: 'mdce', quarters: ringIndexQuarters } as const;

/** A one-dimension DCE whose delta is read from the spec (dce) or fixed by the family (cbanyan, ccc). */
function dceFamily(name: string, usage: string, fixedDelta: number | undefined): TopologyFamily {
  return {
    name,
    usage,
    description: DCE_DESCRIPTION,
    ...DCE_TRAITS,
    build(spec: Spec, link: LinkAttributes): Topology {
      const n = readN(spec);
      const extraStage = spec.choice('extra-stage', EXTRA_STAGES, 'none');
      const delta = fixedDelta ?? spec.int('delta', { min: 0, max: extraStage === 'none' ? n - 1 : n });
      return dceNetwork({ n, deltas: [delta], extraStage, link, family: 'dce', spec: spec.text });
    },
  };
}

export const dceFamilies: readonly TopologyFamily[] = [
  dceFamily('dce', 'dce:n=N,delta=0|1|..[,extra-stage=none|a|b]', undefined),
  dceFamily('cbanyan', 'cbanyan:N[,extra-stage=none|a|b]', 1),
  dceFamily('ccc', 'ccc:N[,extra-stage=none|a|b]', 0),
];

export const mdceFamily: TopologyFamily = {
  name: 'mdce',
  ...DCE_TRAITS,
  usage: 'mdce:B=..,C=..,P=..,n=..[,extra-stage=none|a|b]',
  description:
    '(B,C,P)-MDCE (seed 004): product of B c-Banyan and C CCC dimensions sharing the ring position; ' +
    'P parallel links; n·2^(n(B+C)) nodes, degree (B+C+P)+(B+C+P)',
  build(spec: Spec, link: LinkAttributes): Topology {
    const B = spec.int('B', { min: 0, max: 12, aliases: ['b'] });
    const C = spec.int('C', { min: 0, max: 12, aliases: ['c'] });
    const P = spec.int('P', { min: 1, max: 16, default: 1, aliases: ['p'] });
    const n = readN(spec);
    const extraStage = spec.choice('extra-stage', EXTRA_STAGES, 'none');
    if (B + C === 0) throw new InputError(spec.field('B'), `B=${B},C=${C}`, 'B + C >= 1 (at least one cross-link dimension)');
    return dceNetwork({ n, deltas: mdceDeltas(B, C), P, extraStage, link, family: 'mdce', spec: spec.text });
  },
};

/**
 * Seed 004's 1/4 partition (spec §2.4): partitions are unions of whole unidirectional rings, split
 * on ring-index bits, so self-routing (which never flips a bit that source and destination share)
 * keeps each quarter's traffic inside it. With two or more ring-index coordinates x1..xr the two
 * split axes are the most significant bits of x1 and x2 (one per dimension: the dimensions are
 * orthogonal, §2.4); a DCE (r = 1) splits on the two most significant bits of y.
 */
function ringIndexQuarters(topology: Topology): QuarterPartition {
  const { ringLength: L, deltas } = dceShape(topology);
  const r = deltas.length;
  const rings = topology.params.rings as number;
  const bits = Math.round(Math.log2(rings) / r);
  if (r * bits < 2) throw new InputError('pattern', 'quarter', 'a DCE with at least 4 rings');
  const endpoints = topology.endpoints;
  // Node id = ring·L + x0; ring index = x1 + x2·2^bits + …
  const ringOf = (rank: number): number => Math.floor(endpoints[rank] / L);
  if (r >= 2) {
    return {
      label: `ring-index bits: MSB of x1 and MSB of x2 (spec §2.4)`,
      of: (rank) => {
        const ring = ringOf(rank);
        return ((ring >>> (bits - 1)) & 1) | (((ring >>> (2 * bits - 1)) & 1) << 1);
      },
    };
  }
  return { label: 'ring-index bits: the two MSBs of y (spec §2.4)', of: (rank) => (ringOf(rank) >>> (bits - 2)) & 3 };
}
