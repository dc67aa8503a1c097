import { describe, expect, it } from 'vitest';
import { checklistTable, linePlot, renderHtmlReport, renderPlotSvg, renderTextTable, heatmapPlot, groupedBarPlot, type Claim, countVerdicts } from '../../src/index.js';
import { documentClaims, meshworkQuestions, verdictText, assertClaimComplete } from '../../src/report/checklist.js';
import { escapeHtml } from '../../src/report/html.js';
import { scopeSvgIds } from '../../src/report/plot.js';

const points = [
  { series: 'measured', x: 1024, y: 2e-6 },
  { series: 'measured', x: 65536, y: 9e-6 },
  { series: 'Eq. 1', x: 1024, y: 3e-6 },
  { series: 'Eq. 1', x: 65536, y: 8e-6 },
];

describe('plots', () => {
  it('renders a titled, labelled line plot with a legend, byte-identically every time', async () => {
    const plot = linePlot({ id: 't-1', title: 'Time against size', figure: '001 図16', x: { title: 'message size (bytes)', log: true }, y: { title: 'time (s)' }, legend: 'curve', points, dashed: ['Eq. 1'] });
    const a = await renderPlotSvg(plot);
    const b = await renderPlotSvg(plot);
    expect(a).toBe(b);
    expect(a.startsWith('<svg')).toBe(true);
    for (const text of ['Time against size', 'mirrors 001 図16', 'message size (bytes)', 'time (s)', 'curve', 'measured', 'Eq. 1']) expect(a).toContain(text);
  });
  it('scopes SVG ids to the plot so inlined plots never share a clip path', () => {
    const svg = '<svg><defs><clipPath id="clip7"><rect/></clipPath></defs><g clip-path="url(#clip7)"></g></svg>';
    expect(scopeSvgIds(svg, '004 fig')).toBe('<svg><defs><clipPath id="004_fig-1"><rect/></clipPath></defs><g clip-path="url(#004_fig-1)"></g></svg>');
  });
  it('refuses a non-positive value on a log axis rather than drawing a wrong plot', () => {
    expect(() => linePlot({ id: 'bad', title: 't', figure: 'f', x: { title: 'x', log: true }, y: { title: 'y' }, legend: 'l', points: [{ series: 's', x: 0, y: 1 }] })).toThrow(/log axis/);
  });
  it('renders heatmaps and grouped bars', async () => {
    const heat = await renderPlotSvg(heatmapPlot({ id: 'h', title: 'Link utilisation', figure: '000 FIG. 5', rowTitle: 'link', rows: ['a', 'b'], columnTitle: 'time (us)', columns: [0, 1, 2], values: [[0, 0.5, 1], [1, 1, 0]], legend: 'utilisation' }));
    expect(heat).toContain('Link utilisation');
    expect(heat).toContain('utilisation');
    const bars = await renderPlotSvg(groupedBarPlot({ id: 'b', title: 'Barriers', figure: '000 FIG. 9', groupTitle: 'algorithm', y: { title: 'barriers (count)' }, legend: 'torus', bars: [{ group: 'x', series: '8x8', value: 3 }, { group: 'y', series: '8x8', value: 5 }] }));
    expect(bars).toContain('barriers (count)');
  });
  it('draws dots, not bars, when asked (issue 28 item 19: 000-barriers was bars on a log axis starting at 10)', async () => {
    const bars = [{ group: 'hop-grouped', series: '8x8', value: 13 }, { group: 'FIG. 9', series: '8x8', value: 62 }];
    const opts = { id: 'b', title: 'Barriers', figure: '000 FIG. 9', groupTitle: 'schedule', y: { title: 'barriers (count, log scale)', log: true }, legend: 'torus', bars };
    const asBars = await renderPlotSvg(groupedBarPlot(opts));
    const asDots = await renderPlotSvg(groupedBarPlot({ ...opts, shape: 'dot' }));
    expect(asBars).toContain('mark-rect');
    expect(asDots).not.toContain('mark-rect');
    expect(asDots).toContain('mark-symbol');
  });
});

