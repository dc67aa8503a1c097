/**
 * Lowers a Chakra workload into one Program (sim/program) that either engine runs unchanged:
 * compute and memory nodes become Compute ops with a duration, point-to-point nodes become sends
 * and receives, every collective is expanded by the algorithm chosen for its collective type into
 * the schedule IR's operations (remapped onto its communicator's ranks), and the trace's data and
 * control dependencies become op dependencies (a DAG across streams, not only program order).
 *
 * Model choices (recorded in the result, docs/workloads.md):
 * - Lanes: per rank, GPU compute runs one kernel at a time, and so do CPU ops and memory
 *   operations, each in the trace's topological order (smallest node id first among ready nodes),
 *   as ASTRA-sim's HardwareResource allows one in-flight op per kind. Collectives and
 *   point-to-point messages run concurrently with each other (`comm: 'concurrent'`, NCCL's
 *   per-communicator streams) or one at a time per rank in that order (`comm: 'serial'`, ASTRA-sim).
 * - Durations: a COMP node's duration_micros when the trace has one (`compute: 'trace'`), else the
 *   roofline max(num_ops / peak FLOP/s, tensor_size / memory bandwidth) of the device model;
 *   MEM_LOAD/STORE: tensor_size / memory bandwidth. A COMM_COLL without comm_type (PyTorch's
 *   CPU-side launch) is a CPU op of its duration; a collective's own duration is ignored (the
 *   network decides it).
 * - Sizes: comm_size as ASTRA-sim's ring reads it (system/astraccl Ring.cc): allreduce,
 *   reduce-scatter, reduce, broadcast: the whole buffer; allgather and gather: one rank's
 *   contribution (its messages are comm_size each); alltoall and scatter: one rank's whole send
 *   buffer, so Meshwork's block is comm_size / P. Sizes are rounded up to whole 4-byte elements
 *   (and reduce-scatter to P elements) where an algorithm needs it; the rounding is reported.
 */
import { InputError } from '../util/errors.js';
import { appendAll } from '../util/arrays.js';
import { buildSchedule } from '../collectives/registry.js';
import '../collectives/algorithms/classic.js';
import '../collectives/algorithms/seeds.js';
import type { CollectiveKind } from '../collectives/types.js';
import type { Topology } from '../topology/graph.js';
import { fullmesh } from '../topology/fullmesh.js';
import { lowerSchedule } from '../sim/program/from-schedule.js';
import { FlowProgramBuilder, type FlowProgram } from '../sim/program/program.js';
import { OpKind } from '../collectives/types.js';
import type { ChakraCollective, ChakraNode } from './chakra/read.js';
import { isTimedCollective, type ChakraCollectiveInstance, type ChakraTrace } from './chakra/trace.js';
import { resolveDevice, type DeviceModel } from './device.js';
import { communicatorPicker, defaultLibrary, LIBRARY_COLLECTIVES, type CommunicatorPick } from './library-pick.js';
import { libraryMachine, type LibraryName } from '../collectives/algorithms/library/tuning.js';
import '../collectives/algorithms/library/index.js';
import { libraryTiming, messageEfficiency } from '../sim/library.js';

/** The algorithm of each collective type (schedule IR names, `meshwork collective list`). */
export type CollectiveAlgorithms = Readonly<Partial<Record<ChakraCollective, string>>>;

/**
 * Defaults: allreduce, allgather and reduce-scatter get the collective library's pick for their
 * communicator (`library`: NCCL's tuning model, RCCL's on an AMD machine preset; library-pick.ts),
 * as a PyTorch job's collectives do; the others, which the libraries' tuning model does not cover,
 * pairwise exchange for alltoall, binomial trees for the rooted ones, dissemination for the
 * barrier. Each runs on any number of ranks.
 */
export const DEFAULT_ALGORITHMS: Readonly<Record<ChakraCollective, string>> = {
  allreduce: 'library',
  allgather: 'library',
  'reduce-scatter': 'library',
  alltoall: 'pairwise',
  broadcast: 'binomial',
  reduce: 'ring',
  gather: 'binomial',
  scatter: 'binomial',
  barrier: 'dissemination',
};

