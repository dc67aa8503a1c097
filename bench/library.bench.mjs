// Issue 25: an nccl-tests size sweep at flow level, 8 B to 8 GiB by ×2 (31 sizes), on 16 ranks
// (two HGX H100 nodes, NCCL's own pick per size), target < 10 s; and the 8-rank MI300X sweep.
// CPU seconds (process.cpuUsage): wall time suffers from the other processes on the machine.
import { buildTopology, perfSweep } from '../dist/index.js';
import { timed } from './timing.mjs';

export default async function () {
  const rows = [];
  for (const [spec, algorithm] of [['hgx-h100:nodes=2,nicbw=200Gbps', 'nccl:machine=h100-tcpxo'], ['hgx-h100:nodes=2', 'nccl'], ['mi300x', 'rccl']]) {
    const topology = buildTopology(spec);
    const runs = [0, 1, 2].map(() => timed(() => perfSweep({ topology, collective: 'allreduce', algorithm, minBytes: 8, maxBytes: 8 * 2 ** 30, factor: 2 })));
    const sorted = runs.map((r) => r.cpu).sort((a, b) => a - b);
    rows.push({
      name: `perf sweep 8 B-8 GiB x2, ${topology.numEndpoints} ranks, ${spec}, ${algorithm}`,
      value: sorted[1].toFixed(2),
      unit: 'cpu s (median of 3)',
      target: topology.numEndpoints === 16 ? '< 10 s' : '',
      note: `${runs[0].value.length} sizes; runs ${sorted.map((x) => x.toFixed(2)).join(', ')}`,
    });
  }
  return rows;
}
