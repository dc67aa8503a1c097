/**
 * ASTRA-sim's system configuration file (the JSON of `--system-configuration`, astra-sim @ 518bd513,
 * Sys.cc) as the settings of a Meshwork workload run, so that a Chakra trace runs with the
 * collectives and costs ASTRA-sim would charge (docs/workloads.md, "ASTRA-sim's network and system
 * files"):
 * - `*-implementation`: one implementation per dimension → the `astra` algorithm of allreduce,
 *   allgather, reduce-scatter and all-to-all, with `preferred-dataset-splits` (splits),
 *   `active-chunks-per-dimension` (active), `collective-optimization` (opt) and, for a dimension
 *   whose implementation is not `ring`, `implD=halvingDoubling|direct|doubleBinaryTree` (the
 *   all-to-all: `ring` or `direct` per dimension); a one* variant first (`oneRing`, `oneDirect`,
 *   `oneHalvingDoubling`) → `impl0=one…`, over every NPU; `directW` / `oneDirectW` → direct with
 *   `window=W`; an all-to-all `directW` on one dimension and one chunk → `direct:window=W` (plain
 *   `direct`: window 0, all at once);
 * - `endpoint-delay` (ns) → α; `local-mem-bw` (GB/s, 10^9 B/s) → the reduction speed
 *   local-mem-bw / 3 (ASTRA-sim reads two operands and writes the result of every reduce step);
 * - `roofline-enabled` with `peak-perf` (TFLOP/s) → compute by the roofline of that device;
 * - one collective in flight per rank (ASTRA-sim's system layer), the `comm` policy `serial`.
 * Keys that change nothing Meshwork times (logging, memory tracing) are listed as ignored; a key
 * that would change ASTRA-sim's timing in a way not modelled here is refused, naming it.
 */
import { InputError } from '../util/errors.js';
import type { ChakraCollective } from './chakra/names.js';

export interface AstraSystemSettings {
  /** Algorithm spec per collective type (the workload's `algorithms`). */
  readonly algorithms: Partial<Record<ChakraCollective, string>>;
  /** α, seconds. */
  readonly alpha: number;
  /** Seconds per reduced byte (model.gammaReduce), or undefined when the file has no local-mem-bw. */
  readonly gammaReduce?: number;
  /** `custom:peak=..,bw=..` when the roofline is enabled. */
  readonly device?: string;
  readonly compute?: 'roofline';
  readonly comm: 'serial';
  /** What runs differently from the whole collective the trace names (fewer implementations than dimensions). */
  readonly notes: readonly string[];
  /** Keys read but without effect here, each with why. */
  readonly ignored: readonly string[];
}

const IMPLEMENTATION_KEYS: ReadonlyArray<readonly [string, ChakraCollective]> = [
  ['all-reduce-implementation', 'allreduce'],
  ['all-gather-implementation', 'allgather'],
  ['reduce-scatter-implementation', 'reduce-scatter'],
  ['all-to-all-implementation', 'alltoall'],
];

/** ASTRA-sim's native implementations of allreduce, allgather and reduce-scatter the astra algorithm models per dimension. */
const ASTRA_IMPLEMENTATIONS = ['ring', 'halvingDoubling', 'direct', 'doubleBinaryTree'];
/** Those of the all-to-all (HalvingDoubling.cc exits on one; direct: no window, but on one dimension in one chunk). */
const ASTRA_ALLTOALL_IMPLEMENTATIONS = ['ring', 'direct'];
/** ASTRA-sim's one* variants: the implementation once over every NPU, the list's later entries unused (GeneralComplexTopology). */
const ONE_VARIANTS = ['oneRing', 'oneDirect', 'oneHalvingDoubling'];
/** The dimensions with an implementation parameter of their own (the astra algorithm's impl0 … impl3). */
const ASTRA_IMPL_DIMENSIONS = 4;
/** What is refused, said in the refusal. */
const NOT_MODELLED = "each optionally directW / oneDirectW: direct with a window";

