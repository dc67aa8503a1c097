/**
 * Schedule-driven packet simulation: runs a FlowProgram (per-rank streams of send / recv / reduce /
 * copy / barrier / pace / hwCollective, the flow engine's input) on the packet network and returns
 * the shared RunResult, so `makespan_s` means what it means for the flow engine.
 *
 * Model: a cycle is `cycleSeconds`; a flit carries `flitBytes`. Messages are split into packets of
 * at most `packetSize` flits; stream s of a rank injects through NIC (injection port) s mod nics.
 * A send keeps its stream busy for α, then posts its packets; after `pace(g)` consecutive packets
 * of that stream are released (g + 1)·P cycles apart (a gap of g packet times). A recv waits for the
 * matching message (source, tag, program order) to arrive completely. Barriers and hwCollectives
 * complete when every stream using the key has arrived (and, for a barrier, its own packets have
 * left its NIC), plus the modelled network cost: ⌈log2 P⌉ stages of `barrierStageLatency`
 * (hwCollective: 2⌈log2 P⌉ levels plus bytes / hwBandwidth). Route hints are followed: a `via`
 * hint routes each leg by the routing function in its own band of VC classes (hop-indexed VCs, so a
 * full mesh's 1-hop paths stay deadlock free), a `path` hint takes exactly the listed nodes. The
 * result carries the critical path and the aggregate injected-throughput series, as the flow
 * engine's does.
 */
import { InputError, LimitError } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';
import type { RoutingFunction } from '../../routing/types.js';
import { resolveRouting, type RoutingOptions } from '../../routing/registry.js';
import { packetDeadlockFreeRouting } from '../../routing/up-star-down-star.js';
import { FlowOp, type FlowProgram } from '../flow/program.js';
import { resolveFlowModel, type FlowModelOptions } from '../flow/model.js';
import { channelSummary, criticalPath, throughputSeries } from '../flow/run.js';
import { hintMaxHops, routeWithHint, type NodeRouteHint } from '../../routing/hints.js';
import { makeRouteBuffers } from '../../routing/types.js';
import { bestBound, demandBounds, scheduleBound, scheduleDemands, type CollectiveDemand } from '../../analysis/bounds/index.js';
import type { Schedule } from '../../collectives/schedule.js';
import { lowerSchedule } from '../flow/from-schedule.js';
import { workloadOf } from '../flow/collective-run.js';
import { RESULT_VERSION, type RunResult } from '../result.js';
import { presetConfig, validateConfig, type PacketConfig, type PresetName } from './config.js';
import { PacketNetwork } from './network.js';

export interface PacketScheduleOptions {
  readonly topology: Topology;
  readonly program: FlowProgram;
  readonly routing?: RoutingFunction;
  readonly preset?: PresetName;
  readonly config?: Partial<PacketConfig>;
  /** Bytes per flit; default 32. */
  readonly flitBytes?: number;
  /** Seconds per cycle; default: one flit time on the slowest channel (flitBytes / bandwidth). */
  readonly cycleSeconds?: number;
  /** α, barrier, hwCollective and γ parameters, as the flow engine takes them. */
  readonly model?: FlowModelOptions;
  readonly workload?: Readonly<Record<string, unknown>> | null;
  /** The collective's demands, for the topology lower bounds (as the flow engine's runFlow). */
  readonly demands?: readonly CollectiveDemand[];
  /** Give up after this many cycles (LimitError); default 1e8. */
  readonly maxCycles?: number;
}

/**
 * The routing the packet network runs for a schedule: the base routing, or the hinted route of the
 * packet being posted (`current`). A `via` hint's legs use VC class bands 0, 1, … (routeWithHint),
 * so the network gets base classes × (most legs of any hint) classes; a `path` hint uses class 0.
 */
