/**
 * Meshwork Studio in headless Chromium (Debian's /usr/bin/chromium through playwright-core): each
 * view is loaded from the built app (dist/web, served by `serveUi` as `meshwork ui` serves it),
 * driven as a user would, and what the page shows is checked against the library run in this
 * process on the same inputs. No console errors anywhere. Screenshots go to out/web-screenshots/.
 */
import type { Locator, Page } from 'playwright-core';
import { MODEL_OPTIONS } from '../../src/sim/options-schema.js';
import { describe, expect, it } from 'vitest';
import { SHOTS, useStudio } from '../helpers/studio.js';
import { buildTopology } from '../../src/topology/registry.js';
import { computeMetrics, metricsRecord } from '../../src/topology/metrics/index.js';
import { buildSchedule, listAlgorithms } from '../../src/collectives/index.js';
import { simulate, type TrafficResult } from '../../src/sim/simulate.js';
import type { RunRequest } from '../../src/sim/request.js';
import { simulateTraffic } from '../../src/sim/packet/traffic-run.js';
import { InputError } from '../../src/util/errors.js';
import { claimRerunScope, getSeedModule, parseResultsJson, resultsDocument, resultsJsonText, runReproductions } from '../../src/analysis/reproduce/index.js';
import { verdictCountsText, verdictLabel } from '../../src/report/checklist.js';
import { claimExhibits } from '../../src/report/places.js';
import { checkSweepRows, sweepCurvePoints } from '../../src/sweep/export-file.js';
import { runCli } from '../helpers/cli.js';
import { generateTransformer, generatedTrace } from '../../src/workload/generate.js';
import { runWorkload } from '../../src/workload/run.js';
import { runRequest, type WorkloadResult } from '../../src/workload/request.js';
import { loadChakraTrace } from '../../src/node/chakra.js';
import { tempDir, writeSweep } from '../helpers/sweep.js';
import { readFileSync } from 'node:fs';
import { exportGraphml } from '../../src/topology/export/index.js';
import { topologyFromFileSpec } from '../../src/interop/topology-file.js';
import { scheduleToMscclXml } from '../../src/interop/msccl/write.js';
import { scheduleFromText } from '../../src/interop/schedule-text.js';
import { simulateMscclSchedule } from '../../src/interop/msccl/run.js';
import { loadGraphFormat, loadTopology } from '../../src/node/load-topology.js';
import { join } from 'node:path';
import { parquetRows } from '../../web/src/parquet-rows.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { resolveRouting } from '../../src/routing/registry.js';


/** The canvas API these checks use (the test project compiles without the DOM library). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
  toDataURL(): string;
}

/** What a download button saves: the file name and the bytes. */
async function downloaded(page: Page, button: Locator): Promise<{ name: string; body: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: file.suggestedFilename(), body: readFileSync((await file.path())!) };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/** Non-background pixels of a canvas: a blank canvas has none. */
async function inkedPixels(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).first().evaluate((c: CanvasLike) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
}

