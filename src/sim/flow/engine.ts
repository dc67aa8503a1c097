/**
 * The flow-level engine: runs a FlowProgram on a topology. Messages become flows over channel paths
 * that share bandwidth max-min fairly; rates are recomputed only when the set of active flows
 * changes, and all events that fall at the same instant are processed as one batch before a single
 * recomputation ("batched" rate updates: the result records it as model.rateUpdate).
 *
 * Timing of one message: the sending stream is busy for α; the flow then transmits its bytes at
 * its max-min rate; the receiver has the data one path latency (Σ channel latency + hops × router
 * latency + turnaround extra) after the last byte left. A receive completes when its data arrived.
 */
import { resized } from '../../util/typed-arrays.js';
import { InputError } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';
import { hintMaxHops, routeWithHint } from '../../routing/hints.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';
import { EventQueue, IndexedTimeHeap } from '../program/event-queue.js';
import { fanOutNode, pacedRate, StreamRunner, turnaroundSeconds } from '../program/semantics.js';
import { cm02Weight, MaxMinSolver, SubsetFiller } from './maxmin.js';
import { checkTopologyBandwidth, resolveFlowModel, type FlowModel, type FlowModelOptions } from '../program/model.js';
import { FlowProgram } from '../program/program.js';
import { MessageTable } from './message-table.js';
import { FlowTable } from './flow-table.js';

