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
import { librarySendLanes } from '../program/send-lanes.js';
import { routeLatency } from '../program/route-latency.js';
import { programForBarrierModel } from '../program/barriers.js';
import { InputError, LimitError } from '../../util/errors.js';
import { OpKind } from '../../collectives/types.js';
import { loopbackOf, type Topology } from '../../topology/graph.js';
import type { RoutingFunction } from '../../routing/types.js';
import { resolveRouting } from '../../routing/registry.js';
import { familyOf } from '../../topology/registry.js';
import { packetDeadlockFreeRouting } from '../../routing/up-star-down-star.js';
import { type FlowProgram } from '../program/program.js';
import { EventQueue } from '../program/event-queue.js';
import { fanOutNode, StreamRunner, turnaroundSeconds } from '../program/semantics.js';
import { packetModelRecord, resolveFlowModel, type FlowModel, type FlowModelOptions } from '../program/model.js';
import { assembleResult } from '../assemble.js';
import { hintMaxHops, routeWithHint, type NodeRouteHint } from '../../routing/hints.js';
import { makeRouteBuffers } from '../../routing/types.js';
import type { CollectiveDemand } from '../bounds/index.js';
import type { RunResult } from '../result.js';
import { channelLatencyRanges, checkChannelClasses, perClass, presetConfig, validateConfig, type PacketConfig, type PresetName } from './config.js';
import { creditBoundCycles } from './credit-bound.js';
import { PacketNetwork } from './network.js';
import { refusePacketSharedHosts, SCHEDULE_FLIT_BYTES } from './limits.js';
import { ScheduleMessageTable } from './schedule-messages.js';
import { PacketNicQueues, type PacketSender } from './nic-queues.js';

/** Stepped cycles a schedule run may take unless the caller sets `maxCycles`. */
const MAX_CYCLES = 1e8;

/**
 * A run that cannot finish within the cycle limit because its buffers do not cover a channel's
 * credit round trip (packet/credit-bound.ts), refused before the network is built, not after
 * stepping to the limit.
 */
function refuseCreditBound(prog: FlowProgram, t: Topology, routing: RoutingFunction, cfg: PacketConfig, flitBytes: number, maxCycles: number, perChannel?: Int32Array): void {
  const bound = creditBoundCycles(prog, t, routing, { vcs: cfg.vcs, vcBuf: cfg.vcBuf, flitBytes, latencyCycles: (c) => (perChannel ? perChannel[c] : perClass(cfg.channelLatency, t.className(c))) });
  if (bound === undefined || bound.cycles <= maxCycles) return;
  throw new LimitError(
    'maxCycles',
    `${bound.cycles} stepped cycles at least`,
    `${maxCycles} stepped cycles of packet simulation (channel ${bound.channel}, ${t.className(bound.channel)}, carries ${bound.flits} flits with ${cfg.vcs} VCs × ${cfg.vcBuf} flits of buffer per ${bound.roundTrip}-cycle credit round trip); buffers that cover the round trip (--vc-buf ${Math.ceil(bound.roundTrip / cfg.vcs)}) or --engine flow`,
  );
}

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

/** Blocks of the injected-flit record (InjectedFlits). */
const THROUGHPUT_BLOCKS = 4096;

/**
 * Flits injected per block of `blockCycles` cycles; blocks merge pairwise when full, so memory stays
 * bounded however long the run (the result bins the series into THROUGHPUT_BINS anyway).
 */
class InjectedFlits {
  blocks = new Float64Array(THROUGHPUT_BLOCKS);
  blockCycles = 1;
  private before = 0;

  /** The network's injected-flit count after the step of cycle `now`. */
  record(now: number, injected: number): void {
    let block = Math.floor(now / this.blockCycles);
    // A skipped idle stretch (compute) can jump several doublings at once.
    while (block >= THROUGHPUT_BLOCKS) {
      const merged = new Float64Array(THROUGHPUT_BLOCKS);
      for (let k = 0; k < THROUGHPUT_BLOCKS; k++) merged[k >> 1] += this.blocks[k];
      this.blocks = merged;
      this.blockCycles *= 2;
      block = Math.floor(now / this.blockCycles);
    }
    this.blocks[block] += injected - this.before;
    this.before = injected;
  }
}

