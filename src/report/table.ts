import { maxOf } from '../util/arrays.js';
/**
 * Tables as data, rendered as aligned plain text for the terminal or as HTML for the report.
 */

export type Cell = string | number;

export interface Table {
  readonly id: string;
  readonly title: string;
  /** The seed table or figure this mirrors, if any (e.g. "004 Table 1"). */
  readonly figure?: string;
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<readonly Cell[]>;
  /** Columns holding numbers are right-aligned; defaults to "every cell in the column is a number". */
  readonly align?: ReadonlyArray<'left' | 'right'>;
  readonly note?: string;
}

/** A number as a table shows it: integers whole, others to `digits` significant figures. */
export function formatCell(cell: Cell, digits = 4): string {
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return String(cell);
  if (Number.isInteger(cell)) return String(cell);
  return String(Number(cell.toPrecision(digits)));
}

export function columnAlignment(table: Table): Array<'left' | 'right'> {
  return table.columns.map((_, c) => {
    if (table.align?.[c]) return table.align[c];
    const numeric = table.rows.length > 0 && table.rows.every((r) => typeof r[c] === 'number');
    return numeric ? 'right' : 'left';
  });
}

/** Display width of a string in a monospaced terminal (CJK ideographs take two columns). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    w += (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xff60) ? 2 : 1;
  }
  return w;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Aligned columns separated by two spaces, a rule under the header, no trailing spaces. Cells
 * wider than `maxCell` are wrapped onto continuation lines so the table stays readable at 120 columns.
 */
export function renderTextTable(table: Table, opts: { maxCell?: number | readonly number[]; title?: boolean } = {}): string {
  const maxCell = (c: number) => (typeof opts.maxCell === 'number' ? opts.maxCell : (opts.maxCell?.[c] ?? 60));
  const align = columnAlignment(table);
  const wrapped = table.rows.map((row) => table.columns.map((_, c) => wrap(formatCell(row[c] ?? ''), maxCell(c))));
  const widths = table.columns.map((h, c) => Math.max(displayWidth(h), maxOf(wrapped.map((r) => maxOf(r[c].map(displayWidth))))));
  const line = (cells: string[]) => cells.map((t, c) => pad(t, widths[c], align[c])).join('  ').replace(/\s+$/, '');
  const out: string[] = [];
  if (opts.title !== false) out.push(table.title);
  out.push(line([...table.columns]));
  // A column without a header (a marker such as compare's "<- best") is not underlined.
  out.push(line(widths.map((w, c) => (table.columns[c] === '' ? '' : '-'.repeat(w)))));
  for (const cells of wrapped) {
    const height = maxOf(cells.map((c) => c.length));
    for (let i = 0; i < height; i++) out.push(line(cells.map((c) => c[i] ?? '')));
  }
  if (table.note) out.push(table.note);
  return out.join('\n');
}

/** Greedy word wrap at `width` columns; a single word longer than the width is split. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    let current = '';
    for (const word of para.split(/\s+/).filter((w) => w.length > 0)) {
      let rest = word;
      while (displayWidth(rest) > width) {
        if (current) {
          lines.push(current);
          current = '';
        }
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
      if (!current) current = rest;
      else if (displayWidth(current) + 1 + displayWidth(rest) <= width) current += ` ${rest}`;
      else {
        lines.push(current);
        current = rest;
      }
    }
    lines.push(current);
  }
  return lines;
}
