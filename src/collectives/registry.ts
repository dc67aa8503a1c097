/**
 * Collective algorithms by name. Each algorithm file calls `registerAlgorithm` once; the CLI,
 * the engines and users reach them through `buildSchedule` with a spec such as
 * `pairwise` or `hop-grouped:dir=shortest,pacing=off` (src/util/spec.ts grammar).
 */
import { InputError, LimitError, NotApplicableError } from '../util/errors.js';
import { formatSize } from '../util/units.js';
import { Spec } from '../util/spec.js';
import type { Topology } from '../topology/graph.js';
import { MAX_OPS, Schedule, ScheduleBuilder, BuilderInit } from './schedule.js';
import { COLLECTIVES, CollectiveKind, DTYPE_BYTES, DTYPES, Dtype, REDUCE_OPS, ReduceOp, isReduction, isRooted, sizeMeaning } from './types.js';
import { resolveSmpiAlias, smpiAliasNames } from './smpi-names.js';

/** One algorithm parameter, with its default (shown by `meshwork collective list`). */
export type ParamDecl =
  | { readonly key: string; readonly kind: 'int'; readonly default: number; readonly min?: number; readonly max?: number; readonly description: string }
  | { readonly key: string; readonly kind: 'number'; readonly default: number; readonly min?: number; readonly max?: number; readonly description: string }
  | { readonly key: string; readonly kind: 'bool'; readonly default: boolean; readonly description: string }
  | { readonly key: string; readonly kind: 'choice'; readonly default: string; readonly choices: readonly string[]; readonly description: string };

export type ParamValues = Readonly<Record<string, number | string | boolean>>;

/** Everything an algorithm may look at when it builds a schedule. */
/** SMPI selectors whose tables are indexed by the ranks per host (MVAPICH2's and Intel MPI's ppn tables). */
const PER_HOST_SELECTORS: readonly string[] = ['mvapich2', 'impi'];

export interface AlgorithmContext {
  readonly collective: CollectiveKind;
  readonly topology: Topology;
  /** Number of ranks (= the topology's endpoints). */
  readonly ranks: number;
  /** Bytes, per the size convention (sizeMeaning). */
  readonly size: number;
  /** Root rank for rooted collectives (source for one-to-one), else 0. */
  readonly root: number;
  /** Destination of one-to-one. */
  readonly peer: number;
  readonly dtype: Dtype;
  readonly op: ReduceOp;
  /** Parsed parameters with defaults filled in. */
  readonly params: ParamValues;
  /** The spec text that selected the algorithm (an alias's resolved spec). */
  readonly spec: string;
  /** The SimGrid SMPI name the request used, as recorded in results, if any. */
  readonly alias?: string;
  /** alltoallv: bytes from rank i to rank j at [i·ranks + j]. */
  readonly sizes?: Float64Array;
}

export interface Algorithm {
  readonly name: string;
  readonly collective: CollectiveKind;
  /** One line for `collective list`. */
  readonly description: string;
  /** What it supports, in words (e.g. "any rank count", "powers of two", "torus/mesh topologies"). */
  readonly supportsText: string;
  /** Where it comes from: "classic", "seed 000", ... */
  readonly source: string;
  readonly params: readonly ParamDecl[];
  /** Undefined if the algorithm can run on this context, else the reason it refuses (becomes an InputError). */
  supports(ctx: AlgorithmContext): string | undefined;
  /**
   * Builds the schedule. `newBuilder` returns a builder pre-filled with the collective, ranks, size,
   * root, dtype, op, topology and algorithm spec; override what differs (e.g. inPlace, streams, parts).
   */
  build(ctx: AlgorithmContext, newBuilder: (overrides?: Partial<BuilderInit>) => ScheduleBuilder): Schedule;
  /**
   * Optional: the op and message counts `build` would produce, computed without building (O(axes
   * or steps), not O(ops)), so that engines can refuse a request too large for them up front.
   */
  estimate?(ctx: AlgorithmContext): ScheduleEstimate;
  /**
   * Optional (issue 29): a declaration that the schedule is equivariant under a group of rank
   * permutations here (`RotationStreams.action`: rank r's ops are rank 0's with every peer moved
   * by the permutation taking 0 to r: shifted by r mod n, XORed with r, or translated on a torus's
   * coordinates), and each rank's ops without building the schedule; undefined where it is not
   * (e.g. unequal blocks).
   */
  rotation?(ctx: AlgorithmContext): RotationStreams | undefined;
  /**
   * Optional: why `compare` runs this algorithm only when named (its `include`), listed among the
   * skipped with this reason otherwise: a reproduction of another simulator's algorithm rather than
   * a candidate, such as ASTRA-sim's ring relay (P(P − 1)/2 steps, O(P³) ops).
   */
  readonly comparedWhenNamed?: string;
}