export interface LowerOptions {
  readonly topology: Topology;
  readonly algorithms?: CollectiveAlgorithms;
  /** Device preset name or model; default 'h100'. */
  readonly device?: string | DeviceModel;
  /** 'trace' (default): duration_micros when present, else the roofline; 'roofline': the roofline whenever num_ops is known. */
  readonly compute?: 'trace' | 'roofline';
  readonly comm?: 'concurrent' | 'serial';
}

/** What each op of the lowered program stands for. */
export const OP_CATEGORIES = ['compute', 'cpu', 'memory', 'collective', 'p2p', 'marker'] as const;
export type OpCategory = (typeof OP_CATEGORIES)[number];
const CAT = { compute: 0, cpu: 1, memory: 2, collective: 3, p2p: 4, marker: 5 } as const;

export interface LoweredWorkload {
  readonly program: FlowProgram;
  /** Per op: OP_CATEGORIES index. */
  readonly opCategory: Uint8Array;
  /** Per op: the rank's node index it lowers (into trace.ranks[rank].nodes). */
  readonly opNode: Int32Array;
  /** Per op: the collective instance (trace.collectives), -1 otherwise. */
  readonly opCollective: Int32Array;
  /** Per collective instance: the algorithm spec it ran (a library pick says which library). */
  readonly collectiveAlgorithm: readonly string[];
  readonly trace: ChakraTrace;
  /** Resolved choices, for the result's record. */
  readonly model: Readonly<Record<string, unknown>>;
  /** Collective instances whose size was rounded up, with the size used. */
  readonly rounded: ReadonlyArray<{ collective: number; bytes: number; used: number }>;
}

/** A collective's schedule, lowered once per (collective, algorithm, P, size, root) and reused. */
interface GroupProgram {
  readonly program: FlowProgram;
  readonly usedBytes: number;
  /** The schedule's algorithm spec, with the library that picked it. */
  readonly algorithm: string;
  /** A library algorithm's latency (picked or named), paid at the start of each of its streams (a Compute op), seconds. */
  readonly latency_s: number;
  /** A library algorithm's protocol efficiency: its messages carry bytes / efficiency at the link rate. */
  readonly efficiency: number;
  /** A library algorithm (picked or named): its ops are marked (program.opLibrary), so its latency replaces the default α as in `meshwork run`. */
  readonly library: boolean;
  /** Per op: its tag renumbered densely (schedules such as the hierarchical one use sparse tags up to 2^20), so an instance needs few. */
  readonly tags: Int32Array;
}

/** Algorithm names that stand for a collective library's pick (library-pick.ts). */
const PICKER_NAMES = new Set(['library', 'nccl', 'rccl']);

/** Collectives whose comm_size is one rank's whole send buffer, P of Meshwork's blocks. */
const DIVIDED = new Set<ChakraCollective>(['alltoall', 'scatter']);
const ELEMENT = 4;

/** Meshwork's size argument for a Chakra collective of `bytes` on P ranks, rounded up where needed. */
export function meshworkSize(c: ChakraCollective, bytes: number, P: number): number {
  if (c === 'barrier') return 0;
  if (c === 'allgather' || c === 'gather') return bytes;
  if (DIVIDED.has(c)) return Math.ceil(bytes / P);
  const unit = c === 'reduce-scatter' ? P * ELEMENT : c === 'allreduce' || c === 'reduce' ? ELEMENT : 1;
  return Math.ceil(bytes / unit) * unit;
}

/** The bytes a Meshwork size stands for in Chakra's convention (comm_size). */
export function chakraBytes(c: ChakraCollective, size: number, P: number): number {
  return DIVIDED.has(c) ? size * P : size;
}