/** Keys with no effect on what Meshwork times, and why. */
const NO_EFFECT: Readonly<Record<string, string>> = {
  'scheduling-policy': 'the order among collectives waiting at once; Meshwork runs them one at a time per rank in trace order (comm serial)',
  'boost-mode': 'a simulation speed-up of ASTRA-sim that skips identical NPUs',
  'track-local-mem': 'a memory trace output',
  'local-mem-trace-filename': 'a memory trace output',
  'trace-enabled': 'a log output',
  'replay-only': 'replays trace durations, which Meshwork does by default (compute trace)',
  'local-reduction-delay': 'a cost of the LogGP memory bus, which only model-shared-bus 1 uses',
  L: 'a LogGP memory-bus parameter, which only model-shared-bus 1 uses',
  o: 'a LogGP memory-bus parameter, which only model-shared-bus 1 uses',
  g: 'a LogGP memory-bus parameter, which only model-shared-bus 1 uses',
  G: 'a LogGP memory-bus parameter, which only model-shared-bus 1 uses',
  // Keys of earlier ASTRA-sim versions, still written by many system files; 518bd513's Sys.cc does not read them.
  'intra-dimension-scheduling': "not read by ASTRA-sim 518bd513 (an earlier version's key): it keeps a dimension's queue first come first served, as Meshwork does",
  'inter-dimension-scheduling': "not read by ASTRA-sim 518bd513 (an earlier version's key; themis and the offline greedy orders cannot be chosen there): its phases go through the dimensions in ascending order, as Meshwork's",
};

/** Keys whose default ASTRA-sim value is what Meshwork models; another value is refused. */
const MODELLED_DEFAULTS: Readonly<Record<string, unknown>> = {
  'model-shared-bus': 0,
};

function numberOf(doc: Record<string, unknown>, key: string, field: string, opts: { min: number; max?: number; integer?: boolean }): number | undefined {
  const v = doc[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < opts.min || v > (opts.max ?? Infinity) || (opts.integer && !Number.isInteger(v))) {
    const range = opts.max === undefined ? `>= ${opts.min}` : `from ${opts.min} to ${opts.max}`;
    throw new InputError(`${field}.${key}`, v, `${opts.integer ? 'an integer' : 'a number'} ${range}`);
  }
  return v;
}

