/**
 * One plot as its own self-contained HTML page (`sweep plot --out curve.html`): the title, where
 * the points came from, the SVG inline and the plotted points as a table. Issue 28 item 7: the page
 * was the seed-reproduction report (a claims table of zeros, "Parameters used {}") around the plot.
 */
import { escapeHtml, STYLE } from './html.js';

export interface PlotPage {
  readonly title: string;
  /** One sentence: where the points come from. */
  readonly intro: string;
  readonly meta: ReadonlyArray<readonly [string, string]>;
  readonly svg: string;
  /** The plotted points, shown under the plot so the numbers can be read off. */
  readonly points: ReadonlyArray<{ readonly series: string; readonly x: number; readonly y: number }>;
  readonly labels: { readonly x: string; readonly y: string; readonly series: string };
}

export function renderPlotPage(page: PlotPage): string {
  const meta = page.meta.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('');
  const rows = page.points.map((p) => `<tr><td>${escapeHtml(p.series)}</td><td class="num">${p.x}</td><td class="num">${p.y}</td></tr>`).join('');
  const { x, y, series } = page.labels;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.intro)}</p>
<table class="summary"><tbody>${meta}</tbody></table>
<figure class="plot">${page.svg}</figure>
<div class="table-wrap"><table><thead><tr><th>${escapeHtml(series)}</th><th>${escapeHtml(x)}</th><th>${escapeHtml(y)}</th></tr></thead><tbody>${rows}</tbody></table></div>
</body>
</html>
`;
}