export function simulatePacketSchedule(opts: PacketScheduleOptions): RunResult {
  // Barrier 'linear' runs as its messages, as in the flow engine (program/barriers.ts).
  const { program, timeOrigin } = programForBarrierModel(opts.program, opts.timeOrigin, opts.model?.barrier);
  return new PacketScheduleEngine({ ...opts, program, timeOrigin }).run();
}

/**
 * One packet-level run of a program: build it, call `run()` once. Shaped like the flow engine
 * (`FlowEngine`): it drives the shared stream semantics (StreamRunner) and moves data with named
 * collaborators: the packet network (`PacketNetwork`), the message table (`ScheduleMessageTable`),
 * the NIC queues and pacing (`PacketNicQueues`) and the injected-flit series (`InjectedFlits`).
 */
export class PacketScheduleEngine implements PacketSender {
  private readonly topology: Topology;
  private readonly program: FlowProgram;
  /** The routing the bounds use, wrapped deadlock-free; `routing` follows the program's hints over it. */
  private readonly baseRouting: RoutingFunction;
  private readonly routing: RoutingFunction;
  private readonly model: FlowModel;
  private readonly cfg: PacketConfig;
  private readonly flitBytes: number;
  /** Seconds per cycle. */
  private readonly cycle: number;
  /** Flits per full packet. */
  private readonly P: number;
  /** Per hint, how its multi-destination sends fan out at a turnaround node (forwardingHints). */
  private readonly turnarounds: (Turnaround | undefined)[];
  /** The port a turnaround node's copies leave through (after the streams' NICs). */
  private readonly forwardPort: number;
  private readonly net: PacketNetwork;
  private readonly msgs = new ScheduleMessageTable();
  private readonly nic: PacketNicQueues;
  private readonly runner: StreamRunner;
  private readonly wakes = new EventQueue(1024);
  private readonly injected = new InjectedFlits();
  // Messages whose last packet arrived, delivered to the stream semantics from their cycle on.
  private readonly pendingMsg: number[] = [];
  private readonly pendingAt: number[] = [];
  private outstandingMsgs = 0;
  /** Cycles jumped over while the network was empty and only compute wake-ups lay ahead. */
  private idleCycles = 0;
  private bytesTotal = 0;
  private messages = 0;
  private packets = 0;
  /** What the result's model records beyond the config: per-channel latency ranges, mixed channel rates. */
  private readonly modelNotes: Readonly<Record<string, unknown>>;