function hintedRouting(t: Topology, base: RoutingFunction, hints: FlowProgram['hints']): { fn: RoutingFunction; current: NodeRouteHint | undefined } {
  let bands = 1;
  let maxHops = base.maxHops;
  for (const h of hints) {
    if (h.kind === 'via') bands = Math.max(bands, h.nodes.length + 1);
    maxHops = Math.max(maxHops, hintMaxHops(base, h));
  }
  if (hints.length === 0) return { fn: base, current: undefined };
  const torusDateline = t.family === 'torus' && t.coords !== undefined && base.vcClasses >= 2;
  const scratch = makeRouteBuffers(maxHops);
  const self: { fn: RoutingFunction; current: NodeRouteHint | undefined } = {
    current: undefined,
    fn: {
      name: base.name,
      params: { ...base.params, routeHints: 'followed; via legs in VC class bands (hop-indexed)', vcClassBands: bands },
      vcClasses: base.vcClasses * bands,
      deadlockFree: base.deadlockFree,
      maxHops,
      route: (src, dst, salt, out) => {
        const hops = routeWithHint(t, base, src, dst, self.current, salt, out, scratch);
        if ((self.current?.kind === 'path' || self.current?.kind === 'ports') && torusDateline) datelineClasses(t, out.channels, out.vcClass, hops);
        return hops;
      },
    },
  };
  return self;
}

/**
 * VC classes for an explicit node path on a torus, by the classic dateline (Dally & Seitz): along
 * each run of hops in one dimension and direction, class 0 up to the ring's wrap-around link and
 * class 1 from it on. Unlike dimension order's whole-dimension class (which relies on minimal
 * routes), this stays deadlock free for the non-minimal axis paths seed 000's schedules give
 * (up to k − 1 hops one way round), with the torus's 2 classes.
 */
function datelineClasses(t: Topology, channels: Int32Array, vcClass: Uint8Array, hops: number): void {
  const dims = t.params.dims as number[];
  const nd = dims.length;
  const coords = t.coords!;
  let runKey = -1;
  let crossed = 0;
  for (let i = 0; i < hops; i++) {
    const u = t.chSrc[channels[i]];
    const v = t.chDst[channels[i]];
    let d = 0;
    while (d < nd - 1 && coords[u * nd + d] === coords[v * nd + d]) d++;
    const k = dims[d];
    const x = coords[u * nd + d];
    const y = coords[v * nd + d];
    const plus = (y - x + k) % k === 1;
    const key = d * 2 + (plus ? 0 : 1);
    if (key !== runKey) {
      runKey = key;
      crossed = 0;
    }
    if (k > 2 && (plus ? y < x : y > x)) crossed = 1;
    vcClass[i] = crossed;
  }
}

/** Blocks of the injected-flit record (see simulatePacketSchedule). */
const THROUGHPUT_BLOCKS = 4096;

