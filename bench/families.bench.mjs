// Issue 14 "Performance": exact metrics of a ~1,000-router Slim Fly and PolarFly and a 16×16×16
// HyperX (target < 2 s each), and the packet engine with adaptive routing on a 1,024-router HyperX
// against dimension-order routing on the same network (target: within 2× in router-cycles per
// second). CPU seconds (process.cpuUsage) are reported; wall time suffers from other processes.
import { buildTopology, computeMetrics, simulateTraffic } from '../dist/index.js';
import { timed } from './timing.mjs';

export default async function () {
  const rows = [];
  for (const spec of ['slimfly:q=23', 'polarfly:q=31', 'hyperx:16x16x16']) {
    const built = timed(() => buildTopology(spec));
    const m = timed(() => computeMetrics(built.value, { bisection: false }));
    const d = m.value.distances;
    rows.push({
      name: `build + exact metrics ${spec}`,
      value: (built.cpu + m.cpu).toFixed(3),
      unit: 'cpu s',
      target: '< 2 s',
      note: `${built.value.params.routers} routers, build ${built.cpu.toFixed(3)} s; ${d.method} (${d.searches} BFS), diameter ${d.diameter}, mean ${d.meanWithSelf.toFixed(6)}`,
    });
  }
  // 1,024 routers: hyperx:32x32, one terminal each, uniform traffic at 0.2 flits/node/cycle for a
  // fixed 3,000 cycles, 4 VCs (a multiple of every routing's classes; DAL's 2n = 4). DAL re-routes
  // at every router (HopByHopRouting), so its row is the cost of a route computation per hop.
  const topology = buildTopology('hyperx:32x32');
  const cycles = 3000;
  const rate = {};
  for (const routing of ['default', 'adaptive', 'ugal-l', 'ugal-g', 'dal']) {
    let best = Infinity;
    let hops = 0;
    for (let i = 0; i < 2; i++) {
      const r = timed(() =>
        simulateTraffic({ topology, pattern: 'uniform', rates: [0.2], preset: 'default', config: { vcs: 4, seed: 1 }, measurement: 'horizon', horizon: cycles, routingName: routing === 'default' ? undefined : routing }),
      );
      best = Math.min(best, r.cpu);
      hops = r.value.points[0].hops ?? hops;
    }
    rate[routing] = (1024 * cycles) / best;
    rows.push({
      name: `packet hyperx:32x32 ${routing}, uniform 0.2, ${cycles} cycles`,
      value: (rate[routing] / 1e6).toFixed(3),
      unit: 'M router-cycles/cpu s',
      target: routing === 'default' ? '' : 'within 2x of default (dimension order)',
      note: routing === 'default' ? 'dimension order' : `${(rate.default / rate[routing]).toFixed(2)}x slower than dimension order`,
    });
  }
  return rows;
}
