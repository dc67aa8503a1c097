/**
 * The places a claim, plot or table cites in its document ("¶0040–¶0044", "FIG. 12/17", "図11–15",
 * "Table 1", "Eqs. (2)–(6)", "claims 1 and 5", "App. A", "§4.1", "spec B3", "line 166"), so a
 * claim can be shown with the plots and tables that mirror the same figure, paragraph or table.
 * Plots and tables name their place in `figure`; claims in `where`.
 */
import type { Claim } from './checklist.js';
import type { Plot } from './plot.js';
import type { Table } from './table.js';

/** What each keyword names: figures (FIG., Fig., 図) are one kind, paragraphs (¶, [0024]) another. */
const KEYWORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:FIGS?\.|Figs?\.|図)$/, 'fig'],
  [/^¶$/, 'para'],
  [/^Tables?$/i, 'table'],
  [/^Eqs?\.$/, 'eq'],
  [/^claims?$/i, 'claim'],
  [/^App\.$/, 'app'],
  [/^§$/, 'sec'],
  [/^spec$/, 'spec'],
  [/^lines?$/, 'line'],
];

/** Ranges wider than this (a typo, or a whole document) are kept as their two ends only. */
const MAX_RANGE = 200;

const TOKEN = /FIGS?\.|Figs?\.|Eqs?\.|App\.|¶|§|図|\[\d+\]|\d+(?:\.\d+)*[A-Z]?|[A-Z]\d*(?:\.\d+)*(?![A-Za-z])|[–—-]|[^\s–—\-/,()]+|[/,()]/g;

function keywordKind(token: string): string | undefined {
  return KEYWORDS.find(([re]) => re.test(token))?.[1];
}

/** A place's value: paragraph and figure numbers without leading zeros or sub-figure letters (12A is figure 12). */
function placeValue(token: string): { text: string; number?: number } {
  const numeric = /^(\d+)(?:[A-Z])?$/.exec(token);
  if (numeric) return { text: String(Number(numeric[1])), number: Number(numeric[1]) };
  return { text: token };
}

/** Every place `text` cites, as "kind:value" (e.g. "fig:9", "para:50", "table:1", "app:A"). */
export function citedPlaces(text: string): Set<string> {
  const places = new Set<string>();
  let kind: string | undefined;
  let previous: number | undefined;
  let rangeOpen = false;
  for (const token of text.match(TOKEN) ?? []) {
    const keyword = keywordKind(token);
    if (keyword) {
      // "¶0040–¶0044" and "図11–図16" repeat the keyword inside a range: the range stays open.
      if (keyword !== kind) {
        previous = undefined;
        rangeOpen = false;
      }
      kind = keyword;
      continue;
    }
    const bracketed = /^\[(\d+)\]$/.exec(token);
    if (bracketed && kind !== 'para') {
      kind = 'para';
      previous = undefined;
      rangeOpen = false;
    }
    const valueToken = bracketed ? bracketed[1] : token;
    if (kind && /^(?:\d|[A-Z]\d*(?:\.\d+)*$)/.test(valueToken)) {
      const value = placeValue(valueToken);
      if (rangeOpen && previous !== undefined && value.number !== undefined && value.number > previous && value.number - previous <= MAX_RANGE) {
        for (let n = previous + 1; n < value.number; n++) places.add(`${kind}:${n}`);
      }
      places.add(`${kind}:${value.text}`);
      previous = value.number;
      rangeOpen = false;
    } else if (/^[–—-]$/.test(token)) {
      rangeOpen = previous !== undefined;
    } else if (!/^(?:[/,()]|and)$/.test(token)) {
      // Any other word ends the list: "claim 1 (spec A1/A2; the patent gives no timing)" stops at "the".
      kind = undefined;
      previous = undefined;
      rangeOpen = false;
    }
  }
  return places;
}

/** The plots and tables that cite a place the claim cites: what to show when a claim is opened. */
export function claimExhibits<P extends Pick<Plot, 'figure'>, T extends Pick<Table, 'figure'>>(claim: Pick<Claim, 'where'>, plots: readonly P[], tables: readonly T[]): { plots: P[]; tables: T[] } {
  const cited = citedPlaces(claim.where);
  const shares = (figure: string | undefined): boolean => figure !== undefined && [...citedPlaces(figure)].some((p) => cited.has(p));
  return { plots: plots.filter((p) => shares(p.figure)), tables: tables.filter((t) => shares(t.figure)) };
}