export function simulatePacketSchedule(opts: PacketScheduleOptions): RunResult {
  const t = opts.topology;
  const prog = opts.program;
  if (prog.numRanks !== t.numEndpoints) throw new InputError('program', prog.numRanks, `${t.numEndpoints} ranks (one per endpoint of ${t.spec})`);
  const baseRouting = packetDeadlockFreeRouting(t, opts.routing ?? resolveRouting(t, { engine: 'packet' }));
  const routing = hintedRouting(t, baseRouting, prog.hints);
  const flowModel = resolveFlowModel(opts.model ?? {}, t, baseRouting.params.split);
  const flitBytes = opts.flitBytes ?? 32;
  if (!(flitBytes > 0)) throw new InputError('flitBytes', flitBytes, 'a positive number of bytes');
  let minBw = Infinity;
  for (let c = 0; c < t.numChannels; c++) minBw = Math.min(minBw, t.chBandwidth[c]);
  const cycle = opts.cycleSeconds ?? flitBytes / minBw;
  if (!(cycle > 0 && Number.isFinite(cycle))) throw new InputError('cycleSeconds', cycle, 'a positive number of seconds');
  // Channel latency per class, in cycles (at least 1).
  const latency: Record<string, number> = {};
  for (let c = 0; c < t.numChannels; c++) {
    const cls = t.className(c);
    if (latency[cls] === undefined) latency[cls] = Math.max(1, Math.round(t.chLatency[c] / cycle));
  }
  const base = presetConfig(opts.preset ?? 'default', t);
  const cfg: PacketConfig = {
    ...base,
    channelLatency: latency,
    injectionPorts: flowModel.nics,
    // The flow model's injection=links (no NIC bandwidth limit): each NIC feeds every link at full rate.
    perLinkInjection: flowModel.injectionBandwidth === null,
    perLinkEjection: flowModel.ejectionBandwidth === null,
    ejectionPorts: flowModel.nics,
    // Schedule runs default to 2 VCs per deadlock class and 2 packets of buffer per VC, so a single
    // stream can keep a link busy (one VC of a packet's depth stalls on every packet turnaround).
    packetSize: 8,
    vcBuf: 16,
    vcs: 2 * routing.fn.vcClasses,
    ...opts.config,
  };
  validateConfig(cfg, routing.fn.vcClasses);
  const net = new PacketNetwork(t, routing.fn, cfg);
  const P = cfg.packetSize;
  const toCycles = (s: number): number => Math.ceil(s / cycle - 1e-9);
  const alpha = toCycles(flowModel.alpha);

  const S = prog.numStreams;
  const end = prog.opStart;
  const pc = end.slice(0, S);
  const busyUntil = new Float64Array(S);
  const gap = new Float64Array(S);
  const nextRelease = new Float64Array(S);
  const waiting = new Uint8Array(S); // 1 = in a barrier / hwCollective
  const posted = new Uint8Array(S); // send: α elapsed and packets posted
  const finish = new Float64Array(prog.numRanks);
  const finished = new Uint8Array(S);
  // Messages: remaining packets; completed arrivals per (dst, src, tag) key; consumed by recvs.
  const msgLeft: number[] = [];
  const msgKey: string[] = [];
  const msgOp: number[] = [];
  // Per (dst, src, tag) key: arrival cycles and sending ops, in arrival order.
  const arrived = new Map<string, { at: number[]; op: number[] }>();
  const consumed = new Map<string, number>();
  // Per operation: start and end cycle and the operation it waited for (the critical path's links).
  const nOps = prog.numOps;
  const opStartC = new Float64Array(nOps).fill(NaN);
  const opEndC = new Float64Array(nOps).fill(NaN);
  const opPred = new Int32Array(nOps).fill(-1);
  const lastOp = new Int32Array(S).fill(-1);
  const complete = (s: number, op: number, at: number, pred: number): void => {
    opEndC[op] = at;
    opPred[op] = pred;
    lastOp[s] = op;
  };
  // Flits injected per block of `blockCycles` cycles; blocks merge pairwise when full, so memory stays
  // bounded however long the run (the result bins the series into THROUGHPUT_BINS anyway).
  let blockFlits = new Float64Array(THROUGHPUT_BLOCKS);
  let blockCycles = 1;
  let injectedBefore = 0;
  // Barrier / hwCollective participants per key.
  const participants = new Map<number, number>();
  for (let s = 0; s < S; s++) {
    const seen = new Set<number>();
    for (let i = end[s]; i < end[s + 1]; i++) {
      const k = prog.opKind[i];
      if ((k === FlowOp.Barrier || k === FlowOp.HwCollective) && !seen.has(prog.opPeer[i])) {
        seen.add(prog.opPeer[i]);
        participants.set(prog.opPeer[i], (participants.get(prog.opPeer[i]) ?? 0) + 1);
      }
    }
  }
  const arrivedAt = new Map<number, number[]>();
  let outstandingMsgs = 0;
  const pendingMsg: number[] = [];
  const pendingAt: number[] = [];
  let done = 0;
  let bytesTotal = 0;
  let messages = 0;
  let packets = 0;
  const maxCycles = opts.maxCycles ?? 1e8;
  const channelBytes = new Float64Array(t.numChannels);

  const post = (s: number, i: number, now: number): void => {
    const rank = prog.streamRank[s];
    const port = prog.streamLocal[s] % cfg.injectionPorts;
    const bytes = prog.opBytes[i];
    const hint = prog.opHint[i] >= 0 ? prog.hints[prog.opHint[i]] : undefined;
    for (let j = 0; j < prog.opCount[i]; j++) {
      const dst = prog.dsts[prog.opPeer[i] + j];
      const flits = Math.max(1, Math.ceil(bytes / flitBytes));
      const npk = Math.ceil(flits / P);
      const m = msgLeft.length;
      msgLeft.push(npk);
      msgKey.push(`${dst}/${rank}/${prog.opTag[i]}`);
      msgOp.push(i);
      outstandingMsgs++;
      messages++;
      bytesTotal += bytes;
      for (let k = 0; k < npk; k++) {
        const size = k === npk - 1 ? flits - k * P : P;
        const release = Math.max(now, nextRelease[s]);
        routing.current = hint;
        net.enqueue(rank, dst, size, release, m, port);
        nextRelease[s] = release + (gap[s] > 0 ? (gap[s] + 1) * P : 0);
        packets++;
      }
    }
    routing.current = undefined;
  };

  for (;;) {
    const now = net.now;
    // A packet retired in the last step reaches its terminal a few cycles later (switch traversal and
    // ejection channel): the message counts as arrived from that cycle on.
    let progressed = net.retiredCount > 0;
    for (let k = 0; k < net.retiredCount; k++) {
      const m = net.retiredTag[k];
      if (--msgLeft[m] === 0) {
        pendingMsg.push(m);
        pendingAt.push(net.retiredCycle[k]);
      }
    }
    for (let k = 0; k < pendingMsg.length; ) {
      if (pendingAt[k] > now) {
        k++;
        progressed = true;
        continue;
      }
      const m = pendingMsg[k];
      outstandingMsgs--;
      const list = arrived.get(msgKey[m]) ?? { at: [], op: [] };
      list.at.push(pendingAt[k]);
      list.op.push(msgOp[m]);
      arrived.set(msgKey[m], list);
      pendingMsg[k] = pendingMsg[pendingMsg.length - 1];
      pendingAt[k] = pendingAt[pendingAt.length - 1];
      pendingMsg.pop();
      pendingAt.pop();
    }
    for (let s = 0; s < S; s++) {
      const pcBefore = pc[s];
      while (pc[s] < end[s + 1] && busyUntil[s] <= now) {
        const i = pc[s];
        const kind = prog.opKind[i];
        if (Number.isNaN(opStartC[i])) opStartC[i] = now;
        if (kind === FlowOp.Send) {
          if (!posted[s]) {
            posted[s] = 1;
            busyUntil[s] = now + alpha;
            if (alpha > 0) break;
          }
          post(s, i, now);
          posted[s] = 0;
          complete(s, i, now, lastOp[s]);
        } else if (kind === FlowOp.Recv) {
          const key = `${prog.streamRank[s]}/${prog.opPeer[i]}/${prog.opTag[i]}`;
          const c = consumed.get(key) ?? 0;
          const list = arrived.get(key);
          if (!list || list.at.length <= c) break;
          consumed.set(key, c + 1);
          // As the flow engine: the recv waited for the sender if the message came after it started.
          complete(s, i, now, list.at[c] >= opStartC[i] ? list.op[c] : lastOp[s]);
        } else if (kind === FlowOp.Reduce || kind === FlowOp.Copy) {
          const gamma = kind === FlowOp.Reduce ? flowModel.gammaReduce : flowModel.gammaCopy;
          const d = toCycles(prog.opBytes[i] * gamma);
          pc[s]++;
          busyUntil[s] = now + d;
          complete(s, i, now + d, lastOp[s]);
          continue;
        } else if (kind === FlowOp.Pace) {
          gap[s] = prog.opBytes[i];
          complete(s, i, now, lastOp[s]);
        } else {
          // Barrier / hwCollective: arrive once (after the stream's own packets left its NIC).
          const key = prog.opPeer[i];
          if (!waiting[s]) {
            if (kind === FlowOp.Barrier && !net.sourceIdle(prog.streamRank[s], prog.streamLocal[s] % cfg.injectionPorts)) break;
            waiting[s] = 1;
            const list = arrivedAt.get(key) ?? [];
            list.push(s);
            arrivedAt.set(key, list);
            const n = participants.get(key) ?? 1;
            if (list.length === n) {
              const stages = Math.ceil(Math.log2(Math.max(2, n)));
              // The tree moves the largest contribution (non-participants send identities of that length).
              let bytes = 0;
              for (const x of list) bytes = Math.max(bytes, prog.opBytes[pc[x]]);
              const cost =
                kind === FlowOp.Barrier
                  ? toCycles(stages * flowModel.barrierStageLatency)
                  : toCycles(2 * stages * flowModel.hwLevelLatency + bytes / flowModel.hwBandwidth);
              for (const x of list) {
                waiting[x] = 0;
                busyUntil[x] = now + cost;
                // The last arrival chains to its own previous op; everyone else waited for it.
                complete(x, pc[x], now + cost, x === s ? lastOp[s] : i);
                pc[x]++;
              }
              arrivedAt.delete(key);
            }
          }
          break;
        }
        pc[s]++;
      }
      if (!finished[s] && pc[s] === end[s + 1] && busyUntil[s] <= now) {
        finished[s] = 1;
        finish[prog.streamRank[s]] = Math.max(finish[prog.streamRank[s]], now);
        done++;
      }
      if (pc[s] !== pcBefore || busyUntil[s] > now) progressed = true;
    }
    if (done === S && outstandingMsgs === 0) break;
    if (!progressed && outstandingMsgs === 0 && net.outstandingFlits === 0) {
      throw new InputError('program', `stuck at cycle ${now}`, 'a schedule whose receives and barriers can all complete');
    }
    if (now >= maxCycles) throw new LimitError('maxCycles', now, `${maxCycles} cycles of packet simulation`);
    net.step();
    let block = Math.floor(now / blockCycles);
    if (block >= THROUGHPUT_BLOCKS) {
      const merged = new Float64Array(THROUGHPUT_BLOCKS);
      for (let k = 0; k < THROUGHPUT_BLOCKS; k++) merged[k >> 1] += blockFlits[k];
      blockFlits = merged;
      blockCycles *= 2;
      block = Math.floor(now / blockCycles);
    }
    blockFlits[block] += net.injectedFlits - injectedBefore;
    injectedBefore = net.injectedFlits;
  }
  const makespanCycles = net.now;
  const makespan = makespanCycles * cycle;
  for (let c = 0; c < t.numChannels; c++) channelBytes[c] = net.chFlits[c] * flitBytes;
  const sched = scheduleBound(t, baseRouting, prog, flowModel);
  const bounds = opts.demands && opts.demands.length > 0 ? demandBounds(t, opts.demands, flowModel) : [];
  const best = bounds.length > 0 ? bestBound(bounds) : { seconds: sched.seconds };
  return {
    kind: 'meshwork-run-result',
    version: RESULT_VERSION,
    engine: 'packet',
    makespan_s: makespan,
    bound_s: best.seconds,
    efficiency: makespan > 0 ? Math.min(1, best.seconds / makespan) : 1,
    schedule_bound_s: sched.seconds,
    bounds: [...bounds, { name: 'schedule', seconds: sched.seconds, detail: `${sched.steps} barrier-separated steps, each at its own bottleneck, zero latency (not a topology bound)` }],
    topology: { spec: t.spec, family: t.family, nodes: t.numNodes, channels: t.numChannels, endpoints: t.numEndpoints, params: t.params },
    routing: { name: routing.fn.name, params: routing.fn.params },
    workload: opts.workload ?? null,
    model: {
      ...flowModel,
      ...cfg,
      engine: 'packet-level, cycle-driven input-queued VC routers',
      flitBytes,
      cycleSeconds: cycle,
      messages: 'split into packets of at most packetSize flits; last packet shorter',
      pacing: 'after pace(g), packets of the stream are released (g + 1)·P cycles apart',
      barrierCost: 'barrierStageLatency × ⌈log2 P⌉ for P participating streams, after each stream\'s packets left its NIC',
      routeHints: 'followed: via legs by the routing function, each in its own VC class band (hop-indexed); path hints exactly; one copy per destination (no in-switch replication at a turnaround)',
      criticalPath: 'per op: start, end and the op it waited for (recv: the send when its message arrived after the recv started; barrier: the last arrival)',
      throughput: 'flits entering the network per cycle × flitBytes / cycleSeconds, binned as the flow engine does',
    },
    ranks: { count: prog.numRanks, finish_s: Array.from(finish, (f) => f * cycle) },
    channels: channelSummary(t, channelBytes, makespan),
    throughput: throughputSeries(
      Float64Array.from(blockFlits, (_, k) => k * blockCycles * cycle),
      Float64Array.from(blockFlits, (f) => (f * flitBytes) / (blockCycles * cycle)),
      makespan,
    ),
    critical_path: criticalPath(prog, {
      opStart: opStartC.map((c) => c * cycle),
      opEnd: opEndC.map((c) => c * cycle),
      opPred,
    }),
    stats: { messages, flows: packets, bytes: bytesTotal, events: makespanCycles, rate_updates: 0 },
  };
}

/**
 * `meshwork run --engine packet`: lowers a collective schedule to streams (as the flow engine does)
 * and runs it on the packet network with the same timing options (α, barrier, NICs, routing).
 */
export function runPacketSchedule(req: {
  topology: Topology;
  schedule: Schedule;
  setup: { routingOptions?: RoutingOptions; model?: FlowModelOptions };
}): RunResult {
  const topology = req.topology;
  return simulatePacketSchedule({
    topology,
    program: lowerSchedule(req.schedule),
    routing: resolveRouting(topology, { ...req.setup.routingOptions, engine: 'packet' }),
    model: req.setup.model,
    workload: workloadOf(req.schedule),
    demands: scheduleDemands(req.schedule),
  });
}
