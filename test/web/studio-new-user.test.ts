/**
 * Issue 28, Studio items (3, 5, 14-18) in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core, as studio.test.ts): every view responsive from 1280 px (no two element boxes
 * intersect, nothing wider than the window), stale results cleared, file formats detected, the
 * resolved size echoed, Compare's log scale and hidden algorithms, the heatmap's colour scale.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, useStudio } from '../helpers/studio.js';


/** The DOM this check reads (the test project compiles without the DOM library). */
interface PageElement {
  readonly tagName: string;
  readonly className: unknown;
  readonly style: { pointerEvents: string };
  readonly dataset?: { testid?: string };
  contains(other: PageElement): boolean;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
}

/**
 * The boxes that must not overlap: every canvas, plot, table, form and paragraph in <main>, none
 * inside another of them. Returns the pairs that intersect by more than a pixel, and the page width.
 */
async function layoutProblems(page: Page): Promise<{ overlaps: string[]; scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<PageElement>; documentElement: { scrollWidth: number } } }).document;
    const selector = 'main canvas, main .plot, main table, main form, main p, main figcaption, main pre, main .sigma';
    // A canvas layered on another (the Gantt chart's cursor overlay) is one drawing, not two boxes.
    const elements = Array.from(doc.querySelectorAll(selector)).filter((e) => !(e.tagName === 'CANVAS' && e.style.pointerEvents === 'none'));
    const outer = elements.filter((e) => !elements.some((o) => o !== e && o.contains(e)));
    const boxes = outer
      .map((e) => {
        const r = e.getBoundingClientRect();
        const name = `${e.tagName.toLowerCase()}${typeof e.className === 'string' && e.className ? `.${e.className.split(' ')[0]}` : ''}${e.dataset?.testid ? `[${e.dataset.testid}]` : ''}`;
        const win = globalThis as unknown as { scrollX: number; scrollY: number };
        return { what: name, x: r.x + win.scrollX, y: r.y + win.scrollY, w: r.width, h: r.height };
      })
      .filter((b) => b.w > 0 && b.h > 0);
    const overlaps: string[] = [];
    const cut = (a: number, aw: number, b: number, bw: number): number => Math.min(a + aw, b + bw) - Math.max(a, b);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (cut(a.x, a.w, b.x, b.w) > 1 && cut(a.y, a.h, b.y, b.h) > 1) overlaps.push(`${a.what} (${Math.round(a.x)},${Math.round(a.y)} ${Math.round(a.w)}x${Math.round(a.h)}) and ${b.what} (${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.w)}x${Math.round(b.h)})`);
      }
    }
    return { overlaps, scrollWidth: doc.documentElement.scrollWidth, innerWidth: (globalThis as unknown as { innerWidth: number }).innerWidth };
  }) as Promise<{ overlaps: string[]; scrollWidth: number; innerWidth: number }>;
}

