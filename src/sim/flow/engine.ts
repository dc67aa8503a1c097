/**
 * The flow-level engine: runs a FlowProgram on a topology. Messages become flows over channel paths
 * that share bandwidth max-min fairly; rates are recomputed only when the set of active flows
 * changes, and all events that fall at the same instant are processed as one batch before a single
 * recomputation ("batched" rate updates: the result records it as model.rateUpdate).
 *
 * Timing of one message: the sending stream is busy for α; the flow then transmits its bytes at
 * its max-min rate; the receiver has the data one path latency (Σ channel latency + hops × router
 * latency + turnaround extra) after the last byte left. A receive completes when its data arrived.
 *
 * `FlowEngine` drives the shared stream semantics (StreamRunner) and moves data with named
 * collaborators: the message table, the flow table (with the active list), the path arena, the NIC
 * send queues (model.injectionOrder), the rate update (model.rateUpdate) and, for a routing that
 * reads loads (adaptive, UGAL), the channel loads it chooses each flow's path from at flow start.
 */
import { InputError } from '../../util/errors.js';
import { loopbackOf, type Loopback, type Topology } from '../../topology/graph.js';
import { familyOf, fatpipeChannels, selfRouteOf, type SelfRoute, type SharedCapacities } from '../../topology/registry.js';
import { hintMaxHops, routeWithHint } from '../../routing/hints.js';
import { routeLatency } from '../program/route-latency.js';
import { makeRouteBuffers, refusePartialRoutes, type RouteBuffers, type RouteContext, type RoutingFunction } from '../../routing/types.js';
import { EventQueue } from '../program/event-queue.js';
import { fanOutNode, pacedRate, StreamRunner, turnaroundSeconds, type StreamHost } from '../program/semantics.js';
import { cm02Weight } from './maxmin.js';
import { checkTopologyBandwidth, resolveFlowModel, type FlowModel, type FlowModelOptions } from '../program/model.js';
import { sizeFactor } from '../program/network-model.js';
import { FlowProgram } from '../program/program.js';
import { MessageTable } from './message-table.js';
import { FlowTable } from './flow-table.js';
import { PathArena } from './path-arena.js';
import { NicSendQueues } from './nic-queues.js';
import { ExactRateUpdate, FlowIdList, LocalRateUpdate, UnsharedRateUpdate, type RateUpdater } from './rate-update.js';
import { ComponentRateUpdate } from './component-rate-update.js';
import { FlowChannelLoad, readsLoad } from './channel-load.js';
import { quotientSource, type QuotientMaps } from './symmetry.js';
import { StoreForwardLinks } from './store-forward.js';

/** Events: a stream wake the shared semantics asked for, and a message's delivery. */
const E_WAKE = 0;
const E_DELIVER = 1;
/** A flow under latency 'before-transfer' has spent its route latency and starts transferring. */
const E_ACTIVATE = 2;
/** Store-and-forward links (model.sharing 'store-forward'): a message reached its link's far end; a link finished serializing. */
const E_HOP_ARRIVE = 3;
const E_LINK_FREE = 4;

export interface FlowTraceRecorder {
  /** Called after each rate update with the time and the rate per channel class (bytes/s). */
  rates(t: number, perClass: Float64Array): void;
  /** Optional: also called with the rate on every channel (bytes/s), e.g. for utilisation heatmaps. */
  channelRates?(t: number, perChannel: Float64Array): void;
}

export interface FlowEngineOptions extends FlowModelOptions {
  /** Record per-class rate samples for a trace. */
  trace?: FlowTraceRecorder;
  /** Called now and then with the fraction of operations completed (progress bars). */
  progress?: (fraction: number) => void;
  /**
   * The path arena's first size in entries (default 65,536) and whether every flow's path is checked
   * against a hash of its route after each arena move and at activation. Implementation details that
   * must not change a result: tests run the same case with a tiny and a huge arena, verified.
   */
  arena?: { readonly initialEntries?: number; readonly verify?: boolean };
  /** The most flows in flight at once (MAX_FLOWS_IN_FLIGHT, flow-table.ts); tests lower it to reach it. */
  maxFlowsInFlight?: number;
  /**
   * Run the program as a symmetry quotient (symmetry.ts `findQuotient`): the program holds the
   * representatives' streams, channels are replaced by their orbits, deliveries land at the
   * destination's representative. Outputs stay per representative (run.ts expands them).
   */
  quotient?: QuotientMaps;
}

export interface FlowRunOutput {
  readonly makespan: number;
  readonly model: FlowModel;
  readonly rankFinish: Float64Array;
  readonly channelBytes: Float64Array;
  readonly opStart: Float64Array;
  readonly opEnd: Float64Array;
  readonly opPred: Int32Array;
  /** (time, aggregate rate) at each change of rates. */
  readonly rateTime: Float64Array;
  readonly rateValue: Float64Array;
  readonly stats: {
    messages: number;
    flows: number;
    bytes: number;
    events: number;
    rateUpdates: number;
    batches: number;
    solverWork: number;
    arenaCompactions: number;
    arenaGrowths: number;
    /** Under store-and-forward links: the link transmissions (hops) the messages made. */
    linkTransmissions?: number;
  };
}