/**
 * The rank permutations a declaration is equivariant under: r -> r + c mod n ('rotation'),
 * r -> r XOR c ('xor'), or `{ translation: dims }`: ranks as mixed-radix digits (digit 0 fastest,
 * radices `dims`, a torus's coordinates as the generator numbers its nodes), r -> r + c digit by
 * digit, each mod its radix. All three are translations of a product of cyclic groups: 'rotation'
 * is `{ translation: [n] }` and 'xor' is `{ translation: [2, 2, ...] }`.
 */
export type RankAction = 'rotation' | 'xor' | { readonly translation: readonly number[] };

/**
 * A rank's ops as an equivariant algorithm declares them, as the lowering (sim/program/from-schedule.ts)
 * emits them: bytes as it counts them; 'stream' starts the rank's next stream (peer: its index in the
 * rank; without one, stream 0), 'barrier' synchronises with schedule group `peer` (one that holds
 * every rank), 'pace' sets the gap (`bytes`, in packet times) of the stream's following sends;
 * 'isend', 'irecv' and 'waitall' are the non-blocking forms and MPI_Waitall.
 */
export type RotationOpKind = 'send' | 'recv' | 'copy' | 'reduce' | 'stream' | 'barrier' | 'pace' | 'isend' | 'irecv' | 'waitall';

export interface RotationStreams {
  /**
   * How rank r's peers (and a send's path) follow from rank 0's: p + r mod n ('rotation', the
   * default), p XOR r ('xor', n a power of two: pairwise alltoall in XOR order), or translated
   * digit by digit (`{ translation: dims }`: seed 000's hop-grouped alltoall on a torus).
   */
  readonly action?: RankAction;
  /** Ops of every rank (all its streams). */
  readonly opsPerRank: number;
  /** Streams of every rank, each with ops (default 1): what the result records as the schedule's streams. */
  readonly streamsPerRank?: number;
  /**
   * Visits rank r's ops in program order, stream by stream. A send may carry its explicit node path
   * (`path`, the schedule's 'path' hint), which the lowering turns into a port walk.
   */
  forEachOp(rank: number, visit: (kind: RotationOpKind, peer: number, bytes: number, tag: number, path?: ArrayLike<number>) => void): void;
}

/** Size of a schedule before it is built: ops (every kind) and point-to-point messages (send destinations). */
export interface ScheduleEstimate {
  readonly ops: number;
  readonly messages: number;
}

// The table lives in its own module so the built-in algorithm files, which register themselves as
// they load, can run while this module is still loading: importing this registry (or anything that
// builds a schedule, such as simulate()) registers every built-in, whatever was imported first.
export { algorithmNames, findAlgorithm, listAlgorithms, registerAlgorithm } from './algorithm-table.js';
import { findAlgorithm, listAlgorithms } from './algorithm-table.js';
import './algorithms/classic.js';
import './algorithms/seeds.js';

/** Parses `name:key=val,...` against an algorithm's parameter declarations (unknown keys are errors). */
export function parseParams(alg: Algorithm, spec: Spec): ParamValues {
  const values: Record<string, number | string | boolean> = {};
  for (const p of alg.params) {
    if (p.kind === 'int') values[p.key] = spec.int(p.key, { default: p.default, min: p.min, max: p.max });
    else if (p.kind === 'number') values[p.key] = spec.number(p.key, { default: p.default, min: p.min, max: p.max });
    else if (p.kind === 'bool') values[p.key] = spec.bool(p.key, p.default);
    else values[p.key] = spec.choice(p.key, p.choices, p.default);
  }
  if (spec.positional !== undefined) throw new InputError(spec.context, spec.text, `${alg.name}:key=value,... (no positional argument)`);
  spec.assertAllRead();
  return values;
}

