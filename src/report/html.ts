/**
 * One self-contained HTML page: inline styles, inline SVG plots, no scripts, no external
 * resources, so it opens offline from a file and can be mailed as a single attachment.
 */
import { type Claim, countVerdicts, documentClaims, meshworkQuestions, verdictContext, verdictCountsText, verdictLabel, verdictReason } from './checklist.js';
import type { Plot } from './plot.js';
import { columnAlignment, formatCell, type Table } from './table.js';

export interface RenderedPlot {
  readonly plot: Plot;
  readonly svg: string;
  /** File name of the SVG written next to the report. */
  readonly file: string;
}

export interface HtmlSection {
  /** Anchor id, e.g. "seed-004". */
  readonly anchor: string;
  readonly heading: string;
  /** The document this section reproduces (title, number). */
  readonly document: string;
  /** Shown prominently when part of the section cannot run yet (e.g. "not yet available: packet engine"). */
  readonly status?: readonly string[];
  readonly claims: readonly Claim[];
  readonly plots: readonly RenderedPlot[];
  readonly tables: readonly Table[];
  readonly params: Readonly<Record<string, unknown>>;
  readonly notes: readonly string[];
}

export interface HtmlReport {
  readonly title: string;
  readonly intro: string;
  /** Key facts about the run (mode, tool version, ...), shown as a small table. */
  readonly meta: ReadonlyArray<readonly [string, string]>;
  readonly sections: readonly HtmlSection[];
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1180px;padding:1.5rem;color:#1d2330;line-height:1.45}
h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:2px solid #d6dbe4;padding-bottom:.3rem}h3{margin-top:1.6rem}
table{border-collapse:collapse;margin:.6rem 0;font-size:.86rem}th,td{border:1px solid #d6dbe4;padding:.25rem .5rem;vertical-align:top}
th{background:#eef1f6;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}
.v-reproduced{background:#e3f5e6}.v-reproduced-under-reading{background:#eef7d9}.v-not-reproduced{background:#fbe4e1}.v-not-available{background:#eeeeee;color:#555}
.status{background:#fff4d6;border-left:4px solid #e0a800;padding:.4rem .8rem;margin:.6rem 0}
.plots{display:flex;flex-wrap:wrap;gap:1rem}figure.plot{margin:0;border:1px solid #e3e6ec;padding:.5rem;background:#fff;box-sizing:border-box;max-width:100%;min-width:0}
figure.plot svg,figure.plot img{display:block;max-width:100%;height:auto}
blockquote.sentence{margin:.3rem 0 0;padding-left:.5rem;border-left:3px solid #c9d0dc;color:#333}td.decides{font-weight:600}
table.evidence{font-size:.78rem}details summary{cursor:pointer;color:#345}
.table-wrap{max-width:100%;overflow-x:auto}
figure.plot figcaption{font-size:.82rem;color:#444;max-width:560px}
pre.params{background:#f6f8fa;padding:.6rem;font-size:.8rem;overflow-x:auto}
nav a{margin-right:1rem}.summary td:first-child{font-weight:600}
`;

function tableHtml(table: Table, cls = ''): string {
  const align = columnAlignment(table);
  const head = table.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = table.rows
    .map((row) => `<tr>${table.columns.map((_, c) => `<td${align[c] === 'right' ? ' class="num"' : ''}>${escapeHtml(formatCell(row[c] ?? ''))}</td>`).join('')}</tr>`)
    .join('\n');
  const caption = `<caption style="caption-side:top;text-align:left;font-weight:600">${escapeHtml(table.title)}${table.figure ? ` <small>(mirrors ${escapeHtml(table.figure)})</small>` : ''}</caption>`;
  const note = table.note ? `<p class="note">${escapeHtml(table.note)}</p>` : '';
  // A wide table scrolls in its own box instead of widening the page.
  return `<div class="table-wrap"><table class="${cls}" data-table="${escapeHtml(table.id)}">${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>${note}`;
}

/** The document's sentence under the claim: original, location, English (when it differs). */
function quoteHtml(c: Claim): string {
  const q = c.quote;
  if (!q) return '';
  const english = q.english !== q.original ? `<br><small>${escapeHtml(q.english)}</small>` : '';
  return `<blockquote class="sentence" lang="${/[\u3040-\u30ff\u4e00-\u9fff]/.test(q.original) ? 'ja' : 'en'}"><small>${escapeHtml(q.location)}:</small> ${escapeHtml(q.original)}${english}</blockquote>`;
}

/** The row's evidence: what was measured, then its evidence table (engines, sizes, settings) folded. */
function evidenceHtml(c: Claim): string {
  const rule = c.rule ? `<small>rule: ${escapeHtml(c.rule)}</small><br>` : '';
  const e = c.evidence;
  const table = e && e.rows.length
    ? `<details><summary>${e.rows.length} evidence rows</summary><table class="evidence"><thead><tr>${e.columns.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${e.rows.map((r) => `<tr>${r.map((x) => `<td>${escapeHtml(String(x))}</td>`).join('')}</tr>`).join('')}</tbody></table></details>`
    : '';
  return `${rule}${escapeHtml(c.measured)}${table}`;
}

/** The one number that decides the row: the seed's own, else the first clause of what was measured. */
export function decidingText(c: Claim): string {
  return c.decides ?? c.measured.split(/; |: (?=[^:]*$)/)[0];
}

function claimsHtml(claims: readonly Claim[], whereHeading: string, expectedHeading: string): string {
  if (claims.length === 0) return '<p>No claims checked.</p>';
  const rows = claims
    .map((c) => {
      const reason = verdictReason(c);
      const context = verdictContext(c)
        .map((line) => `<br><small>${escapeHtml(line)}</small>`)
        .join('');
      return `<tr class="v-${c.verdict}" data-claim="${escapeHtml(c.id)}" data-verdict="${c.verdict}" data-source="${c.source}"${c.form ? ` data-form="${c.form}"` : ''}><td>${escapeHtml(c.claim)}${quoteHtml(c)}</td><td>${escapeHtml(c.where)}${c.form ? `<br><small>form: ${c.form}</small>` : ''}</td><td>${escapeHtml(c.expected)}</td><td class="decides">${escapeHtml(decidingText(c))}</td><td><strong>${escapeHtml(verdictLabel(c.verdict))}</strong>${reason ? `<br>${escapeHtml(reason)}` : ''}${context}</td><td class="evidence">${evidenceHtml(c)}</td></tr>`;
    })
    .join('\n');
  return `<table class="claims"><thead><tr><th>claim and the document's sentence</th><th>${whereHeading}</th><th>${expectedHeading}</th><th>deciding number</th><th>verdict</th><th>evidence</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/** Strips the XML prolog (if any) so the SVG can be inlined in HTML. */
function inlineSvg(svg: string): string {
  return svg.replace(/^<\?xml[^>]*>\s*/, '');
}

/**
 * Plots larger than this are shown from their SVG file next to the page (an <img> the browser loads
 * lazily) instead of inline: seed 000's link heatmap, 10,240 cells, was 2.6 MB of a 4 MB page.
 */
export const INLINE_SVG_LIMIT = 256 * 1024;

function plotImage(p: RenderedPlot): string {
  if (p.svg.length <= INLINE_SVG_LIMIT) return inlineSvg(p.svg);
  const attr = (name: string): string => {
    const m = new RegExp(`<svg[^>]*?\\s${name}="([\\d.]+)"`).exec(p.svg);
    return m ? ` ${name}="${m[1]}"` : '';
  };
  return `<img src="${escapeHtml(p.file)}" loading="lazy" alt="${escapeHtml(p.plot.title)}"${attr('width')}${attr('height')}>`;
}

function sectionHtml(s: HtmlSection): string {
  const counts = countVerdicts(documentClaims(s.claims));
  const questions = meshworkQuestions(s.claims);
  const status = (s.status ?? []).map((line) => `<div class="status">${escapeHtml(line)}</div>`).join('\n');
  const plots = s.plots
    .map(
      (p) =>
        `<figure class="plot" id="plot-${escapeHtml(p.plot.id)}" data-plot="${escapeHtml(p.plot.id)}">${plotImage(p)}<figcaption><strong>${escapeHtml(p.plot.title)}</strong> (mirrors ${escapeHtml(p.plot.figure)}; file <code>${escapeHtml(p.file)}</code>)${p.plot.caption ? `<br>${escapeHtml(p.plot.caption)}` : ''}</figcaption></figure>`,
    )
    .join('\n');
  const notes = s.notes.length ? `<h3>Notes and readings</h3><ul>${s.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : '';
  return `<section class="seed" id="${escapeHtml(s.anchor)}">
<h2>${escapeHtml(s.heading)}</h2>
<p><em>${escapeHtml(s.document)}</em></p>
${status}
<p>The document's claims: ${verdictCountsText(counts)}.</p>
<h3>Claims checklist</h3>
${claimsHtml(documentClaims(s.claims), 'where in the document', 'document says')}
${questions.length ? `<h3>Meshwork's own questions</h3>\n<p>Questions the document never asks, answered with the same models; not counted in the totals above.</p>\n${claimsHtml(questions, 'why Meshwork asks', 'expectation')}` : ''}
${s.plots.length ? `<h3>Plots</h3>\n<div class="plots">\n${plots}\n</div>` : ''}
${s.tables.length ? `<h3>Tables</h3>\n${s.tables.map((t) => tableHtml(t)).join('\n')}` : ''}
${notes}
<h3>Parameters used</h3>
<pre class="params">${escapeHtml(JSON.stringify(s.params, null, 2))}</pre>
</section>`;
}

export function renderHtmlReport(report: HtmlReport): string {
  const nav = report.sections.map((s) => `<a href="#${escapeHtml(s.anchor)}">${escapeHtml(s.heading)}</a>`).join('');
  const meta = report.meta.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('');
  const countRow = (label: string, c: ReturnType<typeof countVerdicts>): string =>
    `<td class="num">${c.reproduced}</td><td class="num">${c['reproduced-under-reading']}</td><td class="num">${c['not-reproduced']}</td><td class="num">${c['not-available']}</td><td class="num">${label}</td>`;
  const totalsTable = (title: string, pick: (claims: readonly Claim[]) => Claim[], cls: string): string => {
    const rows = report.sections.map((s) => `<tr><td><a href="#${escapeHtml(s.anchor)}">${escapeHtml(s.heading)}</a></td>${countRow(String(pick(s.claims).length), countVerdicts(pick(s.claims)))}</tr>`).join('');
    const all = report.sections.flatMap((s) => pick(s.claims));
    return `<table class="summary ${cls}"><caption style="caption-side:top;text-align:left;font-weight:600">${escapeHtml(title)}</caption><thead><tr><th>seed</th><th>reproduced</th><th>under a reading</th><th>not reproduced</th><th>not yet available</th><th>rows</th></tr></thead><tbody>${rows}<tr class="total"><td>total</td>${countRow(String(all.length), countVerdicts(all))}</tr></tbody></table>`;
  };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(report.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(report.title)}</h1>
<p>${escapeHtml(report.intro)}</p>
<nav>${nav}</nav>
<table class="summary"><tbody>${meta}</tbody></table>
${totalsTable('The documents\' totals: one row per sentence, figure or table cell of the document', (c) => documentClaims(c), 'documents')}
${totalsTable('Meshwork\'s own questions: controls, robustness probes and questions the documents never ask (never counted in the documents\' totals)', (c) => meshworkQuestions(c), 'meshwork')}
${report.sections.map(sectionHtml).join('\n')}
</body>
</html>
`;
}
