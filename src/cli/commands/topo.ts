import type { Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { closedFormMetrics } from '../../topology/metrics/closed-form.js';
import type { TopologyMetrics } from '../../topology/metrics/compute.js';
import { loadTopology } from '../../node/load-topology.js';
import { FAIL_HELP } from '../help.js';
import { computeMetricsParallel, defaultWorkers } from '../../node/metrics-workers.js';
import { DISTANCE_METHODS, checkAllPairsWork, formatMetrics, metricsRecord, type DistanceMethod } from '../../topology/metrics/index.js';
import { checkSize } from '../../topology/builder.js';
import { estimateSpecSize } from '../../topology/estimate.js';
import { print } from '../io.js';
import { progressBar } from '../progress.js';
import { familiesHelp } from '../families-help.js';

interface TopoOptions {
  json?: boolean;
  mapping?: string;
  fail?: string;
  method?: string;
  samples?: string;
  seed?: string;
  bisection?: boolean;
  timing?: boolean;
  workers?: string;
}

function integerOption(field: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new InputError(field, text, `an integer >= ${min}`);
  }
  return value;
}

/** Above this many nodes, `topo` of a mesh, torus or hypercube does not build the graph (about 300 MB and 1 s at the limit). */
export const CLOSED_FORM_NODES = 2 ** 20;

/** Closed-form metrics of a large Cartesian spec; refuses what would need the graph, naming the limit. */
function closedFormTopo(specText: string, nodes: number, method: string, opts: TopoOptions): TopologyMetrics | undefined {
  const metrics = closedFormMetrics(specText, { bisection: opts.bisection !== false, note: `closed form from the spec; the graph (${nodes} nodes, above 2^20) is not built` });
  if (!metrics) return undefined;
  const limit = `above 2^20 nodes (this one has ${nodes}) topo answers from closed forms, without building the graph`;
  if (method !== 'auto' && method !== 'product') throw new InputError('method', method, `auto or product: ${limit}`);
  if (opts.mapping !== undefined) throw new InputError('mapping', opts.mapping, `no mapping (distances do not depend on it): ${limit}`);
  return metrics;
}

export function register(program: Command): void {
  program
    .command('topo')
    .description('build a topology from a spec (e.g. torus:8x8x8) and print its exact static metrics')
    .argument('<spec>', 'topology spec (torus:8x8,bw=25Gbps,lat=100ns), or file:graph.json / net.yaml')
    .option('--json', 'machine-readable output')
    .option('--mapping <m>', 'rank order: identity, reverse, random:seed=N, snake, or a permutation file')
    .option('--fail <spec>', FAIL_HELP)
    .option('--method <m>', `distance method: auto, ${DISTANCE_METHODS.join(', ')}`, 'auto')
    .option('--samples <n>', 'sampled method: number of BFS sources (default 256; fewer, at least 32, above 4M channels)')
    .option('--seed <n>', 'sampled method: seed of the source choice', '1')
    .option('--no-bisection', 'skip the bisection width')
    .option('--workers <n>', `threads for large BFS runs (default ${defaultWorkers()})`)
    .option('--timing', 'add the elapsed seconds to --json output (makes it non-deterministic)')
    .addHelpText('after', familiesHelp)
    .action(async (specText: string, opts: TopoOptions) => {
      const method = opts.method ?? 'auto';
      if (method !== 'auto' && !DISTANCE_METHODS.includes(method as DistanceMethod)) {
        throw new InputError('method', method, `auto, ${DISTANCE_METHODS.join(', ')}`);
      }
      const samples = integerOption('samples', opts.samples, 2);
      // auto may choose the sampled method (a large graph); another method has no sources to count.
      if (samples !== undefined && method !== 'auto' && method !== 'sampled') throw new InputError('samples', opts.samples, `nothing with --method ${method} (sources of the sampled method, or of auto when it samples)`);
      const seed = integerOption('seed', opts.seed, 0);
      const workers = integerOption('workers', opts.workers, 1) ?? defaultWorkers();
      if (workers > 64) throw new InputError('workers', opts.workers, 'an integer from 1 to 64');
      const estimate = estimateSpecSize(specText);
      if (estimate) {
        checkSize('topology', estimate.nodes);
        if (method === 'all-pairs') checkAllPairsWork(estimate.endpoints, estimate.channels);
        // Large meshes, tori and hypercubes answer from closed forms: building them took 5 GB and 20 s.
        const closed = estimate.nodes > CLOSED_FORM_NODES ? closedFormTopo(specText, estimate.nodes, method, opts) : undefined;
        if (closed) {
          print(opts.json ? JSON.stringify(metricsRecord(closed, { timing: opts.timing }), null, 2) : formatMetrics(closed));
          return;
        }
        // The channel limit is a memory limit of the built graph: closed forms above build nothing.
        checkSize('topology', estimate.nodes, estimate.channels);
      }
      // A single endpoint is refused there, as by every command (topology/endpoint-count.ts).
      const topology = loadTopology(specText, { mapping: opts.mapping, fail: opts.fail });
      // The BFS searches are nearly all of a large run's time (a 40,000-router Jellyfish: 25 s).
      const bar = progressBar('distances', { json: opts.json });
      let metrics;
      try {
        metrics = await computeMetricsParallel(
          topology,
          { method: method as DistanceMethod | 'auto', samples, seed, bisection: opts.bisection !== false, onProgress: (f) => bar.update(f) },
          workers,
        );
      } finally {
        bar.stop();
      }
      print(opts.json ? JSON.stringify(metricsRecord(metrics, { timing: opts.timing }), null, 2) : formatMetrics(metrics));
    });
}