  constructor(private readonly opts: PacketScheduleOptions) {
    const t = (this.topology = opts.topology);
    const prog = (this.program = opts.program);
    if (prog.numRanks !== t.numEndpoints) throw new InputError('program', prog.numRanks, `${t.numEndpoints} ranks (one per endpoint of ${t.spec})`);
    const baseRouting = (this.baseRouting = packetDeadlockFreeRouting(t, opts.routing ?? resolveRouting(t, { engine: 'packet' })));
    const routing = (this.routing = hintedRouting(t, baseRouting, prog.hints).fn);
    const flowModel = (this.model = resolveFlowModel(opts.model ?? {}, t, baseRouting.params.split));
    const flitBytes = (this.flitBytes = opts.flitBytes ?? SCHEDULE_FLIT_BYTES);
    if (!(flitBytes > 0)) throw new InputError('flitBytes', flitBytes, 'a positive number of bytes');
    let minBw = Infinity;
    let maxBw = 0;
    for (let c = 0; c < t.numChannels; c++) {
      minBw = Math.min(minBw, t.chBandwidth[c]);
      maxBw = Math.max(maxBw, t.chBandwidth[c]);
    }
    // On a topology of mixed rates the cycle is a flit time of the fastest channel and a slower one
    // takes fastest / its rate cycles per flit, so every channel moves at its own rate (as in the
    // flow engine); a uniform topology keeps one flit per cycle per channel, BookSim's router.
    const mixedRates = maxBw > minBw;
    const cycle = (this.cycle = opts.cycleSeconds ?? flitBytes / maxBw);
    if (!(cycle > 0 && Number.isFinite(cycle))) throw new InputError('cycleSeconds', cycle, 'a positive number of seconds');
    // Channel latency in cycles (at least 1), per channel: each channel keeps its own, as the flow
    // engine does (a class took its first channel's, so a file graph's 1 µs link of class `link`
    // ran at its 50 ns neighbours' latency). The per-class record is that first channel's; a class
    // whose channels differ is also recorded with its range (`channelLatencyRange`).
    const latency: Record<string, number> = {};
    const perChannelLatency = new Int32Array(t.numChannels);
    for (let c = 0; c < t.numChannels; c++) {
      perChannelLatency[c] = Math.max(1, Math.round(t.chLatency[c] / cycle));
      latency[t.className(c)] ??= perChannelLatency[c];
    }
    const latencyRange = channelLatencyRanges(t, perChannelLatency);
    const mixedLatency = Object.fromEntries(Object.entries(latencyRange).filter(([, [lo, hi]]) => lo !== hi));
    // A --channel-latency given by the caller replaces the topology's, per class as given.
    const ownLatency = opts.config?.channelLatency === undefined && Object.keys(mixedLatency).length > 0 ? perChannelLatency : undefined;
    const notes = {
      ...(ownLatency ? { channelLatencyRange: mixedLatency } : {}),
      ...(mixedRates
        ? { channelRates: { slowest_Bps: minBw, fastest_Bps: maxBw, modelled: `each channel at its own rate: a cycle is one flit time at ${maxBw} B/s (the fastest), a channel of rate b takes ${maxBw} / b cycles per flit; the router pipeline counts these cycles` } }
        : {}),
    };
    refuseLoopbackMessages(t, prog);
    refusePacketSharedHosts(t);
    const base = presetConfig(opts.preset ?? 'default', t);
    const turnarounds = (this.turnarounds = forwardingHints(t, prog.hints));
    const cfg: PacketConfig = (this.cfg = {
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
      vcs: 2 * routing.vcClasses,
      ...opts.config,
    });
    // A turnaround node's copies leave through one port of their own, as a switch's replication does
    // not queue behind the node's own NIC (and a stream's fence does not wait for them).
    const streamPorts = cfg.injectionPorts;
    checkChannelClasses(opts.config?.channelLatency, t);
    validateConfig(cfg, routing.vcClasses);
    // A collective library's channels send from lanes of their own, ports after the NICs (program/send-lanes.ts).
    const lanes = librarySendLanes(prog, flowModel.injectionOrder, !cfg.perLinkInjection);
    const queuePorts = streamPorts + (lanes?.count ?? 0);
    this.forwardPort = queuePorts;
    cfg.injectionPorts = queuePorts + (turnarounds.some((h) => h !== undefined) ? 1 : 0);
    refuseCreditBound(prog, t, baseRouting, cfg, flitBytes, opts.maxCycles ?? MAX_CYCLES, ownLatency);
    // The hints the network's packets carry (by id, RouteContext.hint): the program's, then each
    // turnaround's two halves (ids H + h and 2H + h).
    const hintTable: (NodeRouteHint | undefined)[] = [...prog.hints, ...turnarounds.map((x) => x?.toTurnaround), ...turnarounds.map((x) => x?.fromTurnaround)];
    const slowdown = mixedRates ? Float64Array.from(t.chBandwidth, (bw) => (flitBytes / bw) / cycle) : undefined;
    this.net = new PacketNetwork(t, routing, cfg, hintTable, undefined, ownLatency, slowdown);
    // Under direct terminals a terminal link's latency is not paid (named model difference; docs/flow.md).
    const channelCycles = (c: number): number => (ownLatency ? ownLatency[c] : perClass(cfg.channelLatency, t.className(c)));
    const unpaid = unpaidTerminalLatency(t, this.net.direct, channelCycles, cfg, cycle);
    this.modelNotes = { ...notes, ...(unpaid ? { unpaidTerminalLatency: unpaid } : {}) };
    this.P = cfg.packetSize;
    const net = this.net;
    this.runner = new StreamRunner(prog, flowModel, {
      postSend: (s, op, now) => this.postSend(s, op, now),
      sendsLeft: (s) => this.nic.nothingHeld(s) && net.sourceIdle(prog.streamRank[s], this.nic.port(s)),
      wakeAt: (at, s) => this.wakes.push(at, 0, s),
      signalsSendsLeft: false,
      // The engine answers route latency (the 'linear' barrier) over its own base routing.
      routeLatency: routeLatency(t, baseRouting, flowModel.routerLatency),
    }, (seconds) => this.toCycles(seconds));
    this.nic = new PacketNicQueues(flowModel.injectionOrder, prog, this.msgs, streamPorts, lanes, this.P, this.runner.gap, this);
  }