describe('tables', () => {
  it('aligns columns: numbers right, text left, no trailing spaces', () => {
    const text = renderTextTable({ id: 't', title: 'T', columns: ['name', 'n'], rows: [['a', 1], ['bbb', 100]] });
    expect(text.split('\n')).toEqual(['T', 'name    n', '----  ---', 'a       1', 'bbb   100']);
  });
  it('wraps long cells onto continuation lines', () => {
    const text = renderTextTable({ id: 't', title: 'T', columns: ['c'], rows: [['one two three']] }, { maxCell: 7, title: false });
    expect(text.split('\n')).toEqual(['c', '-------', 'one two', 'three']);
  });
  it('leaves a column without a header (a marker) without an underline', () => {
    const text = renderTextTable({ id: 't', title: 'T', columns: ['name', ''], rows: [['a', '<- best'], ['bb', '']] }, { title: false });
    expect(text.split('\n')).toEqual(['name', '----', 'a     <- best', 'bb']);
  });
});

describe('HTML report', () => {
  it('escapes every text and states each verdict with its reason', () => {
    const claims: Claim[] = [
      { id: 'x.1', source: 'document', claim: 'a <b> claim', where: '§1', expected: '1', measured: '1', verdict: 'reproduced' },
      { id: 'x.2', source: 'document', claim: 'another', where: '§2', expected: '2', measured: '3', verdict: 'not-reproduced', why: 'the model & the paper differ' },
    ];
    const html = renderHtmlReport({ title: 'R', intro: 'i', meta: [], sections: [{ anchor: 'seed-x', heading: 'Seed x', document: 'd', claims, plots: [], tables: [checklistTable('c', 'c', claims)], params: { k: '<v>' }, notes: [] }] });
    expect(html).toContain('a &lt;b&gt; claim');
    expect(html).toContain('the model &amp; the paper differ');
    expect(html).toContain('data-verdict="not-reproduced"');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(escapeHtml(`"'`)).toBe('&quot;&#39;');
  });
});

describe('plots a reviewer can read (issue 10)', () => {
  const many = Array.from({ length: 12 }, (_, k) => ({ series: `a rather long series name number ${k} that must not be cut`, x: 1, y: k + 1 }));
  it('keeps legends whole, gives 12 series 12 colours, fits the axes and joins a load sweep in order', async () => {
    // Delivered falls again after saturation: x order would zig-zag, input (load) order must not.
    const sweep = [1, 4, 9, 7].map((x, k) => ({ series: 's', x, y: 10 * (k + 1) }));
    const plot = linePlot({ id: 'p', title: 't', figure: 'f', x: { title: 'x' }, y: { title: 'y' }, legend: 'l', points: [...many, ...sweep], connect: 'input' });
    const spec = plot.spec as unknown as { encoding: Record<string, { scale?: Record<string, unknown>; legend?: Record<string, unknown>; field?: string }> };
    expect(spec.encoding.color.legend).toMatchObject({ labelLimit: 0, titleLimit: 0 });
    expect(spec.encoding.color.scale).toEqual({ scheme: 'tableau20' });
    expect(spec.encoding.order.field).toBe('i');
    expect(spec.encoding.y.scale).toMatchObject({ zero: false, nice: true });
    const svg = await renderPlotSvg(plot);
    expect(svg).toContain('a rather long series name number 11 that must not be cut');
    expect(svg).not.toContain('…');
  });
  it('marks thresholds and crossovers with labelled reference lines', async () => {
    const plot = linePlot({ id: 'm', title: 't', figure: '001 図3', x: { title: 'x', log: true }, y: { title: 'y' }, legend: 'l', points: [{ series: 'a', x: 1, y: 1 }, { series: 'a', x: 100, y: 2 }], marks: [{ axis: 'x', value: 10, label: 'document threshold 80 kbit' }, { axis: 'y', value: 1.5, label: 'ratio 1' }] });
    const svg = await renderPlotSvg(plot);
    expect(svg).toContain('document threshold 80 kbit');
    expect(svg).toContain('ratio 1');
    expect(svg).toContain('IPAGothic');
    expect(() => linePlot({ id: 'bad', title: 't', figure: 'f', x: { title: 'x', log: true }, y: { title: 'y' }, legend: 'l', points: [], marks: [{ axis: 'x', value: 0, label: 'zero on a log axis' }] })).toThrow(/reference mark/);
  });
});

