/**
 * Seed 002: US 8,775,698 (IBM), all-to-all by XOR swaps in place.
 * Spec: shared/spec/seed002_003_ibm.md, part A.
 */
import { pendingClaims } from './pending.js';
import { emptyReproduction, type SeedModule } from './types.js';

const CLAIMS = [
  { id: '002.example.4x4', claim: 'The 4×4 worked example ends with every rank holding the block from every rank, in place', where: 'worked example (spec A3)', expected: 'transpose of the 4×4 block matrix' },
  { id: '002.memory', claim: 'The swap-based exchange needs one buffer per rank instead of separate send and receive buffers', where: 'abstract, claim 1', expected: 'peak memory ≈ one buffer' },
  { id: '002.time', claim: 'XOR-swap on a combining network against pairwise on a torus: where the crossover lies', where: 'spec A2', expected: '(no number in the document)' },
];

export const seed002: SeedModule = {
  id: '002',
  title: 'XOR-swap all-to-all',
  document: 'US 8,775,698 (IBM; Archer, Peters, Smith, 2014): performing an all-to-all data exchange on a plurality of data buffers by performing swap operations',
  run() {
    const r = emptyReproduction();
    const missing = 'the xor-swap algorithm, the schedule IR and executor, and the flow engine';
    r.unavailable.push(`not yet available: ${missing}`);
    r.claims.push(...pendingClaims(CLAIMS, missing));
    return r;
  },
};
