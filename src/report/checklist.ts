/**
 * A claims checklist: each claim of a document, where it is, what the document says, what Meshwork
 * measured and an honest verdict.
 */
import type { Table } from './table.js';

export const VERDICTS = ['reproduced', 'reproduced-under-reading', 'not-reproduced', 'not-available'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Claim {
  /** Stable id, e.g. "004.table1.mean-1024"; tests pin verdicts by it. */
  readonly id: string;
  /** The claim in one sentence. */
  readonly claim: string;
  /** Where in the document, e.g. "Table 1", "¶0095", "§5.5". */
  readonly where: string;
  /** What the document states (value or statement). */
  readonly expected: string;
  /** What Meshwork measured. */
  readonly measured: string;
  readonly verdict: Verdict;
  /** The reading under which it holds (required for reproduced-under-reading). */
  readonly reading?: string;
  /** Why not (required for not-reproduced and not-available). */
  readonly why?: string;
  /**
   * Who asks: the document itself (`where` names the paragraph, figure or claim number), or Meshwork
   * (a question beyond the document, reported apart and never counted in the document's totals).
   * Absent means "document" until every seed states it.
   */
  readonly source?: ClaimSource;
  /** The threshold the verdict applies, stated beside it (e.g. "within 10% of the best"). */
  readonly threshold?: string;
  /** How the verdict moves when the threshold moves (one line). */
  readonly sensitivity?: string;
  /** Setup choices the document does not fix (pipeline depth, packet length, load units, mapping). */
  readonly setup?: readonly string[];
}

export const CLAIM_SOURCES = ['document', 'meshwork'] as const;
export type ClaimSource = (typeof CLAIM_SOURCES)[number];

/** A claim's source, with the default for claims that do not state one. */
export function claimSource(c: Claim): ClaimSource {
  return c.source ?? 'document';
}

export function verdictLabel(v: Verdict): string {
  switch (v) {
    case 'reproduced':
      return 'reproduced';
    case 'reproduced-under-reading':
      return 'reproduced under a stated reading';
    case 'not-reproduced':
      return 'not reproduced';
    case 'not-available':
      return 'not yet available';
  }
}

/** The verdict with its reason, as one cell. */
export function verdictText(c: Claim): string {
  const label = verdictLabel(c.verdict);
  if (c.verdict === 'reproduced-under-reading' && c.reading) return `${label}: ${c.reading}`;
  if ((c.verdict === 'not-reproduced' || c.verdict === 'not-available') && c.why) return `${label}: ${c.why}`;
  return label;
}

/** Throws if a claim lacks the explanation its verdict requires (a checklist must be honest). */
export function assertClaimComplete(c: Claim): void {
  if (c.verdict === 'reproduced-under-reading' && !c.reading) throw new Error(`claim ${c.id}: a reproduced-under-reading verdict must state the reading`);
  if ((c.verdict === 'not-reproduced' || c.verdict === 'not-available') && !c.why) throw new Error(`claim ${c.id}: a ${c.verdict} verdict must say why`);
}

export function checklistTable(id: string, title: string, claims: readonly Claim[]): Table {
  return {
    id,
    title,
    columns: ['claim', 'where', 'document', 'measured', 'verdict'],
    rows: claims.map((c) => [c.claim, c.where, c.expected, c.measured, verdictText(c)]),
    align: ['left', 'left', 'left', 'left', 'left'],
  };
}

export function countVerdicts(claims: readonly Claim[]): Record<Verdict, number> {
  const counts = { reproduced: 0, 'reproduced-under-reading': 0, 'not-reproduced': 0, 'not-available': 0 } as Record<Verdict, number>;
  for (const c of claims) counts[c.verdict]++;
  return counts;
}
