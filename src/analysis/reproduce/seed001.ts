/**
 * Seed 001: JP 2020-046713 A (NEC, PETRA, Fujitsu), full mesh with 1-hop links.
 * Spec: shared/spec/seed001_fullmesh.md.
 */
import { pendingClaims } from './pending.js';
import { emptyReproduction, type SeedModule } from './types.js';

const CLAIMS = [
  { id: '001.p2p.ratio', claim: '1-to-1 with N−2 1-hop links plus the direct link takes 1/(N−1) of the direct-only time', where: '[0023], 図3', expected: '1/(N−1) = 1/7 at N = 8' },
  { id: '001.p2p.threshold', claim: '1-hop links pay off above 80 kbit (1st embodiment), 20 kbit (2nd)', where: '[0023], 図3, 図7', expected: '80 kbit, 20 kbit' },
  { id: '001.mcast3.ratio', claim: 'Multicast with the sender as a turnaround node (K = N) takes ≈ 2/N of the direct time', where: '[0058], 図16', expected: '≈ 2/N = 1/4 at N = 8; from 4 kbit' },
  { id: '001.mcast6.ratio', claim: 'Multicast with K = N−1 turnaround nodes takes 1/K of the direct time', where: '[0109], 図40', expected: '1/7 at N = 8' },
  { id: '001.reduce4.ratio', claim: 'Reduce/allreduce with every node a turnaround node takes ≈ 2/N of the direct time', where: '[0100], 図35', expected: '≈ 2/N; from 70 kbit' },
  { id: '001.reduce5.threshold', claim: '5th-embodiment reduce pays off from 20 kbit', where: '[0103], 図37', expected: '20 kbit' },
  { id: '001.reduce6.ratio', claim: '6th-embodiment reduce improves by K/2 over the full mesh', where: '[0110], 図41', expected: 'K/2' },
  { id: '001.scatter.ratio', claim: 'Scatter across two groups of four is 2× faster with direct plus 1-hop paths', where: '[0066], 図29', expected: '2×' },
];

export const seed001: SeedModule = {
  id: '001',
  title: 'Full mesh with 1-hop links',
  document: 'JP 2020-046713 A (NEC, PETRA, Fujitsu; Mizutani, Urino, Usuki, 2020): parallel computer system with direct and 1-hop links on a full mesh',
  run() {
    const r = emptyReproduction();
    const missing = 'the full-mesh generator, the seed 001 algorithms and the flow engine';
    r.unavailable.push(`not yet available: ${missing}`);
    r.claims.push(...pendingClaims(CLAIMS, missing));
    return r;
  },
};
