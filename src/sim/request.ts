/**
 * RunRequest: one declared, JSON-serialisable value that says everything a run needs. Every front
 * end builds one (CLI argv, a sweep point, a Studio form, a saved file for `meshwork run --request`)
 * and the library alone prepares it (`prepare`, sim/prepare.ts) and runs it (`simulate`).
 * Collective runs, schedule files and synthetic traffic are three workload kinds of the same
 * request; every result records the resolved request, so any number can be re-run exactly.
 *
 * Units are the library's: bytes, seconds, bytes/s; traffic rates in flits/node/cycle.
 */
import * as z from 'zod';
import { InputError } from '../util/errors.js';
import { COLLECTIVES } from '../collectives/types.js';
import { TORUS_TIE_BREAKS } from '../routing/dimension-order.js';
import { PRESET_NAMES } from './packet/config.js';
import { FLOW_PRESET_NAMES } from './flow/presets.js';
import { MODEL_OPTIONS, optionJsonSchema } from './options-schema.js';
import { RANDOM_STREAMS, RATE_UNITS } from './packet/traffic-run.js';
import { GRID_EDGES } from './traffic/patterns.js';
import { MAX_RATES } from '../util/rates.js';
import { SCHEDULE_FILE_FORMATS } from '../interop/schedule-formats.js';
import { CHAKRA_COLLECTIVES, DEPENDENCY_KINDS } from '../workload/chakra/names.js';

/** The time model: one field per row of the option schema (library units), plus splitTies (set by the routing). */
const ModelSchema = z
  .object({
    ...Object.fromEntries(
      MODEL_OPTIONS.map((row) => {
        const described = (s: z.ZodType): z.ZodType => s.optional().describe(String(optionJsonSchema(row).description));
        if (row.unit === 'choice') return [row.key, described(z.enum(row.choices as [string, ...string[]]))];
        if (row.unit === 'factors' || row.unit === 'overheads') return [row.key, described(z.string())];
        let n = row.unit === 'int' ? z.number().int() : z.number();
        n = n.min(row.min ?? 0);
        if (row.max !== undefined) n = n.max(row.max);
        return [row.key, described(row.unit === 'bandwidth' && !row.toModel ? n.nullable() : n)];
      }),
    ),
    splitTies: z.boolean().optional().describe('split each flow over the even and odd salt routes (default: when the routing splits halves)'),
  })
  .strict();

const CollectiveWorkload = z
  .object({
    kind: z.literal('collective'),
    collective: z.enum(COLLECTIVES as unknown as [string, ...string[]]),
    algorithm: z.string().min(1).describe('algorithm spec, e.g. pairwise or hop-grouped:dir=shortest'),
    size: z.number().int().min(0).optional().describe('bytes, in the collective\'s size meaning (block, buffer or message); required except for alltoallv with sizes and barrier'),
    sizes: z
      .union([
        z.string().min(1).describe('a generator (uniform:size=B, random:max=B[,min=0,seed=1], diagonal:size=B[,far=0]) or, through the caller\'s RunIo, a file of n x n byte counts'),
        z.array(z.array(z.number().int().min(0))).min(1).describe('n x n byte counts, row = sender'),
      ])
      .optional()
      .describe('alltoallv only: per-pair sizes, bytes from rank i (row) to rank j (column)'),
    root: z.number().int().min(0).optional(),
    peer: z.number().int().min(0).optional().describe('one-to-one: the destination rank (default: the last rank)'),
  })
  .strict();

const ScheduleWorkload = z
  .object({
    kind: z.literal('schedule'),
    file: z.string().min(1).describe('a Meshwork schedule JSON or MSCCL-XML file, read through the caller\'s RunIo'),
    format: z.enum(SCHEDULE_FILE_FORMATS as unknown as [string, ...string[]]).optional().describe('the file format (default: told from the content)'),
    size: z.number().int().min(0).optional().describe('bytes; required by MSCCL-XML (which counts chunks)'),
  })
  .strict();

