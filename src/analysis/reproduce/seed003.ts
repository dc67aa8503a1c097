/**
 * Seed 003: US 8,274,987 B2 (IBM), contention-free pipelined broadcast on a two-level network.
 * Spec: shared/spec/seed002_003_ibm.md, part B.
 */
import { pendingClaims } from './pending.js';
import { emptyReproduction, type SeedModule } from './types.js';

const CLAIMS = [
  { id: '003.contention-free', claim: 'The pipelined broadcast is contention free: at most one transfer per leaf uplink and downlink per step', where: 'claim 1', expected: 'max 1 transfer per link per step' },
  { id: '003.steps', claim: 'The pipelined broadcast of P pieces finishes in about P − 1 + ⌈log2 N⌉ steps (one-port lower bound)', where: 'claim 1 (spec B3, B4)', expected: 'close to P − 1 + ⌈log2 N⌉' },
  { id: '003.vs-binomial', claim: 'Pipelining beats a binomial tree for many pieces', where: 'claim 1 (spec B5)', expected: 'fewer steps than binomial' },
];

export const seed003: SeedModule = {
  id: '003',
  title: 'Contention-free pipelined broadcast',
  document: 'US 8,274,987 B2 (IBM, 2012): contention free pipelined broadcasting within a constant bisection bandwidth network topology',
  run() {
    const r = emptyReproduction();
    const missing = 'the two-level network generator, the R1/R2 broadcast algorithms and the schedule IR';
    r.unavailable.push(`not yet available: ${missing}`);
    r.claims.push(...pendingClaims(CLAIMS, missing));
    return r;
  },
};
