// Topology construction and metric benchmarks (issue 2, "Performance").
import { computeMetrics, randomDigraph, torus } from '../dist/index.js';

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

function memoryGiB() {
  return (process.memoryUsage().rss / 2 ** 30).toFixed(2);
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
  rows.push({ name: 'all-pairs BFS random 16384 nodes, out-degree 8', value: apsp.seconds.toFixed(2), unit: 's', target: '< 60 s', note: `method ${apsp.value.distances.method}, mean ${apsp.value.distances.meanWithSelf.toFixed(4)}, rss ${memoryGiB()} GiB` });
  return rows;
}
