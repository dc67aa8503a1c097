/**
 * Claims whose reproduction needs a piece of Meshwork that is not built yet. They are listed with
 * the verdict "not yet available" and the missing piece named, never asserted as reproduced.
 */
import type { Claim } from '../../report/checklist.js';

export interface PendingClaim {
  readonly id: string;
  readonly claim: string;
  readonly where: string;
  readonly expected: string;
}

export function pendingClaims(claims: readonly PendingClaim[], missing: string): Claim[] {
  return claims.map((c) => ({ ...c, source: 'document' as const, measured: '—', verdict: 'not-available' as const, why: `needs ${missing}` }));
}
