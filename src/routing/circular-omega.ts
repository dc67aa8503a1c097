/**
 * Self-routing of the circular omega (`comega`, seed 004 §2; EM-4): every hop moves one stage on and
 * shifts one bit into the switch index, so a packet shifts in the destination index's bits, most
 * significant first. It takes the shortest walk the distance formula allows (docs/seed004.md): the
 * stage offset d when the source index's low k−d bits already equal the destination's high ones,
 * else d + m. As in a DCE, the VC class counts crossings of the dateline (stage m−1 → 0): a route
 * of at most 2m − 1 hops crosses it twice at most, and within a class it only moves forward, so
 * three classes make it deadlock free.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export function circularOmegaRouting(topology: Topology): RoutingFunction {
  const t = topology;
  if (t.family !== 'comega') throw new InputError('routing.topology', t.spec, 'a circular omega (comega:M)');
  const m = Number(t.params.stages);
  const k = Number(t.params.indexBits);
  const mask = 2 ** k - 1;
  return {
    name: 'shuffle-tag',
    params: { stages: m, indexBits: k },
    vcClasses: 3,
    deadlockFree: true,
    maxHops: 2 * m - 1,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      if (src === dst) return 0;
      const s0 = src % m;
      const j0 = (src - s0) / m;
      const ws = dst % m;
      const target = (dst - ws) / m;
      const offset = (ws - s0 + m) % m;
      // Fewer hops than index bits keep the source's low k−h bits as the result's high bits.
      const keeps = (h: number): boolean => h >= k || (j0 & (2 ** (k - h) - 1)) === target >>> h;
      const hops = keeps(offset) ? offset : offset + m;
      let at = src;
      let s = s0;
      let j = j0;
      let crossings = 0;
      for (let i = 0; i < hops; i++) {
        const shift = hops - 1 - i;
        // Hops beyond the k that place the destination's bits shift in free bits: the salt's, so
        // that long routes spread over the stage instead of all passing through index 0.
        j = ((j << 1) | (shift < k ? (target >>> shift) & 1 : (salt >>> (shift - k)) & 1)) & mask;
        s = (s + 1) % m;
        if (s === 0) crossings++;
        const next = s + m * j;
        out.channels[i] = t.channelBetween(at, next);
        out.vcClass[i] = crossings;
        at = next;
      }
      return hops;
    },
  };
}

export const shuffleTagEntry: RoutingEntry = {
  name: 'shuffle-tag',
  description: 'circular omega self-routing (seed 004): shift in the destination index, 3 dateline VC classes',
  create: (topology) => circularOmegaRouting(topology),
};
