// Seed 004 benchmarks (issue: foundation, performance): exact metrics of the 524,288-node
// (1,1,1)-MDCE (8×256×256) — build plus BFS from one source per ring position — and all of Table 1.
import { distanceSummary, mdce, mdceTable1 } from '../dist/index.js';
import { timed } from './timing.mjs';

export default async function () {
  const rssBefore = process.memoryUsage().rss;
  const build = timed(() => mdce(1, 1, 1, 8));
  const stats = timed(() => distanceSummary(build.value));
  const rssPeak = process.memoryUsage().rss;
  const s = stats.value;
  const table = timed(() => mdceTable1());
  return [
    {
      name: '(1,1,1)-MDCE 8x256x256 exact metrics',
      value: (build.seconds + stats.seconds).toFixed(2),
      unit: 's',
      target: '< 10',
      note: `build ${build.seconds.toFixed(2)} s + BFS ${stats.seconds.toFixed(2)} s (${s.searches} BFS, ${s.method}); diameter ${s.diameter}, mean ${s.meanWithSelf.toFixed(4)}`,
    },
    {
      name: '(1,1,1)-MDCE 8x256x256 memory',
      value: (rssPeak / 2 ** 20).toFixed(0),
      unit: 'MiB RSS',
      target: '< 2048',
      note: `process RSS after build + BFS (${((rssPeak - rssBefore) / 2 ** 20).toFixed(0)} MiB more than before)`,
    },
    { name: 'table mdce, both sizes', value: table.seconds.toFixed(2), unit: 's', target: '', note: `${table.value.length} rows, all exact (no sampling)` },
  ];
}
