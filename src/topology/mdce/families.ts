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
import { registerFamily } from '../registry.js';
import { dceNetwork, EXTRA_STAGES, mdceDeltas } from './network.js';

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

registerFamily({
  name: 'dce',
  aliases: ['cbanyan', 'ccc'],
  usage: 'dce:n=N,delta=0|1|..[,extra-stage=none|a|b] | cbanyan:N | ccc:N',
  description:
    'Directed Cycles Ensemble (seed 004): 2^n unidirectional rings of n nodes joined by cross links flipping bit x; ' +
    'cbanyan = delta 1, ccc = delta 0; extra-stage adds the ring position Table 1 uses (8x128, 16x32768)',
  build(spec: Spec, link: LinkAttributes): Topology {
    const n = readN(spec);
    const extraStage = spec.choice('extra-stage', EXTRA_STAGES, 'none');
    let delta: number;
    if (spec.family === 'dce') {
      delta = spec.int('delta', { min: 0, max: extraStage === 'none' ? n - 1 : n });
    } else {
      delta = spec.family === 'cbanyan' ? 1 : 0;
    }
    return dceNetwork({ n, deltas: [delta], extraStage, link, family: 'dce', spec: spec.text });
  },
});

registerFamily({
  name: 'mdce',
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
});
