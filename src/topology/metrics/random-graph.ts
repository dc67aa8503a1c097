/**
 * A seeded random directed graph with no symmetry to exploit: the workload of exact all-pairs BFS
 * (tests, benchmarks), and a reference irregular network.
 */
import { InputError } from '../../util/errors.js';
import { Rng } from '../../util/rng.js';
import { checkSize, TopologyBuilder } from '../builder.js';
import { NodeKind, type Topology } from '../graph.js';

/** Every node gets `outDegree` channels to distinct other nodes chosen uniformly at random. */
export function randomDigraph(nodes: number, outDegree: number, seed: number): Topology {
  if (!Number.isInteger(nodes) || nodes < 2) throw new InputError('random.nodes', nodes, 'an integer >= 2');
  if (!Number.isInteger(outDegree) || outDegree < 1 || outDegree >= nodes) {
    throw new InputError('random.degree', outDegree, `an integer from 1 to ${nodes - 1}`);
  }
  checkSize('random', nodes, nodes * outDegree);
  const rng = new Rng(seed);
  const b = new TopologyBuilder(0, { nodes, channels: nodes * outDegree });
  b.addNodes(NodeKind.Terminal, nodes);
  const mark = new Int32Array(nodes).fill(-1);
  for (let v = 0; v < nodes; v++) {
    mark[v] = v;
    for (let added = 0; added < outDegree; ) {
      const w = rng.int(nodes);
      if (mark[w] === v) continue;
      mark[w] = v;
      b.addChannel(v, w, 'random');
      added++;
    }
  }
  return b.build({
    family: 'random',
    spec: `random:${nodes},degree=${outDegree},seed=${seed}`,
    params: { nodes, outDegree, seed },
    distanceConvention: 'router-hops',
  });
}