export interface BuildRequest {
  collective: CollectiveKind;
  /** Algorithm spec, e.g. "pairwise" or "chain:segments=8". */
  algorithm: string;
  topology: Topology;
  size: number;
  root?: number;
  peer?: number;
  dtype?: Dtype;
  op?: ReduceOp;
  /** alltoallv only: bytes from rank i to rank j at [i·ranks + j] (see `alltoallvSizes`). */
  sizes?: ArrayLike<number>;
}

/** Resolves the algorithm, checks it supports the request, and builds the schedule. */
export function buildSchedule(req: BuildRequest): Schedule {
  const { alg, ctx } = resolveRequest(req);
  const newBuilder = (overrides: Partial<BuilderInit> = {}): ScheduleBuilder =>
    new ScheduleBuilder({
      collective: ctx.collective,
      numRanks: ctx.ranks,
      size: ctx.size,
      root: ctx.root,
      peer: ctx.peer,
      dtype: ctx.dtype,
      op: ctx.op,
      algorithm: alg.name,
      algorithmSpec: ctx.spec,
      algorithmAlias: ctx.alias,
      sizes: ctx.sizes,
      topology: req.topology.spec,
      // Columns sized once from the algorithm's declared size: growing by doubling copied them
      // and left garbage (7 % of a 512-rank ring allreduce run, half of it collecting).
      expectedOps: declared?.ops,
      ...overrides,
    });
  // Refused before any column is allocated: linear alltoall over 65,536 ranks grew to 15 GB first.
  const declared = alg.estimate?.(ctx);
  const ops = knownSize(declared, ctx)?.ops;
  if (ops !== undefined && ops > MAX_OPS) throw new LimitError('algorithm', `${ops} schedule ops (${alg.name}, ${ctx.ranks} ranks)`, `${MAX_OPS} schedule ops (2^28)`);
  const schedule = alg.build(ctx, newBuilder);
  // A registered algorithm's build is the user's code: what it returns must be this request's schedule.
  if (!(schedule instanceof Schedule)) throw new InputError(`algorithm ${alg.name}`, schedule, 'a build() that returns the Schedule its builder finished');
  if (schedule.numRanks !== ctx.ranks || schedule.collective !== ctx.collective) {
    throw new InputError(`algorithm ${alg.name}`, `a schedule of ${schedule.collective} over ${schedule.numRanks} ranks`, `the request's schedule: ${ctx.collective} over ${ctx.ranks} ranks`);
  }
  return schedule;
}

/**
 * The schedule's size as far as it is known before building: the algorithm's declaration, else for
 * alltoall every block's send and receive (2·n·(n − 1) ops, n·(n − 1) messages), else undefined.
 */
function knownSize(declared: ScheduleEstimate | undefined, ctx: AlgorithmContext): ScheduleEstimate | undefined {
  if (declared) return declared;
  const blocks = ctx.ranks * (ctx.ranks - 1);
  return ctx.collective === 'alltoall' ? { ops: 2 * blocks, messages: blocks } : undefined;
}

/** knownSize of a request (the flow engine's op limit reads it); refuses what `buildSchedule` would refuse. */
export function knownScheduleSize(req: BuildRequest): ScheduleEstimate | undefined {
  const { alg, ctx } = resolveRequest(req);
  return knownSize(alg.estimate?.(ctx), ctx);
}

/**
 * The schedule's size as the algorithm declares it (`Algorithm.estimate`), without building it;
 * undefined when the algorithm declares none. Refuses what `buildSchedule` would refuse.
 */
export function estimateSchedule(req: BuildRequest): ScheduleEstimate | undefined {
  const { alg, ctx } = resolveRequest(req);
  return alg.estimate?.(ctx);
}

