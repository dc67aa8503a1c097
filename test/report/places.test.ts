/**
 * Places cited by claims, plots and tables (src/report/places.ts). The inputs are the seed modules'
 * own `where` and `figure` strings (src/analysis/reproduce/seed00*.ts); a claim opened in Meshwork
 * Studio shows the plots and tables citing a place it cites.
 */
import { describe, expect, it } from 'vitest';
import { citedPlaces, claimExhibits } from '../../src/report/places.js';

const places = (text: string) => [...citedPlaces(text)].sort();

describe('citedPlaces', () => {
  it('expands ranges that repeat the keyword, drops leading zeros and sub-figure letters', () => {
    expect(places('¶0040–¶0044, FIG. 7')).toEqual(['fig:7', 'para:40', 'para:41', 'para:42', 'para:43', 'para:44']);
    expect(places('FIG. 12A/12B')).toEqual(['fig:12']);
    expect(places('図11–図16')).toEqual(['fig:11', 'fig:12', 'fig:13', 'fig:14', 'fig:15', 'fig:16']);
  });

  it('reads bracketed paragraphs, equation lists, claims, appendices, sections and spec items', () => {
    expect(places('[0047]–[0051], 図10')).toEqual(['fig:10', 'para:47', 'para:48', 'para:49', 'para:50', 'para:51']);
    expect(places('§4.2 Eqs. (2)–(6)')).toEqual(['eq:2', 'eq:3', 'eq:4', 'eq:5', 'eq:6', 'sec:4.2']);
    expect(places('claims 1 and 5')).toEqual(['claim:1', 'claim:5']);
    expect(places('App. A, Fig. 12')).toEqual(['app:A', 'fig:12']);
    expect(places('004 Table 1')).toEqual(['table:1']);
  });

  it('stops a list at the first ordinary word', () => {
    expect(places('claim 1 (spec A1/A2; the patent gives no timing 3)')).toEqual(['claim:1', 'spec:A1', 'spec:A2']);
    expect(places('line 166 and claim 1 ("combining, by network hardware")')).toEqual(['claim:1', 'line:166']);
  });
});

describe('claimExhibits', () => {
  // Seed 004's plot and table places (src/analysis/reproduce/seed004.ts).
  const plots = [{ id: 'diameter', figure: '004 §4.1 Eq. (1)' }, { id: 'mean', figure: '004 §4.2 Eqs. (2)–(6)' }, { id: 'fig12', figure: '004 Fig. 12' }, { id: 'sim', figure: '004 Fig. 7' }];
  const tables = [{ id: 'table1', figure: '004 Table 1' }, { id: 'delta', figure: '004 App. A' }, { id: 'sim', figure: '004 Figs. 7–11' }];
  const ids = (claimWhere: string) => {
    const e = claimExhibits({ where: claimWhere }, plots, tables);
    return [...e.plots.map((p) => `plot ${p.id}`), ...e.tables.map((t) => `table ${t.id}`)];
  };

  it('shows the plots and tables citing a place the claim cites, and nothing else', () => {
    expect(ids('Table 1')).toEqual(['table table1']);
    expect(ids('§4.2, Eq. 3')).toEqual(['plot mean']);
    expect(ids('App. A, Fig. 12')).toEqual(['plot fig12', 'table delta']);
    expect(ids('§5, Fig. 9')).toEqual(['table sim']);
    expect(ids('§3.2 (P defined, never evaluated)')).toEqual([]);
  });
});