describe('document claims and Meshwork questions (issue 10)', () => {
  const claims: Claim[] = [
    { id: 'y.1', source: 'document', claim: 'doc holds', where: '¶1', expected: 'x', measured: 'x', verdict: 'reproduced' },
    { id: 'y.2', source: 'document', claim: 'doc fails', where: '¶2', expected: 'x', measured: 'y', verdict: 'not-reproduced', why: 'differs', threshold: 'within 10%', sensitivity: 'holds from 12%', setup: ['packet length 4 words'] },
    { id: 'y.3', source: 'meshwork', claim: 'our question', where: 'issue 10', expected: '—', measured: 'z', verdict: 'not-reproduced', why: 'no' },
  ];
  it('counts only the document claims in the totals and lists Meshwork questions apart', () => {
    expect(countVerdicts(documentClaims(claims))).toEqual({ reproduced: 1, 'reproduced-under-reading': 0, 'not-reproduced': 1, 'not-available': 0 });
    expect(meshworkQuestions(claims).map((c) => c.id)).toEqual(['y.3']);
    const html = renderHtmlReport({ title: 'R', intro: 'i', meta: [], sections: [{ anchor: 'seed-y', heading: 'Seed y', document: 'd', claims, plots: [], tables: [], params: {}, notes: [] }] });
    expect(html).toContain("The document's claims: 1 reproduced, 0 reproduced under a stated reading, 1 not reproduced, 0 not yet available.");
    expect(html).toContain("<h3>Meshwork's own questions</h3>");
    // The first page's two totals tables (issue 27): 1, 0, 1, 0 over 2 document rows; 0, 0, 1, 0 over 1 Meshwork question.
    const documents = /<table class="summary documents">.*?<\/table>/s.exec(html)![0];
    const meshwork = /<table class="summary meshwork">.*?<\/table>/s.exec(html)![0];
    expect(documents).toContain('<td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">2</td>');
    expect(meshwork).toContain('<td class="num">0</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">1</td>');
    expect(meshwork).not.toContain('<td class="num">2</td>');
  });
  it('states the threshold, its sensitivity and the open setup beside the verdict', () => {
    expect(verdictText(claims[1])).toBe('not reproduced: differs. threshold: within 10%. sensitivity: holds from 12%. setup not fixed by the document: packet length 4 words');
  });
  it('refuses a document claim without its place', () => {
    expect(() => assertClaimComplete({ ...claims[0], where: ' ' })).toThrow(/paragraph/);
  });
});

describe('report files', () => {
  it('are byte-identical across runs', async () => {
    // Two of the cheaper seeds keep this test fast; the CLI tests run every seed.
    const { runReproductions, buildReportFiles } = await import('../../src/index.js');
    const build = async () => buildReportFiles(await runReproductions(['002', '003'], { quick: true }), { command: 'reproduce 002 003 --quick', toolVersion: 'test' });
    const a = await build();
    const b = await build();
    expect(a.files).toEqual(b.files);
    const json = JSON.parse(a.resultsJson) as { seeds: Array<{ id: string; plots: unknown[] }> };
    expect(json.seeds.map((s) => s.id)).toEqual(['002', '003']);
    expect(json.seeds.every((s) => s.plots.length > 0)).toBe(true);
  });
});