export function lowerWorkload(trace: ChakraTrace, opts: LowerOptions): LoweredWorkload {
  const device = resolveDevice(opts.device ?? 'h100');
  const computePolicy = opts.compute ?? 'trace';
  const commPolicy = opts.comm ?? 'concurrent';
  if (computePolicy !== 'trace' && computePolicy !== 'roofline') throw new InputError('compute', computePolicy, 'trace, roofline');
  if (commPolicy !== 'concurrent' && commPolicy !== 'serial') throw new InputError('comm', commPolicy, 'concurrent, serial');
  const algorithms: Record<ChakraCollective, string> = { ...DEFAULT_ALGORITHMS, ...opts.algorithms };
  const R = trace.ranks.length;
  const t = opts.topology;
  if (t.numEndpoints < R) throw new InputError('topology', t.spec, `a topology with at least ${R} endpoints (the trace has ${R} ranks; it has ${t.numEndpoints})`);
  const numOpsHint = trace.ranks.reduce((s, r) => s + r.nodes.length, 0) * 4;
  const b = new FlowProgramBuilder(t.numEndpoints, numOpsHint);
  const cat: number[] = [];
  const node: number[] = [];
  const coll: number[] = [];
  const note = (c: number, v: number, k: number): void => {
    for (let o = cat.length; o <= b.lastOp; o++) {
      cat.push(c);
      node.push(v);
      coll.push(k);
    }
  };

  // Lowered group programs, shared by instances of equal shape.
  const groupPrograms = new Map<string, GroupProgram>();
  const standIns = new Map<number, Topology>();
  const rounded: { collective: number; bytes: number; used: number }[] = [];
  const library = defaultLibrary(t);
  const pickers = new Map<string, ReturnType<typeof communicatorPicker>>();
  const instanceAlgorithm: string[] = [];
  const groupProgram = (inst: ChakraCollectiveInstance): GroupProgram => {
    const P = inst.ranks.length;
    const size = meshworkSize(inst.collective, inst.bytes, P);
    let alg = algorithms[inst.collective];
    // The whole machine in rank order runs on the real topology (topology-aware algorithms and their hints).
    const identity = P === t.numEndpoints && inst.ranks.every((r, i) => r === i);
    const picked = PICKER_NAMES.has(alg) && LIBRARY_COLLECTIVES.has(inst.collective);
    let pick: CommunicatorPick | undefined;
    if (picked) {
      const lib = alg === 'library' ? library : (alg as LibraryName);
      let picker = pickers.get(lib);
      if (picker === undefined) pickers.set(lib, (picker = communicatorPicker(t, lib)));
      pick = picker(inst.collective as CollectiveKind, inst.ranks, size, identity);
      alg = pick.spec;
    }
    const key = `${inst.collective}|${alg}|${P}|${size}|${inst.root}|${identity}|${pick?.key ?? ''}`;
    let g = groupPrograms.get(key);
    if (g === undefined) {
      let topo = pick?.topology ?? (identity ? t : standIns.get(P));
      if (topo === undefined) standIns.set(P, (topo = fullmesh(P)));
      let schedule;
      try {
        schedule = buildSchedule({ topology: topo, collective: inst.collective as CollectiveKind, algorithm: alg, size, root: inst.root });
      } catch (err) {
        if (err instanceof InputError) throw new InputError(`algorithm.${inst.collective}`, alg, `an algorithm for ${inst.collective} on ${P} ranks (collective ${inst.index}, group ${inst.group}): ${err.message}`);
        throw err;
      }
      const program = lowerSchedule(schedule, identity ? t : undefined);
      // A library's algorithm, picked or named with its parameters, is timed as `meshwork run` times it (sim/library.ts).
      const timing = libraryTiming(schedule, topo);
      g = {
        program,
        tags: denseTags(program.opTag),
        usedBytes: chakraBytes(inst.collective, size, P),
        algorithm: pick ? `${schedule.algorithmSpec} (${pick.library} pick)` : schedule.algorithmSpec,
        latency_s: timing?.latency_s ?? 0,
        efficiency: timing ? messageEfficiency(topo, timing) : 1,
        library: timing !== undefined,
      };
      groupPrograms.set(key, g);
    }
    instanceAlgorithm[inst.index] = g.algorithm;
    if (g.usedBytes !== inst.bytes) rounded.push({ collective: inst.index, bytes: inst.bytes, used: g.usedBytes });
    return g;
  };

  // Per rank and node: the ops that start it (they wait for its dependencies) and the ops whose
  // completion completes it. Ops are written stream by stream, so the nodes are placed first and
  // the dependencies added once every op has its id.
  const first: number[][][] = trace.ranks.map((r) => r.nodes.map(() => []));
  const done: number[][][] = trace.ranks.map((r) => r.nodes.map(() => []));

  // 1. Lanes: per rank, compute-like nodes in topological order, one stream per lane.
  for (const rank of trace.ranks) {
    const lanes = new Map<string, Array<{ v: number; seconds: number; category: number }>>();
    for (const v of trace.order[rank.rank]) {
      const n = rank.nodes[v];
      if (n.kind === 'metadata' || n.kind === 'invalid' || n.kind === 'send' || n.kind === 'recv' || isTimedCollective(n)) continue;
      const { seconds, category, lane } = timeOf(n, device, computePolicy);
      let list = lanes.get(lane);
      if (!list) lanes.set(lane, (list = []));
      list.push({ v, seconds, category });
    }
    for (const list of lanes.values()) {
      b.beginStream(rank.rank);
      for (const item of list) {
        b.compute(item.seconds);
        first[rank.rank][item.v] = done[rank.rank][item.v] = [b.lastOp];
        note(item.category, item.v, -1);
      }
    }
  }

  // 2. Collectives: each instance's group program, remapped onto its members' ranks. Tags: each
  // instance has its own range above the point-to-point tags, so concurrent collectives never
  // match each other's messages.
  const nodeIndex = trace.ranks.map((r) => new Map(r.nodes.map((n, i) => [n.id, i])));
  const tagStride = 1 << 12;
  const collTagBase = (k: number): number => (k + 1) * tagStride;
  if (collTagBase(trace.collectives.length) >= 2 ** 31) throw new InputError('trace', `${trace.collectives.length} collectives`, `at most ${2 ** 31 / tagStride - 2} collectives`);
  for (const inst of trace.collectives) {
    const vOf = inst.ranks.map((rank, i) => nodeIndex[rank].get(inst.nodeIds[i])!);
    // A collective of one rank moves nothing: only its marker below.
    const group = inst.ranks.length > 1 ? groupProgram(inst) : null;
    const g = group?.program ?? null;
    if (group === null) instanceAlgorithm[inst.index] = 'none (one rank)';
    for (let s = 0; g !== null && s < g.numStreams; s++) {
      const local = g.streamRank[s];
      const rank = inst.ranks[local];
      if (g.opStart[s] === g.opStart[s + 1]) continue;
      b.beginStream(rank);
      const from = b.lastOp + 1;
      if (group!.latency_s > 0) b.compute(group!.latency_s);
      const offset = b.lastOp + 1 - g.opStart[s];
      for (let o = g.opStart[s]; o < g.opStart[s + 1]; o++) copyOp(b, g, o, offset, group!.tags[o], inst.ranks, collTagBase(inst.index), tagStride, group!.efficiency);
      if (group!.library) b.markLibrary(from);
      first[rank][vOf[local]].push(from);
      done[rank][vOf[local]].push(b.lastOp);
      note(CAT.collective, vOf[local], inst.index);
    }
    // A member with no operation (a group of one, a rank a rooted algorithm leaves out) gets a marker.
    inst.ranks.forEach((rank, i) => {
      if (first[rank][vOf[i]].length > 0) return;
      b.beginStream(rank).compute(0);
      first[rank][vOf[i]] = done[rank][vOf[i]] = [b.lastOp];
      note(CAT.marker, vOf[i], inst.index);
    });
  }

  // 3. Point-to-point: one stream per send or receive (tags below the collectives' ranges).
  for (const rank of trace.ranks) {
    rank.nodes.forEach((n, v) => {
      if (n.kind !== 'send' && n.kind !== 'recv') return;
      const tag = n.commTag ?? 0;
      if (tag >= tagStride) throw new InputError(`${rank.file}: node ${n.id}: comm_tag`, tag, `a tag below ${tagStride}`);
      b.beginStream(rank.rank);
      if (n.kind === 'send') b.send(n.commDst!, n.commSize ?? 0, tag);
      else b.recv(n.commSrc!, n.commSize ?? 0, tag);
      first[rank.rank][v] = done[rank.rank][v] = [b.lastOp];
      note(CAT.p2p, v, -1);
    });
  }

  // 4. Dependencies, in topological order (metadata and invalid nodes pass their dependencies on).
  for (const rank of trace.ranks) {
    const r = rank.rank;
    let lastComm: number[] = [];
    for (const v of trace.order[r]) {
      const n = rank.nodes[v];
      const wait: number[] = [];
      for (const u of trace.deps[r][v]) for (const o of done[r][u]) wait.push(o);
      if (n.kind === 'metadata' || n.kind === 'invalid') {
        done[r][v] = [...new Set(wait)];
        continue;
      }
      const isComm = isTimedCollective(n) || n.kind === 'send';
      if (commPolicy === 'serial' && isComm) appendAll(wait, lastComm);
      for (const f of first[r][v]) for (const w of new Set(wait)) if (w !== f) b.dependsOn(f, w);
      if (commPolicy === 'serial' && isComm) lastComm = done[r][v];
    }
  }
  return finish();

  function finish(): LoweredWorkload {
    const program = b.build();
    return {
      program,
      opCategory: Uint8Array.from(cat),
      opNode: Int32Array.from(node),
      opCollective: Int32Array.from(coll),
      collectiveAlgorithm: instanceAlgorithm,
      trace,
      model: {
        workload: 'Chakra execution trace, lowered by workload/lower.ts',
        lanes: 'per rank one GPU-compute, one CPU and one memory lane, each in topological order (smallest node id first among ready nodes)',
        comm: commPolicy === 'serial' ? 'serial: one collective or send in flight per rank, in topological order (ASTRA-sim HardwareResource)' : 'concurrent: collectives and messages of a rank run at the same time (separate communicator streams)',
        compute: computePolicy === 'trace' ? 'duration_micros when present, else the roofline of the device model' : 'the roofline of the device model whenever num_ops is known, else duration_micros',
        device,
        algorithms,
        library: `library: ${library} (the topology's machine preset ${libraryMachine(t).name}); each allreduce, allgather and reduce-scatter gets the pick of the library's tuning model for its communicator (a fabric communicator of whole node slices: its nodes and NIC share; any other: one node behind a switch at its first rank's link rate, one channel), the pick's latency once at the start of each of its streams, in place of α on its messages (model.libraryAlpha: 0 unless α is set), and its protocol efficiency as bytes / efficiency on the wire (the network's on several nodes, the scale-up links' otherwise); its channels each send from a queue of their own (sim/program/send-lanes.ts: no NIC injection bandwidth modelled); a library algorithm named with its parameters (nccl-ring, hierarchical, direct, nccl-tree, nvls, pat) gets the same timing, as in meshwork run (sim/library.ts libraryTiming); the pick per collective is report.collectives[].algorithm`,
        sizes: 'comm_size as ASTRA-sim reads it: the whole buffer (allreduce, reduce-scatter, reduce, broadcast), one rank\'s contribution (allgather, gather), one rank\'s send buffer of P blocks (alltoall, scatter); rounded up to whole 4-byte elements where an algorithm needs it',
        dependencies: `${trace.dependencyKinds === 'both' ? 'data and control' : trace.dependencyKinds === 'data' ? 'data only' : 'control only'} dependencies; ${trace.danglingDeps} on node ids absent from their file and ${trace.selfDeps} of a node on itself ignored`,
      },
      rounded,
    };
  }
}