  run(): RunResult {
    const { net, runner, msgs, wakes, pendingMsg, pendingAt, program: prog } = this;
    const maxCycles = this.opts.maxCycles ?? MAX_CYCLES;
    const progress = this.opts.progress;
    const fifo = this.nic.order === 'fifo';
    runner.start(0);
    for (;;) {
      const now = net.now;
      // A packet retired in the last step reaches its terminal a few cycles later (switch traversal and
      // ejection channel), plus any turnaround extra: the message counts as arrived from that cycle on.
      for (let k = 0; k < net.retiredCount; k++) {
        const m = net.retiredTag[k];
        if (msgs.fanOut[m] > 0) this.fanOut(m, net.retiredCycle[k]);
        else this.arrived(m, net.retiredCycle[k]);
      }
      for (let k = 0; k < pendingMsg.length; ) {
        if (pendingAt[k] > now) {
          k++;
          continue;
        }
        const m = pendingMsg[k];
        this.outstandingMsgs--;
        pendingMsg[k] = pendingMsg[pendingMsg.length - 1];
        pendingAt[k] = pendingAt[pendingAt.length - 1];
        pendingMsg.pop();
        pendingAt.pop();
        runner.deliver(msgs.src[m], msgs.dst[m], msgs.tag[m], msgs.op[m], now);
      }
      while (wakes.peekTime() <= now) {
        const s = wakes.peekArg();
        wakes.pop();
        runner.wake(s, now);
      }
      runner.retryFences(now);
      if (runner.finished && this.outstandingMsgs === 0) break;
      if (wakes.length === 0 && pendingMsg.length === 0 && net.outstandingFlits === 0 && !runner.hasFences) {
        runner.checkComplete();
        throw new InputError('program', `stuck at cycle ${now}`, 'a schedule whose receives and barriers can all complete');
      }
      // An empty network with only timed wake-ups ahead (compute): jump to the next one. Stepping the
      // cycles between would move nothing (no flit, credit or queued packet), so the result is the same.
      if (this.outstandingMsgs === 0 && net.outstandingFlits === 0 && pendingMsg.length === 0 && wakes.length > 0 && !runner.hasFences && net.creditsInFlight() === 0) {
        const next = Math.ceil(wakes.peekTime());
        if (next > now + 1) {
          this.idleCycles += next - now;
          net.now = next;
          net.retiredCount = 0; // handled above; the loop's top must not see them again
          continue;
        }
      }
      if (now - this.idleCycles >= maxCycles) throw new LimitError('maxCycles', now - this.idleCycles, `${maxCycles} stepped cycles of packet simulation`);
      if (progress && now % PROGRESS_CYCLES === 0) progress(runner.opsDone() / Math.max(1, prog.numOps));
      net.step();
      if (!fifo) for (let k = 0; k < net.dequeuedCount; k++) this.nic.fedOut(net.dequeuedTag[k], net.now);
      this.injected.record(now, net.injectedFlits);
    }
    return this.output();
  }

  /** Packet k of message m of stream s joins the network's queue of its NIC, released at `release`. */
  sendPacket(s: number, m: number, k: number, release: number): void {
    const msgs = this.msgs;
    const P = this.P;
    const flits = this.flitsOf(msgs.op[m]);
    const size = k === msgs.packets[m] - 1 ? flits - k * P : P;
    this.net.enqueue(msgs.src[m], msgs.dst[m], size, release, m, this.nic.port(s), this.splitSalt(m, k), this.routeOf(m));
    this.packets++;
  }

