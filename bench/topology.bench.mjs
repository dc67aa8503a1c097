// Topology construction and metric benchmarks (issue: foundation).
import { torus } from '../dist/index.js';

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

export default async function () {
  const { seconds } = timed(() => torus([32, 32, 32]));
  return [{ name: 'build torus 32x32x32', value: seconds.toFixed(3), unit: 's', target: '', note: 'construction only' }];
}