/** Copies op `o` of a group program into `b` (as op o + offset), its ranks mapped to `ranks` and its tag offset. */
function copyOp(b: FlowProgramBuilder, g: FlowProgram, o: number, offset: number, localTag: number, ranks: readonly number[], tagBase: number, tagStride: number, efficiency: number): void {
  if (localTag >= tagStride) throw new InputError('collective tags', localTag, `at most ${tagStride} distinct tags in a collective's schedule`);
  const tag = tagBase + localTag;
  const hint = g.opHint[o] >= 0 ? g.hints[g.opHint[o]] : undefined;
  // A protocol below the link rate (LL, LL128) moves its bytes as bytes / efficiency at the link rate.
  const wire = efficiency === 1 ? g.opBytes[o] : Math.ceil(g.opBytes[o] / efficiency);
  switch (g.opKind[o]) {
    case OpKind.Send: {
      const n = g.opCount[o];
      const to = n === 1 ? ranks[g.dsts[g.opPeer[o]]] : Array.from(g.dsts.subarray(g.opPeer[o], g.opPeer[o] + n), (d) => ranks[d]);
      if (g.opNonBlocking?.[o] === 1 && typeof to === 'number') b.isend(to, wire, tag, hint);
      else b.send(to, wire, tag, hint);
      break;
    }
    case OpKind.Recv:
      if (g.opNonBlocking?.[o] === 1) b.irecv(ranks[g.opPeer[o]], wire, tag);
      else b.recv(ranks[g.opPeer[o]], wire, tag);
      break;
    case OpKind.Wait:
      if (g.opPeer[o] < 0) b.waitall();
      else b.wait(g.opPeer[o] + offset);
      break;
    case OpKind.Copy:
      b.copy(g.opBytes[o]);
      break;
    case OpKind.Reduce:
      b.reduce(g.opBytes[o]);
      break;
    case OpKind.Pace:
      b.pace(g.opBytes[o]);
      break;
    case OpKind.Barrier:
      b.barrier(`t${tagBase}:${g.keyNames[g.opPeer[o]]}`);
      break;
    case OpKind.HwCollective:
      // The switch's reduction runs at the protocol's rate too (a run scales the hw bandwidth with the links).
      b.hwCollective(wire, `t${tagBase}:${g.keyNames[g.opPeer[o]]}`);
      break;
    default:
      throw new Error(`a collective schedule with op kind ${g.opKind[o]}`);
  }
}

