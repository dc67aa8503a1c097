// Topology generator and exporter benchmarks: Table 1's indirect networks at 2^19 PEs (seed 004),
// a large dragonfly, and the JSON round trip of a 32×32×32 torus.
import { buildTopology, computeMetrics, exportJson, topologyFromDocument } from '../dist/index.js';
import { timed } from './timing.mjs';

export default async function () {
  const rows = [];
  for (const spec of ['fattree:k=2,levels=19', 'omega:524288']) {
    const built = timed(() => buildTopology(spec));
    const t = built.value;
    rows.push({ name: `build ${spec}`, value: built.seconds.toFixed(2), unit: 's', target: '', note: `${t.numNodes} nodes, ${t.numChannels} channels` });
    const m = timed(() => computeMetrics(t, { bisection: false }));
    const d = m.value.distances;
    rows.push({ name: `metrics ${spec}`, value: m.seconds.toFixed(2), unit: 's', target: '', note: `method ${d.method}, mean with self ${d.meanWithSelf.toFixed(4)}, diameter ${d.diameter}` });
  }
  const df = timed(() => buildTopology('dragonfly:h=8'));
  rows.push({ name: 'build dragonfly:h=8', value: df.seconds.toFixed(2), unit: 's', target: '', note: `${df.value.numEndpoints} terminals, ${df.value.numChannels} channels` });
  const torus = buildTopology('torus:32x32x32');
  const json = timed(() => exportJson(torus));
  rows.push({ name: 'export json torus:32x32x32', value: json.seconds.toFixed(2), unit: 's', target: '', note: `${(json.value.length / 2 ** 20).toFixed(1)} MiB` });
  const back = timed(() => topologyFromDocument(JSON.parse(json.value)));
  rows.push({ name: 'read back json torus:32x32x32', value: back.seconds.toFixed(2), unit: 's', target: '', note: `${back.value.numChannels} channels` });
  return rows;
}