const TrafficWorkload = z
  .object({
    kind: z.literal('traffic'),
    pattern: z.string().min(1).describe('a registered traffic pattern, e.g. uniform'),
    rates: z.array(z.number().gt(0).max(1)).min(1).max(MAX_RATES).describe('injection rates, flits/node/cycle'),
    measurement: z
      .enum(['booksim', 'horizon', 'batch'])
      .optional()
      .describe("BookSim's warm-up, samples and drain (default), a fixed horizon, or BookSim's batch mode (sim_type = batch: one rate, not read)"),
    horizon: z.number().int().min(1).max(1e8).optional().describe('cycles, with measurement horizon (default 10000)'),
    batch: z
      .object({
        size: z.number().int().min(1).optional().describe('packets per node per batch (BookSim batch_size, default 1000)'),
        count: z.number().int().min(1).optional().describe('batches (BookSim batch_count, default 1)'),
        maxOutstanding: z.number().int().min(0).optional().describe('packets a node may have unretired, 0 no limit (BookSim max_outstanding_requests, default 0)'),
      })
      .strict()
      .optional()
      .describe('with measurement batch: batch size, count and outstanding limit'),
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional().describe('traffic and routing seed (default 1)'),
    rateUnit: z.enum(RATE_UNITS as unknown as [string, ...string[]]).optional().describe("what a rate counts per node per cycle: flits (default) or packets (BookSim's injection_rate_uses_flits = 0)"),
    randomStream: z
      .enum(RANDOM_STREAMS as unknown as [string, ...string[]])
      .optional()
      .describe("the traffic source's random numbers: meshwork (default) or booksim (BookSim 2.0's Knuth generators from the seed, drawn in its order)"),
    patternOptions: z
      .object({
        hotRank: z.number().int().min(0).optional().describe('hotspot: the hot rank (default 0)'),
        hotFraction: z.number().min(0).max(1).optional().describe('hotspot: the share of packets sent to the hot rank'),
        hotRanks: z.array(z.number().int().min(0)).min(1).optional().describe("hotspot: several hot ranks in place of hotRank (BookSim's hotspot({h1,h2,...}))"),
        hotWeights: z.array(z.number().int().min(1)).min(1).optional().describe('hotspot: one weight per hot rank (default 1 each): a hot packet picks a rank in proportion'),
        exclude: z.array(z.number().int().min(0)).optional().describe("background: the ranks no packet is sent to (BookSim's background({e1,e2,...}))"),
        permSeed: z.number().int().min(0).max(2 ** 31 - 1).optional().describe("randperm: the permutation's seed (default 1, or 0 with permutation booksim)"),
        permutation: z.enum(['meshwork', 'booksim']).optional().describe("randperm: Meshwork's own shuffle (default) or BookSim 2.0's permutation for perm_seed = permSeed"),
        quarterBy: z.enum(['rings', 'address']).optional().describe('quarter: rings (DCE/MDCE) or address'),
        edges: z.enum(GRID_EDGES as unknown as [string, ...string[]]).optional().describe('meshemu, localized: wrap or open grid edges'),
        coordinates: z.enum(['own', 'address']).optional().describe("localized: the topology's own coordinates or the address grid"),
        digits: z
          .object({ k: z.number().int().min(2).optional(), n: z.number().int().min(1).optional(), xr: z.number().int().min(1).optional() })
          .strict()
          .optional()
          .describe("tornado, neighbor, badperm-yarc: BookSim's k, n, xr: n digits of radix xr·k (default the topology's k and n, xr 1); bad-dragon: BookSim's dragonflynew k (groups of 2k·k terminals)"),
      })
      .strict()
      .optional(),
    measurementOptions: z
      .object({
        warmupPeriods: z.number().int().min(0).optional(),
        samplePeriod: z.number().int().min(1).optional(),
        maxSamples: z.number().int().min(1).optional(),
        latencyThreshold: z.number().optional(),
        warmupThreshold: z.number().optional(),
        stoppingThreshold: z.number().optional(),
        accWarmupThreshold: z.number().optional(),
        accStoppingThreshold: z.number().optional(),
        simType: z.enum(['latency', 'throughput']).optional(),
        includeQueuing: z.boolean().optional().describe("BookSim include_queuing: false stamps packets when generated, so latency leaves out the source queue"),
      })
      .strict()
      .optional()
      .describe("BookSim measurement overrides (warm-up, sample period, thresholds; BookSim's names in docs/packet.md)"),
    onOff: z
      .object({ alpha: z.number().max(1), beta: z.number().max(1), r1: z.number().max(1) })
      .strict()
      .optional()
      .describe("on/off injection (BookSim injection_process = on_off): burst_alpha, burst_beta, burst_r1, exactly one negative (derived from the rate)"),
    vcsPerClass: z.number().int().min(1).optional().describe("VCs per routing class (default all; 1 for BookSim's dragonflynew out_vc = ph)"),
    packetSizes: z
      .object({ sizes: z.array(z.number().int().min(1)).min(1), weights: z.array(z.number().min(0)).min(1) })
      .strict()
      .optional()
      .describe("packets of several sizes in flits, drawn by weight (BookSim packet_size = {{...}} with packet_size_rate); the largest is the run's packet size"),
  })
  .strict();

const count = (what: string): z.ZodOptional<z.ZodNumber> => z.number().int().min(1).max(2 ** 31 - 1).optional().describe(what);

/**
 * A training or inference step as MLCommons Chakra execution traces (docs/workloads.md): rank files
 * read through the caller's RunIo, or a generated transformer step. Run by workload/request.ts.
 */