describe('Meshwork Studio in headless Chromium', () => {
  const { open, errors } = useStudio();

  it('Topology: metrics equal the library, the network is drawn, a click shows a route, bad specs get the CLI line', async () => {
    const page = await open('#view=topology&spec=torus:4x4');
    await page.getByTestId('metrics').waitFor();
    const m = computeMetrics(buildTopology('torus:4x4'));
    const cell = (k: string) => page.locator(`[data-metric="${k}"]`).innerText();
    expect(await cell('nodes')).toBe(String(m.nodes));
    expect(await cell('diameter')).toBe(String(m.distances.diameter));
    const shown = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));
    expect(await cell('mean_distance_with_self')).toBe(shown(m.distances.meanWithSelf));
    expect(await cell('mean_distance_without_self')).toBe(shown(m.distances.meanWithoutSelf));
    expect(await cell('bisection')).toBe(`${m.bisection.channels} channels`);
    expect(await inkedPixels(page, 'network')).toBeGreaterThan(1000);
    // torus:4x4 on a 620-pixel canvas with an 18-pixel margin: node 0 at (18, 18), node 5 one step right and down.
    const box = (await page.getByTestId('network').boundingBox())!;
    const step = (620 - 36) / 3;
    await page.mouse.click(box.x + 18, box.y + 18);
    await page.mouse.click(box.x + 18 + step, box.y + 18 + step);
    await expect.poll(() => page.getByTestId('route').innerText()).toMatch(/^route 0 → (1|4) → 5 \(2 hops/);
    // Downloads: the histogram as CSV (the library's counts), the drawing as PNG.
    const histogram = metricsRecord(m).histogram as number[];
    const csv = await downloaded(page, page.getByRole('button', { name: 'CSV' }));
    expect(csv.name).toBe('distance-histogram.csv');
    expect(csv.body.toString()).toBe(['distance,pairs', ...histogram.map((n, d) => `${d},${n}`)].join('\n') + '\n');
    const png = await downloaded(page, page.getByRole('button', { name: 'PNG' }).first());
    expect(png.name).toBe('network.png');
    expect(png.body.subarray(0, 4)).toEqual(PNG_MAGIC);
    await page.screenshot({ path: `${SHOTS}/topology.png` });

    await page.locator('input[name=spec]').fill('torus:0x8');
    await page.locator('input[name=spec]').press('Enter');
    let cli = '';
    try {
      buildTopology('torus:0x8');
    } catch (err) {
      cli = `meshwork: error: ${(err as InputError).message}`;
    }
    expect(cli).toBe('meshwork: error: topology.dims: got "0"; accepted: an integer >= 1');
    await expect.poll(() => page.getByTestId('error').innerText()).toBe(cli);
    expect(page.url()).toContain('spec=torus%3A0x8');

    await page.locator('input[name=spec]').fill('torus:2048x2048');
    await page.locator('input[name=spec]').press('Enter');
    await expect.poll(() => page.getByTestId('error').innerText()).toBe('meshwork: error: topology: got "4194304 nodes"; accepted: at most 1048576 nodes in the browser (use the CLI for larger networks)');

    // A link pasted into the address bar of the open page shows that link's state.
    await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#view=topology&spec=ring:8'));
    await expect.poll(() => page.locator('[data-metric="nodes"]').innerText()).toBe('8');
    expect(await page.locator('input[name=spec]').inputValue()).toBe('ring:8');
    await page.close();
  });

  it('Topology by forces: a Jellyfish is drawn with sigma.js (WebGL), the same picture each time; clicks show the library route', async () => {
    const spec = 'jellyfish:routers=16,degree=4,seed=3';
    const t = buildTopology(spec);
    const page = await open(`#view=topology&spec=${spec}`);
    const sigma = page.getByTestId('sigma-network');
    await sigma.waitFor();
    expect(await page.getByTestId('network').count()).toBe(0);
    expect(await page.locator('.note').first().innerText()).toContain('Layout: force');
    /** Viewport positions of nodes, through the renderer the component leaves on its container. */
    const viewport = (nodes: number[]) =>
      sigma.evaluate((el, ids) => {
        const r = (el as unknown as { sigma: { graphToViewport(p: { x: number; y: number }): { x: number; y: number }; getGraph(): { order: number; getNodeAttributes(k: string): { x: number; y: number } } } }).sigma;
        return { order: r.getGraph().order, points: ids.map((v) => r.graphToViewport(r.getGraph().getNodeAttributes(String(v)))) };
      }, nodes);
    const endpoints: number[] = [];
    for (let v = 0; v < t.numNodes && endpoints.length < 2; v++) if (t.rankOfNode[v] >= 0 && (endpoints.length === 0 || t.chDst[t.outChannels[t.outStart[v]]] !== t.chDst[t.outChannels[t.outStart[endpoints[0]]]])) endpoints.push(v);
    const { order, points } = await viewport(endpoints);
    expect(order).toBe(t.numNodes);
    // Not blank: a white 620-pixel square compresses to about 2 KB of PNG, the drawn graph to several times that.
    expect((await sigma.screenshot()).length).toBeGreaterThan(6000);
    const box = (await sigma.boundingBox())!;
    for (const p of points) await page.mouse.click(box.x + p.x, box.y + p.y);
    const routing = resolveRouting(t, { engine: 'packet' });
    const buffers = makeRouteBuffers(routing.maxHops);
    const hops = routing.route(endpoints[0], endpoints[1], 0, buffers);
    const nodes = [endpoints[0], ...Array.from(buffers.channels.subarray(0, hops), (c) => t.chDst[c])];
    await expect.poll(() => page.getByTestId('route').innerText()).toBe(`route ${nodes.join(' → ')} (${hops} hops, ${routing.name})`);
    await page.screenshot({ path: `${SHOTS}/topology-force.png` });
    // The same spec in a new page: the same positions (the layout is seeded).
    const again = await open(`#view=topology&spec=${spec}`);
    await again.getByTestId('sigma-network').waitFor();
    const second = await again.getByTestId('sigma-network').evaluate((el) => {
      const r = (el as unknown as { sigma: { getGraph(): { mapNodes<T>(f: (k: string, a: { x: number; y: number }) => T): T[] } } }).sigma;
      return r.getGraph().mapNodes((_, a) => [a.x, a.y]);
    });
    const first = await sigma.evaluate((el) => {
      const r = (el as unknown as { sigma: { getGraph(): { mapNodes<T>(f: (k: string, a: { x: number; y: number }) => T): T[] } } }).sigma;
      return r.getGraph().mapNodes((_, a) => [a.x, a.y]);
    });
    expect(second).toEqual(first);
    await again.close();
    await page.close();
  });

  it('Topology files: a JSON graph and a GraphML file give the CLI metrics; a bad anynet file the CLI line, also after a link', async () => {
    await loadGraphFormat();
    const page = await open('#view=topology&spec=ring:4');
    await page.getByTestId('metrics').waitFor();
    const fileInput = page.locator('input[name=topologyFile]');
    await fileInput.setInputFiles('examples/net.json');
    await expect.poll(() => page.locator('input[name=spec]').inputValue()).toBe('file:net.json');
    const json = computeMetrics(loadTopology('file:examples/net.json'));
    await expect.poll(() => page.locator('[data-metric="nodes"]').innerText()).toBe(String(json.nodes));
    expect(await page.locator('[data-metric="diameter"]').innerText()).toBe(String(json.distances.diameter));

    // GraphML as `meshwork export --format graphml` writes it: the metrics of the graph read back by the CLI's reader.
    const graphml = exportGraphml(buildTopology('torus:4x3'));
    await fileInput.setInputFiles({ name: 'net.graphml', mimeType: 'application/xml', buffer: Buffer.from(graphml) });
    await expect.poll(() => page.locator('input[name=spec]').inputValue()).toBe('graphml:net.graphml');
    const read = computeMetrics(topologyFromFileSpec('graphml:net.graphml', 'topology', () => graphml)!);
    await expect.poll(() => page.locator('[data-metric="channels"]').innerText()).toBe(String(read.channels));
    expect(await page.locator('[data-metric="mean_distance_with_self"]').innerText()).toBe(read.distances.meanWithSelf.toFixed(4));
    // A graph file has no structured layout: drawn by forces, with sigma.js.
    await expect.poll(() => page.getByTestId('sigma-network').getAttribute('data-nodes')).toBe(String(read.nodes));
    // The opened file serves the other views too: the Collective view verifies on it.
    await page.getByRole('button', { name: 'Collective' }).click();
    await page.locator('input[name=topology]').fill('graphml:net.graphml');
    await page.locator('select[name=collective]').selectOption('allgather');
    await page.locator('select[name=algorithm]').selectOption('ring');
    await page.locator('input[name=size]').fill('1KiB');
    await page.getByRole('button', { name: 'Verify and time' }).click();
    await expect.poll(() => page.getByTestId('verify').innerText(), { timeout: 60_000 }).toMatch(/^PASS ring: 12 ranks/);

    await page.getByRole('button', { name: 'Topology' }).click();
    const bad = 'router 0 node 0 switch 1\n';
    await page.locator('input[name=topologyFile]').setInputFiles({ name: 'bad.anynet', mimeType: 'text/plain', buffer: Buffer.from(bad) });
    let cli = '';
    try {
      topologyFromFileSpec('anynet:bad.anynet', 'topology', () => bad);
    } catch (err) {
      cli = `meshwork: error: ${(err as InputError).message}`;
    }
    expect(cli).toMatch(/^meshwork: error: topology\(bad.anynet\)/);
    await expect.poll(() => page.getByTestId('error').innerText()).toBe(cli);
    await page.close();

    // A link names the file but cannot carry it: a fresh page says so in one line.
    const linked = await open('#view=topology&spec=graphml:net.graphml');
    await expect.poll(() => linked.getByTestId('error').innerText()).toBe('meshwork: error: topology: got "net.graphml"; accepted: a file opened in this page (a link carries the spec, not the file: open it again)');
    await linked.close();
  });

  it('Collective: PASS, makespan equal to simulate(), Gantt and heatmap drawn, the scrubber moves the frame', async () => {
    const page = await open('#view=collective&topology=torus:4x4&collective=alltoall&algorithm=pairwise&size=4KiB&engine=flow&run=1');
    await page.getByTestId('verify').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('verify').innerText()).toMatch(/^PASS pairwise: 16 ranks/);
    const t = buildTopology('torus:4x4');
    const expected = simulate({ topology: t, schedule: buildSchedule({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size: 4096 }) });
    expect(Number(await page.locator('[data-testid=timing] b').getAttribute('data-value'))).toBe(expected.makespan_s);
    const [header, row] = (await downloaded(page, page.getByRole('button', { name: 'CSV' }))).body.toString().trim().split('\n').map((l) => l.split(','));
    expect(Number(row[header.indexOf('makespan_s')])).toBe(expected.makespan_s);
    // The view runs a RunRequest through the library, as `meshwork run` does: its JSON records the
    // resolved request, and simulate(request) re-runs the same makespan.
    const saved = JSON.parse((await downloaded(page, page.getByTestId('timing').getByRole('button', { name: 'JSON' }))).body.toString()) as { request: RunRequest; makespan_s: number };
    expect(saved.request).toMatchObject({ topology: 'torus:4x4', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 4096 }, engine: 'flow' });
    const rerun = simulate(saved.request);
    expect(rerun.kind === 'meshwork-run-result' && rerun.makespan_s).toBe(expected.makespan_s);
    expect(await inkedPixels(page, 'gantt')).toBeGreaterThan(1000);
    const before = await page.getByTestId('frame-time').innerText();
    const first = await page.getByTestId('network').evaluate((c: CanvasLike) => c.toDataURL());
    await page.getByTestId('scrubber').fill('60');
    await expect.poll(() => page.getByTestId('frame-time').innerText()).not.toBe(before);
    const later = await page.getByTestId('network').evaluate((c: CanvasLike) => c.toDataURL());
    expect(later).not.toBe(first);
    await page.screenshot({ path: `${SHOTS}/collective.png` });

    // The algorithm form comes from the registry: a parameter typed in it reaches the URL.
    await page.locator('select[name=algorithm]').selectOption('ring');
    await page.locator('select[name=collective]').selectOption('allgather');
    await page.locator('select[name=algorithm]').selectOption('ring');
    await page.getByRole('button', { name: 'Verify and time' }).click();
    await expect.poll(() => page.getByTestId('verify').innerText(), { timeout: 60_000 }).toMatch(/^PASS ring/);
    expect(page.url()).toContain('collective=allgather');

    // The model form is generated from the option schema: a field per row (the one added as a row,
    // simultaneity, included), and a value typed there reaches simulate() in the CLI's units.
    for (const row of MODEL_OPTIONS) expect(await page.locator(`.model-fields [name="${row.flag}"]`).count()).toBe(1);
    await page.locator('.model-fields summary').click();
    await page.locator('.model-fields [name=alpha]').fill('3us');
    await page.getByRole('button', { name: 'Verify and time' }).click();
    const withAlpha = simulate({ topology: t, schedule: buildSchedule({ topology: t, collective: 'allgather', algorithm: 'ring', size: 4096 }), model: { alpha: 3e-6 } });
    await expect.poll(async () => Number(await page.locator('[data-testid=timing] b').getAttribute('data-value')), { timeout: 60_000 }).toBe(withAlpha.makespan_s);
    await page.close();
  });

  it('Workload: a generated TP 2 × DP 2 step times as runWorkload does, every op in the Gantt chart', async () => {
    const page = await open('#view=workload&topology=fullmesh:4,bw=8Gbps,lat=0&tp=2&dp=2&layers=2&hidden=64&sequence=32&engine=flow&run=1');
    await page.getByTestId('workload-step').waitFor({ timeout: 60_000 });
    const expected = runWorkload({ topology: buildTopology('fullmesh:4,bw=8Gbps,lat=0'), trace: generatedTrace(generateTransformer({ tp: 2, dp: 2, layers: 2, hidden: 64, sequence: 32 })) });
    expect(Number(await page.locator('[data-testid=workload-step] b').getAttribute('data-value'))).toBe(expected.report.step_time_s);
    expect(await page.getByTestId('workload-ranks').locator('tbody tr').count()).toBe(4);
    expect(await inkedPixels(page, 'gantt')).toBeGreaterThan(200);
    // The page ran a RunRequest of kind workload: the one `meshwork run --request` re-runs to the same step.
    const saved = await downloaded(page, page.getByTestId('workload-request'));
    expect(saved.name).toBe('workload-request.json');
    const request = JSON.parse(saved.body.toString()) as RunRequest;
    expect(request).toMatchObject({ topology: 'fullmesh:4,bw=8Gbps,lat=0', workload: { kind: 'workload', generate: { tp: 2, dp: 2, layers: 2, hidden: 64, sequence: 32 } }, engine: 'flow' });
    expect((runRequest(request) as WorkloadResult).report.step_time_s).toBe(expected.report.step_time_s);
    await page.screenshot({ path: `${SHOTS}/workload.png` });
    await page.close();
  });

  it('Workload with opened Chakra files (.et): ASTRA-sim\'s 8-NPU allreduce times as workload run --trace does', async () => {
    const dir = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB';
    const files = Array.from({ length: 8 }, (_, r) => ({ name: `all_reduce.${r}.et`, mimeType: 'application/octet-stream', buffer: readFileSync(join(dir, `all_reduce.${r}.et`)) }));
    const page = await open('#view=workload&topology=ring:8,bw=50GiBps,lat=500ns&engine=flow');
    await page.locator('input[name=traceFile]').setInputFiles(files);
    await expect.poll(() => page.getByTestId('workload-trace').innerText(), { timeout: 30_000 }).toMatch(/^8 files \(all_reduce\.0\.et/);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('workload-step').waitFor({ timeout: 60_000 });
    const expected = runWorkload({ topology: buildTopology('ring:8,bw=50GiBps,lat=500ns'), trace: loadChakraTrace([dir]) });
    expect(Number(await page.locator('[data-testid=workload-step] b').getAttribute('data-value'))).toBe(expected.report.step_time_s);
    expect(await page.getByTestId('workload-ranks').locator('tbody tr').count()).toBe(8);
    // A missing rank is refused in one line, as the CLI refuses it.
    await page.locator('input[name=traceFile]').setInputFiles(files.slice(1));
    await expect.poll(() => page.getByTestId('workload-trace').innerText(), { timeout: 30_000 }).toMatch(/^7 files/);
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByTestId('error').innerText(), { timeout: 30_000 }).toBe('meshwork: error: trace: got "all_reduce.0.et missing"; accepted: one file per rank 0 to 7 (rank 0 has none)');
    await page.close();
  });

  it('Collective with an opened MSCCL-XML file: PASS and the makespan of run --schedule', async () => {
    const t = buildTopology('fullmesh:4');
    const xml = scheduleToMscclXml(buildSchedule({ topology: t, collective: 'allgather', algorithm: 'ring', size: 1024 }));
    const page = await open('#view=collective&topology=fullmesh:4&collective=allgather&algorithm=ring&size=2KiB&engine=flow');
    await page.locator('input[name=scheduleFile]').setInputFiles({ name: 'ring.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) });
    await expect.poll(() => page.getByTestId('verify').innerText(), { timeout: 60_000 }).toMatch(/^PASS /);
    // `meshwork run --schedule ring.xml --size 2KiB` times the file through simulateMscclSchedule.
    const loaded = scheduleFromText(xml, 'ring.xml', { size: '2KiB', topology: t.spec });
    const expected = simulateMscclSchedule(loaded.msccl!, { topology: t });
    expect(Number(await page.locator('[data-testid=timing] b').getAttribute('data-value'))).toBe(expected.makespan_s);
    expect(page.url()).toContain('schedule=ring.xml');
    // A schedule for 4 ranks on 8 endpoints is refused as the CLI refuses it.
    await page.locator('input[name=topology]').fill('fullmesh:8');
    await page.getByRole('button', { name: 'Verify and time' }).click();
    await expect.poll(() => page.getByTestId('error').innerText()).toBe('meshwork: error: topology: got "fullmesh:8"; accepted: a topology with 4 endpoints (the schedule\'s rank count)');
    await page.close();
  });

  it('Compare: every applicable algorithm sorted, the best equal to the library run', async () => {
    const page = await open('#view=compare&topology=torus:4x4&collective=alltoall&size=4KiB&run=1');
    await page.getByTestId('compare-table').waitFor({ timeout: 60_000 });
    const t = buildTopology('torus:4x4');
    const times: number[] = [];
    // ASTRA-sim's reproductions (ring-relay, direct) are compared only when named (Algorithm.comparedWhenNamed).
    for (const a of listAlgorithms('alltoall').filter((x) => x.comparedWhenNamed === undefined)) {
      try {
        times.push(simulate({ topology: t, schedule: buildSchedule({ topology: t, collective: 'alltoall', algorithm: a.name, size: 4096 }) }).makespan_s);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
      }
    }
    times.sort((a, b) => a - b);
    const cells = await page.locator('[data-testid=compare-table] tbody tr td:nth-child(2)').allInnerTexts();
    expect(cells).toEqual(times.map((s) => (s * 1e6).toPrecision(6)));
    await page.locator('[data-plot=compare][data-rendered]').waitFor();
    const json = JSON.parse((await downloaded(page, page.getByRole('button', { name: 'JSON' }))).body.toString()) as { runs: Array<{ makespan_s: number }> };
    expect(json.runs.map((r) => r.makespan_s)).toEqual(times);
    await page.screenshot({ path: `${SHOTS}/compare.png` });
    await page.close();
  });

  it('Traffic: the latency and throughput table equals simulateTraffic, both curves drawn', async () => {
    const page = await open('#view=traffic&topology=torus:4x4&patterns=uniform&rates=0.1,0.3&seed=1&packetSize=1&run=1');
    await page.getByTestId('traffic-table').waitFor({ timeout: 60_000 });
    const r = simulateTraffic({ topology: buildTopology('torus:4x4'), pattern: 'uniform', rates: [0.1, 0.3], preset: 'booksim', config: { seed: 1, packetSize: 1 } });
    const rows = await page.locator('[data-testid=traffic-table] tbody tr').allInnerTexts();
    expect(rows.map((x) => x.split('\t').slice(2).join(' '))).toEqual(r.points.map((p) => ('saturated' in p ? `${p.saturated ? 'saturated' : p.packet_latency!.toFixed(4)} ${p.accepted_flit_rate!.toFixed(6)}` : '')));
    await page.locator('[data-plot=latency-load][data-rendered]').waitFor();
    await page.locator('[data-plot=throughput-load][data-rendered]').waitFor();
    // The view built one RunRequest per pattern; its JSON carries them, and the library reruns each to the same points.
    const json = JSON.parse((await downloaded(page, page.getByRole('button', { name: 'JSON' }))).body.toString()) as { requests: RunRequest[] };
    expect(json.requests).toHaveLength(1);
    expect(json.requests[0]).toMatchObject({ topology: 'torus:4x4', workload: { kind: 'traffic', pattern: 'uniform', rates: [0.1, 0.3], seed: 1 }, engine: 'packet', packet: { preset: 'booksim', config: { packetSize: 1 } } });
    const rerun = simulate(json.requests[0]) as TrafficResult;
    expect(rerun.points.map((p) => p.accepted_flit_rate)).toEqual(r.points.map((p) => ('saturated' in p ? p.accepted_flit_rate : null)));
    await page.screenshot({ path: `${SHOTS}/traffic.png` });
    await page.close();
  });

  it('Seeds: the quick run in the worker gives the library verdicts; a claim opens its table and plot; a results.json opens', async () => {
    const page = await open('#view=seeds&seeds=002&run=1');
    await page.getByTestId('checklist-002').waitFor({ timeout: 60_000 });
    const seed = await getSeedModule('002').run({ quick: true, progress: () => undefined });
    const shown = await page.locator('[data-seed="002"] tr[data-claim]').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-claim')} ${r.querySelector('td.verdict')!.textContent}`));
    expect(shown).toEqual([...seed.claims.filter((c) => c.source === 'document'), ...seed.claims.filter((c) => c.source === 'meshwork')].map((c) => `${c.id} ${verdictLabel(c.verdict)}`));
    expect(await page.getByTestId('questions-002').count()).toBe(seed.claims.some((c) => c.source === 'meshwork') ? 1 : 0);
    // The first claim that cites a plotted place: opening it shows that plot and the tables citing the same place.
    const claim = seed.claims.find((c) => claimExhibits(c, seed.plots, seed.tables).plots.length > 0)!;
    const exhibits = claimExhibits(claim, seed.plots, seed.tables);
    await page.locator(`tr[data-claim="${claim.id}"] button`).click();
    const detail = page.getByTestId('claim-detail');
    expect(await detail.locator('dd').first().innerText()).toBe(claim.expected);
    expect(await detail.locator('table[data-table]').evaluateAll((ts) => ts.map((t) => t.getAttribute('data-table')))).toEqual(exhibits.tables.map((t) => t.id));
    await detail.locator(`[data-plot="${exhibits.plots[0].id}"][data-rendered]`).waitFor();
    expect(page.url()).toContain(`claim=${encodeURIComponent(claim.id)}`);
    // Re-running the open claim runs its seed's quick study in the worker: the library's verdict again.
    const rerun = detail.getByTestId('claim-rerun');
    expect(await rerun.innerText()).toContain(claimRerunScope('002'));
    await rerun.getByRole('button', { name: 'Re-run this claim' }).click();
    await expect.poll(() => rerun.getByTestId('claim-rerun-result').innerText(), { timeout: 60_000 }).toContain(`re-run: ${verdictLabel(claim.verdict)}`);
    expect(await rerun.getByTestId('claim-rerun-result').innerText()).toContain('(the same as shown)');
    const claimsCsv = (await downloaded(page, page.getByRole('button', { name: 'CSV' }))).body.toString();
    expect(claimsCsv.split('\n')[0]).toBe('id,source,where,claim,expected,measured,verdict');
    for (const c of seed.claims) expect(claimsCsv).toMatch(new RegExp(`^${c.id.replace(/\./g, '\\.')},${c.source},.*,${c.verdict}$`, 'm'));
    await page.screenshot({ path: `${SHOTS}/seeds.png` });

    // A results.json from `reproduce --out` (here built by the library for seed 003) opens as it is.
    const run = await runReproductions(['003'], { quick: true });
    const text = resultsJsonText(resultsDocument(run, { command: 'reproduce 003 --quick', toolVersion: 'test' }));
    await page.locator('input[name=results]').setInputFiles({ name: 'results.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect.poll(() => page.getByTestId('seeds-summary').innerText()).toContain(verdictCountsText(resultsDocument(run, { command: '', toolVersion: '' }).summary));
    expect(await page.locator('[data-seed="003"] tr[data-claim]').count()).toBe(run.seeds[0].result.claims.length);
    // A long re-run can be cancelled: seed 001's quick study (about 12 s of CPU), stopped at once. The claim is
    // seed 003's, relabelled as 001's first claim so that the re-run is a long one.
    const long = JSON.parse(text) as { seeds: Array<{ id: string; claims: Array<{ id: string }> }> };
    long.seeds[0].id = '001';
    long.seeds[0].claims = [{ ...long.seeds[0].claims[0], id: '001.correct' }];
    await page.locator('input[name=results]').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(long)) });
    await page.locator('tr[data-claim="001.correct"] button').click();
    await page.getByRole('button', { name: 'Re-run this claim' }).click();
    await page.getByTestId('claim-rerun').getByTestId('progress').waitFor();
    await page.getByTestId('claim-rerun').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('claim-rerun').getByTestId('error').innerText()).toBe('cancelled');
    expect(await page.getByTestId('claim-rerun-result').count()).toBe(0);
    const bad = '{"format": "meshwork-reproduce", "version": 7, "seeds": []}';
    await page.locator('input[name=results]').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
    let cli = '';
    try {
      parseResultsJson(bad, 'old.json');
    } catch (err) {
      cli = `meshwork: error: ${(err as InputError).message}`;
    }
    expect(cli).toMatch(/^meshwork: error: results.version: got 7; accepted: /);
    await expect.poll(() => page.getByTestId('error').innerText()).toBe(cli);
    await page.close();
  });

  it('Sweeps: a JSON export plots as curves with the export points, a Parquet export the same points; a CSV export as a surface; a bad file gets the one line', async () => {
    // A real sweep, stored in DuckDB by the CLI and exported as a user would.
    const dir = tempDir('studio-sweep');
    const file = writeSweep(dir, 'load', { kind: 'traffic', name: 'load', fixed: { pattern: 'uniform', horizon: 300 }, axes: { topology: ['ring:4', 'torus:2x2'], rates: [0.05, 0.1, 0.2] } });
    const store = join(dir, 'r.duckdb');
    expect(runCli(['sweep', 'run', file, '--store', store, '--jobs', '1', '--log', 'none']).code).toBe(0);
    for (const format of ['json', 'csv', 'parquet']) expect(runCli(['sweep', 'export', '--store', store, '--format', format, '--out', join(dir, `r.${format}`)]).code).toBe(0);
    const rows = checkSweepRows(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')), 'r.json');
    const expected = sweepCurvePoints(rows, 'rate', 'packet_latency', 'topology');
    expect(expected.length).toBe(6);
    // The page's Parquet reader gives the JSON export's rows (the timestamp to Parquet's millisecond).
    const parquet = readFileSync(join(dir, 'r.parquet'));
    const fromParquet = await parquetRows(parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.byteLength), 'r.parquet');
    const millis = (r: Record<string, unknown>) => ({ ...r, finished_at: String(r.finished_at).slice(0, 23) });
    expect(fromParquet.map(millis)).toEqual(rows.map(millis));

    const page = await open('#view=sweeps&x=rate&y=packet_latency&color=topology');
    await page.locator('input[name=sweep]').setInputFiles(join(dir, 'r.json'));
    await expect.poll(() => page.getByTestId('sweep-summary').innerText()).toContain('r.json: 6 points, 6 finished');
    const pointsCsv = (await downloaded(page, page.getByTestId('sweep-summary').getByRole('button', { name: 'CSV' }))).body.toString().trim().split('\n');
    expect(pointsCsv.length).toBe(1 + rows.length);
    expect(pointsCsv[0].split(',')).toContain('packet_latency');
    await page.locator('[data-plot=sweep][data-rendered]').waitFor();
    // Vega-Lite labels each point mark with its fields: the plotted points are the export's.
    const labels = await page.locator('[data-plot=sweep] [aria-roledescription=point]').evaluateAll((ms) => ms.map((m) => m.getAttribute('aria-label') ?? ''));
    const tenDigits = (v: number) => Number(v.toPrecision(10));
    const plotted = labels.map((l) => tenDigits(Number(/packet_latency: ([0-9.e+-]+)/.exec(l.replace(/,/g, ''))?.[1]))).sort((a, b) => a - b);
    expect(plotted).toEqual(expected.map((p) => tenDigits(p.y)).sort((a, b) => a - b));
    await page.screenshot({ path: `${SHOTS}/sweeps.png` });

    // The Parquet export of the same store, read in the page by hyparquet: the same points, the same plot.
    await page.locator('input[name=sweep]').setInputFiles(join(dir, 'r.parquet'));
    await expect.poll(() => page.getByTestId('sweep-summary').innerText()).toContain('r.parquet: 6 points, 6 finished');
    await page.locator('[data-plot=sweep][data-rendered]').waitFor();
    const plottedFromParquet = await page.locator('[data-plot=sweep] [aria-roledescription=point]').evaluateAll((ms) => ms.map((m) => m.getAttribute('aria-label') ?? ''));
    expect(plottedFromParquet.sort()).toEqual([...labels].sort());

    await page.locator('select[name=mode]').selectOption('surface');
    await page.locator('select[name=y]').selectOption('topology');
    await page.locator('select[name=z]').selectOption('accepted_flit_rate');
    await page.locator('input[name=sweep]').setInputFiles(join(dir, 'r.csv'));
    await page.locator('[data-plot=sweep-surface][data-rendered]').waitFor();
    expect(await page.locator('[data-plot=sweep-surface] [aria-roledescription="rect mark"]').count()).toBe(6);
    expect(page.url()).toContain('mode=surface');

    await page.locator('input[name=sweep]').setInputFiles({ name: 'status.json', mimeType: 'application/json', buffer: Buffer.from('[{"topology": "ring:4"}]') });
    let cli = '';
    try {
      checkSweepRows([{ topology: 'ring:4' }], 'status.json');
    } catch (err) {
      cli = `meshwork: error: ${(err as InputError).message}`;
    }
    await expect.poll(() => page.getByTestId('error').innerText()).toBe(cli);
    await page.locator('input[name=sweep]').setInputFiles({ name: 'broken.parquet', mimeType: 'application/octet-stream', buffer: Buffer.from('PAR1 not really') });
    await expect.poll(() => page.getByTestId('error').innerText()).toMatch(/^meshwork: error: sweep: got "broken.parquet"; accepted: a Parquet file from meshwork sweep export --format parquet \(.+\)$/);
    await page.close();
  });

  it('logged no console error on any page', () => {
    expect(errors).toEqual([]);
  });
});