class Growing {
  data: Float64Array;
  n = 0;
  constructor(size = 1024) {
    this.data = new Float64Array(size);
  }
  push(x: number): void {
    if (this.n === this.data.length) {
      const d = new Float64Array(this.n * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.n++] = x;
  }
  view(): Float64Array {
    return this.data.slice(0, this.n);
  }
}

export function simulateFlow(topology: Topology, routing: RoutingFunction, program: FlowProgram, opts: FlowEngineOptions = {}): FlowRunOutput {
  return new FlowEngine(topology, routing, program, opts).run();
}

/** One run of a program: build it, call `run()` once. */
export class FlowEngine {
  readonly model: FlowModel;
  private readonly numChannels: number;
  private readonly shared: SharedCapacities | undefined;
  private readonly sharedBase: number;
  private readonly nics: number;
  /** Resource ids: channels, then injection ports (rank × nics), then ejection ports (ranks). */
  private readonly injBase: number;
  private readonly ejBase: number;
  private readonly useInj: boolean;
  private readonly useEj: boolean;
  private readonly msgs = new MessageTable();
  private readonly flows: FlowTable;
  private readonly arena: PathArena;
  private readonly nicQueues: NicSendQueues;
  private readonly rates: RateUpdater;
  /** The links under model.sharing 'store-forward' (messages move link by link there, not as flows), else null. */
  private readonly storeForward: StoreForwardLinks | null;
  /** The route of a message to oneself where the topology has one (SimGrid FLAT clusters; a platform of zones' declared self routes). */
  private readonly selfRoute: SelfRoute | undefined;
  /** Every host's loopback (SimGrid's cluster loopback_bw/lat), which its messages to itself cross instead of any route. */
  private readonly loopback: Loopback | undefined;
  /** Unfinished flows per channel, kept only for a routing that reads them. */
  private readonly channelLoad: FlowChannelLoad | undefined;
  /** What the routing is told at flow start: the flows per channel when it reads them (RouteContext). */
  private readonly routeCtx: RouteContext | undefined;
  private readonly runner: StreamRunner;
  private readonly events = new EventQueue(4096);
  /** Flows of each stream that have not finished (its sends that have not left). */
  private readonly outstanding: Int32Array;
  // Routing scratch: a route, a second route (split ties, fan-out legs), a hint's scratch, and the
  // resources of the flow being built.
  private readonly rb: RouteBuffers;
  private readonly rb2: RouteBuffers;
  private readonly scratch: RouteBuffers;
  /** The reverse route of a flow under cross-traffic (model.crossTraffic). */
  private readonly rbBack: RouteBuffers;
  /**
   * Cross-traffic (SimGrid's acknowledgements): a flow's path also lists each resource r of its
   * reverse route as crossBase + r, which the solver loads at model.crossTraffic of the flow's rate.
   */
  private readonly crossBase: number;
  private readonly treeSet = new Set<number>();
  /**
   * The resources of the flow being built, the first nRes entries: a typed array kept across flows
   * (a number[] emptied with `length = 0` dropped its backing store, one allocation per flow).
   */
  private resBuf = new Int32Array(64);
  private nRes = 0;
  private readonly channelBytes: Float64Array;
  /**
   * The latency and the bandwidth every channel has, or NaN when channels differ: a route's latency
   * then adds the constant (the same additions in the same order) and its bottleneck is the constant,
   * without a read per channel (on a 32,768-host fat tree those reads missed the cache).
   */
  private readonly uniformLatency: number;
  private readonly uniformBandwidth: number;
  /** Symmetry quotient: channel -> its orbit's standing channel, and the delivery maps; null for a full run. */
  private readonly channelOrbit: Int32Array | null;
  private readonly quotient: QuotientMaps | null;
  private readonly rateTime = new Growing();
  private readonly rateValue = new Growing();
  private readonly perClass: Float64Array | undefined;
  private readonly perChannel: Float64Array | undefined;
  private now = 0;
  /** Flows started or finished since the last rate update. */
  private dirty = false;
  private totalBytes = 0;
  private batches = 0;

