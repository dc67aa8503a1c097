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
   */
  readonly source: ClaimSource;
  /** The threshold the verdict applies, stated beside it (e.g. "within 10% of the best"). */
  readonly threshold?: string;
  /** How the verdict moves when the threshold moves (one line). */
  readonly sensitivity?: string;
  /** Setup choices the document does not fix (pipeline depth, packet length, load units, mapping). */
  readonly setup?: readonly string[];
  /**
   * The sentence's logical form; the verdict rule follows from it (docs/reproduce.md "Rules").
   * Set by the seed module or from the sentence catalogue (src/analysis/reproduce/sentences.ts).
   */
  readonly form?: ClaimForm;
  /** The document's own sentence, figure or table cell (required for `source: document`). */
  readonly quote?: SentenceQuote;
  /** The one number that decides the verdict, shown first (e.g. "worst ratio 0.73 at 8x8, 64 KiB"). */
  readonly decides?: string;
  /** How the evidence (engines, network and message sizes) is aggregated into the one verdict. */
  readonly rule?: string;
  /** The row's evidence: one line per engine / size / setting, as the rule aggregates it. */
  readonly evidence?: ClaimEvidence;
  /** Rule 5: the verdict rerun under the alternatives the spec lists (axis order, router model, ...). */
  readonly robustness?: ClaimRobustness;
}

/**
 * The logical forms of a document's sentences: threshold ("appears above X": crossover within a
 * stated factor of X), bound ("a benefit even at X": the benefit measured at X), ordering ("A beats
 * B": over the whole sweep, against B's strongest fair setting), ratio (a stated factor, within a
 * tolerance), exact (a table cell or formula: the quantity the document names), property (a
 * correctness statement checked on every case), count (a number of things: barriers, fibres, bits).
 */
export const CLAIM_FORMS = ['threshold', 'bound', 'ordering', 'ratio', 'exact', 'property', 'count'] as const;
export type ClaimForm = (typeof CLAIM_FORMS)[number];

/** A sentence of the document: verbatim in its own language, where it is, and an English rendering. */
export interface SentenceQuote {
  /** Verbatim, in the document's language (a substring of the seed's text). */
  readonly original: string;
  /** Paragraph, line, figure or table cell, e.g. "[0035] (line 337)", "Table 1, row 2D Mesh". */
  readonly location: string;
  /** English rendering (the same text when the document is in English). */
  readonly english: string;
}

export interface ClaimEvidence {
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | number>>;
}

/** "robust": every alternative gives the same verdict; "depends": the alternatives named give another. */
export interface ClaimRobustness {
  readonly status: 'robust' | 'depends';
  /** One line per alternative setup: what it is and the verdict or number it gives. */
  readonly alternatives: readonly string[];
}

export const CLAIM_SOURCES = ['document', 'meshwork'] as const;
export type ClaimSource = (typeof CLAIM_SOURCES)[number];

/** The claims the document makes (the ones its reproduced / not reproduced totals count). */
export function documentClaims<C extends Claim>(claims: readonly C[]): C[] {
  return claims.filter((c) => c.source === 'document');
}

/** The questions Meshwork asks beyond the document: reported in a section of their own, never counted. */
export function meshworkQuestions<C extends Claim>(claims: readonly C[]): C[] {
  return claims.filter((c) => c.source === 'meshwork');
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

/** The verdict's reason: the reading it holds under, or why it does not hold. */
export function verdictReason(c: Claim): string | undefined {
  if (c.verdict === 'reproduced-under-reading') return c.reading;
  if (c.verdict === 'not-reproduced' || c.verdict === 'not-available') return c.why;
  return undefined;
}

/** The lines stated beside a verdict: its threshold, how it moves with the threshold, the setup the document leaves open. */
export function verdictContext(c: Claim): string[] {
  const lines: string[] = [];
  if (c.threshold) lines.push(`threshold: ${c.threshold}`);
  if (c.sensitivity) lines.push(`sensitivity: ${c.sensitivity}`);
  if (c.robustness) lines.push(c.robustness.status === 'robust' ? `robust: ${c.robustness.alternatives.join('; ')}` : `depends on: ${c.robustness.alternatives.join('; ')}`);
  if (c.setup && c.setup.length > 0) lines.push(`setup not fixed by the document: ${c.setup.join('; ')}`);
  return lines;
}

/** The verdict with its reason, threshold, sensitivity and setup, as one cell. */
export function verdictText(c: Claim): string {
  const reason = verdictReason(c);
  return [reason ? `${verdictLabel(c.verdict)}: ${reason}` : verdictLabel(c.verdict), ...verdictContext(c)].join('. ');
}

/** Throws if a claim lacks the explanation its verdict requires (a checklist must be honest). */
export function assertClaimComplete(c: Claim): void {
  if (!(CLAIM_SOURCES as readonly string[]).includes(c.source)) throw new Error(`claim ${c.id}: source must be one of ${CLAIM_SOURCES.join(', ')}, got ${String(c.source)}`);
  if (c.source === 'document' && !c.where.trim()) throw new Error(`claim ${c.id}: a document claim must name its paragraph, figure or claim number`);
  if (c.verdict === 'reproduced-under-reading' && !c.reading) throw new Error(`claim ${c.id}: a reproduced-under-reading verdict must state the reading`);
  if ((c.verdict === 'not-reproduced' || c.verdict === 'not-available') && !c.why) throw new Error(`claim ${c.id}: a ${c.verdict} verdict must say why`);
}

/**
 * Rules 1 and 3 of docs/reproduce.md for one row: a declared logical form, and for a document row
 * its sentence quoted in the original with its location and an English rendering. Undefined when the row complies.
 */
export function claimRuleProblem(c: Claim): string | undefined {
  if (!c.form || !(CLAIM_FORMS as readonly string[]).includes(c.form)) return `every row declares its logical form (${CLAIM_FORMS.join(' | ')}), got ${String(c.form)}`;
  if (c.source !== 'document') return undefined;
  const q = c.quote;
  if (!q || !q.original.trim() || !q.location.trim() || !q.english.trim()) return 'a document row quotes its sentence in the original, with its paragraph or line and an English rendering';
  return undefined;
}

/** Rule 2: no two document rows quote the same sentence. Returns the ids of the first pair found, or undefined. */
export function duplicateSentence(claims: readonly Claim[]): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const c of documentClaims(claims)) {
    if (!c.quote) continue;
    const key = c.quote.original.replace(/\s+/g, ' ').trim();
    const other = seen.get(key);
    if (other) return [other, c.id];
    seen.set(key, c.id);
  }
  return undefined;
}

/** One line of totals for a document's claims. */
export function verdictCountsText(counts: Record<Verdict, number>): string {
  return `${counts.reproduced} reproduced, ${counts['reproduced-under-reading']} reproduced under a stated reading, ${counts['not-reproduced']} not reproduced, ${counts['not-available']} not yet available`;
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

/** Verdict counts of exactly the claims given; pass `documentClaims(...)` for a document's totals. */
export function countVerdicts(claims: readonly Claim[]): Record<Verdict, number> {
  const counts = { reproduced: 0, 'reproduced-under-reading': 0, 'not-reproduced': 0, 'not-available': 0 } as Record<Verdict, number>;
  for (const c of claims) counts[c.verdict]++;
  return counts;
}