/** The settings of ASTRA-sim's system file `doc` for a network of `dimensions` dimensions. */
export function astraSystemSettings(doc: unknown, dimensions: number, field = 'astra-system'): AstraSystemSettings {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new InputError(field, doc, "ASTRA-sim's system configuration, a JSON object");
  const d = doc as Record<string, unknown>;
  const known = new Set([...IMPLEMENTATION_KEYS.map(([k]) => k), ...Object.keys(NO_EFFECT), ...Object.keys(MODELLED_DEFAULTS), 'endpoint-delay', 'local-mem-bw', 'preferred-dataset-splits', 'active-chunks-per-dimension', 'collective-optimization', 'roofline-enabled', 'peak-perf']);
  for (const key of Object.keys(d)) {
    // A custom collective is a Chakra trace of sends and receives: it runs as a trace of its own.
    if (key.endsWith('-implementation-custom')) {
      throw new InputError(`${field}.${key}`, JSON.stringify(d[key]), "a native implementation; ASTRA-sim's custom collective is a Chakra trace of sends and receives, which runs on its own: meshwork workload run --trace <its directory> --alpha 0");
    }
    if (!known.has(key)) throw new InputError(`${field}.${key}`, d[key], `ASTRA-sim system keys Meshwork models: ${[...known].sort().join(', ')}`);
  }
  for (const [key, value] of Object.entries(MODELLED_DEFAULTS)) {
    if (d[key] !== undefined && d[key] !== value) throw new InputError(`${field}.${key}`, d[key], `${JSON.stringify(value)} (ASTRA-sim's default; other values are not modelled)`);
  }
  // Each chunk runs on a stream of its own (at most 255 besides the extra chunk: MAX_STREAMS).
  const splits = numberOf(d, 'preferred-dataset-splits', field, { min: 1, max: 255, integer: true }) ?? 1;
  const active = numberOf(d, 'active-chunks-per-dimension', field, { min: 1, max: 256, integer: true }) ?? 1;
  const optimization = d['collective-optimization'] ?? 'baseline';
  if (optimization !== 'baseline' && optimization !== 'localBWAware') throw new InputError(`${field}.collective-optimization`, optimization, 'baseline or localBWAware');
  const algorithms: Partial<Record<ChakraCollective, string>> = {};
  const notes: string[] = [];
  for (const [key, collective] of IMPLEMENTATION_KEYS) {
    const list = d[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) throw new InputError(`${field}.${key}`, list, 'a list of implementations, one per network dimension');
    // ASTRA-sim's direct all-to-all (directW, AllToAll.cc) on one dimension and one chunk is Meshwork's direct:window=W.
    const direct = collective === 'alltoall' && list.length === 1 && dimensions === 1 && splits === 1 ? /^direct(\d*)$/.exec(String(list[0])) : null;
    if (direct) {
      algorithms[collective] = `direct:window=${direct[1] === '' ? 0 : Number(direct[1])}`;
      continue;
    }
    // Each dimension's implementation is a parameter of the astra algorithm (impl0 … impl3); directW
    // and oneDirectW are direct with the astra algorithm's window (one window for the whole list).
    const perDimension: string[] = [];
    const windows = new Set<number>();
    for (const [dim, entry] of list.entries()) {
      const windowed = typeof entry === 'string' ? /^(direct|oneDirect)(\d+)$/.exec(entry) : null;
      // ASTRA-sim's window 0 sends nothing (parallel_reduce = min(0, n − 1)): its collective never ends.
      if (windowed && Number(windowed[2]) < 1) throw new InputError(`${field}.${key}`, entry, `a window of at least 1 (${windowed[1]}1, ${windowed[1]}2, …) or ${windowed[1]} with none`);
      if (windowed) windows.add(Number(windowed[2]));
      const name = windowed ? windowed[1] : entry;
      const modelled = [...(collective === 'alltoall' ? ASTRA_ALLTOALL_IMPLEMENTATIONS : ASTRA_IMPLEMENTATIONS), ...ONE_VARIANTS.filter((one) => collective !== 'alltoall' || one !== 'oneHalvingDoubling')];
      if (typeof name !== 'string' || !modelled.includes(name)) {
        throw new InputError(`${field}.${key}`, entry, `${modelled.join(', ')} per dimension (${NOT_MODELLED})`);
      }
      if (ONE_VARIANTS.includes(name)) {
        // After dimension 0 the one* ring would mix what the earlier phases scattered: no collective closes.
        if (dim > 0) throw new InputError(`${field}.${key}`, JSON.stringify(list), `${name} only as the first entry (ASTRA-sim's ${name} after dimension ${dim - 1}'s phases rings every NPU over data those phases left different on each: no ${collective} closes)`);
        if (list.length > 1) notes.push(`${key}: ASTRA-sim runs ${name} over every NPU and ignores the entries after it`);
        perDimension.push(`,impl0=${name}`);
        break;
      }
      if (name === 'ring') continue;
      if (dim >= ASTRA_IMPL_DIMENSIONS) throw new InputError(`${field}.${key}`, JSON.stringify(list), `ring beyond the first ${ASTRA_IMPL_DIMENSIONS} dimensions`);
      perDimension.push(`,impl${dim}=${name}`);
    }
    if (list.length > dimensions) throw new InputError(`${field}.${key}`, JSON.stringify(list), `at most one implementation per network dimension (${dimensions})`);
    const overEveryNpu = perDimension[0]?.startsWith(',impl0=one') ?? false;
    // ASTRA-sim's logical topology has one dimension per implementation listed: with fewer than the
    // network has, its collective runs within each group of the first ones (GeneralComplexTopology).
    const within = list.length < dimensions && !overEveryNpu ? `,dims=${list.length}` : '';
    if (windows.size > 1) throw new InputError(`${field}.${key}`, JSON.stringify(list), 'one window for every directW entry of the list (Meshwork\'s astra algorithm has one window parameter)');
    const window = windows.size === 1 ? `,window=${[...windows][0]}` : '';
    if (within) notes.push(`${key} lists ${list.length} implementation(s) for a ${dimensions}-dimension network: as in ASTRA-sim, the ${collective} runs within each group of its first ${list.length} dimension(s), not over every NPU`);
    algorithms[collective] = `astra:splits=${splits},active=${active},opt=${optimization}${within}${perDimension.join('')}${window}`;
  }
  const delayNs = numberOf(d, 'endpoint-delay', field, { min: 0 }) ?? 10;
  const memoryGBps = numberOf(d, 'local-mem-bw', field, { min: 0 });
  const roofline = (numberOf(d, 'roofline-enabled', field, { min: 0, integer: true }) ?? 0) !== 0;
  const peak = numberOf(d, 'peak-perf', field, { min: 0 });
  if (roofline && !(peak! > 0 && memoryGBps! > 0)) throw new InputError(`${field}.roofline-enabled`, d['roofline-enabled'], 'roofline-enabled with peak-perf and local-mem-bw both above 0');
  return {
    algorithms,
    alpha: delayNs * 1e-9,
    ...(memoryGBps !== undefined && memoryGBps > 0 ? { gammaReduce: 3 / (memoryGBps * 1e9) } : {}),
    ...(roofline ? { device: `custom:peak=${peak! * 1e12},bw=${memoryGBps! * 1e9}`, compute: 'roofline' as const } : {}),
    comm: 'serial',
    notes,
    ignored: Object.keys(d)
      .filter((k) => k in NO_EFFECT)
      .map((k) => `${k}: ${NO_EFFECT[k]}`),
  };
}
