/* global document, window -- the two page callbacks run in the browser */
// Meshwork Studio (issue 12) in headless Chromium, served from dist/web as `meshwork ui` serves it.
// Targets: first load under 1 s to interactive, JS under 1.5 MB gzipped, the link heatmap of a
// 32×32 torus (4,096 channels) at 30 frames per second or more, and the 8×8×8 torus alltoall
// (pairwise, 64 KiB) at flow level in the worker against the same run in Node (ratio, one run).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildTopology, buildSchedule, simulate } from '../dist/index.js';
import { serveUi } from '../dist/node/ui-server.js';
import { timed } from './timing.mjs';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];
const ROOT = new URL('../dist/web/', import.meta.url).pathname;

/**
 * CPU seconds (user + system) of every process below this one: Chromium's browser, renderer and
 * GPU processes. On the shared machine CPU time is the figure to trust, wall time is not.
 */
function browserCpuSeconds() {
  const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const stats = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.push({ pid: Number(pid), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / tick });
    } catch {
      // The process ended while we read.
    }
  }
  const below = new Set([process.pid]);
  let total = 0;
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats) {
      if (!below.has(s.pid) && below.has(s.ppid)) {
        below.add(s.pid);
        total += s.cpu;
        grew = true;
      }
    }
  }
  return total;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export default async function webBench() {
  if (!existsSync(CHROMIUM) || !existsSync(`${ROOT}index.html`)) return [{ name: 'web', value: 'skipped', note: `needs ${CHROMIUM} and dist/web` }];
  const rows = [];
  const assets = readdirSync(`${ROOT}assets`).filter((f) => f.endsWith('.js'));
  const gz = (f) => gzipSync(readFileSync(`${ROOT}assets/${f}`)).length;
  rows.push({ name: 'JS, every chunk, gzipped', value: (assets.reduce((a, f) => a + gz(f), 0) / 1e6).toFixed(3), unit: 'MB', target: '< 1.5', note: `${assets.length} chunks, worker and Vega included` });

  const ui = await serveUi({ port: 0, host: '127.0.0.1', root: ROOT });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    // First load: navigation start until the Topology view shows torus:8x8's metrics (fresh context each time: no cache).
    const loads = [];
    const shells = [];
    let firstJs = 0;
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const js = new Set();
      page.on('response', (r) => {
        const name = new URL(r.url()).pathname.split('/').pop();
        if (name.endsWith('.js')) js.add(name);
      });
      await page.goto(`${ui.url}#view=topology&spec=torus:8x8`, { waitUntil: 'commit' });
      await page.waitForFunction(() => document.querySelector('input[name=spec]'), null, { polling: 'raf' });
      shells.push(await page.evaluate(() => performance.now()));
      await page.waitForFunction(() => document.querySelector('[data-testid=metrics]'), null, { polling: 'raf' });
      loads.push(await page.evaluate(() => performance.now()));
      firstJs = [...js].reduce((a, f) => a + gz(f), 0);
      await context.close();
    }
    rows.push({ name: 'first load to an interactive form (topology view)', value: median(shells).toFixed(0), unit: 'ms', target: '< 1000', note: `median of 5 (${shells.map((x) => x.toFixed(0)).join(', ')}), loopback, fresh context` });
    rows.push({ name: 'first load to metrics shown (torus:8x8, worker started)', value: median(loads).toFixed(0), unit: 'ms', target: '< 1000', note: `median of 5 (${loads.map((x) => x.toFixed(0)).join(', ')}), loopback, fresh context` });
    rows.push({ name: 'JS loaded by the first view, gzipped', value: (firstJs / 1e6).toFixed(3), unit: 'MB', target: '< 1.5', note: 'Vega loads with the first plot' });

    // Heatmap frame rate: a cheap collective on torus:32x32 (4,096 channels), played through its 120 frames.
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${ui.url}#view=collective&topology=torus:32x32&collective=broadcast&algorithm=binomial&size=64KiB&engine=flow&run=1`);
    await page.getByTestId('play').waitFor({ timeout: 120_000 });
    const cpuBefore = browserCpuSeconds();
    await page.getByTestId('play').click();
    const stamps = await page.waitForFunction(() => window.__heatmapFrameTimes, null, { timeout: 60_000 }).then((h) => h.jsonValue());
    const fps = ((stamps.length - 1) * 1000) / (stamps[stamps.length - 1] - stamps[0]);
    const cpuPerFrame = ((browserCpuSeconds() - cpuBefore) * 1000) / (stamps.length - 1);
    rows.push({ name: 'heatmap browser CPU time per frame, torus:32x32', value: cpuPerFrame.toFixed(1), unit: 'ms', target: '<= 33', note: `all Chromium processes over the playback / frames: ${(1000 / cpuPerFrame).toFixed(0)} fps of CPU` });
    rows.push({ name: 'heatmap fps, torus:32x32 (4,096 channels)', value: fps.toFixed(1), unit: 'frames/s', target: '>= 30', note: `${stamps.length} requestAnimationFrame timestamps, headless Chromium` });

    if (process.env.WEB_BENCH_QUICK) return rows;
    // Worker against Node: the same flow-level run (the worker also records the heatmap's per-channel rates).
    await page.goto(`${ui.url}#view=compare`);
    await page.goto(`${ui.url}#view=collective&topology=torus:8x8x8&collective=alltoall&algorithm=pairwise&size=64KiB&engine=flow&run=1`);
    await page.reload();
    const timing = page.getByTestId('timing');
    await timing.waitFor({ timeout: 600_000 });
    const worker = Number(await timing.getAttribute('data-simulate-seconds'));
    const topology = buildTopology('torus:8x8x8');
    const schedule = buildSchedule({ topology, collective: 'alltoall', algorithm: 'pairwise', size: 65536 });
    const node = timed(() => simulate({ topology, schedule })).seconds;
    rows.push({ name: 'torus:8x8x8 alltoall pairwise 64KiB, flow: worker / Node', value: (worker / node).toFixed(2), unit: 'ratio', target: 'reported', note: `worker ${worker.toFixed(2)} s, Node ${node.toFixed(2)} s (wall, one run each)` });
  } finally {
    await browser.close();
    await ui.close();
  }
  return rows;
}