const ChakraWorkload = z
  .object({
    kind: z.literal('workload'),
    trace: z.array(z.string().min(1)).min(1).optional().describe("a directory of name.<rank>.et files, or the files, read through the caller's RunIo"),
    generate: z
      .object({
        tp: count('tensor-parallel group size'),
        pp: count('pipeline stages (default 1)'),
        dp: count('data-parallel replicas'),
        ep: z.number().int().min(0).max(2 ** 31 - 1).optional().describe('expert-parallel group size within DP (0 or 1: dense MLP)'),
        layers: count('transformer layers'),
        hidden: count('hidden size (default 8192)'),
        sequence: count('sequence length (default 2048)'),
        microbatch: count('sequences per microbatch (default 1)'),
        microbatches: count('microbatches per step, GPipe (default 1)'),
        bytesPerElement: count('bytes per element (default 2)'),
      })
      .strict()
      .optional()
      .describe('a generated transformer step instead of trace files (workload generate; tp, dp and layers default to 8, 1 and 4)'),
    commGroups: z.string().min(1).optional().describe("ASTRA-sim's communicator-group JSON file naming the pg_name groups, read through the RunIo"),
    deps: z.enum(DEPENDENCY_KINDS as unknown as [string, ...string[]]).optional().describe('which dependencies order nodes: both (default), data or ctrl'),
    replicate: z.number().int().min(1).max(65536).optional().describe('one trace file: the same trace on this many ranks (SPMD)'),
    algorithms: z
      .partialRecord(z.enum(CHAKRA_COLLECTIVES as unknown as [string, ...string[]]), z.string().min(1))
      .optional()
      .describe("algorithm per collective type (default: the collective library's pick for allreduce, allgather, reduce-scatter)"),
    device: z.string().min(1).optional().describe('compute model for nodes without a duration: h100 (default), a100, v100, mi300x, or custom:peak=FLOPS,bw=BYTES_PER_S'),
    compute: z.enum(['trace', 'roofline']).optional().describe('trace (default: duration_micros when present, else the roofline) or roofline'),
    comm: z.enum(['concurrent', 'serial']).optional().describe("concurrent (default: one stream per communicator) or serial (one collective in flight per rank, as ASTRA-sim)"),
  })
  .strict()
  .refine((w) => (w.trace === undefined) !== (w.generate === undefined), { message: 'exactly one of trace (files) and generate (a transformer step)' });