  constructor(
    private readonly topology: Topology,
    private readonly routing: RoutingFunction,
    private readonly program: FlowProgram,
    private readonly opts: FlowEngineOptions = {},
  ) {
    checkTopologyBandwidth(topology);
    const t = topology;
    const R = program.numRanks;
    if (R > t.numEndpoints) {
      throw new InputError('schedule.ranks', `${R} ranks`, `at most ${t.numEndpoints} ranks (the endpoints of ${t.spec})`);
    }
    const model = (this.model = resolveFlowModel(opts, t, routing.params.split));
    if (model.sharing !== 'none') refusePartialRoutes(routing, 'sharing');
    const C = (this.numChannels = t.numChannels);
    const nics = (this.nics = model.nics);
    this.injBase = C;
    this.ejBase = C + R * nics;
    // SimGrid SHARED and limiter links: capacities that several channels draw on, after the NIC resources.
    const family = familyOf(t);
    this.selfRoute = selfRouteOf(t);
    this.loopback = loopbackOf(t);
    const shared = family?.sharedCapacities?.(t);
    this.shared = shared;
    this.sharedBase = this.ejBase + R;
    const capacity = new Float64Array(this.sharedBase + (shared?.capacity.length ?? 0));
    capacity.set(t.chBandwidth);
    const q = (this.quotient = opts.quotient ?? null);
    this.channelOrbit = q?.channelOrbit ?? null;
    // An orbit O of channels is one resource: |H| / |O| images of each of its path entries load every channel of O.
    if (q) for (let c = 0; c < C; c++) capacity[c] = q.orbitSize[c] > 0 ? (t.chBandwidth[c] * q.orbitSize[c]) / q.order : 0;
    if (shared) capacity.set(shared.capacity, this.sharedBase);
    // FATPIPE links (SimGrid): resources the full solver shares as SimGrid does (maxmin.ts, `fatpipe`).
    const fatpipe = fatpipeChannels(t) ?? null;
    if (fatpipe && model.sharing === 'store-forward') throw new InputError('model.sharing', 'store-forward', "maxmin, cm02 or none on a platform with FATPIPE links (a FATPIPE link sends every message at once, each at its bandwidth: no link-by-link queue)");
    for (let i = 0; i < R * nics; i++) capacity[this.injBase + i] = model.injectionBandwidth ?? Infinity;
    for (let r = 0; r < R; r++) capacity[this.ejBase + r] = model.ejectionBandwidth === null ? Infinity : model.ejectionBandwidth * nics;
    this.useInj = model.injectionBandwidth !== null;
    this.useEj = model.ejectionBandwidth !== null;
    // A port is a rank's here; ranks sharing a host (an SMPI hostfile listing it twice) would share the host's.
    if ((this.useInj || this.useEj) && t.ranksShareHosts) {
      throw new InputError(this.useInj ? 'model.injectionBandwidth' : 'model.ejectionBandwidth', this.useInj ? model.injectionBandwidth : model.ejectionBandwidth, 'links (no injection or ejection bandwidth) where several ranks share a host: a NIC port is modelled per rank, not per host');
    }
    this.flows = new FlowTable(model.sharing === 'cm02', opts.maxFlowsInFlight);
    this.arena = new PathArena(opts.arena?.initialEntries, opts.arena?.verify ?? false);
    this.crossBase = capacity.length;
    // The model allows cross-traffic with rateUpdate 'full' only: its solver reads the fractional entries.
    const fractional = model.crossTraffic > 0 ? { base: this.crossBase, coef: model.crossTraffic } : null;
    this.rates =
      model.sharing === 'none'
        ? new UnsharedRateUpdate(this.flows, this.arena, capacity)
        : model.rateUpdate === 'local'
        ? new LocalRateUpdate(this.flows, this.arena, capacity)
        : model.rateUpdate === 'full'
          ? new ExactRateUpdate(this.flows, this.arena, capacity, fractional, fatpipe)
          : new ComponentRateUpdate(this.flows, this.arena, capacity);
    this.nicQueues = new NicSendQueues(model.injectionOrder, program, nics, this.useInj, C);
    this.outstanding = new Int32Array(program.numStreams);
    this.channelLoad = readsLoad(routing) ? new FlowChannelLoad(C) : undefined;
    this.routeCtx = this.channelLoad ? { load: this.channelLoad.load } : undefined;
    this.runner = new StreamRunner(program, model, new FlowStreamHost(this, q?.order, routeLatency(t, routing, model.routerLatency)), inSeconds);
    let maxHops = 2 * routing.maxHops + 2;
    for (const hint of program.hints) maxHops = Math.max(maxHops, hintMaxHops(routing, hint) + routing.maxHops);
    this.rb = makeRouteBuffers(maxHops);
    this.rb2 = makeRouteBuffers(maxHops);
    this.scratch = makeRouteBuffers(maxHops);
    this.rbBack = makeRouteBuffers(maxHops);
    // A message's route (no fan-out under store-and-forward): the routing's, or a hint's legs.
    let routeHops = routing.maxHops;
    for (const hint of program.hints) routeHops = Math.max(routeHops, hintMaxHops(routing, hint) + routing.maxHops);
    this.storeForward = model.sharing === 'store-forward' ? this.storeForwardLinks(routeHops) : null;
    this.channelBytes = this.storeForward?.channelBytes ?? new Float64Array(C);
    this.uniformLatency = uniformValue(t.chLatency);
    this.uniformBandwidth = uniformValue(t.chBandwidth);
    this.perClass = opts.trace ? new Float64Array(t.classNames.length) : undefined;
    this.perChannel = opts.trace?.channelRates ? new Float64Array(C) : undefined;
  }

  run(): FlowRunOutput {
    return this.runBatches();
  }

