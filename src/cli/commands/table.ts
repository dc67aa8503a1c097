import type { Command } from 'commander';
import { circularOmegaRows, mdceTable1, parseTable1Sizes, Table1BesideRow, Table1Row, TABLE1_CONVENTION, TABLE1_EXTRA_STAGE } from '../../topology/mdce/index.js';
import { InputError } from '../../util/errors.js';
import { print } from '../io.js';
import { maxOf } from '../../util/arrays.js';
import { withProgress } from '../progress.js';

const TABLES = ['mdce'] as const;

export function register(program: Command): void {
  program
    .command('table')
    .description("reproduce a document's table; mdce = seed 004 Table 1 (mean distance of nine networks, paper vs exact)")
    .argument('<name>', `table name: ${TABLES.join(', ')}`)
    .option('--json', 'machine-readable output')
    .option('--size <pes>', 'PE count: 1024, 524288 or all (default 1024: under a second; all adds the 524,288-PE rows, a few seconds)', '1024')
    .option('--extra-stage <wiring>', 'wiring of the added DCE stage in the exact column: a (no cross link) or b (flips bit 0)', TABLE1_EXTRA_STAGE)
    .action((name: string, opts: { json?: boolean; size?: string; extraStage: string }) => {
      if (!(TABLES as readonly string[]).includes(name)) throw new InputError('table', name, TABLES.join(', '));
      const sizes = parseTable1Sizes(opts.size, 'size');
      const extraStage = opts.extraStage;
      if (extraStage !== 'a' && extraStage !== 'b') throw new InputError('extra-stage', extraStage, 'a or b');
      const rows = withProgress('Table 1', { json: opts.json }, (bar) => mdceTable1(sizes, { extraStage, progress: (f, row) => bar.update(f, row) }));
      // The circular omega the paper builds DCE from, beside its nine networks (not a Table 1 row).
      const beside = circularOmegaRows(sizes);
      if (opts.json) {
        print(JSON.stringify({ table: 'seed004-table1', convention: TABLE1_CONVENTION, extraStage, sizes, rows, beside }, null, 2));
      } else {
        print(renderText([...rows, ...beside], extraStage));
      }
    });
}

function renderText(rows: ReadonlyArray<Table1Row | Table1BesideRow>, extraStage: string): string {
  const head = ['network', 'deg', 'PEs', 'config', 'paper', 'exact', 'exact≠self', 'formula', 'source', 'diam', 'Eq.1', 'note'];
  const notes: string[] = [];
  const body = rows.map((r) => {
    const marks = r.notes.map((text) => {
      notes.push(text);
      return `[${notes.length}]`;
    });
    return [
      `${r.network} (${r.label})`,
      r.degree,
      String(r.pes),
      r.config,
      r.paper === null ? '—' : r.paper.toFixed(2),
      r.exact.meanWithSelf.toFixed(4),
      r.exact.meanWithoutSelf.toFixed(4),
      r.formula.value.toFixed(4),
      r.formula.source,
      String(r.exact.diameter),
      r.formulaDiameter === undefined ? '' : String(r.formulaDiameter),
      marks.join(' '),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, maxOf(body.map((b) => b[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 4 && i <= 7 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [
    'Seed 004, Table 1: degree and mean distance (paper vs Meshwork)',
    `exact = ${TABLE1_CONVENTION}; exact≠self = without self-pairs`,
    `CB and CCC rows: the added stage wired as extra-stage=${extraStage} (--extra-stage a|b; JSON has both readings)`,
    'circular omega rows (CΩ): beside the table, not in it; both readings of the paper\'s construction (docs/seed004.md)',
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
    '',
    ...notes.map((text, i) => `[${i + 1}] ${text}`),
  ].join('\n');
}