export const RunRequestSchema = z
  .object({
    topology: z.string().min(1).describe('topology spec (e.g. torus:8x8,bw=25Gbps) or, through the caller\'s RunIo, a file'),
    mapping: z.string().optional().describe('rank order: identity, reverse, random:seed=N, snake (or a file, through RunIo)'),
    fail: z.string().optional().describe('failed links or nodes (the --fail grammar)'),
    workload: z.discriminatedUnion('kind', [CollectiveWorkload, ScheduleWorkload, TrafficWorkload, ChakraWorkload]),
    engine: z.enum(['flow', 'packet']).optional().describe('default flow; traffic runs at packet level'),
    preset: z.enum(FLOW_PRESET_NAMES as unknown as [string, ...string[]]).optional().describe('model and routing defaults of another simulator (simgrid, simgrid-smpi, astra) or a document (seed001); explicit values win'),
    model: ModelSchema.optional(),
    routing: z
      .object({
        name: z.string().optional().describe("a registered routing, or the family's default"),
        tie: z.enum(TORUS_TIE_BREAKS as unknown as [string, ...string[]]).optional(),
        seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
      })
      .strict()
      .optional(),
    packet: z
      .object({
        preset: z.enum(PRESET_NAMES as unknown as [string, ...string[]]).optional().describe('router preset (default: default for collectives, booksim for traffic)'),
        config: z.record(z.string(), z.unknown()).optional().describe('PacketConfig overrides (docs/packet.md)'),
        flitBytes: z.number().positive().optional(),
        cycleSeconds: z.number().positive().optional(),
        maxCycles: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    noise: z
      .object({ skew: z.number().min(0).optional(), jitter: z.number().min(0).optional(), os: z.number().min(0).optional(), osProbability: z.number().min(0).max(1).optional(), seed: z.number().int().min(0).optional() })
      .strict()
      .optional()
      .describe('disturbances in seconds (sim/program/disturb.ts)'),
    barriers: z
      .boolean()
      .optional()
      .describe("bracket the collective with SMPI's barrier and time it from the first rank leaving the first barrier to the last leaving the second (sim/program/barriers.ts)"),
  })
  .strict();

/**
 * The option rows are data, so TypeScript cannot name the model's keys one by one: `model` takes any
 * row's key in its literal (a reproduction's `{ nics: 3 }`); the strict schema refuses unknown keys at run time.
 */
export type RunRequestModel = z.infer<typeof ModelSchema> & { readonly [key: string]: number | string | boolean | null | undefined };
export type RunRequest = Omit<z.infer<typeof RunRequestSchema>, 'model'> & { model?: RunRequestModel };
export type RunWorkload = RunRequest['workload'];

/** Checks a value (e.g. parsed JSON) is a RunRequest; refuses it in one line naming the field. */
export function parseRunRequest(raw: unknown, field = 'request'): RunRequest {
  // Without zod's JIT: on its first parse zod compiles a parser per object schema with `new
  // Function`, 5-6 ms of CPU that pays back only over thousands of parses, and a run parses its
  // request once or twice (issue 30: a whole `meshwork traffic` run is 0.3 s).
  const parsed = RunRequestSchema.safeParse(raw, { jitless: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // An unknown key is named itself (request.model.nope), as the sweep file's messages name theirs.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  let got: unknown = raw;
  for (const p of path) got = got && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[p as PropertyKey] : undefined;
  throw new InputError(path.length ? `${field}.${path.join('.')}` : field, got, `${acceptedByIssue(issue, raw)} (see schemas/run-request.schema.json)`);
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string', number: 'a number', int: 'a whole number', boolean: 'true or false', object: 'an object', array: 'a list', record: 'an object',
};

/**
 * What the request accepts where the schema refused it, in Meshwork's words: the schema library's own
 * ("Invalid input: expected string, received array", "Too small: expected number to be >=0") named
 * no meaning, as the sweep file's messages once did (issue 28 item 11; src/sweep/file.ts).
 */
function acceptedByIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.path.length === 0 ? 'an object {topology, workload, ...}' : (TYPE_WORDS[issue.expected] ?? issue.expected);
    case 'too_small':
    case 'too_big': {
      const low = issue.code === 'too_small';
      const bound = low ? issue.minimum : issue.maximum;
      if (issue.origin === 'string') return low && Number(bound) === 1 ? 'a non-empty string' : `a string of ${low ? 'at least' : 'at most'} ${bound} characters`;
      if (issue.origin === 'array') return `a list of ${low ? 'at least' : 'at most'} ${bound} item${Number(bound) === 1 ? '' : 's'}`;
      const relation = low ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      return `${issue.origin === 'int' ? 'a whole number' : 'a number'} ${relation} ${bound}`;
    }
    case 'invalid_value':
      return `one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown }).options;
      return Array.isArray(options) ? `one of ${options.map(String).join(', ')}` : issue.message;
    }
    case 'unrecognized_keys': {
      const keys = objectKeysAt(issue.path, raw);
      return keys ? `only the keys ${keys.join(', ')}` : 'only the keys the schema names';
    }
    default:
      // A refinement's own message is already in our words ('exactly one of trace (files) and generate ...').
      return issue.message;
  }
}

/** The keys of the object schema at `path` (the workload's by its kind), or undefined. */
function objectKeysAt(path: readonly PropertyKey[], raw: unknown): string[] | undefined {
  let schema: unknown = RunRequestSchema;
  let value: unknown = raw;
  for (let i = 0; i <= path.length; i++) {
    while (schema instanceof z.ZodOptional) schema = schema.unwrap();
    if (schema instanceof z.ZodDiscriminatedUnion) {
      const kind = value && typeof value === 'object' ? (value as Record<string, unknown>).kind : undefined;
      schema = (schema.options as unknown[]).find((o) => o instanceof z.ZodObject && (o.shape as Record<string, { value?: unknown }>).kind?.value === kind);
    }
    if (!(schema instanceof z.ZodObject)) return undefined;
    if (i === path.length) return Object.keys(schema.shape);
    schema = (schema.shape as Record<PropertyKey, unknown>)[path[i]];
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[path[i]] : undefined;
  }
  return undefined;
}

/**
 * A parsed request with fields added or replaced, its fields put back in the schema's order, as a
 * parse would give them (a saved request prints byte for byte as the first), without parsing it
 * again: the caller's additions are values it resolved from a parsed request (issue 30: a second parse
 * of a whole request, already warm, is 0.1-0.2 ms of a 0.3 s run).
 */
export function inSchemaOrder<T extends object>(fields: T): T {
  const from = fields as Record<string, unknown>;
  return Object.fromEntries(Object.keys(RunRequestSchema.shape).filter((key) => key in from).map((key) => [key, from[key]])) as T;
}

/** schemas/run-request.schema.json, generated from the validator (and so from the option schema); a test compares them. */
export function runRequestJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(RunRequestSchema) as Record<string, unknown>;
  return {
    $schema,
    $id: 'https://meshwork.dev/schemas/run-request.schema.json',
    title: 'Meshwork run request',
    description: 'Everything one run needs (src/sim/request.ts): topology, workload (collective | schedule | traffic | workload: Chakra traces), engine, time model, routing, packet router, noise. Library units: bytes, seconds, bytes/s.',
    ...rest,
  };
}
