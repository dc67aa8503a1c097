/**
 * Issue 28 item 19: every plot the demo writes (and `traffic --plot` with a saturation mark),
 * rendered in headless Chromium: no two visible text boxes overlap, and no text leaves the SVG.
 * Boxes are the texts' own rotated rectangles (getBBox through getScreenCTM), so rotated axis labels
 * that only share an axis-aligned bounding box are not counted; labels Vega hid (opacity 0) neither.
 * The demo runs once through the built CLI (about 40 s of CPU).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const CHROMIUM = '/usr/bin/chromium';
const dir = tempDir('plots');

/** The DOM this check reads (the test project compiles without the DOM library). */
interface SvgElement {
  readonly textContent: string;
  readonly parentElement: SvgElement | null;
  getBBox(): { x: number; y: number; width: number; height: number };
  getScreenCTM(): { a: number; b: number; c: number; d: number; e: number; f: number };
  getBoundingClientRect(): { left: number; top: number; right: number; bottom: number };
  querySelectorAll(selector: string): ArrayLike<SvgElement>;
}

/** Runs in the page: the problems of the one <svg> in the document. */
function textProblems(): string[] {
  const doc = (globalThis as unknown as { document: { querySelector(s: string): SvgElement } }).document;
  const style = (globalThis as unknown as { getComputedStyle: (e: unknown) => { opacity: string; display: string; visibility: string } }).getComputedStyle;
  const svg = doc.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const visible = (el: SvgElement): boolean => {
    for (let e: SvgElement | null = el; e && e !== svg; e = e.parentElement) {
      const cs = style(e);
      if (Number(cs.opacity) === 0 || cs.display === 'none' || cs.visibility === 'hidden') return false;
    }
    return true;
  };
  const texts = Array.from(svg.querySelectorAll('text'))
    .filter((t) => t.textContent.trim() !== '' && visible(t))
    .map((t) => {
      const b = t.getBBox();
      const m = t.getScreenCTM();
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]];
      return { s: t.textContent.trim(), pts: corners.map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]) };
    });
  // Separating axis test on the two rectangles' edge normals; a touch of 1 px or less is not an overlap.
  const project = (pts: number[][], ax: number[]): [number, number] => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const [x, y] of pts) {
      const v = x * ax[0] + y * ax[1];
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    return [lo, hi];
  };
  const normals = (pts: number[][]): number[][] =>
    [0, 1].map((i) => {
      const dx = pts[i + 1][0] - pts[i][0];
      const dy = pts[i + 1][1] - pts[i][1];
      const l = Math.hypot(dx, dy) || 1;
      return [-dy / l, dx / l];
    });
  const overlap = (p: number[][], q: number[][]): boolean =>
    [...normals(p), ...normals(q)].every((ax) => {
      const [a0, a1] = project(p, ax);
      const [b0, b1] = project(q, ax);
      return Math.min(a1, b1) - Math.max(a0, b0) > 1;
    });
  const out: string[] = [];
  for (const t of texts) {
    if (t.pts.some(([x, y]) => x < box.left - 0.5 || y < box.top - 0.5 || x > box.right + 0.5 || y > box.bottom + 0.5)) out.push(`leaves the canvas: "${t.s}"`);
  }
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) if (overlap(texts[i].pts, texts[j].pts)) out.push(`overlap: "${texts[i].s}" / "${texts[j].s}"`);
  }
  return out;
}

describe('plot text layout (issue 28 item 19)', () => {
  let browser: Browser;
  const svgs: string[] = [];

  beforeAll(async () => {
    const demo = runCli(['demo', '--out', join(dir, 'demo')], { timeoutMs: 900_000 });
    expect(demo.code, demo.stderr).toBe(0);
    const plots = join(dir, 'demo', 'plots');
    for (const f of readdirSync(plots, { recursive: true }) as string[]) if (f.endsWith('.svg')) svgs.push(join(plots, f));
    // torus:4x4 uniform saturates between 0.4 and 0.6 (hardening-outputs.test.ts): the saturation mark is drawn.
    const traffic = runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.2,0.4,0.6,0.8', '--plot', join(dir, 'traffic.svg')]);
    expect(traffic.code, traffic.stderr).toBe(0);
    svgs.push(join(dir, 'traffic.svg'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('every plot: no overlapping text, no text outside the SVG', async () => {
    expect(svgs.length).toBeGreaterThanOrEqual(29);
    const page = await browser.newPage({ viewport: { width: 2400, height: 1600 } });
    const problems: string[] = [];
    for (const file of svgs) {
      await page.setContent(`<!DOCTYPE html><html><body style="margin:0">${readFileSync(file, 'utf8')}</body></html>`);
      for (const p of await page.evaluate(textProblems)) problems.push(`${file.slice(dir.length + 1)}: ${p}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
