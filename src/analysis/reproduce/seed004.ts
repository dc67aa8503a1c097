/**
 * Seed 004: MDCE, a new class of interconnection networks for massively parallel computing
 * (Yokota et al., IPSJ 1995). Spec: shared/spec/seed004_mdce.md.
 */
import { pendingClaims } from './pending.js';
import { emptyReproduction, type SeedModule } from './types.js';

const CLAIMS = [
  { id: '004.table1', claim: 'Table 1: mean distances of the nine networks at 1,024 and 512K PEs', where: 'Table 1', expected: 'the table' },
  { id: '004.diameter', claim: 'Diameter of (B, C, P)-MDCE follows Eq. 1', where: '§4.1, Eq. 1', expected: 'Eq. 1' },
  { id: '004.mean-distance', claim: 'Mean distance follows Eqs. 2–6', where: '§4.2, Eqs. 2–6', expected: 'Eqs. 2–6' },
  { id: '004.sim.indirect-tolerant', claim: 'Indirect networks (FT, MIN) show high traffic tolerance on every pattern', where: '§5, Figs. 7–11', expected: 'holds' },
  { id: '004.sim.mdce-latency', claim: 'MDCE-class networks have minimal unsaturated latency under random, 1/4-partition and localized traffic', where: '§5, Figs. 7, 8, 11', expected: 'holds' },
  { id: '004.sim.hotspot', claim: 'Under 5% hot spot, (M)DCE and indirect networks have markedly larger average latency than meshes', where: '§5, Fig. 9', expected: 'holds' },
  { id: '004.sim.mesh-emulation', claim: 'Under mesh emulation MDCE is second best after mesh-shaped networks; DCE loses clearly', where: '§5, Fig. 10', expected: 'holds' },
];

export const seed004: SeedModule = {
  id: '004',
  title: 'MDCE interconnection networks',
  document: 'Yokota, Matsuoka, Okamoto, Hirono, Sakai: "MDCE: a new class of interconnection networks for massively parallel computing" (IPSJ Journal, 1995)',
  run() {
    const r = emptyReproduction();
    const missing = 'the MDCE and comparison-network generators, the metrics and the packet engine';
    r.unavailable.push(`not yet available: ${missing}`);
    r.claims.push(...pendingClaims(CLAIMS, missing));
    return r;
  },
};