/** Events: a stream wake the shared semantics asked for, and a message's delivery. */
const E_WAKE = 0;
const E_DELIVER = 1;

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
  readonly stats: { messages: number; flows: number; bytes: number; events: number; rateUpdates: number; batches: number; solverWork: number };
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
  checkTopologyBandwidth(topology);
  const t = topology;
  const R = program.numRanks;
  if (R > t.numEndpoints) {
    throw new InputError('schedule.ranks', `${R} ranks`, `at most ${t.numEndpoints} ranks (the endpoints of ${t.spec})`);
  }
  const model = resolveFlowModel(opts, t, routing.params.split);
  const C = t.numChannels;
  const nics = model.nics;
  const injBase = C;
  const ejBase = C + R * nics;
  const numResources = ejBase + R;
  const capacity = new Float64Array(numResources);
  capacity.set(t.chBandwidth);
  for (let i = 0; i < R * nics; i++) capacity[injBase + i] = model.injectionBandwidth ?? Infinity;
  for (let r = 0; r < R; r++) capacity[ejBase + r] = model.ejectionBandwidth === null ? Infinity : model.ejectionBandwidth * nics;
  const useInj = model.injectionBandwidth !== null;
  const useEj = model.ejectionBandwidth !== null;
  // Exact updates fill every active flow; local updates fill the affected subset in place.
  const solver = new MaxMinSolver(capacity);
  const filler = new SubsetFiller(model.rateUpdate === 'local' ? numResources : 0);

  const S = program.numStreams;
  const nOps = program.numOps;
  const { opPeer, opCount, opBytes, opTag, opHint, dsts } = program;

  // ---- stream semantics (shared with the packet engine); this engine moves the data
  /** Flows of each stream that have not finished (its sends that have not left). */
  const outstanding = new Int32Array(S);
  const runner = new StreamRunner(program, model, {
    postSend: (s, op) => postSend(s, op),
    sendsLeft: (s) => outstanding[s] === 0,
    wakeAt: (at, s) => queue.push(at, E_WAKE, s),
    signalsSendsLeft: true,
  }, (seconds) => seconds);
  const gap = runner.gap;

  // ---- messages (recycled through a free list)
  const msgs = new MessageTable();

  // ---- flows (recycled), their resource paths in an arena compacted when it fills with dead paths
  const flows = new FlowTable(model.sharing === 'cm02');
  let active = new Int32Array(1024);
  let nActive = 0;
  let arena = new Int32Array(1 << 16);
  let arenaUsed = 0;
  let liveEntries = 0;

  // Local rate updates: per resource, the arena positions of the active flows that cross it
  // (swap-remove through arenaSlot), and the resources touched since the last update.
  const local = model.rateUpdate === 'local';
  // Local updates also keep flow state lazy, so that a batch costs what it touches, not O(active
  // flows): flows.rem[f] is exact at time flows.t[f] (brought forward when the flow is re-rated), finish
  // times wait in an indexed heap (one entry per flow, moved when re-rated), and the aggregate rate
  // is kept as a running sum. Exact updates re-rate every flow anyway and keep the plain per-batch
  // passes (their results must not move by a rounding).
  const finishQueue = new IndexedTimeHeap();
  let totalRate = 0;
  /** Per resource, the sum of the rates of the active flows crossing it (local updates). */
  const resRate = new Float64Array(local ? numResources : 0);
  const resList: number[][] = local ? Array.from({ length: numResources }, () => []) : [];
  /** How many active flows cross each resource: the live length of resList[r]. */
  const resCount = new Int32Array(local ? numResources : 0);
  let arenaSlot = new Int32Array(local ? arena.length : 0);
  let arenaOwner = new Int32Array(local ? arena.length : 0);
  const dirtyMark = new Uint8Array(local ? numResources : 0);
  const dirtyList: number[] = [];
  const markDirty = (r: number): void => {
    if (!dirtyMark[r]) {
      dirtyMark[r] = 1;
      dirtyList.push(r);
    }
  };
  // A list's live part is its first resCount[r] entries: the arrays never shrink, so a resource
  // whose flows come and go does not reallocate (pop/push churn was a tenth of the event handling).
  const listAdd = (p: number, f: number): void => {
    const r = arena[p];
    const list = resList[r];
    const n = resCount[r]++;
    arenaSlot[p] = n;
    arenaOwner[p] = f;
    if (n === list.length) list.push(p);
    else list[n] = p;
    markDirty(r);
  };
  const listRemove = (p: number): void => {
    const r = arena[p];
    const list = resList[r];
    const last = list[--resCount[r]];
    if (last !== p) {
      list[arenaSlot[p]] = last;
      arenaSlot[last] = arenaSlot[p];
    }
    markDirty(r);
  };


  const ensureArena = (extra: number): void => {
    if (arenaUsed + extra <= arena.length) return;
    if (liveEntries + extra <= arena.length / 2) {
      // Compact: move the paths of active flows to the front.
      const fresh = new Int32Array(arena.length);
      let w = 0;
      for (let a = 0; a < nActive + nPending; a++) {
        const f = a < nActive ? active[a] : pending[a - nActive];
        fresh.set(arena.subarray(flows.start[f], flows.start[f] + flows.len[f]), w);
        flows.start[f] = w;
        w += flows.len[f];
      }
      arena = fresh;
      arenaUsed = w;
      if (local) rebuildLists();
      return;
    }
    const bigger = new Int32Array(Math.max(arena.length * 2, arenaUsed + extra));
    bigger.set(arena.subarray(0, arenaUsed));
    arena = bigger;
    if (local) {
      arenaSlot = resized(arenaSlot, arena.length);
      arenaOwner = resized(arenaOwner, arena.length);
    }
  };
  /** After compaction moved the paths, re-enter every active flow in the resource lists. */
  const rebuildLists = (): void => {
    for (const list of resList) list.length = 0;
    for (let a = 0; a < nActive; a++) {
      const f = active[a];
      for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) {
        const list = resList[arena[p]];
        arenaSlot[p] = list.length;
        arenaOwner[p] = f;
        list.push(p);
      }
    }
    // Every list is now exactly its live part (resCount is unchanged).
  };

  // ---- routing buffers
  let maxHops = 2 * routing.maxHops + 2;
  for (const hint of program.hints) maxHops = Math.max(maxHops, hintMaxHops(routing, hint) + routing.maxHops);
  const rb = makeRouteBuffers(maxHops);
  const rb2 = makeRouteBuffers(maxHops);
  const scratch = makeRouteBuffers(maxHops);
  const treeSet = new Set<number>();

  const queue = new EventQueue(4096);
  const chBytes = new Float64Array(C);
  const rateTime = new Growing();
  const rateValue = new Growing();
  let now = 0;
  let dirty = false;
  let totalBytes = 0;
  let batches = 0;
  const trace = opts.trace;
  const perClass = trace ? new Float64Array(t.classNames.length) : undefined;
  const perChannel = trace?.channelRates ? new Float64Array(C) : undefined;

  const pathLatency = (buf: typeof rb, hops: number): number => {
    let lat = hops * model.routerLatency;
    for (let i = 0; i < hops; i++) lat += t.chLatency[buf.channels[i]];
    return lat;
  };

  /** A flow's route latency for CM02's share weight: its channels' latencies plus the router latency per channel. */
  const routeLatency = (resources: number[] | Int32Array, nRes: number): number => {
    let lat = 0;
    for (let i = 0; i < nRes; i++) if (resources[i] < C) lat += t.chLatency[resources[i]] + model.routerLatency;
    return lat;
  };

  const turnaroundExtra = (h: number): number => (h < 0 ? 0 : turnaroundSeconds(program.hints[h], model));

  /** Starts one flow over the given resources, carrying the message chain starting at `msg`. */
  // ---- the NIC model (model.injectionOrder): flows wait in per-queue FIFOs and only a queue's head
  // shares bandwidth ('shared': no queues). A queue's key: fifo, the NIC's injection port (when
  // modelled) or the NIC and first link, as the packet engine's source queues; per-destination,
  // the NIC and destination rank. Waiting flows keep their path in the arena (pending list).
  const order = model.injectionOrder;
  // fifo queues are few and dense (one per NIC port, or per first link and NIC): a typed array of
  // queue tails; per-destination queues are sparse: a map.
  const fifoTail = new Int32Array(order === 'fifo' ? (useInj ? R * nics : C * nics) : 0).fill(-1);
  const destTail = new Map<number, number>();
  let fQNext = new Int32Array(flows.capacity);
  let fQKey = new Float64Array(flows.capacity);
  let pending = new Int32Array(order === 'shared' ? 0 : 1024);
  let fPendPos = new Int32Array(flows.capacity);
  let nPending = 0;
  const queueKey = (resources: number[] | Int32Array, s: number, dstRank: number): number => {
    const nic = program.streamLocal[s] % nics;
    const port = program.streamRank[s] * nics + nic;
    if (order === 'per-destination') return port * R + Math.max(0, dstRank);
    return useInj ? port : resources[0] * nics + nic;
  };
  const queueTail = (key: number): number => (order === 'fifo' ? fifoTail[key] : (destTail.get(key) ?? -1));
  const setQueueTail = (key: number, f: number): void => {
    if (order === 'fifo') fifoTail[key] = f;
    else if (f < 0) destTail.delete(key);
    else destTail.set(key, f);
  };
  const activate = (f: number): void => {
    if (local) for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) listAdd(p, f);
    flows.t[f] = now;
    if (nActive === active.length) active = resized(active, nActive * 2);
    flows.activePos[f] = nActive;
    active[nActive++] = f;
    dirty = true;
  };

  /** Starts one flow over the given resources, carrying the message chain starting at `msg` (it waits if its NIC queue is busy). */
  const startFlow = (resources: number[] | Int32Array, nRes: number, bytes: number, msg: number, s: number, op: number, minBw: number, dstRank: number): void => {
    const f = flows.add();
    ensureArena(nRes);
    flows.start[f] = arenaUsed;
    for (let i = 0; i < nRes; i++) arena[arenaUsed++] = resources[i];
    flows.len[f] = nRes;
    liveEntries += nRes;
    flows.rem[f] = bytes;
    flows.bytes[f] = bytes;
    flows.rate[f] = 0;
    flows.maxRate[f] = pacedRate(minBw, gap[s]);
    if (flows.weight !== null) flows.weight[f] = cm02Weight(routeLatency(resources, nRes));
    flows.finish[f] = Infinity;
    flows.msg[f] = msg;
    flows.stream[f] = s;
    flows.op[f] = op;
    outstanding[s]++;
    if (order !== 'shared' && nRes > 0) {
      if (fQNext.length < flows.capacity) {
        fQNext = resized(fQNext, flows.capacity);
        fQKey = resized(fQKey, flows.capacity);
        fPendPos = resized(fPendPos, flows.capacity);
      }
      const key = queueKey(resources, s, dstRank);
      fQKey[f] = key;
      fQNext[f] = -1;
      const tail = queueTail(key);
      setQueueTail(key, f);
      if (tail >= 0) {
        fQNext[tail] = f;
        if (nPending === pending.length) pending = resized(pending, nPending * 2);
        fPendPos[f] = nPending;
        pending[nPending++] = f;
        return;
      }
    }
    activate(f);
  };
  /** The flow after f in its NIC queue starts (f finished). */
  const advanceQueue = (f: number): void => {
    if (order === 'shared' || flows.len[f] === 0) return;
    const next = fQNext[f];
    if (next < 0) {
      setQueueTail(fQKey[f], -1);
      return;
    }
    const pos = fPendPos[next];
    const last = pending[--nPending];
    pending[pos] = last;
    fPendPos[last] = pos;
    activate(next);
  };

  const resBuf: number[] = [];
  /** Appends the route's channels plus the injection/ejection ports to resBuf; returns the bottleneck bandwidth. */
  const collect = (buf: typeof rb, hops: number, srcRank: number, dstRank: number, s: number, withInj: boolean): number => {
    let minBw = Infinity;
    for (let i = 0; i < hops; i++) {
      const c = buf.channels[i];
      resBuf.push(c);
      minBw = Math.min(minBw, t.chBandwidth[c]);
    }
    if (useInj && withInj) {
      resBuf.push(injBase + srcRank * nics + (program.streamLocal[s] % nics));
      minBw = Math.min(minBw, model.injectionBandwidth!);
    }
    if (useEj && dstRank >= 0) resBuf.push(ejBase + dstRank);
    return minBw;
  };

  const deliverAt = (m: number, time: number): void => {
    queue.push(time, E_DELIVER, m);
  };

  /** Posts the send `op` of stream s at `now`: one flow per destination branch, or one tree flow. */
  const postSend = (s: number, op: number): void => {
    const srcRank = program.streamRank[s];
    const srcNode = t.endpoints[srcRank];
    const first = opPeer[op];
    const count = opCount[op];
    const bytes = opBytes[op];
    const h = opHint[op];
    const hint = h >= 0 ? program.hints[h] : undefined;
    const extra = turnaroundExtra(h);
    const via = fanOutNode(hint, count);
    if (via >= 0 && hint?.kind === 'via') {
      // Cut-through fan-out at the last turnaround node: one flow over the union of the branches.
      const h1 = routeWithHint(t, routing, srcNode, via, { kind: 'via', nodes: hint.nodes.slice(0, -1) }, 0, rb, scratch);
      const lat1 = pathLatency(rb, h1) + extra;
      resBuf.length = 0;
      treeSet.clear();
      let minBw = collect(rb, h1, srcRank, -1, s, true);
      for (const r of resBuf) treeSet.add(r);
      let head = -1;
      for (let i = count - 1; i >= 0; i--) {
        const d = dsts[first + i];
        const m = msgs.add(srcRank, d, opTag[op], op);
        const h2 = routing.route(via, t.endpoints[d], 0, rb2);
        msgs.lat[m] = lat1 + pathLatency(rb2, h2);
        msgs.next[m] = head;
        head = m;
        const before = resBuf.length;
        minBw = Math.min(minBw, collect(rb2, h2, srcRank, d, s, false));
        for (let k = before; k < resBuf.length; k++) treeSet.add(resBuf[k]);
      }
      const res = [...treeSet];
      if (bytes === 0 || res.length === 0) {
        for (let m = head; m >= 0; ) {
          const next = msgs.next[m];
          deliverAt(m, now + msgs.lat[m]);
          m = next;
        }
        return;
      }
      // Its NIC queue (per-destination) is the turnaround node's, where the tree's first leg goes, as at packet level.
      startFlow(res, res.length, bytes, head, s, op, minBw, t.rankOfNode[via]);
      return;
    }
    for (let i = 0; i < count; i++) {
      const d = dsts[first + i];
      const m = msgs.add(srcRank, d, opTag[op], op);
      const dstNode = t.endpoints[d];
      if (d === srcRank) {
        deliverAt(m, now);
        continue;
      }
      const salt = op;
      const hops = routeWithHint(t, routing, srcNode, dstNode, hint, salt * 2, rb, scratch);
      let parts = 1;
      let hops2 = 0;
      // An odd salt takes the other tie or plane; a hinted path ignores it and gives the same channels.
      if (model.splitTies) {
        hops2 = routeWithHint(t, routing, srcNode, dstNode, hint, salt * 2 + 1, rb2, scratch);
        if (hops2 !== hops || !sameChannels(rb.channels, rb2.channels, hops)) parts = 2;
      }
      const lat = pathLatency(rb, hops) + extra;
      msgs.lat[m] = lat;
      if (bytes === 0 || (hops === 0 && !useInj && !useEj)) {
        deliverAt(m, now + lat);
        continue;
      }
      if (parts === 1) {
        resBuf.length = 0;
        const minBw = collect(rb, hops, srcRank, d, s, true);
        startFlow(resBuf, resBuf.length, bytes, m, s, op, minBw, d);
      } else {
        resBuf.length = 0;
        let minBw = collect(rb, hops, srcRank, d, s, true);
        startFlow(resBuf, resBuf.length, bytes / 2, m, s, op, minBw, d);
        resBuf.length = 0;
        minBw = collect(rb2, hops2, srcRank, d, s, true);
        msgs.parts[m] = -1; // two flows, one delivery: the first delivery only counts down
        startFlow(resBuf, resBuf.length, bytes / 2, m, s, op, minBw, d);
        msgs.lat[m] = Math.max(lat, pathLatency(rb2, hops2) + extra);
      }
    }
  };

  const deliver = (m: number): void => {
    if (msgs.parts[m] === -1) {
      // First half of a split flow: wait for the other half.
      msgs.parts[m] = 0;
      return;
    }
    msgs.release(m);
    runner.deliver(msgs.src[m], msgs.dst[m], msgs.tag[m], msgs.op[m], now);
  };

  const finishFlow = (f: number): void => {
    // Remove from the active list (swap with last).
    const pos = flows.activePos[f];
    const last = active[--nActive];
    active[pos] = last;
    flows.activePos[last] = pos;
    const st = flows.start[f];
    const bytes = flows.bytes[f];
    totalBytes += bytes;
    for (let p = st; p < st + flows.len[f]; p++) {
      const r = arena[p];
      if (r < C) chBytes[r] += bytes;
    }
    liveEntries -= flows.len[f];
    if (local) {
      for (let p = st; p < st + flows.len[f]; p++) {
        listRemove(p);
        resRate[arena[p]] -= flows.rate[f];
      }
      totalRate -= flows.rate[f];
    }
    for (let m = flows.msg[f]; m >= 0; ) {
      const next = msgs.next[m];
      queue.push(now + msgs.lat[m], E_DELIVER, m);
      m = next;
    }
    advanceQueue(f);
    const s = flows.stream[f];
    if (--outstanding[s] === 0) runner.sendsLeftNow(s, now);
    flows.release(f);
    dirty = true;
  };

  // ---- main loop
  runner.start(0);
  let lastT = 0;
  let nextFinish = Infinity;
  const finishing: number[] = [];
  const eps = model.simultaneity;
  let opsDoneHint = 0;
  // Local update scratch: flows re-rated this time (stamped), and what the others leave per resource.
  let stamp = new Int32Array(flows.capacity);
  let epoch = 0;
  const resStamp = new Int32Array(local ? numResources : 0);
  const avail = new Float64Array(local ? numResources : 0);
  const resAffected = new Int32Array(local ? numResources : 0);
  /** A re-rated flow crossing the resource (the only one when resAffected is 1). */
  const resOnly = new Int32Array(local ? numResources : 0);
  let touchedRes = new Int32Array(1024);
  let affected = new Int32Array(1024);
  const recompute = (): void => {
    let total = 0;
    if (local) {
      recomputeLocal();
      if (nActive === 0) totalRate = 0;
      total = totalRate;
      nextFinish = peekFinish();
    } else {
      solver.solve(active, nActive, flows.start, flows.len, arena, flows.maxRate, flows.rate, capacity, flows.weight);
      nextFinish = Infinity;
      // Columns through locals in the per-batch loops (no flow is created here, so none moves).
      const { rate, rem, finish } = flows;
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        const r = rate[f];
        total += r;
        const fin = r > 0 ? now + rem[f] / r : Infinity;
        finish[f] = fin;
        if (fin < nextFinish) nextFinish = fin;
      }
    }
    rateTime.push(now);
    rateValue.push(total);
    if (trace && perClass) {
      perClass.fill(0);
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) if (arena[p] < C) perClass[t.chClass[arena[p]]] += flows.rate[f];
      }
      trace.rates(now, perClass);
      if (perChannel && trace.channelRates) {
        perChannel.fill(0);
        for (let a = 0; a < nActive; a++) {
          const f = active[a];
          for (let p = flows.start[f]; p < flows.start[f] + flows.len[f]; p++) if (arena[p] < C) perChannel[arena[p]] += flows.rate[f];
        }
        trace.channelRates(now, perChannel);
      }
    }
    dirty = false;
  };
  /** Re-rates only the flows crossing a resource that a started or finished flow touched. */
  const recomputeLocal = (): void => {
    const mark = ++epoch;
    if (stamp.length < flows.capacity) stamp = resized(stamp, flows.capacity);
    // The growable columns are reloaded on every access through the closure or the table; the hot
    // loops below read them through locals instead.
    const st = stamp;
    const owner = arenaOwner;
    const path = arena;
    const { start, len, rate, rem: remBytes, t: since, finish } = flows;
    const t = now;
    let nA = 0;
    for (let d = 0; d < dirtyList.length; d++) {
      const r = dirtyList[d];
      dirtyMark[r] = 0;
      const list = resList[r];
      const live = resCount[r];
      for (let i = 0; i < live; i++) {
        const f = owner[list[i]];
        if (st[f] === mark) continue;
        st[f] = mark;
        if (nA === affected.length) affected = resized(affected, nA * 2);
        affected[nA++] = f;
      }
    }
    dirtyList.length = 0;
    let nTouched = 0;
    let touched = touchedRes;
    let removed = 0;
    // What the other flows leave on each resource: the running sum minus the re-rated flows' rates
    // (a resource all of whose flows are re-rated starts again from exactly zero, so the running
    // sum does not drift; a residue of a rounding is treated as full).
    for (let a = 0; a < nA; a++) {
      const f = affected[a];
      const old = rate[f];
      remBytes[f] -= old * (t - since[f]);
      since[f] = t;
      removed += old;
      const end = start[f] + len[f];
      for (let p = start[f]; p < end; p++) {
        const r = path[p];
        if (resStamp[r] !== mark) {
          resStamp[r] = mark;
          resAffected[r] = 1;
          if (nTouched === touched.length) touched = touchedRes = resized(touched, nTouched * 2);
          touched[nTouched++] = r;
        } else resAffected[r]++;
        resOnly[r] = f;
        resRate[r] -= old;
      }
    }
    totalRate -= removed;
    for (let k = 0; k < nTouched; k++) {
      const r = touched[k];
      if (resAffected[r] === resCount[r]) resRate[r] = 0;
      const c = capacity[r];
      const left = c - resRate[r];
      avail[r] = left > c * 1e-12 || c === Infinity ? left : 0;
    }
    // The filler adds the new rates to resRate as it freezes each flow.
    filler.solve(affected, nA, start, len, path, flows.maxRate, rate, touched, nTouched, avail, resAffected, resOnly, resList, resCount, owner, st, mark, resRate);
    let added = 0;
    for (let a = 0; a < nA; a++) {
      const f = affected[a];
      const r = rate[f];
      added += r;
      const fin = r > 0 ? t + remBytes[f] / r : Infinity;
      if (fin !== finish[f]) {
        finish[f] = fin;
        finishQueue.set(f, fin);
      }
    }
    totalRate += added;
  };
  const peekFinish = (): number => finishQueue.peekTime();
  if (dirty) recompute();
  for (;;) {
    const tE = queue.peekTime();
    const tNext = Math.min(tE, nextFinish);
    if (tNext === Infinity) break;
    batches++;
    const dt = tNext - lastT;
    if (dt > 0 && !local) {
      const { rate, rem } = flows;
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        rem[f] -= rate[f] * dt;
      }
    }
    now = tNext;
    lastT = tNext;
    const horizon = now + Math.abs(now) * eps;
    if (nextFinish <= horizon) {
      finishing.length = 0;
      if (local) {
        while (finishQueue.peekTime() <= horizon) {
          const f = finishQueue.peekId();
          flows.finish[f] = NaN; // collected
          finishing.push(f);
          finishQueue.pop();
        }
      } else {
        const finish = flows.finish;
        for (let a = 0; a < nActive; a++) if (finish[active[a]] <= horizon) finishing.push(active[a]);
      }
      // Deterministic order: by flow id.
      finishing.sort((x, y) => x - y);
      for (const f of finishing) finishFlow(f);
      nextFinish = Infinity;
      if (!dirty) {
        if (local) nextFinish = peekFinish();
        else {
          const finish = flows.finish;
          for (let a = 0; a < nActive; a++) nextFinish = Math.min(nextFinish, finish[active[a]]);
        }
      }
    }
    while (queue.peekTime() <= horizon) {
      const kind = queue.peekKind();
      const arg = queue.peekArg();
      queue.pop();
      if (kind === E_DELIVER) deliver(arg);
      else runner.wake(arg, now);
    }
    if (dirty) recompute();
    if (opts.progress && batches % 4096 === 0) {
      const done = runner.opsDone();
      if (done !== opsDoneHint) opts.progress(done / Math.max(1, nOps));
      opsDoneHint = done;
    }
  }

  runner.checkComplete();
  let makespan = 0;
  const rankFinish = new Float64Array(R);
  for (let s = 0; s < S; s++) {
    const r = program.streamRank[s];
    rankFinish[r] = Math.max(rankFinish[r], runner.streamFinish[s]);
    makespan = Math.max(makespan, runner.streamFinish[s]);
  }
  return {
    makespan,
    model,
    rankFinish,
    channelBytes: chBytes,
    opStart: runner.opStartT,
    opEnd: runner.opEndT,
    opPred: runner.opPred,
    rateTime: rateTime.view(),
    rateValue: rateValue.view(),
    stats: { messages: msgs.created, flows: flows.created, bytes: totalBytes, events: queue.pushed, rateUpdates: solver.solves + filler.solves, batches, solverWork: solver.work + filler.work },
  };
}

function sameChannels(a: Int32Array, b: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