  private toCycles(seconds: number): number {
    return Math.ceil(seconds / this.cycle - 1e-9);
  }

  private flitsOf(op: number): number {
    return Math.max(1, Math.ceil(this.program.opBytes[op] / this.flitBytes));
  }

  /**
   * The route salt of packet k of message m. Where the flow model splits ties in halves (even and
   * odd salt, e.g. the two planes of fullmesh:N,mult=2), a message's packets alternate between the
   * two, starting on m's parity, so every message splits as evenly as its packet count allows, as
   * the flow engine's exact halves; otherwise the network's hashed salt.
   */
  private splitSalt(m: number, k: number): number | undefined {
    return this.model.splitTies ? (m + k) & 1 : undefined;
  }

  /** The id in the network's hint table of the route hint message m's packets follow (to the turnaround node for a fan-out's first leg), or -1. */
  private routeOf(m: number): number {
    const h = this.program.opHint[this.msgs.op[m]];
    if (h < 0) return -1;
    return this.msgs.fanOut[m] > 0 ? this.program.hints.length + h : h;
  }

  private newMessage(src: number, dst: number, op: number, packets: number, extra: number): number {
    const m = this.msgs.add(src, dst, this.program.opTag[op], op, packets, extra);
    this.nic.added(m);
    return m;
  }

  /** Send op i of stream s is posted (α has elapsed): one message per destination, or a fan-out. */
  private postSend(s: number, i: number, now: number): void {
    const prog = this.program;
    const rank = prog.streamRank[s];
    const bytes = prog.opBytes[i];
    const h = prog.opHint[i];
    const hint = h >= 0 ? prog.hints[h] : undefined;
    const extra = this.toCycles(turnaroundSeconds(hint, this.model));
    const count = prog.opCount[i];
    const npk = Math.ceil(this.flitsOf(i) / this.P);
    this.messages += count;
    this.bytesTotal += bytes * count;
    this.outstandingMsgs += count;
    const turn = h >= 0 ? this.turnarounds[h] : undefined;
    if (turn !== undefined && fanOutNode(hint, count) >= 0) {
      // One message to the turnaround node, then one per destination, filled packet by packet there.
      const leg = this.newMessage(rank, turn.rank, i, npk, extra);
      this.msgs.fanOut[leg] = count;
      for (let j = 0; j < count; j++) this.newMessage(rank, prog.dsts[prog.opPeer[i] + j], i, npk, 0);
      this.nic.post(s, leg, now);
      return;
    }
    for (let j = 0; j < count; j++) {
      const dst = prog.dsts[prog.opPeer[i] + j];
      this.nic.post(s, this.newMessage(rank, dst, i, npk, extra), now);
    }
  }

  /** A packet of turnaround message `leg` reached its node at `cycle`: its copies leave after the turnaround. */
  private fanOut(leg: number, cycle: number): void {
    const msgs = this.msgs;
    const P = this.P;
    const op = msgs.op[leg];
    const h = this.program.opHint[op];
    const turn = this.turnarounds[h]!;
    const flits = this.flitsOf(op);
    const left = --msgs.left[leg];
    const size = left === 0 ? flits - (Math.ceil(flits / P) - 1) * P : P;
    const release = cycle + msgs.extra[leg];
    for (let m = leg + 1; m <= leg + msgs.fanOut[leg]; m++) {
      if (msgs.dst[m] === turn.rank) this.arrived(m, release);
      else {
        this.net.enqueue(turn.rank, msgs.dst[m], size, release, m, this.forwardPort, undefined, 2 * this.program.hints.length + h);
        this.packets++;
      }
    }
  }

  /** A packet of message m arrived at `cycle`; with its last, the message counts as arrived (plus any turnaround extra). */
  private arrived(m: number, cycle: number): void {
    if (--this.msgs.left[m] > 0) return;
    this.pendingMsg.push(m);
    this.pendingAt.push(cycle + this.msgs.extra[m]);
  }