  /** The store-and-forward links, after refusing what they do not model. */
  private storeForwardLinks(maxHops: number): StoreForwardLinks {
    const refuse = (field: string, value: unknown, accepted: string): never => {
      throw new InputError(field, value, `${accepted} with sharing store-forward (ASTRA-sim's congestion-aware links)`);
    };
    if (this.model.splitTies) refuse('model.splitTies', true, `false (routing ${this.routing.name} splits a message over two routes)`);
    if (this.shared) refuse('topology', this.topology.spec, 'a topology without shared capacities (SimGrid SHARED or limiter links)');
    if (this.opts.trace) refuse('trace', 'requested', 'no rate trace (messages move link by link, at no shared rate)');
    if (this.quotient) refuse('model.symmetry', 'a quotient', 'off');
    const { chBandwidth, chLatency } = this.topology;
    return new StoreForwardLinks(this.events, { arrive: E_HOP_ARRIVE, linkFree: E_LINK_FREE }, chBandwidth, chLatency, this.model.routerLatency, maxHops, this.opts.maxFlowsInFlight);
  }

  private runBatches(): FlowRunOutput {
    const { events, rates, runner, opts } = this;
    const nOps = this.program.numOps;
    runner.start(0);
    let nextFinish = Infinity;
    const finishing = new FlowIdList();
    const eps = this.model.simultaneity;
    let opsDoneHint = 0;
    if (this.dirty) nextFinish = this.rerate();
    for (;;) {
      const tNext = Math.min(events.peekTime(), nextFinish);
      if (tNext === Infinity) break;
      this.batches++;
      rates.advance(tNext - this.now);
      const now = (this.now = tNext);
      const horizon = now + Math.abs(now) * eps;
      if (nextFinish <= horizon) {
        finishing.clear();
        rates.takeFinishing(horizon, finishing);
        // Deterministic order: by flow id (a typed array's native numeric sort, no comparator calls).
        const n = finishing.n;
        const sorted = n > 1 ? finishing.ids.subarray(0, n).sort() : finishing.ids;
        for (let i = 0; i < n; i++) this.finishFlow(sorted[i]);
        // Finishing made the rates dirty: the update below sets the next finish.
        nextFinish = Infinity;
      }
      while (events.peekTime() <= horizon) {
        const kind = events.peekKind();
        const arg = events.peekArg();
        events.pop();
        if (kind === E_DELIVER) this.deliver(arg);
        else if (kind === E_ACTIVATE) this.activate(arg);
        else if (kind === E_HOP_ARRIVE) {
          const m = this.storeForward!.arrive(arg, now);
          if (m >= 0) this.deliver(m);
        } else if (kind === E_LINK_FREE) {
          const s = this.storeForward!.linkFree(arg, now);
          if (s >= 0 && --this.outstanding[s] === 0) runner.sendsLeftNow(s, now);
        } else runner.wake(arg, now);
      }
      if (this.dirty) nextFinish = this.rerate();
      if (opts.progress && this.batches % 4096 === 0) {
        const done = runner.opsDone();
        if (done !== opsDoneHint) opts.progress(done / Math.max(1, nOps));
        opsDoneHint = done;
      }
    }
    return this.output();
  }

  /** New rates after a batch; records the aggregate (and the trace); returns the next finish time. */
  private rerate(): number {
    const total = this.rates.rerate(this.now);
    this.rateTime.push(this.now);
    this.rateValue.push(total);
    if (this.opts.trace) this.recordTrace(this.opts.trace);
    this.dirty = false;
    return this.rates.earliestFinish();
  }