/** The algorithm's rotation declaration for this request (Algorithm.rotation) with what a result records of it, or undefined. */
export function declaredRotation(req: BuildRequest): { readonly streams: RotationStreams; readonly algorithm: string; readonly spec: string; readonly alias?: string; readonly root: number; readonly peer: number } | undefined {
  const { alg, ctx } = resolveRequest(req);
  const streams = alg.rotation?.(ctx);
  return streams ? { streams, algorithm: alg.name, spec: ctx.spec, alias: ctx.alias, root: ctx.root, peer: ctx.peer } : undefined;
}

/** The algorithm and its context for a request, after every check that needs no building. */
function resolveRequest(req: BuildRequest): { alg: Algorithm; ctx: AlgorithmContext } {
  // A JavaScript caller may pass anything: what is not a request, or names no known collective, is
  // refused in one line here (it was a TypeError, or 'algorithm: ... no algorithms registered for x').
  if (typeof req !== 'object' || req === null) throw new InputError('request', req, 'an object {topology, collective, algorithm, size}');
  if (!(COLLECTIVES as readonly unknown[]).includes(req.collective)) throw new InputError('collective', req.collective, `one of ${COLLECTIVES.join(', ')}`);
  if (typeof req.topology !== 'object' || req.topology === null || typeof req.topology.numEndpoints !== 'number') {
    throw new InputError('topology', req.topology, 'a Topology built by buildTopology');
  }
  let spec = Spec.parse(req.algorithm, 'algorithm');
  let alg = findAlgorithm(req.collective, spec.family);
  // A SimGrid SMPI name (rab_rdb, NTSLR_NB, ...) stands for one exact Meshwork variant; `smpi:NAME`
  // says so explicitly, for the names Meshwork also uses (SMPI's allgather ring is ring:order=shift).
  const explicit = spec.family === 'smpi' && !alg;
  // A selector (default, ompi, mpich) chooses by the size and the rank count.
  const at = { size: req.size, ranks: req.topology.numEndpoints, elementBytes: DTYPE_BYTES[req.dtype ?? 'int32'] };
  const smpi = alg ? undefined : explicit ? resolveSmpiAlias(req.collective, spec.positional ?? '', spec.text.includes(','), true, at) : resolveSmpiAlias(req.collective, spec.family, spec.text.includes(':'), false, at);
  if (smpi && req.topology.ranksShareHosts && PER_HOST_SELECTORS.includes(spec.family)) {
    // Their tables are per ranks per host (SMPI's intra-node communicator); Meshwork has the 1-ppn ones.
    throw new NotApplicableError('algorithm', spec.family, `SimGrid SMPI's ${spec.family} selector, which reads the ranks per host, modelled on one rank per host; here several ranks share a host (${String(req.topology.params.mapping ?? 'the mapping')})`);
  }
  if (smpi) {
    spec = Spec.parse(smpi.spec, 'algorithm');
    alg = findAlgorithm(req.collective, spec.family);
  }
  if (!alg) {
    const names = listAlgorithms(req.collective).map((a) => a.name);
    const smpiNames = smpiAliasNames(req.collective);
    const aliases = smpiNames.length ? ` (or SimGrid SMPI's ${smpiNames.join(', ')})` : '';
    throw new InputError('algorithm', spec.family, names.length ? `for ${req.collective}: ${names.join(', ')}${aliases}` : `no algorithms registered for ${req.collective}`);
  }
  const ranks = req.topology.numEndpoints;
  const root = req.root ?? 0;
  const peer = req.peer ?? ranks - 1;
  if (isRooted(req.collective) && !(Number.isInteger(root) && root >= 0 && root < ranks)) throw new InputError('root', root, `a rank from 0 to ${ranks - 1}`);
  if (req.collective === 'one-to-one' && !(Number.isInteger(peer) && peer >= 0 && peer < ranks && peer !== root)) {
    throw new InputError('peer', peer, `a rank from 0 to ${ranks - 1} other than the source ${root}`);
  }
  if (!(Number.isSafeInteger(req.size) && req.size >= 0)) throw new InputError('size', req.size, 'a whole number of bytes');
  if (req.dtype !== undefined && !(DTYPES as readonly unknown[]).includes(req.dtype)) throw new InputError('dtype', req.dtype, DTYPES.join(', '));
  if (req.op !== undefined && !(REDUCE_OPS as readonly unknown[]).includes(req.op)) throw new InputError('op', req.op, REDUCE_OPS.join(', '));
  checkSizeFits(req.collective, req.size, ranks, req.dtype ?? 'int32');
  const ctx: AlgorithmContext = {
    collective: req.collective,
    topology: req.topology,
    ranks,
    size: req.size,
    root,
    peer,
    dtype: req.dtype ?? 'int32',
    op: req.op ?? 'sum',
    params: parseParams(alg, spec),
    spec: spec.text,
    alias: smpi?.alias,
    sizes: checkSizes(req, ranks),
  };
  // SMPI's SMP algorithms are modelled as they run on one rank per host (intra-node communicators of one rank).
  if (ctx.params.smp === true && req.topology.ranksShareHosts) {
    throw new NotApplicableError('algorithm', spec.text, `${alg.name} with smp=true (SimGrid SMPI's SMP-aware algorithms) runs as on one rank per host; here several ranks share a host (${String(req.topology.params.mapping ?? 'the mapping')})`);
  }
  const refusal = alg.supports(ctx);
  if (refusal !== undefined) throw new NotApplicableError('algorithm', spec.text, `${alg.name} for ${req.collective} supports ${alg.supportsText}; here: ${refusal}`);
  return { alg, ctx };
}