describe('Meshwork Studio, issue 28', () => {
  const { open } = useStudio();

  const VIEWS: Array<[string, string, string]> = [
    ['topology torus', '#view=topology&spec=torus:8x8', '[data-plot="distance-histogram"][data-rendered]'],
    ['topology mdce', '#view=topology&spec=mdce:B=1,C=1,P=1,n=3', '[data-plot="distance-histogram"][data-rendered]'],
    ['topology jellyfish', '#view=topology&spec=jellyfish:routers=64,degree=4', '[data-plot="distance-histogram"][data-rendered]'],
    ['collective', '#view=collective&topology=torus:4x4&collective=alltoall&algorithm=pairwise&size=4KiB&run=1', '[data-testid="gantt"]'],
    ['compare', '#view=compare&topology=torus:4x4&collective=alltoall&size=4KiB&run=1', '[data-plot="compare"][data-rendered]'],
    ['traffic', '#view=traffic', 'form'],
    ['busbw', '#view=perf&machine=mi300x&topology=mi300x&algorithm=rccl&collective=allreduce&table=none&b=1K&e=1M&f=8&run=1', '[data-plot="perf-busbw"][data-rendered]'],
    ['seeds', '#view=seeds', 'main'],
    ['sweeps', '#view=sweeps', 'main'],
  ];

  it('item 16: an error clears the last results; items 3 and 17: opened files by content and name, deep nesting in one line', async () => {
    const page = await open('#view=topology&spec=torus:4x4');
    await page.getByTestId('metrics').waitFor();
    await page.locator('input[name=spec]').fill('torus:0x8');
    await page.locator('input[name=spec]').press('Enter');
    await expect.poll(() => page.getByTestId('error').innerText()).toBe('meshwork: error: topology.dims: got "0"; accepted: an integer >= 1');
    // The torus:4x4 results no longer stand beside a form that says torus:0x8.
    expect(await page.getByTestId('metrics').count()).toBe(0);
    expect(await page.locator('main canvas').count()).toBe(0);

    const file = page.locator('input[name=topologyFile]');
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello world\n') });
    await expect.poll(() => page.getByTestId('error').innerText()).toBe(
      'meshwork: error: topology file: got "notes.txt"; accepted: a JSON graph or spec ({"nodes", "links"} or {"family"}), YAML (.yaml/.yml), GraphML (<graphml>), a SimGrid platform (<platform>) or a BookSim anynet file (lines "router R node N ..."); tried: JSON (does not start with { or [), XML (does not start with <), YAML (not named .yaml or .yml), anynet (no line "router R ...")',
    );
    await file.setInputFiles({ name: 'ring.anynet', mimeType: 'text/plain', buffer: Buffer.from('router 0 node 0 router 1\nrouter 1 node 1 router 2\nrouter 2 node 2 router 0\n') });
    await expect.poll(() => page.locator('[data-metric="nodes"]').innerText().catch(() => '')).toBe('3');
    await file.setInputFiles({ name: 'deep.json', mimeType: 'application/json', buffer: Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) });
    await expect.poll(() => page.getByTestId('error').innerText()).toBe('meshwork: error: deep.json: got (an array nested too deeply to show); accepted: a JSON object with "nodes" and "links"');
    expect(await page.getByTestId('metrics').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('item 5: the size field shows the bytes it resolves to, and asks about a lowercase b', async () => {
    const page = await open('#view=collective&topology=torus:4x4&collective=alltoall&algorithm=pairwise&size=64KiB');
    await expect.poll(() => page.getByTestId('size-bytes').innerText()).toBe('= 65,536 B');
    await page.locator('input[name=size]').fill('4kb');
    await expect.poll(() => page.getByTestId('size-bytes').innerText()).toBe('a size in bytes: did you mean 4KB or 4KiB? (a lowercase b reads as bits: write 4kbit for bits)');
    await page.locator('input[name=size]').fill('8kbit');
    await expect.poll(() => page.getByTestId('size-bytes').innerText()).toBe('= 1,000 B');
    await page.close();
  });

  it('item 18: Compare offers a log scale and hides algorithms from the chart (the table keeps them)', async () => {
    const page = await open('#view=compare&topology=torus:4x4&collective=alltoall&size=4KiB&run=1');
    const plot = page.locator('[data-plot="compare"][data-rendered]');
    await plot.waitFor({ timeout: 60_000 });
    const rows = await page.getByTestId('compare-table').locator('tbody tr').count();
    const bars = (): Promise<number> => page.locator('[data-plot="compare"] g.mark-rect path').count();
    expect(await bars()).toBe(rows);
    await page.locator('input[name="show-xor-swap"]').uncheck();
    await expect.poll(bars).toBe(rows - 1);
    expect(await page.getByTestId('compare-table').locator('tbody tr').count()).toBe(rows);
    await page.locator('input[name=log]').check();
    await expect.poll(() => page.locator('[data-plot="compare"][data-rendered]').innerText()).toContain('makespan (µs, log scale)');
    expect(await bars()).toBe(rows - 1);
    await page.close();
  }, 90_000);

  it('item 15: the link heatmap has its colour scale; the Gantt chart keeps its first label inside the canvas', async () => {
    const page = await open('#view=collective&topology=torus:16x16&collective=alltoall&algorithm=pairwise&size=256&run=1');
    await page.getByTestId('gantt').waitFor({ timeout: 60_000 });
    const scale = page.getByTestId('heatmap-scale');
    expect(await scale.locator('[data-bucket]').count()).toBe(24);
    expect(await scale.innerText()).toMatch(/link utilisation\s+idle\s+50 %\s+100 %/);
    // 256 ranks: one-pixel rows. The "r0" label's ascenders reached above row 0 and were cut; the
    // top two pixel rows now hold no ink at all.
    const topInk = await page.getByTestId('gantt').evaluate((c: { width: number; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } }) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, 2).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n;
    });
    expect(topInk).toBe(0);
    await page.close();
  }, 90_000);

  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    it.each(VIEWS)(`item 14: %s at ${width}x${height}: no two boxes intersect, nothing wider than the window`, async (name, hash, ready) => {
      const page = await open(hash, width, height);
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await page.waitForTimeout(300);
      const { overlaps, scrollWidth, innerWidth } = await layoutProblems(page);
      await page.screenshot({ path: `${SHOTS}/layout-${name.replace(/ /g, '-')}-${width}.png`, fullPage: true });
      expect(overlaps).toEqual([]);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await page.close();
    }, 90_000);
  }
});