  private recordTrace(trace: FlowTraceRecorder): void {
    const { flows, perClass, perChannel, numChannels: C } = this;
    const path = this.arena.path;
    const chClass = this.topology.chClass;
    if (perClass) {
      perClass.fill(0);
      for (let a = 0; a < flows.numActive; a++) {
        const f = flows.active[a];
        for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) if (path[p] < C) perClass[chClass[path[p]]] += flows.rate[f];
      }
      trace.rates(this.now, perClass);
    }
    if (perChannel && trace.channelRates) {
      perChannel.fill(0);
      for (let a = 0; a < flows.numActive; a++) {
        const f = flows.active[a];
        for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) if (path[p] < C) perChannel[path[p]] += flows.rate[f];
      }
      trace.channelRates(this.now, perChannel);
    }
  }

  private output(): FlowRunOutput {
    const { program, runner } = this;
    runner.checkComplete();
    let makespan = 0;
    const rankFinish = new Float64Array(program.numRanks);
    for (let s = 0; s < program.numStreams; s++) {
      const r = program.streamRank[s];
      rankFinish[r] = Math.max(rankFinish[r], runner.streamFinish[s]);
      makespan = Math.max(makespan, runner.streamFinish[s]);
    }
    return {
      makespan,
      model: this.model,
      rankFinish,
      channelBytes: this.channelBytes,
      opStart: runner.opStartT,
      opEnd: runner.opEndT,
      opPred: runner.opPred,
      rateTime: this.rateTime.view(),
      rateValue: this.rateValue.view(),
      stats: {
        messages: this.msgs.created,
        flows: this.flows.created,
        bytes: this.totalBytes,
        events: this.events.pushed,
        rateUpdates: this.rates.solves,
        ...(this.storeForward ? { linkTransmissions: this.storeForward.hops } : {}),
        batches: this.batches,
        solverWork: this.rates.work,
        arenaCompactions: this.arena.compactions,
        arenaGrowths: this.arena.growths,
      },
    };
  }

  private pathLatency(buf: RouteBuffers, hops: number): number {
    let lat = hops * this.model.routerLatency;
    const uniform = this.uniformLatency;
    if (uniform === uniform) {
      for (let i = 0; i < hops; i++) lat += uniform;
      return lat;
    }
    const chLatency = this.topology.chLatency;
    for (let i = 0; i < hops; i++) lat += chLatency[buf.channels[i]];
    return lat;
  }

  /**
   * SimGrid's bound on a transfer's LMM variable besides TCP-gamma (network_cm02.cpp
   * comm_action_set_bounds): the least bandwidth of the links on its route (channels and the shared
   * capacities they draw on, such as limiters). It never binds where links only add up, but on a
   * FATPIPE link it decides, by one rounding, whether a flow freezes alone at it (MaxMinSolver's `penalty`).
   */
  private linkBound(resources: Int32Array, nRes: number): number {
    const shared = this.shared;
    let bound = Infinity;
    for (let i = 0; i < nRes; i++) {
      const r = resources[i];
      if (r < this.numChannels) bound = Math.min(bound, this.topology.chBandwidth[r]);
      else if (shared && r >= this.sharedBase && r < this.crossBase) bound = Math.min(bound, shared.capacity[r - this.sharedBase]);
    }
    return bound;
  }

  /** A flow's route latency for CM02's share weight and the TCP-gamma bound: its channels' latencies plus the router latency per channel. */
  private routeLatency(resources: Int32Array, nRes: number): number {
    let lat = 0;
    for (let i = 0; i < nRes; i++) if (resources[i] < this.numChannels) lat += this.topology.chLatency[resources[i]] + this.model.routerLatency;
    return lat;
  }

  /**
   * A flow's CM02 sharing penalty: its route latency, then weight-S / bandwidth per channel and per limiter added in
   * route order, as network_cm02.cpp `communicate` accumulates them (nothing added when weight-S is 0).
   */
  private sharingPenalty(latency: number, resources: Int32Array, nRes: number): number {
    const weightS = this.model.weightS;
    if (weightS === 0) return latency;
    let penalty = latency;
    const shared = this.shared;
    const ownFrom = shared?.ownLinksFrom === undefined ? Infinity : this.sharedBase + shared.ownLinksFrom;
    for (let i = 0; i < nRes; i++) {
      const r = resources[i];
      if (r < this.numChannels) penalty += weightS / this.topology.chBandwidth[r];
      // A limiter is a link of SimGrid's route too (its SHARED links' capacities are their channels').
      else if (r >= ownFrom && r < this.crossBase) penalty += weightS / shared!.capacity[r - this.sharedBase];
    }
    return penalty;
  }

  /**
   * Cross-traffic: appends the reverse route's channels (and the shared capacities they draw on) to
   * the flow being built, each as crossBase + resource (SimGrid expands a transfer's variable on
   * dst->route_to(src) with 0.05: its acknowledgements). Within a host that is its route to itself again.
   */
  private collectReverse(srcNode: number, dstNode: number, salt: number): void {
    const buf = this.rbBack;
    const hops = srcNode === dstNode ? (this.selfRoute?.(this.topology, srcNode, buf.channels) ?? 0) : this.routing.route(dstNode, srcNode, salt, buf, this.routeCtx);
    const shared = this.shared;
    const base = this.crossBase;
    for (let i = 0; i < hops; i++) {
      const c = buf.channels[i];
      this.pushRes(base + c);
      if (shared) for (let k = shared.start[c]; k < shared.start[c + 1]; k++) this.pushRes(base + this.sharedBase + shared.res[k]);
    }
  }

  /** Keeps the first of each resource of the flow being built (resBuf, in order). */
  private dropRepeatedResources(): void {
    const res = this.resBuf;
    let kept = 0;
    for (let i = 0; i < this.nRes; i++) {
      let seen = false;
      for (let j = 0; j < kept && !seen; j++) seen = res[j] === res[i];
      if (!seen) res[kept++] = res[i];
    }
    this.nRes = kept;
  }

  /** Appends resource r to the flow being built (resBuf), growing it when full. */
  private pushRes(r: number): void {
    if (this.nRes === this.resBuf.length) {
      const grown = new Int32Array(2 * this.nRes);
      grown.set(this.resBuf);
      this.resBuf = grown;
    }
    this.resBuf[this.nRes++] = r;
  }

  /** Appends the route's channels plus the injection/ejection ports to resBuf; returns the bottleneck bandwidth. */
  private collect(buf: RouteBuffers, hops: number, srcRank: number, dstRank: number, s: number, withInj: boolean): number {
    const chBandwidth = this.topology.chBandwidth;
    const uniform = this.uniformBandwidth;
    let minBw = uniform === uniform && hops > 0 ? uniform : Infinity;
    const shared = this.shared;
    const orbit = this.channelOrbit;
    for (let i = 0; i < hops; i++) {
      const c = buf.channels[i];
      this.pushRes(orbit === null ? c : orbit[c]);
      if (uniform !== uniform) minBw = Math.min(minBw, chBandwidth[c]);
      if (shared) for (let k = shared.start[c]; k < shared.start[c + 1]; k++) this.pushRes(this.sharedBase + shared.res[k]);
    }
    if (this.useInj && withInj) {
      this.pushRes(this.injBase + srcRank * this.nics + (this.program.streamLocal[s] % this.nics));
      minBw = Math.min(minBw, this.model.injectionBandwidth!);
    }
    if (this.useEj && dstRank >= 0) this.pushRes(this.ejBase + (this.quotient === null ? dstRank : this.quotient.repOf[dstRank]));
    return minBw;
  }

  /** Whether every flow stream s started has finished (FlowStreamHost). */
  sendsLeft(s: number): boolean {
    return this.outstanding[s] === 0;
  }

  /** Wakes stream s at `at` (FlowStreamHost). */
  wakeAt(at: number, s: number): void {
    this.events.push(at, E_WAKE, s);
  }

  /** Posts the send `op` of stream s at `now`: one flow per destination branch, or one tree flow (FlowStreamHost). */
  postSend(s: number, op: number): void {
    const { topology: t, routing, program, msgs, rb, rb2, scratch, model, now } = this;
    const srcRank = program.streamRank[s];
    const srcNode = t.endpoints[srcRank];
    // The op's fields from the runner's op table (with many streams, one record: one cache line, not one per column).
    const ops = this.runner.ops;
    const r = ops.index(s, op);
    const first = ops.peer(r);
    const count = ops.count(r);
    // On the wire: the data and the model's envelope (SMPI's 16 bytes under the simgrid preset).
    const bytes = ops.bytes(r) + model.envelopeBytes;
    // SMPI's per-size corrections (model.networkModel 'smpi'), by the size on the wire as SimGrid's; 1 otherwise.
    const latFactor = sizeFactor(model.latencyFactors, bytes);
    const bwFactor = sizeFactor(model.bandwidthFactors, bytes);
    const tag = ops.tag(r);
    const h = ops.hint(r);
    const dsts = program.dsts;
    const hint = h >= 0 ? program.hints[h] : undefined;
    const extra = h < 0 ? 0 : turnaroundSeconds(hint, model);
    const via = fanOutNode(hint, count);
    if (via >= 0 && hint?.kind === 'via') {
      if (this.storeForward) throw new InputError('model.sharing', 'store-forward', "maxmin, cm02 or none for a multicast turned around at a node (a store-and-forward copy per branch is not modelled)");
      // Cut-through fan-out at the last turnaround node: one flow over the union of the branches.
      const treeSet = this.treeSet;
      const h1 = routeWithHint(t, routing, srcNode, via, { kind: 'via', nodes: hint.nodes.slice(0, -1) }, 0, rb, scratch, this.routeCtx);
      const lat1 = this.pathLatency(rb, h1) + extra;
      this.nRes = 0;
      treeSet.clear();
      let minBw = this.collect(rb, h1, srcRank, -1, s, true);
      for (let k = 0; k < this.nRes; k++) treeSet.add(this.resBuf[k]);
      let head = -1;
      for (let i = count - 1; i >= 0; i--) {
        const d = dsts[first + i];
        const m = msgs.add(srcRank, d, tag, op);
        const h2 = routing.route(via, t.endpoints[d], 0, rb2, this.routeCtx);
        msgs.lat[m] = (lat1 + this.pathLatency(rb2, h2)) * latFactor;
        msgs.next[m] = head;
        head = m;
        const before = this.nRes;
        minBw = Math.min(minBw, this.collect(rb2, h2, srcRank, d, s, false));
        for (let k = before; k < this.nRes; k++) treeSet.add(this.resBuf[k]);
      }
      // The tree's resources once each, in first-seen order.
      this.nRes = 0;
      for (const r of treeSet) this.pushRes(r);
      if (bytes === 0 || this.nRes === 0) {
        for (let m = head; m >= 0; ) {
          const next = msgs.next[m];
          this.events.push(now + msgs.lat[m], E_DELIVER, m);
          m = next;
        }
        return;
      }
      // Its NIC queue (per-destination) is the turnaround node's, where the tree's first leg goes, as at packet level.
      this.startFlow(this.resBuf, this.nRes, bytes, bwFactor, head, s, op, minBw, t.rankOfNode[via]);
      return;
    }
    for (let i = 0; i < count; i++) {
      const d = dsts[first + i];
      const m = msgs.add(srcRank, d, tag, op);
      const dstNode = t.endpoints[d];
      // A message to oneself, or to another rank of one's host (an SMPI hostfile listing it twice), takes the host's route to itself.
      const sameHost = dstNode === srcNode;
      if (sameHost && bytes > 0 && this.loopback !== undefined) {
        this.sendOverLoopback(m, s, op, d, bytes, bwFactor, (this.loopback.latency + extra) * latFactor);
        continue;
      }
      // That route crosses nothing, unless the network routes one (familyOf(t).selfRoute).
      const selfHops = sameHost ? (this.selfRoute?.(t, srcNode, rb.channels) ?? 0) : -1;
      if (selfHops === 0) {
        this.events.push(now, E_DELIVER, m);
        continue;
      }
      const salt = op;
      const hops = selfHops > 0 ? selfHops : routeWithHint(t, routing, srcNode, dstNode, hint, salt * 2, rb, scratch, this.routeCtx);
      let parts = 1;
      let hops2 = 0;
      // An odd salt takes the other tie or plane; a hinted path ignores it and gives the same channels.
      if (model.splitTies && selfHops < 0) {
        hops2 = routeWithHint(t, routing, srcNode, dstNode, hint, salt * 2 + 1, rb2, scratch, this.routeCtx);
        if (hops2 !== hops || !sameChannels(rb.channels, rb2.channels, hops)) parts = 2;
      }
      const lat = (this.pathLatency(rb, hops) + extra) * latFactor;
      msgs.lat[m] = lat;
      if (bytes === 0 || (hops === 0 && !this.useInj && !this.useEj)) {
        this.events.push(now + lat, E_DELIVER, m);
        continue;
      }
      if (this.storeForward) {
        let minBw = Infinity;
        for (let k = 0; k < hops; k++) minBw = Math.min(minBw, t.chBandwidth[rb.channels[k]]);
        this.totalBytes += bytes;
        this.outstanding[s]++;
        this.storeForward.send(rb.channels, hops, m, s, bytes, pacedRate(minBw, this.runner.gap[s]), now);
        continue;
      }
      this.nRes = 0;
      const cross = model.crossTraffic > 0;
      if (parts === 1) {
        const minBw = this.collect(rb, hops, srcRank, d, s, true);
        // SimGrid adds each link once to a route (a SHARED private link, up and down, is one resource).
        if (selfHops > 0) this.dropRepeatedResources();
        if (cross) this.collectReverse(srcNode, dstNode, salt * 2);
        this.startFlow(this.resBuf, this.nRes, bytes, bwFactor, m, s, op, minBw, d);
      } else {
        let minBw = this.collect(rb, hops, srcRank, d, s, true);
        if (cross) this.collectReverse(srcNode, dstNode, salt * 2);
        this.startFlow(this.resBuf, this.nRes, bytes / 2, bwFactor, m, s, op, minBw, d);
        this.nRes = 0;
        minBw = this.collect(rb2, hops2, srcRank, d, s, true);
        if (cross) this.collectReverse(srcNode, dstNode, salt * 2 + 1);
        msgs.parts[m] = -1; // two flows, one delivery: the first delivery only counts down
        this.startFlow(this.resBuf, this.nRes, bytes / 2, bwFactor, m, s, op, minBw, d);
        msgs.lat[m] = Math.max(lat, (this.pathLatency(rb2, hops2) + extra) * latFactor);
      }
    }
  }

  /**
   * A message to oneself over the host's loopback: SimGrid's route is the loopback alone, a FATPIPE
   * link of its own host (sg_platf.cpp), so the flow shares it with nothing (each flow alone at up
   * to its bandwidth) and crosses no shared resource: a flow of no resources capped at the
   * loopback's bandwidth, after its latency.
   */
  private sendOverLoopback(m: number, s: number, op: number, rank: number, bytes: number, bwFactor: number, latency: number): void {
    if (this.storeForward) throw new InputError('model.sharing', 'store-forward', "maxmin, cm02 or none for a topology with a loopback (store-and-forward moves messages link by link; the loopback is no channel)");
    this.msgs.lat[m] = latency;
    this.startFlow(this.resBuf, 0, bytes, bwFactor, m, s, op, this.loopback!.bandwidth, rank, this.loopback!.latency);
  }

  /**
   * Starts one flow over the given resources, carrying the message chain starting at `msg` (it waits
   * if its NIC queue is busy). Its bytes progress at bwFactor × the rate it holds on its resources
   * (SimGrid's bandwidth factor: Action::get_rate is the LMM value × the factor), so it is timed as
   * bytes / bwFactor at that rate; the moved bytes it records are its bytes.
   */
  private startFlow(resources: Int32Array, nRes: number, bytes: number, bwFactor: number, msg: number, s: number, op: number, minBw: number, dstRank: number, loopbackLatency = -1): void {
    const { flows, arena, nicQueues } = this;
    // Room first: the new row is not in use yet, so compaction does not read its unset path.
    if (!arena.fits(nRes)) {
      this.rates.arenaChanged(arena.reserve(nRes, flows, [[flows.active, flows.numActive], [nicQueues.pending, nicQueues.numPending]]));
    }
    const f = flows.add();
    flows.start[f] = arena.append(f, resources, nRes);
    this.channelLoad?.add(resources, 0, nRes);
    flows.len[f] = nRes;
    flows.rem[f] = bytes / bwFactor;
    flows.bytes[f] = bytes;
    flows.rate[f] = 0;
    // Without sharing (ASTRA-sim's congestion-unaware backend) the cap is the rate: the route's bottleneck.
    let maxRate = this.model.sharing === 'none' ? Math.min(minBw, pacedRate(minBw, this.runner.gap[s])) : pacedRate(minBw, this.runner.gap[s]);
    // A loopback crosses no shared resource: its bandwidth is the flow's cap.
    if (loopbackLatency >= 0) maxRate = Math.min(maxRate, minBw);
    const gamma = this.model.tcpGamma;
    if (flows.weight !== null || gamma !== null) {
      const latency = loopbackLatency >= 0 ? loopbackLatency : this.routeLatency(resources, nRes);
      if (flows.weight !== null) {
        const penalty = this.sharingPenalty(latency, resources, nRes);
        flows.weight[f] = cm02Weight(penalty);
        flows.penalty![f] = penalty > 0 ? penalty : 1;
        maxRate = Math.min(maxRate, this.linkBound(resources, nRes));
      }
      // SimGrid's TCP window bound (network_cm02.cpp, comm_action_set_variable): gamma / (2 × the unfactored route latency).
      if (gamma !== null && latency > 0) maxRate = Math.min(maxRate, gamma / (2 * latency));
    }
    flows.maxRate[f] = maxRate;
    flows.finish[f] = Infinity;
    flows.msg[f] = msg;
    flows.stream[f] = s;
    flows.op[f] = op;
    this.outstanding[s]++;
    if (nicQueues.order !== 'shared' && nRes > 0 && nicQueues.enqueue(f, nicQueues.keyOf(resources[0], s, dstRank), flows.capacity)) return;
    const phase = this.latencyPhase(f);
    if (phase > 0) this.events.push(this.now + phase, E_ACTIVATE, f);
    else this.activate(f);
  }

  /**
   * Under latency 'before-transfer' (SimGrid), the time a posted flow holds no bandwidth: its first
   * message's route latency, which delivery then no longer adds; 0 otherwise (the model allows
   * 'before-transfer' only with injection order shared, so no flow waits in a NIC queue).
   */
  private latencyPhase(f: number): number {
    return this.model.latencyRule === 'before-transfer' ? this.msgs.lat[this.flows.msg[f]] : 0;
  }

  private activate(f: number): void {
    this.arena.verifyFlow(this.flows, f);
    this.rates.activate(f);
    this.flows.t[f] = this.now;
    this.flows.activate(f);
    this.dirty = true;
  }

  private finishFlow(f: number): void {
    const { flows, msgs, now } = this;
    flows.deactivate(f);
    const st = flows.start[f];
    const len = flows.len[f];
    const bytes = flows.bytes[f];
    const path = this.arena.path;
    const C = this.numChannels;
    this.totalBytes += bytes;
    for (let p = st; p < st + len; p++) {
      const r = path[p];
      if (r < C) this.channelBytes[r] += bytes;
    }
    this.arena.live -= len;
    this.channelLoad?.remove(path, st, len);
    this.rates.finish(f);
    const spent = this.latencyPhase(f);
    for (let m = flows.msg[f]; m >= 0; ) {
      const next = msgs.next[m];
      this.events.push(now + Math.max(0, msgs.lat[m] - spent), E_DELIVER, m);
      m = next;
    }
    if (this.nicQueues.order !== 'shared' && len > 0) {
      const next = this.nicQueues.advance(f);
      if (next >= 0) this.activate(next);
    }
    const s = flows.stream[f];
    if (--this.outstanding[s] === 0) this.runner.sendsLeftNow(s, now);
    flows.release(f);
    this.dirty = true;
  }

  private deliver(m: number): void {
    const msgs = this.msgs;
    if (msgs.parts[m] === -1) {
      // First half of a split flow: wait for the other half.
      msgs.parts[m] = 0;
      return;
    }
    msgs.release(m);
    const q = this.quotient;
    if (q === null) this.runner.deliver(msgs.src[m], msgs.dst[m], msgs.tag[m], msgs.op[m], this.now);
    else this.runner.deliver(quotientSource(q, msgs.src[m], msgs.dst[m]), q.repOf[msgs.dst[m]], msgs.tag[m], msgs.op[m], this.now);
  }
}