/** alltoallv's matrix, checked: n × n whole byte counts; refused for any other collective. */
function checkSizes(req: BuildRequest, n: number): Float64Array | undefined {
  if (req.collective !== 'alltoallv') {
    if (req.sizes !== undefined) throw new InputError('sizes', 'a size matrix', `sizes only with alltoallv (got ${req.collective})`);
    return undefined;
  }
  if (req.sizes === undefined || req.sizes.length !== n * n) throw new InputError('sizes', req.sizes ? `${req.sizes.length} entries` : 'none', `an alltoallv size matrix of ${n} x ${n} = ${n * n} byte counts (row = sender)`);
  const sizes = Float64Array.from(req.sizes);
  for (let k = 0; k < sizes.length; k++) if (!(Number.isSafeInteger(sizes[k]) && sizes[k] >= 0)) throw new InputError(`sizes[${Math.floor(k / n)}][${k % n}]`, sizes[k], 'a whole number of bytes >= 0');
  return sizes;
}

/** Refuses sizes that cannot be cut as the collective needs (whole elements, equal reduce-scatter blocks). */
/** Largest buffer a rank holds, in bytes (1 PiB): offsets and algorithms' temporaries stay below 2^53. */
export const MAX_BUFFER_BYTES = 2 ** 50;

export function checkSizeFits(collective: CollectiveKind, size: number, ranks: number, dtype: Dtype): void {
  const elem = DTYPE_BYTES[dtype];
  // A rank's buffer is n blocks for the block collectives; byte offsets inside it, and the
  // temporaries algorithms add, must stay exact doubles (issue 28 item 4: 1PiB named region.extent).
  const blocks = sizeMeaning(collective) === 'block' ? ranks : 1;
  if (size * blocks > MAX_BUFFER_BYTES) {
    const max = Math.floor(MAX_BUFFER_BYTES / blocks);
    const why = blocks > 1 ? `: a rank's buffer of ${blocks} blocks stays within 2^50 bytes` : ' (2^50: a rank\'s buffer)';
    throw new LimitError('size', size, `${max} bytes = ${formatSize(max)} for ${collective} on ${ranks} ranks${why}`);
  }
  if (collective === 'reduce-scatter' && size % (ranks * elem) !== 0) {
    throw new InputError('size', size, `a multiple of ${ranks * elem} bytes (${ranks} ranks x ${elem}-byte ${dtype}) for reduce-scatter`);
  }
  if (isReduction(collective) && size % elem !== 0) throw new InputError('size', size, `a multiple of ${elem} bytes (whole ${dtype} elements)`);
}

/** Helpers for `supports`. */
export function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}
