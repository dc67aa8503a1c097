// Regenerates the figures of docs/validation.md: Meshwork's nccl-tests sweep against each measured
// table of test/reference/hardware/ (busbw against size, SVG) and the per-row table in Markdown.
// Run after `npm run build`: node scripts/validation-report.mjs > /tmp/rows.md
import { readFileSync, writeFileSync } from 'node:fs';
import { buildTopology, perfSweep, compareWithMeasured, linePlot, renderPlotSvg } from '../dist/index.js';
// The presets' calibration anchors (not part of the curated package API).
import { LIBRARY_MACHINES } from '../dist/collectives/algorithms/library/tuning.js';

const CASES = [
  { id: 'mi300x', file: 'mi300x_1node_8gpu_allreduce.csv', topology: 'mi300x', algorithm: 'rccl', title: 'MI300X, 8 GPUs, rccl-tests all_reduce_perf' },
  { id: 'a100-oci', file: 'a100_oci_1node_8gpu_allreduce.csv', topology: 'hgx-a100', algorithm: 'nccl', title: 'A100 (OCI BM.GPU4.8), 8 GPUs, nccl-tests all_reduce_perf' },
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
  // Rows a preset parameter was solved from (anchors), apart from the held-out rest.
  const anchors = new Set(Object.values(LIBRARY_MACHINES).flatMap((m) => (m.anchors ?? []).filter((a) => a.table === c.file).map((a) => a.size_bytes)));
  const cmp = compareWithMeasured({ topology: buildTopology(c.topology), collective: 'allreduce', algorithm: c.algorithm }, measured.map((m) => ({ size_bytes: m.size, time_s: m.time * 1e-6, busbw_Bps: m.busbw * 1e9 })), anchors);
  console.log('| size (B) | measured (µs) | Meshwork (µs) | error | measured busbw (GB/s) | Meshwork busbw (GB/s) | row | Meshwork ran |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |');
  for (const r of cmp.rows) {
    const m = r.measured;
    console.log(`| ${m.size_bytes} | ${+(m.time_s * 1e6).toPrecision(6)} | ${(r.meshwork.time_s * 1e6).toFixed(1)} | ${(100 * r.error).toFixed(1)} % | ${(m.busbw_Bps / 1e9).toFixed(2)} | ${(r.meshwork.busbw_Bps / 1e9).toFixed(2)} | ${r.anchor ? 'anchor' : 'held out'} | \`${r.meshwork.algorithm}\` |`);
  }
  const g = (x) => (100 * x).toFixed(1);
  console.log(`\nGeometric-mean error, all rows: below 1 MiB ${g(cmp.geomeanBelow1MiB)} %, 1 MiB to 8 GiB ${g(cmp.geomeanFrom1MiB)} %; held-out rows: below 1 MiB ${g(cmp.heldOutBelow1MiB)} %, 1 MiB to 8 GiB ${g(cmp.heldOutFrom1MiB)} %.`);
}