/** The flow engine's time unit is the second. */
function inSeconds(seconds: number): number {
  return seconds;
}

/**
 * The engine's side of the stream semantics. A class rather than closures made per engine: the
 * runner's optimised code then calls the same functions in every run of a process (each engine's
 * new closures were new call targets, which deoptimised the runner's hot paths run after run).
 */
class FlowStreamHost implements StreamHost {
  readonly signalsSendsLeft = true;

  constructor(
    private readonly engine: FlowEngine,
    readonly groupRankFactor: number | undefined,
    readonly routeLatency: (srcRank: number, dstRank: number) => number,
  ) {}

  postSend(s: number, op: number): void {
    this.engine.postSend(s, op);
  }

  sendsLeft(s: number): boolean {
    return this.engine.sendsLeft(s);
  }

  wakeAt(at: number, s: number): void {
    this.engine.wakeAt(at, s);
  }
}

/** The value every entry holds (bit for bit: 0 and -0 differ), or NaN when they differ or there are none. */
function uniformValue(a: Float64Array): number {
  if (a.length === 0) return NaN;
  const v = a[0];
  for (let i = 1; i < a.length; i++) if (a[i] !== v || !Object.is(a[i], v)) return NaN;
  return v;
}

function sameChannels(a: Int32Array, b: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
