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
import { routeLatency } from '../program/route-latency.js';
import { InputError, LimitError } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';
import type { RoutingFunction } from '../../routing/types.js';
import { resolveRouting } from '../../routing/registry.js';
import { familyOf } from '../../topology/registry.js';
import { packetDeadlockFreeRouting } from '../../routing/up-star-down-star.js';
import { type FlowProgram } from '../program/program.js';
import { resized } from '../../util/typed-arrays.js';
import { EventQueue } from '../program/event-queue.js';
import { fanOutNode, StreamRunner, turnaroundSeconds } from '../program/semantics.js';
import { packetModelRecord, resolveFlowModel, type FlowModelOptions } from '../program/model.js';
import { assembleResult } from '../assemble.js';
import { hintMaxHops, routeWithHint, type NodeRouteHint } from '../../routing/hints.js';
import { makeRouteBuffers } from '../../routing/types.js';
import type { CollectiveDemand } from '../bounds/index.js';
import type { RunResult } from '../result.js';
import { presetConfig, validateConfig, type PacketConfig, type PresetName } from './config.js';
import { PacketNetwork } from './network.js';
import { SCHEDULE_FLIT_BYTES } from './limits.js';

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
  /** Per rank, the op whose end starts its timed region (`--barriers`, sim/program/barriers.ts). */
  readonly timeOrigin?: Int32Array;
  /**
   * Give up after stepping this many cycles (LimitError); default 1e8. Cycles skipped while the
   * network is empty and only timed wake-ups lie ahead (a workload's compute) are not stepped and
   * do not count: the limit bounds the work, not the simulated time.
   */
  readonly maxCycles?: number;
  /** Called every PROGRESS_CYCLES cycles with the fraction of operations completed (progress bars). */
  readonly progress?: (fraction: number) => void;
}

/** Cycles between progress reports: rare enough that counting completed operations costs nothing. */
const PROGRESS_CYCLES = 4096;

/**
 * The routing the packet network runs for a schedule: the base routing, or the hinted route of the
 * packet being routed (`RouteContext.hint`, which the network keeps per packet). A `via` hint's legs
 * use VC class bands 0, 1, … (routeWithHint), so the network gets base classes × (most legs of any
 * hint) classes; a `path` hint uses class 0. An adaptive base stays adaptive: its legs read the
 * context's load, and the network routes the packet at its first router.
 */
export function hintedRouting(t: Topology, base: RoutingFunction, hints: FlowProgram['hints']): { fn: RoutingFunction } {
  let bands = 1;
  let maxHops = base.maxHops;
  for (const h of hints) {
    if (h.kind === 'via') bands = Math.max(bands, h.nodes.length + 1);
    maxHops = Math.max(maxHops, hintMaxHops(base, h));
  }
  if (hints.length === 0) return { fn: base };
  const torusDateline = t.coords !== undefined && familyOf(t)?.grid?.(t)?.wrap === true && base.vcClasses >= 2;
  const scratch = makeRouteBuffers(maxHops);
  return {
    fn: {
      name: base.name,
      params: { ...base.params, routeHints: 'followed; via legs in VC class bands (hop-indexed)', vcClassBands: bands },
      vcClasses: base.vcClasses * bands,
      deadlockFree: base.deadlockFree,
      ...(base.adaptive ? { adaptive: true } : {}),
      maxHops,
      route: (src, dst, salt, out, ctx) => {
        const hint = ctx?.hint;
        const hops = routeWithHint(t, base, src, dst, hint, salt, out, scratch, ctx);
        if ((hint?.kind === 'path' || hint?.kind === 'ports') && torusDateline) datelineClasses(t, out.channels, out.vcClass, hops);
        return hops;
      },
    },
  };
}

/** A `via` hint's fan-out: the turnaround node's rank and the routes of the two halves. */
interface Turnaround {
  readonly rank: number;
  /** Source to the turnaround node: the hint's earlier via nodes, legs in their VC class bands. */
  readonly toTurnaround: NodeRouteHint;
  /**
   * Turnaround node to a destination in the last leg's class band: every earlier leg starts and
   * ends at the turnaround node, so routeWithHint skips it but still counts its band.
   */
  readonly fromTurnaround: NodeRouteHint;
}

/**
 * Per hint, how its multi-destination sends fan out (`fanOutNode`), or undefined: not a `via`
 * hint, or its turnaround node is not an endpoint (a switch has no port to re-inject copies from,
 * so those sends keep one copy per destination from the source).
 */
