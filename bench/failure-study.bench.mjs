// The failure study of docs/failures.md (issue 14): makespan of alltoall (pairwise, 16 KiB blocks)
// and allreduce (ring, 16 MiB) at flow level on a 16×16 torus, a 16×16 HyperX and a Slim Fly of
// similar size (q = 11: 242 routers), one rank per router, as 0, 2, 5 and 10 % of the network links
// fail (seeds 1, 2, 3; routing: shortest path over the survivors). Run alone with
// `npm run bench failure-study`; the rows are the table in docs/failures.md.
import { applyFailures, assertRanksConnected, buildTopology, parseFailures, runCollectiveFlow } from '../dist/index.js';

const NETWORKS = ['torus:16x16', 'hyperx:16x16', 'slimfly:q=11,p=1'];
const LEVELS = [0, 2, 5, 10];
const SEEDS = [1, 2, 3];
const RUNS = [
  { collective: 'alltoall', algorithm: 'pairwise', size: 16 << 10 },
  { collective: 'allreduce', algorithm: 'ring', size: 16 << 20 },
];

export default async function () {
  const rows = [];
  for (const spec of NETWORKS) {
    const intact = buildTopology(spec);
    for (const run of RUNS) {
      let base = 0;
      for (const level of LEVELS) {
        const spans = [];
        for (const seed of level === 0 ? [1] : SEEDS) {
          const topology = level === 0 ? intact : applyFailures(intact, parseFailures(`links=${level}%,seed=${seed}`));
          assertRanksConnected(topology);
          spans.push(runCollectiveFlow({ topology, ...run }).makespan_s);
        }
        const mean = spans.reduce((a, b) => a + b, 0) / spans.length;
        if (level === 0) base = mean;
        rows.push({
          name: `${spec} ${run.collective} links=${level}%`,
          value: (mean * 1e3).toFixed(3),
          unit: 'ms',
          target: '',
          note: `${(mean / base).toFixed(3)}x intact; seeds ${level === 0 ? '-' : SEEDS.join(',')}: ${spans.map((s) => (s * 1e3).toFixed(3)).join(' / ')} ms`,
        });
      }
    }
  }
  return rows;
}
