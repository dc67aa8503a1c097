/**
 * The sentence catalogue (src/analysis/reproduce/sentences.ts, issue 27 rules 1–3) against the seed
 * documents themselves: every quote occurs verbatim in its seed's text (whitespace aside), a
 * "line N" location points at the line where the quote starts, and no two document rows share one.
 * The seed texts live beside the worktree (../shared/seeds); without them the text checks are skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueIds, sentenceOf } from '../../src/analysis/reproduce/sentences.js';
import { CLAIM_FORMS, claimRuleProblem, duplicateSentence, type Claim } from '../../src/report/checklist.js';

const SEEDS = join(__dirname, '..', '..', '..', 'shared', 'seeds');
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const seedText = (id: string): string[] => {
  const file = readdirSync(SEEDS).find((f) => f.startsWith(`${id}_`))!;
  return readFileSync(join(SEEDS, file), 'utf8').split('\n');
};
const table1Ids = ['2-0-1-mdce', '1-1-1-mdce', 'c-banyan', 'cube-connected-cycles', '2d-mesh', '2d-torus', '3d-torus', 'binary-fat-trees', 'omega'].flatMap((n) => [1024, 524288].map((pes) => `004.table1.${n}.${pes}`));
const allIds = [...catalogueIds(), ...table1Ids];

describe('sentence catalogue', () => {
  it('gives every row a declared form and every quoted row a location and an English rendering', () => {
    for (const id of allIds) {
      const s = sentenceOf(id)!;
      expect(CLAIM_FORMS, id).toContain(s.form);
      if (s.quote) for (const k of ['original', 'location', 'english'] as const) expect(s.quote[k].trim(), `${id}.${k}`).not.toBe('');
    }
  });

  it('quotes no sentence twice', () => {
    const rows: Claim[] = allIds.filter((id) => sentenceOf(id)?.quote).map((id) => ({ id, claim: '', where: 'x', expected: '', measured: '', verdict: 'reproduced', source: 'document', ...sentenceOf(id) }));
    expect(duplicateSentence(rows)).toBeUndefined();
    expect(duplicateSentence([...rows, { ...rows[0], id: 'copy' }])).toEqual([rows[0].id, 'copy']);
  });

  it('refuses a document row without its sentence and any row without a form', () => {
    const row: Claim = { id: 'x', claim: 'c', where: 'w', expected: 'e', measured: 'm', verdict: 'reproduced', source: 'document', form: 'exact' };
    expect(claimRuleProblem(row)).toMatch(/quotes its sentence/);
    expect(claimRuleProblem({ ...row, source: 'meshwork' })).toBeUndefined();
    expect(claimRuleProblem({ ...row, source: 'meshwork', form: undefined })).toMatch(/logical form/);
    expect(claimRuleProblem({ ...row, quote: { original: 'q', location: '', english: 'q' } })).toMatch(/quotes its sentence/);
  });

  it.skipIf(!existsSync(SEEDS))('finds every quote verbatim in its seed, at the line its location names', () => {
    for (const id of allIds) {
      const q = sentenceOf(id)?.quote;
      if (!q) continue;
      const lines = seedText(id.slice(0, 3));
      const text = squash(lines.join('\n'));
      for (const part of q.original.split(' … ')) expect(text.includes(squash(part)), `${id}: "${part.slice(0, 40)}…" not in seed ${id.slice(0, 3)}`).toBe(true);
      const line = /line (\d+)/.exec(q.location);
      if (line) {
        const head = squash(q.original.split(' … ')[0]).slice(0, 24);
        const n = Number(line[1]);
        const near = squash(lines.slice(n - 1, n + 1).join(' '));
        expect(near.includes(head), `${id}: "${head}" not at line ${n}`).toBe(true);
      }
    }
  });
});
