/**
 * The Studio's busbw view (issue 25: "the busbw curve against a measured table the user opens") in
 * headless Chromium: `meshwork perf` for a machine preset over a size range, and `perf --measured`
 * against a bundled measured table or a CSV the user opens, checked row by row against the library
 * run in this process on the same inputs (sim/perf.ts). No console errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHOTS, useStudio } from '../helpers/studio.js';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/collectives/index.js';
import { compareWithMeasured, parseMeasuredTable, perfSweep, tableAnchors } from '../../src/sim/perf.js';
import type { Page } from 'playwright-core';

const MI300X_TABLE = 'mi300x_1node_8gpu_allreduce.csv';

/** The table's rows as the page shows them: size and the error it carries (data attributes, full precision). */
async function shownRows(page: Page): Promise<Array<{ size: number; error: string; text: string }>> {
  return page.getByTestId('perf-table').locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({ size: Number(tr.getAttribute('data-size')), error: tr.getAttribute('data-error') ?? '', text: (tr as unknown as { innerText: string }).innerText })),
  );
}

const pct = (e: number | null): string => (e === null ? '—' : `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)} %`);

describe('Studio busbw view', () => {
  const { open, errors } = useStudio();

  it('MI300X against its bundled rccl-tests table: every row and its error as perf --measured, the anchors marked, the plot drawn', async () => {
    const page = await open(`#view=perf&machine=mi300x&topology=mi300x&algorithm=rccl&collective=allreduce&table=${MI300X_TABLE}&run=1`);
    await page.getByTestId('perf-table').waitFor({ timeout: 120_000 });
    const text = readFileSync(new URL(`../reference/hardware/${MI300X_TABLE}`, import.meta.url), 'utf8');
    const expected = compareWithMeasured({ topology: buildTopology('mi300x'), collective: 'allreduce', algorithm: 'rccl' }, parseMeasuredTable(text), tableAnchors(MI300X_TABLE));
    const rows = await shownRows(page);
    expect(rows.map((r) => r.size)).toEqual(expected.rows.map((r) => r.measured.size_bytes));
    expect(rows.map((r) => Number(r.error))).toEqual(expected.rows.map((r) => r.error));
    expect(rows.filter((r) => r.text.includes('(anchor)')).length).toBe(expected.rows.filter((r) => r.anchor).length);
    expect(expected.rows.filter((r) => r.anchor).length).toBe(4);
    const geomean = await page.getByTestId('perf-geomean').innerText();
    expect(geomean).toContain(`below 1 MiB ${pct(expected.geomeanBelow1MiB)}, from 1 MiB ${pct(expected.geomeanFrom1MiB)}`);
    expect(geomean).toContain(`held out (every row but the anchors): below 1 MiB ${pct(expected.heldOutBelow1MiB)}`);
    await page.locator('[data-plot=perf-busbw][data-rendered=perf-busbw]').waitFor({ timeout: 30_000 });
    // Two lines (Meshwork, measured) over a log-scale size axis.
    const svg = await page.locator('[data-plot=perf-busbw] svg').innerHTML();
    expect(svg).toContain('size (bytes, log scale)');
    expect(svg).toContain('measured');
    await page.screenshot({ path: `${SHOTS}/perf-mi300x.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 240_000);

  it("a user's CSV opened with the file picker, on the HGX H100 preset", async () => {
    const page = await open('#view=perf');
    await page.locator('select[name=machine]').selectOption('hgx-h100');
    expect(await page.locator('input[name=topology]').inputValue()).toBe('hgx-h100');
    const csv = 'size_B,count,type,redop,root,oop_time_us,oop_algbw_GBps,oop_busbw_GBps\n65536,16384,float,sum,-1,20.00,3.28,5.73\n16777216,4194304,float,sum,-1,90.00,186.41,326.22\n';
    await page.locator('input[name=tableFile]').setInputFiles({ name: 'my_all_reduce.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.locator('select[name=table]').inputValue()).toBe('file');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('perf-table').waitFor({ timeout: 60_000 });
    const expected = compareWithMeasured({ topology: buildTopology('hgx-h100'), collective: 'allreduce', algorithm: 'nccl' }, parseMeasuredTable(csv), new Set());
    const rows = await shownRows(page);
    expect(rows.map((r) => r.size)).toEqual([65536, 16777216]);
    expect(rows.map((r) => Number(r.error))).toEqual(expected.rows.map((r) => r.error));
    expect(rows[1].text).toContain(pct(expected.rows[1].error));
    // No anchors in the user's table: no held-out line.
    expect(await page.getByTestId('perf-geomean').innerText()).not.toContain('held out');
    expect(errors).toEqual([]);
  }, 120_000);

  it('without a table: the size sweep of -b/-e/-f, busbw as perf prints it', async () => {
    const page = await open('#view=perf&machine=hgx-h100&topology=hgx-h100&algorithm=nccl&collective=allgather&table=none&b=1K&e=1M&f=4&run=1');
    await page.getByTestId('perf-table').waitFor({ timeout: 60_000 });
    const expected = perfSweep({ topology: buildTopology('hgx-h100'), collective: 'allgather', algorithm: 'nccl', minBytes: 1024, maxBytes: 1 << 20, factor: 4 });
    const rows = await shownRows(page);
    expect(rows.map((r) => r.size)).toEqual(expected.map((r) => r.size_bytes));
    expect(rows.map((r) => r.error)).toEqual(expected.map(() => ''));
    rows.forEach((r, i) => expect(r.text).toContain((expected[i].busbw_Bps / 1e9).toFixed(2)));
    expect(await page.getByTestId('perf-geomean').count()).toBe(0);
    await page.locator('[data-plot=perf-busbw][data-rendered=perf-busbw]').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 120_000);
});