function forwardingHints(t: Topology, hints: FlowProgram['hints']): (Turnaround | undefined)[] {
  return hints.map((h) => {
    if (h.kind !== 'via' || h.nodes.length === 0) return undefined;
    const node = h.nodes[h.nodes.length - 1];
    const rank = node >= 0 && node < t.numNodes ? t.rankOfNode[node] : -1;
    if (rank < 0) return undefined;
    return { rank, toTurnaround: { kind: 'via', nodes: h.nodes.slice(0, -1) }, fromTurnaround: { kind: 'via', nodes: h.nodes.map(() => node) } };
  });
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
  if (opts.program.numRanks !== t.numEndpoints) throw new InputError('program', opts.program.numRanks, `${t.numEndpoints} ranks (one per endpoint of ${t.spec})`);
  const baseRouting = packetDeadlockFreeRouting(t, opts.routing ?? resolveRouting(t, { engine: 'packet' }));
  const routing = hintedRouting(t, baseRouting, opts.program.hints);
  const flowModel = resolveFlowModel(opts.model ?? {}, t, baseRouting.params.split);
  const prog = opts.program;
  const flitBytes = opts.flitBytes ?? SCHEDULE_FLIT_BYTES;
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
  const turnarounds = forwardingHints(t, prog.hints);
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
  // A turnaround node's copies leave through one port of their own, as a switch's replication does
  // not queue behind the node's own NIC (and a stream's fence does not wait for them).
  const streamPorts = cfg.injectionPorts;
  const forwardPort = streamPorts;
  if (turnarounds.some((h) => h !== undefined)) cfg.injectionPorts = streamPorts + 1;
  validateConfig(cfg, routing.fn.vcClasses);
  // The hints the network's packets carry (by id, RouteContext.hint): the program's, then each
  // turnaround's two halves (ids H + h and 2H + h).
  const H = prog.hints.length;
  const hintTable: (NodeRouteHint | undefined)[] = [...prog.hints, ...turnarounds.map((x) => x?.toTurnaround), ...turnarounds.map((x) => x?.fromTurnaround)];
  const net = new PacketNetwork(t, routing.fn, cfg, hintTable);
  const P = cfg.packetSize;
  const toCycles = (s: number): number => Math.ceil(s / cycle - 1e-9);

  const finish = new Float64Array(prog.numRanks);
  // Messages: packets not yet retired, and who sent what (for delivery to the stream semantics).
  let msgLeft = new Int32Array(1024);
  let msgSrc = new Int32Array(1024);
  let msgDst = new Int32Array(1024);
  let msgTag = new Int32Array(1024);
  let msgOp = new Int32Array(1024);
  let msgExtra = new Int32Array(1024);
  /** A message to a turnaround node: its number of copies, whose messages follow it; 0 otherwise. */
  let msgFanOut = new Int32Array(1024);
  let nMsgs = 0;
  // Flits injected per block of `blockCycles` cycles; blocks merge pairwise when full, so memory stays
  // bounded however long the run (the result bins the series into THROUGHPUT_BINS anyway).
  let blockFlits = new Float64Array(THROUGHPUT_BLOCKS);
  let blockCycles = 1;
  let injectedBefore = 0;
  let outstandingMsgs = 0;
  const pendingMsg: number[] = [];
  const pendingAt: number[] = [];
  let bytesTotal = 0;
  let messages = 0;
  let packets = 0;
  const maxCycles = opts.maxCycles ?? 1e8;
  let idleCycles = 0;
  const channelBytes = new Float64Array(t.numChannels);
  const wakes = new EventQueue(1024);
  const portOf = (s: number): number => prog.streamLocal[s] % streamPorts;
  const flitsOf = (op: number): number => Math.max(1, Math.ceil(prog.opBytes[op] / flitBytes));

  const newMessage = (src: number, dst: number, op: number, packetsLeft: number, extra: number): number => {
    if (nMsgs === msgLeft.length) {
      const n = 2 * nMsgs;
      msgLeft = resized(msgLeft, n);
      msgSrc = resized(msgSrc, n);
      msgDst = resized(msgDst, n);
      msgTag = resized(msgTag, n);
      msgOp = resized(msgOp, n);
      msgExtra = resized(msgExtra, n);
      msgFanOut = resized(msgFanOut, n);
    }
    const m = nMsgs++;
    msgLeft[m] = packetsLeft;
    msgSrc[m] = src;
    msgDst[m] = dst;
    msgTag[m] = prog.opTag[op];
    msgOp[m] = op;
    msgExtra[m] = extra;
    msgFanOut[m] = 0;
    if (order !== 'fifo') {
      if (m >= msgUnfed.length) {
        const n = Math.max(2 * msgUnfed.length, m + 1);
        msgUnfed = resized(msgUnfed, n);
        msgStream = resized(msgStream, n);
        msgQNext = resized(msgQNext, n);
      }
      msgUnfed[m] = -1;
    }
    return m;
  };

  // The NIC model (flowModel.injectionOrder). fifo: a message's packets all join the source queue
  // of its NIC and first link when posted, so messages on one link leave one after another. shared
  // and per-destination: a sending message keeps one packet in that queue and adds its next as that
  // one leaves (net.dequeuedTag), so the messages sending at once interleave packet by packet,
  // sharing the link equally as max-min shares it among them; per-destination lets one message per
  // (NIC, destination) send at a time, the next waiting behind it.
  const order = flowModel.injectionOrder;
  /** Per message: packets not yet in the network's queues, its stream, and the next message in its per-destination queue. */
  let msgUnfed = new Int32Array(order === 'fifo' ? 0 : 1024);
  let msgStream = new Int32Array(msgUnfed.length);
  let msgQNext = new Int32Array(msgUnfed.length);
  const destTail = new Map<number, number>();
  /** Per stream, packets its sending messages still hold back (the NIC is not idle while any wait). */
  const held = new Int32Array(order === 'fifo' ? 0 : prog.numStreams);

  /**
   * The route salt of packet k of message m. Where the flow model splits ties in halves (even and
   * odd salt, e.g. the two planes of fullmesh:N,mult=2), a message's packets alternate between the
   * two, starting on m's parity, so every message splits as evenly as its packet count allows, as
   * the flow engine's exact halves; otherwise the network's hashed salt.
   */
  const splitSalt = (m: number, k: number): number | undefined => (flowModel.splitTies ? (m + k) & 1 : undefined);

  /** Enqueues the next packet of message m of stream s (pacing: the stream's next release). */
  const feed = (m: number, now: number): void => {
    const s = msgStream[m];
    const flits = flitsOf(msgOp[m]);
    const npk = Math.ceil(flits / P);
    const k = npk - msgUnfed[m]--;
    held[s]--;
    const release = Math.max(now, nextRelease[s]);
    net.enqueue(msgSrc[m], msgDst[m], k === npk - 1 ? flits - k * P : P, release, m, portOf(s), splitSalt(m, k), routeOf(m));
    nextRelease[s] = release + (runner.gap[s] > 0 ? (runner.gap[s] + 1) * P : 0);
    packets++;
  };

  /** The id in hintTable of the route hint message m's packets follow (to the turnaround node for a fan-out's first leg), or -1. */
  const routeOf = (m: number): number => {
    const h = prog.opHint[msgOp[m]];
    if (h < 0) return -1;
    return msgFanOut[m] > 0 ? H + h : h;
  };

  /** Message m's packet left its source queue: the next packet of m, or of the message waiting behind m. */
  const fedOut = (m: number, now: number): void => {
    // A turnaround node's copies are not fed by a NIC (-1).
    if (msgUnfed[m] < 0) return;
    if (msgUnfed[m] > 0) {
      feed(m, now);
      return;
    }
    if (order !== 'per-destination') return;
    const next = msgQNext[m];
    if (next >= 0) feed(next, now);
    else {
      const key = destKey(m);
      if (destTail.get(key) === m) destTail.delete(key);
    }
  };
  const destKey = (m: number): number => (msgSrc[m] * streamPorts + portOf(msgStream[m])) * prog.numRanks + msgDst[m];

  /** Message m of stream s is posted: all its packets join its NIC's queue (fifo), or its first does. */
  const enqueueMessage = (s: number, m: number, flits: number, now: number): void => {
    const npk = Math.ceil(flits / P);
    if (order === 'fifo') {
      const gap = runner.gap[s];
      const hint = routeOf(m);
      for (let k = 0; k < npk; k++) {
        const release = Math.max(now, nextRelease[s]);
        net.enqueue(msgSrc[m], msgDst[m], k === npk - 1 ? flits - k * P : P, release, m, portOf(s), splitSalt(m, k), hint);
        nextRelease[s] = release + (gap > 0 ? (gap + 1) * P : 0);
        packets++;
      }
      return;
    }
    msgUnfed[m] = npk;
    msgStream[m] = s;
    msgQNext[m] = -1;
    held[s] += npk;
    if (order === 'per-destination') {
      const key = destKey(m);
      const tail = destTail.get(key);
      destTail.set(key, m);
      if (tail !== undefined) {
        msgQNext[tail] = m;
        return;
      }
    }
    feed(m, now);
  };

  const post = (s: number, i: number, now: number): void => {
    const rank = prog.streamRank[s];
    const bytes = prog.opBytes[i];
    const h = prog.opHint[i];
    const hint = h >= 0 ? prog.hints[h] : undefined;
    const extra = toCycles(turnaroundSeconds(hint, flowModel));
    const count = prog.opCount[i];
    const flits = flitsOf(i);
    const npk = Math.ceil(flits / P);
    messages += count;
    bytesTotal += bytes * count;
    outstandingMsgs += count;
    const turn = h >= 0 ? turnarounds[h] : undefined;
    if (turn !== undefined && fanOutNode(hint, count) >= 0) {
      // One message to the turnaround node, then one per destination, filled packet by packet there.
      const leg = newMessage(rank, turn.rank, i, npk, extra);
      msgFanOut[leg] = count;
      for (let j = 0; j < count; j++) newMessage(rank, prog.dsts[prog.opPeer[i] + j], i, npk, 0);
      enqueueMessage(s, leg, flits, now);
      return;
    }
    for (let j = 0; j < count; j++) {
      const dst = prog.dsts[prog.opPeer[i] + j];
      enqueueMessage(s, newMessage(rank, dst, i, npk, extra), flits, now);
    }
  };

  /** A packet of turnaround message `leg` reached its node at `cycle`: its copies leave after the turnaround. */
  const fanOut = (leg: number, cycle: number): void => {
    const op = msgOp[leg];
    const turn = turnarounds[prog.opHint[op]]!;
    const flits = flitsOf(op);
    const left = --msgLeft[leg];
    const size = left === 0 ? flits - (Math.ceil(flits / P) - 1) * P : P;
    const release = cycle + msgExtra[leg];
    for (let m = leg + 1; m <= leg + msgFanOut[leg]; m++) {
      if (msgDst[m] === turn.rank) arrived(m, release);
      else {
        net.enqueue(turn.rank, msgDst[m], size, release, m, forwardPort, undefined, 2 * H + prog.opHint[op]);
        packets++;
      }
    }
  };

  /** A packet of message m arrived at `cycle`; with its last, the message counts as arrived (plus any turnaround extra). */
  const arrived = (m: number, cycle: number): void => {
    if (--msgLeft[m] > 0) return;
    pendingMsg.push(m);
    pendingAt.push(cycle + msgExtra[m]);
  };
  const nextRelease = new Float64Array(prog.numStreams);
  const runner = new StreamRunner(prog, flowModel, {
    postSend: post,
    sendsLeft: (s) => (order === 'fifo' || held[s] === 0) && net.sourceIdle(prog.streamRank[s], portOf(s)),
    wakeAt: (at, s) => wakes.push(at, 0, s),
    signalsSendsLeft: false,
    // The engine answers route latency (the 'linear' barrier) over its own base routing.
    routeLatency: flowModel.barrier === 'linear' ? routeLatency(t, baseRouting, flowModel.routerLatency) : undefined,
  }, toCycles);

  runner.start(0);
  for (;;) {
    const now = net.now;
    // A packet retired in the last step reaches its terminal a few cycles later (switch traversal and
    // ejection channel), plus any turnaround extra: the message counts as arrived from that cycle on.
    for (let k = 0; k < net.retiredCount; k++) {
      const m = net.retiredTag[k];
      if (msgFanOut[m] > 0) fanOut(m, net.retiredCycle[k]);
      else arrived(m, net.retiredCycle[k]);
    }
    for (let k = 0; k < pendingMsg.length; ) {
      if (pendingAt[k] > now) {
        k++;
        continue;
      }
      const m = pendingMsg[k];
      outstandingMsgs--;
      pendingMsg[k] = pendingMsg[pendingMsg.length - 1];
      pendingAt[k] = pendingAt[pendingAt.length - 1];
      pendingMsg.pop();
      pendingAt.pop();
      runner.deliver(msgSrc[m], msgDst[m], msgTag[m], msgOp[m], now);
    }
    while (wakes.peekTime() <= now) {
      const s = wakes.peekArg();
      wakes.pop();
      runner.wake(s, now);
    }
    runner.retryFences(now);
    if (runner.finished && outstandingMsgs === 0) break;
    if (wakes.length === 0 && pendingMsg.length === 0 && net.outstandingFlits === 0 && !runner.hasFences) {
      runner.checkComplete();
      throw new InputError('program', `stuck at cycle ${now}`, 'a schedule whose receives and barriers can all complete');
    }
    // An empty network with only timed wake-ups ahead (compute): jump to the next one. Stepping the
    // cycles between would move nothing (no flit, credit or queued packet), so the result is the same.
    if (outstandingMsgs === 0 && net.outstandingFlits === 0 && pendingMsg.length === 0 && wakes.length > 0 && !runner.hasFences && net.creditsInFlight() === 0) {
      const next = Math.ceil(wakes.peekTime());
      if (next > now + 1) {
        idleCycles += next - now;
        net.now = next;
        net.retiredCount = 0; // handled above; the loop's top must not see them again
        continue;
      }
    }
    if (now - idleCycles >= maxCycles) throw new LimitError('maxCycles', now - idleCycles, `${maxCycles} stepped cycles of packet simulation`);
    if (opts.progress && now % PROGRESS_CYCLES === 0) opts.progress(runner.opsDone() / Math.max(1, prog.numOps));
    net.step();
    if (order !== 'fifo') for (let k = 0; k < net.dequeuedCount; k++) fedOut(net.dequeuedTag[k], net.now);
    let block = Math.floor(now / blockCycles);
    while (block >= THROUGHPUT_BLOCKS) {
      const merged = new Float64Array(THROUGHPUT_BLOCKS);
      for (let k = 0; k < THROUGHPUT_BLOCKS; k++) merged[k >> 1] += blockFlits[k];
      blockFlits = merged;
      blockCycles *= 2;
      block = Math.floor(now / blockCycles);
    }
    blockFlits[block] += net.injectedFlits - injectedBefore;
    injectedBefore = net.injectedFlits;
  }
  for (let s = 0; s < prog.numStreams; s++) finish[prog.streamRank[s]] = Math.max(finish[prog.streamRank[s]], runner.streamFinish[s]);
  const makespanCycles = net.now;
  const makespan = makespanCycles * cycle;
  for (let c = 0; c < t.numChannels; c++) channelBytes[c] = net.chFlits[c] * flitBytes;
  // Flits per block, as a step function of the aggregate injection rate.
  const rateTime = Float64Array.from(blockFlits, (_, k) => k * blockCycles * cycle);
  const rateValue = Float64Array.from(blockFlits, (f) => (f * flitBytes) / (blockCycles * cycle));
  return assembleResult(
    {
      topology: t,
      routing: routing.fn,
      boundRouting: baseRouting,
      program: prog,
      model: flowModel,
      workload: opts.workload,
      demands: opts.demands,
      timeOrigin: opts.timeOrigin,
      modelRecord: {
        ...packetModelRecord(flowModel),
        ...cfg,
        engine: 'packet-level, cycle-driven input-queued VC routers',
        flitBytes,
        cycleSeconds: cycle,
        idleSkip: 'cycles with an empty network and only timed wake-ups ahead (compute) are skipped, not stepped: the same result; maxCycles counts stepped cycles',
        cyclesSkipped: idleCycles,
        messages: 'split into packets of at most packetSize flits; last packet shorter',
        pacing: 'after pace(g), packets of the stream are released (g + 1)·P cycles apart',
        routeHints: 'followed: via legs by the routing function, each in its own VC class band (hop-indexed); path hints exactly; one copy per destination (no in-switch replication at a turnaround)',
        criticalPath: 'per op: start, end and the op it waited for (recv: the send when its message arrived after the recv started; barrier: the last arrival)',
        throughput: 'flits entering the network per cycle × flitBytes / cycleSeconds, binned as the flow engine does',
      },
    },
    {
      engine: 'packet',
      makespan,
      rankFinish: Array.from(finish, (f) => f * cycle),
      channelBytes,
      rateTime,
      rateValue,
      opStart: runner.opStartT.map((c) => c * cycle),
      opEnd: runner.opEndT.map((c) => c * cycle),
      opPred: runner.opPred,
      stats: { messages, flows: packets, bytes: bytesTotal, events: makespanCycles, rate_updates: 0 },
    },
  );
}