/** Each tag replaced by its rank among the distinct tags (matching only needs tags to stay distinct). */
function denseTags(tags: Int32Array): Int32Array {
  const order = new Map<number, number>();
  for (const v of [...new Set(tags)].sort((x, y) => x - y)) order.set(v, order.size);
  return Int32Array.from(tags, (v) => order.get(v)!);
}

/** How long a compute-like node takes, on which lane, in which category. */
function timeOf(n: ChakraNode, device: DeviceModel, policy: 'trace' | 'roofline'): { seconds: number; category: number; lane: string } {
  const traced = n.durationMicros * 1e-6;
  if (n.kind === 'load' || n.kind === 'store') {
    return { seconds: n.tensorSize !== undefined ? n.tensorSize / device.memoryBandwidth : traced, category: CAT.memory, lane: 'memory' };
  }
  if (n.isCpu || n.kind === 'coll') return { seconds: traced, category: CAT.cpu, lane: 'cpu' };
  const roofline = n.numOps !== undefined ? Math.max(n.numOps / device.peakFlops, (n.tensorSize ?? 0) / device.memoryBandwidth) : undefined;
  const seconds = policy === 'roofline' ? (roofline ?? traced) : n.durationMicros > 0 || roofline === undefined ? traced : roofline;
  return { seconds, category: CAT.compute, lane: 'gpu' };
}
