// Flow-level engine benchmarks (issue 4). Targets: hop-grouped alltoall on a 32×32×32 torus at
// 1 MiB per pair under 60 s and 8 GiB; pairwise alltoall on a 32×32 torus (over 1 M flows) under
// 30 s. Also reports seed 000's efficiencies on an 8×8 torus at 1 MiB (reported, not asserted).
import { buildTopology, runCollectiveFlow } from '../dist/index.js';

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

function gib() {
  return (process.memoryUsage().rss / 2 ** 30).toFixed(2);
}

export default async function () {
  const rows = [];
  const quick = process.env.MESHWORK_BENCH_QUICK === '1';

  // Seed 000 on 8×8 at 1 MiB: efficiency against the topology bound (flow level cannot see the
  // router effects the seed is about; the packet engine judges its claim).
  const t8 = buildTopology('torus:8x8');
  for (const alg of ['hop-grouped', 'per-step-barrier', 'linear', 'hop-grouped:areas=2n']) {
    const { value: r, seconds } = timed(() => runCollectiveFlow({ topology: t8, collective: 'alltoall', algorithm: alg, size: 1 << 20 }));
    rows.push({ name: `seed 000 efficiency ${alg} torus:8x8 1MiB`, value: r.efficiency.toFixed(3), unit: 'bound/makespan', target: 'reported', note: `makespan ${(r.makespan_s * 1e3).toFixed(2)} ms, schedule bound ${(r.schedule_bound_s * 1e3).toFixed(2)} ms, ${seconds.toFixed(2)} s` });
  }

  const pairwiseShape = quick ? 'torus:16x16' : 'torus:32x32';
  for (const mode of ['local']) {
    const t = buildTopology(pairwiseShape);
    const { value: r, seconds } = timed(() => runCollectiveFlow({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size: 1 << 20, model: { rateUpdate: mode } }));
    rows.push({ name: `pairwise alltoall ${pairwiseShape} 1MiB (rateUpdate=${mode})`, value: seconds.toFixed(1), unit: 's', target: '< 30 s', note: `${r.stats.flows} flows, ${(r.stats.events / seconds).toFixed(0)} events/s, ${r.stats.rate_updates} rate updates, RSS ${gib()} GiB` });
  }

  const hopShape = quick ? 'torus:16x16x16' : 'torus:32x32x32';
  {
    const t = buildTopology(hopShape);
    const name = `hop-grouped alltoall ${hopShape} 1MiB`;
    try {
      const { value: r, seconds } = timed(() => runCollectiveFlow({ topology: t, collective: 'alltoall', algorithm: 'hop-grouped', size: 1 << 20 }));
      rows.push({ name, value: seconds.toFixed(1), unit: 's', target: '< 60 s, < 8 GiB', note: `${r.stats.flows} flows, ${(r.stats.events / seconds).toFixed(0)} events/s, RSS ${gib()} GiB, efficiency ${r.efficiency.toFixed(3)}` });
    } catch (e) {
      // 32×32×32 is 2^30 blocks, above the flow level's limit (MAX_ALLTOALL_BLOCKS): refused at once.
      if (e?.name !== 'LimitError') throw e;
      rows.push({ name, value: 'refused', unit: '', target: '< 60 s, < 8 GiB', note: `${e.message}; RSS ${gib()} GiB` });
    }
  }
  return rows;
}
