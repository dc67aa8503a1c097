// Regenerates the figures of docs/validation.md: Meshwork's nccl-tests sweep against each measured
// table of test/reference/hardware/ (busbw against size, SVG) and the per-row table in Markdown.
// Run after `npm run build`: node scripts/validation-report.mjs > /tmp/rows.md
import { readFileSync, writeFileSync } from 'node:fs';
import { buildTopology, perfSweep, linePlot, renderPlotSvg } from '../dist/index.js';

const CASES = [
  { id: 'mi300x', file: 'mi300x_1node_8gpu_allreduce.csv', topology: 'mi300x', algorithm: 'rccl', title: 'MI300X, 8 GPUs, rccl-tests all_reduce_perf' },
  { id: 'h100-a3mega', file: 'h100_a3mega_2node_16gpu_allreduce.csv', topology: 'hgx-h100:nodes=2,nicbw=200Gbps', algorithm: 'nccl:machine=h100-tcpxo', title: 'H100 A3 Mega, 2 x 8 GPUs, nccl-tests all_reduce_perf' },
];

for (const c of CASES) {
  const [header, ...lines] = readFileSync(new URL(`../test/reference/hardware/${c.file}`, import.meta.url), 'utf8').trim().split('\n');
  const cols = header.split(',');
  const measured = lines.map((l) => l.split(',')).map((v) => ({ size: Number(v[cols.indexOf('size_B')]), time: Number(v[cols.indexOf('oop_time_us')]), busbw: Number(v[cols.indexOf('oop_busbw_GBps')]) }));
  const rows = perfSweep({ topology: buildTopology(c.topology), collective: 'allreduce', algorithm: c.algorithm, minBytes: 8, maxBytes: 8 * 2 ** 30, factor: 2 });
  const points = [
    ...measured.filter((m) => m.size >= 1024).map((m) => ({ series: 'measured', x: m.size, y: m.busbw })),
    ...rows.filter((r) => r.size_bytes >= 1024).map((r) => ({ series: 'Meshwork', x: r.size_bytes, y: r.busbw_Bps / 1e9 })),
  ];
  const plot = linePlot({ id: `validation-${c.id}`, title: c.title, figure: 'docs/validation.md', x: { title: 'size (bytes)', log: true }, y: { title: 'busbw (GB/s)' }, legend: 'source', points, dashed: ['Meshwork'] });
  writeFileSync(new URL(`../docs/images/validation-${c.id}.svg`, import.meta.url), await renderPlotSvg(plot));
  console.log(`\n#### ${c.title}: \`meshwork perf --topology ${c.topology} --algorithm ${c.algorithm}\`\n`);
  console.log('| size (B) | measured (µs) | Meshwork (µs) | error | measured busbw (GB/s) | Meshwork busbw (GB/s) | Meshwork ran |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  let lo = [], hi = [];
  measured.forEach((m, i) => {
    const sim = rows[i].time_s * 1e6;
    (m.size >= 2 ** 20 ? hi : lo).push(Math.abs(Math.log(sim / m.time)));
    console.log(`| ${m.size} | ${m.time} | ${sim.toFixed(1)} | ${(100 * (sim / m.time - 1)).toFixed(1)} % | ${m.busbw.toFixed(2)} | ${(rows[i].busbw_Bps / 1e9).toFixed(2)} | \`${rows[i].algorithm}\` |`);
  });
  const g = (a) => (100 * (Math.exp(a.reduce((x, y) => x + y, 0) / a.length) - 1)).toFixed(1);
  console.log(`\nGeometric-mean error: below 1 MiB ${g(lo)} %, 1 MiB to 8 GiB ${g(hi)} %.`);
}
