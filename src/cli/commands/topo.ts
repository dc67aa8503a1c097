import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { InputError } from '../../util/errors.js';
import { computeMetricsParallel, defaultWorkers } from '../../node/metrics-workers.js';
import {
  buildTopology,
  DISTANCE_METHODS,
  formatMetrics,
  metricsRecord,
  type DistanceMethod,
  type Topology,
} from '../../topology/index.js';
import { print } from '../io.js';

interface TopoOptions {
  json?: boolean;
  mapping?: string;
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

/**
 * Rank order for --mapping: "identity", "reverse", or a file holding a permutation of the ranks
 * (a JSON array, or integers separated by white space). Metrics over all pairs do not depend on it;
 * it is recorded in the params.
 */
function applyMapping(t: Topology, mapping: string | undefined): Topology {
  if (mapping === undefined || mapping === 'identity') return t;
  const n = t.numEndpoints;
  let perm: number[];
  if (mapping === 'reverse') {
    perm = Array.from({ length: n }, (_, r) => n - 1 - r);
  } else {
    let text: string;
    try {
      text = readFileSync(mapping, 'utf8');
    } catch {
      throw new InputError('mapping', mapping, 'identity, reverse, or a readable permutation file');
    }
    const trimmed = text.trim();
    let parsed: unknown;
    try {
      parsed = trimmed.startsWith('[') ? JSON.parse(trimmed) : trimmed.split(/\s+/).map(Number);
    } catch {
      throw new InputError('mapping', mapping, 'a JSON array or white-space separated ranks');
    }
    perm = parsed as number[];
  }
  const seen = new Uint8Array(n);
  const ok =
    Array.isArray(perm) &&
    perm.length === n &&
    perm.every((r) => Number.isInteger(r) && r >= 0 && r < n && seen[r]++ === 0);
  if (!ok) throw new InputError('mapping', mapping, `a permutation of the ranks 0..${n - 1}`);
  return t.withRankOrder(Int32Array.from(perm), mapping);
}

export function register(program: Command): void {
  program
    .command('topo')
    .description('build a topology from a spec (e.g. torus:8x8x8) and print its exact static metrics')
    .argument('<spec>', 'topology spec, e.g. torus:8x8,bw=25Gbps,lat=100ns')
    .option('--json', 'machine-readable output')
    .option('--mapping <m>', 'rank order: identity, reverse, or a permutation file')
    .option('--method <m>', `distance method: auto, ${DISTANCE_METHODS.join(', ')}`, 'auto')
    .option('--samples <n>', 'sampled method: number of BFS sources', '256')
    .option('--seed <n>', 'sampled method: seed of the source choice', '1')
    .option('--no-bisection', 'skip the bisection width')
    .option('--workers <n>', `threads for large BFS runs (default ${defaultWorkers()})`)
    .option('--timing', 'add the elapsed seconds to --json output (makes it non-deterministic)')
    .action(async (specText: string, opts: TopoOptions) => {
      const method = opts.method ?? 'auto';
      if (method !== 'auto' && !DISTANCE_METHODS.includes(method as DistanceMethod)) {
        throw new InputError('method', method, `auto, ${DISTANCE_METHODS.join(', ')}`);
      }
      const samples = integerOption('samples', opts.samples, 2);
      const seed = integerOption('seed', opts.seed, 0);
      const workers = integerOption('workers', opts.workers, 1) ?? defaultWorkers();
      if (workers > 64) throw new InputError('workers', opts.workers, 'an integer from 1 to 64');
      const topology = applyMapping(buildTopology(specText), opts.mapping);
      const metrics = await computeMetricsParallel(
        topology,
        { method: method as DistanceMethod | 'auto', samples, seed, bisection: opts.bisection !== false },
        workers,
      );
      print(opts.json ? JSON.stringify(metricsRecord(metrics, { timing: opts.timing }), null, 2) : formatMetrics(metrics));
    });
}
