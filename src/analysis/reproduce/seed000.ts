/**
 * Seed 000: US 2014/0201475 A1 (Fujitsu), all-to-all on a mesh or torus sending data with the
 * same direction and hop count together. Spec: shared/spec/seed000_torus.md.
 */
import { pendingClaims } from './pending.js';
import { emptyReproduction, type SeedModule } from './types.js';

const CLAIMS = [
  { id: '000.schedule.correct', claim: 'The hop-grouped all-to-all (Example 1 on 2D, Example 2 on 3D) delivers every block to its destination', where: '¶0059–¶0116, claims 1, 5', expected: 'each node ends with block ij from every i' },
  { id: '000.barriers.fewer', claim: 'Grouping by direction and hop count needs fewer barriers than the per-hop-step comparative example', where: '¶0048–¶0050, FIG. 9', expected: 'fewer barriers' },
  { id: '000.faster.packet', claim: 'Hop-grouped all-to-all finishes closer to the optimum than the comparative example (packet level, realistic arbitration)', where: '¶0050, ¶0117', expected: 'faster than per-step-barrier' },
  { id: '000.faster.flow', claim: 'The same comparison at flow level (max-min fair sharing), where the hop-mixing unfairness is absent', where: '¶0040–¶0041, FIG. 6', expected: 'faster than per-step-barrier' },
  { id: '000.pacing', claim: 'Pacing (gap = hops − 1 packets) removes the unfair band division at routers', where: '¶0043–¶0044, FIG. 7', expected: 'pacing helps' },
];

export const seed000: SeedModule = {
  id: '000',
  title: 'Hop-grouped all-to-all on a torus',
  document: 'US 2014/0201475 A1 (Fujitsu, Nose and Miura, 2014): sending data with the same transmission direction and hop count together',
  run() {
    const r = emptyReproduction();
    const missing = 'the seed algorithms (hop-grouped, per-step-barrier), the schedule IR and the flow and packet engines';
    r.unavailable.push(`not yet available: ${missing}`);
    r.claims.push(...pendingClaims(CLAIMS, missing));
    return r;
  },
};
