// Topology construction and metric benchmarks (issue 2, "Performance").
import { buildTopology, computeMetrics, findFamily, randomDigraph, torus } from '../dist/index.js';
import { computeMetricsParallel } from '../dist/node/index.js';

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

/** Peak resident memory of this process so far (maxRSS is in KiB), an upper bound for the last step. */
function memoryGiB() {
  return (process.resourceUsage().maxRSS / 2 ** 20).toFixed(2);
}

export default async function () {
  const rows = [];
  const build = timed(() => torus([32, 32, 32]));
  rows.push({ name: 'build torus 32x32x32', value: build.seconds.toFixed(3), unit: 's', target: '', note: 'construction only' });
  const t = build.value;
  const torusAuto = timed(() => computeMetrics(t));
  rows.push({ name: 'metrics torus 32x32x32 (auto)', value: torusAuto.seconds.toFixed(3), unit: 's', target: '< 2 s', note: `method ${torusAuto.value.distances.method}, mean ${torusAuto.value.distances.meanWithSelf}` });
  const torusSym = timed(() => computeMetrics(t, { method: 'symmetry' }));
  rows.push({ name: 'metrics torus 32x32x32 (symmetry BFS)', value: torusSym.seconds.toFixed(3), unit: 's', target: '< 2 s', note: `1 BFS source, diameter ${torusSym.value.distances.diameter}` });
  const g = randomDigraph(16384, 8, 1);
  const apsp = timed(() => computeMetrics(g, { bisection: false }));
  rows.push({ name: 'all-pairs BFS random 16384 nodes, out-degree 8', value: apsp.seconds.toFixed(2), unit: 's', target: '< 60 s', note: `method ${apsp.value.distances.method}, mean ${apsp.value.distances.meanWithSelf.toFixed(4)}, peak rss ${memoryGiB()} GiB` });
  const t0 = performance.now();
  const parallel = await computeMetricsParallel(g, { bisection: false }, 2);
  const same = JSON.stringify(parallel.distances.histogram) === JSON.stringify(apsp.value.distances.histogram);
  rows.push({ name: 'all-pairs BFS random 16384, 2 worker threads', value: ((performance.now() - t0) / 1000).toFixed(2), unit: 's', target: '< 60 s', note: `histogram ${same ? 'identical' : 'DIFFERS'} to single-threaded` });
  // Seed 004's 524,288-node (1,1,1)-MDCE: one BFS source per ring position (8 sources).
  if (findFamily('mdce')) {
    const mdce = timed(() => buildTopology('mdce:B=1,C=1,P=1,n=8'));
    rows.push({ name: 'build mdce:B=1,C=1,P=1,n=8 (524,288 nodes)', value: mdce.seconds.toFixed(2), unit: 's', target: '', note: 'construction only' });
    const exact = timed(() => computeMetrics(mdce.value));
    const d = exact.value.distances;
    rows.push({ name: 'metrics mdce:B=1,C=1,P=1,n=8', value: exact.seconds.toFixed(2), unit: 's', target: '< 10 s, < 2 GiB', note: `method ${d.method} (${d.searches} sources), diameter ${d.diameter}, mean ${d.meanWithSelf.toFixed(4)}, peak rss ${memoryGiB()} GiB` });
  }
  return rows;
}