  private output(): RunResult {
    const { topology: t, program: prog, net, runner, cycle, flitBytes, model: flowModel } = this;
    const finish = new Float64Array(prog.numRanks);
    for (let s = 0; s < prog.numStreams; s++) finish[prog.streamRank[s]] = Math.max(finish[prog.streamRank[s]], runner.streamFinish[s]);
    const makespanCycles = net.now;
    const makespan = makespanCycles * cycle;
    const channelBytes = new Float64Array(t.numChannels);
    for (let c = 0; c < t.numChannels; c++) channelBytes[c] = net.chFlits[c] * flitBytes;
    // Flits per block, as a step function of the aggregate injection rate.
    const { blocks, blockCycles } = this.injected;
    const rateTime = Float64Array.from(blocks, (_, k) => k * blockCycles * cycle);
    const rateValue = Float64Array.from(blocks, (f) => (f * flitBytes) / (blockCycles * cycle));
    return assembleResult(
      {
        topology: t,
        routing: this.routing,
        boundRouting: this.baseRouting,
        program: prog,
        model: flowModel,
        workload: this.opts.workload,
        demands: this.opts.demands,
        timeOrigin: this.opts.timeOrigin,
        modelRecord: {
          ...packetModelRecord(flowModel),
          ...this.cfg,
          ...this.modelNotes,
          engine: 'packet-level, cycle-driven input-queued VC routers',
          flitBytes,
          cycleSeconds: cycle,
          idleSkip: 'cycles with an empty network and only timed wake-ups ahead (compute) are skipped, not stepped: the same result; maxCycles counts stepped cycles',
          cyclesSkipped: this.idleCycles,
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
        stats: { messages: this.messages, flows: this.packets, bytes: this.bytesTotal, events: makespanCycles, rate_updates: 0 },
      },
    );
  }
}

/** `model.unpaidTerminalLatency` of a packet run: per channel class, the longest terminal-link latency left unpaid. */
export type UnpaidTerminalLatency = Record<string, { cycles: number; seconds: number }>;

/**
 * Under `terminals: direct` the network's direct terminals (PacketNetwork.direct) inject at their
 * switch's input port and eject at an output port, as BookSim's terminals do: their links are not
 * hops, and of a link's latency only the injection (ejection) latency is paid. The flow engine pays
 * the link's latency. Per class of such links longer than that, their latency in cycles and seconds,
 * or undefined.
 */
function unpaidTerminalLatency(
  t: Topology,
  direct: Uint8Array,
  channelCycles: (c: number) => number,
  cfg: Pick<PacketConfig, 'injectionLatency' | 'ejectionLatency'>,
  cycle: number,
): UnpaidTerminalLatency | undefined {
  const out: UnpaidTerminalLatency = {};
  const note = (c: number, paid: number): void => {
    const cycles = channelCycles(c);
    const cls = t.className(c);
    if (cycles > paid && cycles > (out[cls]?.cycles ?? 0)) out[cls] = { cycles, seconds: cycles * cycle };
  };
  for (let v = 0; v < direct.length; v++) {
    if (!direct[v]) continue;
    note(t.outChannels[t.outStart[v]], cfg.injectionLatency);
    note(t.inChannels[t.inStart[v]], cfg.ejectionLatency);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A topology with loopbacks (SimGrid's cluster loopback_bw/lat) times a host's messages to itself on
 * its loopback, which the packet network has no channel for: a program that sends one is refused
 * (the flow engine times it), rather than run over the host's terminal link.
 */
function refuseLoopbackMessages(t: Topology, prog: FlowProgram): void {
  if (loopbackOf(t) === undefined) return;
  for (let s = 0; s < prog.numStreams; s++) {
    for (let i = prog.opStart[s]; i < prog.opStart[s + 1]; i++) {
      if (prog.opKind[i] !== OpKind.Send || prog.opBytes[i] === 0) continue;
      for (let j = 0; j < prog.opCount[i]; j++) {
        if (prog.dsts[prog.opPeer[i] + j] !== prog.streamRank[s]) continue;
        throw new InputError('engine', 'packet', `the flow engine for ${t.spec}: rank ${prog.streamRank[s]} sends itself a message over its host's loopback, which the packet network has no channel for`);
      }
    }
  }
}
