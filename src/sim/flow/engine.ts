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
import { EventQueue, IndexedTimeHeap } from './event-queue.js';
import { MatchTable } from './match-table.js';
import { cm02Weight, MaxMinSolver, SubsetFiller } from './maxmin.js';
import { checkTopologyBandwidth, resolveFlowModel, type FlowModel, type FlowModelOptions } from './model.js';
import { FlowProgram, FLOW_OP_NAMES, FlowOp } from './program.js';

const E_SEND = 0;
const E_RESUME = 1;
const E_DELIVER = 2;

const S_READY = 0;
const S_BUSY = 1;
const S_RECV = 2;
const S_FENCE = 3;
const S_BARRIER = 4;
const S_DONE = 5;

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
  const { opKind, opPeer, opCount, opBytes, opTag, opHint, dsts, opStart: streamOpStart } = program;

  // ---- stream state
  const pc = new Int32Array(S);
  const state = new Uint8Array(S);
  const outstanding = new Int32Array(S);
  const gap = new Float64Array(S);
  const lastOp = new Int32Array(S).fill(-1);
  const lastSend = new Int32Array(S).fill(-1);
  const resumePred = new Int32Array(S).fill(-1);
  const streamFinish = new Float64Array(S);
  for (let s = 0; s < S; s++) pc[s] = streamOpStart[s];

  const opStartT = new Float64Array(nOps).fill(NaN);
  const opEndT = new Float64Array(nOps).fill(NaN);
  const opPred = new Int32Array(nOps).fill(-1);

  // ---- barrier / hwCollective keys
  const nKeys = program.keyNames.length;
  const keyExpected = new Int32Array(nKeys);
  const keyRanks = new Int32Array(nKeys);
  {
    const seen = new Set<number>();
    const rankSeen = new Set<number>();
    for (let s = 0; s < S; s++) {
      seen.clear();
      for (let o = streamOpStart[s]; o < streamOpStart[s + 1]; o++) {
        if (opKind[o] === FlowOp.Barrier || opKind[o] === FlowOp.HwCollective) seen.add(opPeer[o]);
      }
      for (const k of seen) {
        keyExpected[k]++;
        const rk = k * R + program.streamRank[s];
        if (!rankSeen.has(rk)) {
          rankSeen.add(rk);
          keyRanks[k]++;
        }
      }
    }
  }
  const keyArrived = new Int32Array(nKeys);
  const keyLast = new Int32Array(nKeys).fill(-1);
  const keyWaiting: number[][] = Array.from({ length: nKeys }, () => []);

  // ---- tags -> dense index for match keys
  const tagIndex = new Map<number, number>();
  // Collectives use few tags, mostly in runs: skip the Map while the tag repeats.
  let lastTag = 0;
  let lastIdx = -1;
  for (let o = 0; o < nOps; o++) {
    if (opKind[o] !== FlowOp.Send && opKind[o] !== FlowOp.Recv) continue;
    const tag = opTag[o];
    if (tag === lastTag && lastIdx >= 0) continue;
    if (!tagIndex.has(tag)) tagIndex.set(tag, tagIndex.size);
    lastTag = tag;
    lastIdx = tagIndex.get(tag)!;
  }
  const nTags = Math.max(1, tagIndex.size);
  const matchKey = (src: number, dst: number, tag: number): number => {
    if (tag !== lastTag) {
      lastTag = tag;
      lastIdx = tagIndex.get(tag)!;
    }
    return (src * R + dst) * nTags + lastIdx;
  };
  const matches = new MatchTable(S);

  // ---- messages (recycled through a free list)
  let mCap = 1024;
  let mSrc = new Int32Array(mCap);
  let mDst = new Int32Array(mCap);
  let mTag = new Int32Array(mCap);
  let mOp = new Int32Array(mCap);
  let mParts = new Int32Array(mCap);
  let mNext = new Int32Array(mCap);
  let mLat = new Float64Array(mCap);
  let mArrive = new Float64Array(mCap);
  let mFree = -1;
  let mUsed = 0;
  let messages = 0;
  const newMessage = (src: number, dst: number, tag: number, op: number): number => {
    let m: number;
    if (mFree >= 0) {
      m = mFree;
      mFree = mNext[m];
    } else {
      if (mUsed === mCap) {
        mCap *= 2;
        mSrc = resized(mSrc, mCap);
        mDst = resized(mDst, mCap);
        mTag = resized(mTag, mCap);
        mOp = resized(mOp, mCap);
        mParts = resized(mParts, mCap);
        mNext = resized(mNext, mCap);
        mLat = resized(mLat, mCap);
        mArrive = resized(mArrive, mCap);
      }
      m = mUsed++;
    }
    messages++;
    mSrc[m] = src;
    mDst[m] = dst;
    mTag[m] = tag;
    mOp[m] = op;
    mParts[m] = 0;
    mNext[m] = -1;
    mLat[m] = 0;
    mArrive[m] = 0;
    return m;
  };

  // ---- flows (recycled), their resource paths in an arena compacted when it fills with dead paths
  let fCap = 1024;
  let fStart = new Int32Array(fCap);
  let fLen = new Int32Array(fCap);
  let fRem = new Float64Array(fCap);
  let fBytes = new Float64Array(fCap);
  let fRate = new Float64Array(fCap);
  let fMaxRate = new Float64Array(fCap);
  /** Share weight per flow under CM02 sharing (1 / route latency); null under plain max-min. */
  let fWeight: Float64Array | null = model.sharing === 'cm02' ? new Float64Array(fCap) : null;
  let fFinish = new Float64Array(fCap);
  let fT = new Float64Array(fCap);
  let fMsg = new Int32Array(fCap);
  let fStream = new Int32Array(fCap);
  let fOp = new Int32Array(fCap);
  let fNextFree = new Int32Array(fCap);
  let fActivePos = new Int32Array(fCap);
  let fFree = -1;
  let fUsed = 0;
  let flowsCreated = 0;
  let active = new Int32Array(1024);
  let nActive = 0;
  let arena = new Int32Array(1 << 16);
  let arenaUsed = 0;
  let liveEntries = 0;

  // Local rate updates: per resource, the arena positions of the active flows that cross it
  // (swap-remove through arenaSlot), and the resources touched since the last update.
  const local = model.rateUpdate === 'local';
  // Local updates also keep flow state lazy, so that a batch costs what it touches, not O(active
  // flows): fRem[f] is exact at time fT[f] (brought forward when the flow is re-rated), finish
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

  const newFlow = (): number => {
    let f: number;
    if (fFree >= 0) {
      f = fFree;
      fFree = fNextFree[f];
    } else {
      if (fUsed === fCap) {
        fCap *= 2;
        fStart = resized(fStart, fCap);
        fLen = resized(fLen, fCap);
        fRem = resized(fRem, fCap);
        fBytes = resized(fBytes, fCap);
        fRate = resized(fRate, fCap);
        fMaxRate = resized(fMaxRate, fCap);
        if (fWeight !== null) fWeight = resized(fWeight, fCap);
        fFinish = resized(fFinish, fCap);
        fT = resized(fT, fCap);
        fMsg = resized(fMsg, fCap);
        fStream = resized(fStream, fCap);
        fOp = resized(fOp, fCap);
        fNextFree = resized(fNextFree, fCap);
        fActivePos = resized(fActivePos, fCap);
      }
      f = fUsed++;
    }
    flowsCreated++;
    return f;
  };

  const ensureArena = (extra: number): void => {
    if (arenaUsed + extra <= arena.length) return;
    if (liveEntries + extra <= arena.length / 2) {
      // Compact: move the paths of active flows to the front.
      const fresh = new Int32Array(arena.length);
      let w = 0;
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        fresh.set(arena.subarray(fStart[f], fStart[f] + fLen[f]), w);
        fStart[f] = w;
        w += fLen[f];
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
      for (let p = fStart[f]; p < fStart[f] + fLen[f]; p++) {
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

  const turnaroundExtra = (h: number): number => {
    if (h < 0) return 0;
    const hint = program.hints[h];
    if (hint.kind !== 'via') return 0;
    const per = { switch: model.turnaroundSwitch, memory: model.turnaroundMemory, reduce: model.turnaroundReduce, none: 0 }[hint.turnaround ?? 'switch'];
    return per * hint.nodes.length;
  };

  /** Starts one flow over the given resources, carrying the message chain starting at `msg`. */
  const startFlow = (resources: number[] | Int32Array, nRes: number, bytes: number, msg: number, s: number, op: number, minBw: number): void => {
    const f = newFlow();
    ensureArena(nRes);
    fStart[f] = arenaUsed;
    for (let i = 0; i < nRes; i++) arena[arenaUsed++] = resources[i];
    fLen[f] = nRes;
    if (local) for (let p = fStart[f]; p < arenaUsed; p++) listAdd(p, f);
    liveEntries += nRes;
    fRem[f] = bytes;
    fBytes[f] = bytes;
    fRate[f] = 0;
    const g = gap[s];
    fMaxRate[f] = g > 0 ? minBw / (g + 1) : Infinity;
    if (fWeight !== null) fWeight[f] = cm02Weight(routeLatency(resources, nRes));
    fFinish[f] = Infinity;
    fT[f] = now;
    fMsg[f] = msg;
    fStream[f] = s;
    fOp[f] = op;
    if (nActive === active.length) active = resized(active, nActive * 2);
    fActivePos[f] = nActive;
    active[nActive++] = f;
    outstanding[s]++;
    dirty = true;
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
    mArrive[m] = time;
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
    if (hint !== undefined && hint.kind === 'via' && count > 1 && hint.nodes.length > 0) {
      // Cut-through fan-out at the last turnaround node: one flow over the union of the branches.
      const via = hint.nodes[hint.nodes.length - 1];
      const h1 = routeWithHint(t, routing, srcNode, via, { kind: 'via', nodes: hint.nodes.slice(0, -1) }, 0, rb, scratch);
      const lat1 = pathLatency(rb, h1) + extra;
      resBuf.length = 0;
      treeSet.clear();
      let minBw = collect(rb, h1, srcRank, -1, s, true);
      for (const r of resBuf) treeSet.add(r);
      let head = -1;
      for (let i = count - 1; i >= 0; i--) {
        const d = dsts[first + i];
        const m = newMessage(srcRank, d, opTag[op], op);
        const h2 = routing.route(via, t.endpoints[d], 0, rb2);
        mLat[m] = lat1 + pathLatency(rb2, h2);
        mNext[m] = head;
        head = m;
        const before = resBuf.length;
        minBw = Math.min(minBw, collect(rb2, h2, srcRank, d, s, false));
        for (let k = before; k < resBuf.length; k++) treeSet.add(resBuf[k]);
      }
      const res = [...treeSet];
      if (bytes === 0 || res.length === 0) {
        for (let m = head; m >= 0; ) {
          const next = mNext[m];
          deliverAt(m, now + mLat[m]);
          m = next;
        }
        return;
      }
      startFlow(res, res.length, bytes, head, s, op, minBw);
      return;
    }
    for (let i = 0; i < count; i++) {
      const d = dsts[first + i];
      const m = newMessage(srcRank, d, opTag[op], op);
      const dstNode = t.endpoints[d];
      if (d === srcRank) {
        deliverAt(m, now);
        continue;
      }
      const salt = op;
      const hops = routeWithHint(t, routing, srcNode, dstNode, hint, salt * 2, rb, scratch);
      let parts = 1;
      let hops2 = 0;
      if (model.splitTies && h < 0) {
        hops2 = routing.route(srcNode, dstNode, salt * 2 + 1, rb2);
        if (hops2 !== hops || !sameChannels(rb.channels, rb2.channels, hops)) parts = 2;
      }
      const lat = pathLatency(rb, hops) + extra;
      mLat[m] = lat;
      if (bytes === 0 || (hops === 0 && !useInj && !useEj)) {
        deliverAt(m, now + lat);
        continue;
      }
      if (parts === 1) {
        resBuf.length = 0;
        const minBw = collect(rb, hops, srcRank, d, s, true);
        startFlow(resBuf, resBuf.length, bytes, m, s, op, minBw);
      } else {
        resBuf.length = 0;
        let minBw = collect(rb, hops, srcRank, d, s, true);
        startFlow(resBuf, resBuf.length, bytes / 2, m, s, op, minBw);
        resBuf.length = 0;
        minBw = collect(rb2, hops2, srcRank, d, s, true);
        mParts[m] = -1; // two flows, one delivery: the first delivery only counts down
        startFlow(resBuf, resBuf.length, bytes / 2, m, s, op, minBw);
        mLat[m] = Math.max(lat, pathLatency(rb2, hops2) + extra);
      }
    }
  };

  const completeOp = (s: number, op: number, time: number, pred: number): void => {
    if (Number.isNaN(opStartT[op])) opStartT[op] = time;
    opEndT[op] = time;
    opPred[op] = pred;
    lastOp[s] = op;
    pc[s]++;
  };

  /** Cost of a barrier or combining collective; `bytes` is the largest contribution (non-participants send identities of that length). */
  const keyCost = (op: number, bytes: number): number => {
    const k = opPeer[op];
    const p = keyRanks[k];
    const levels = p > 1 ? Math.ceil(Math.log2(p)) : 0;
    if (opKind[op] === FlowOp.Barrier) return model.barrierStageLatency * levels;
    return 2 * levels * model.hwLevelLatency + bytes / model.hwBandwidth;
  };

  const runStream = (s: number): void => {
    const end = streamOpStart[s + 1];
    while (state[s] === S_READY) {
      const op = pc[s];
      if (op === end) {
        if (outstanding[s] > 0) {
          state[s] = S_FENCE;
          return;
        }
        state[s] = S_DONE;
        streamFinish[s] = now;
        return;
      }
      if (Number.isNaN(opStartT[op])) opStartT[op] = now;
      switch (opKind[op]) {
        case FlowOp.Send:
          if (model.alpha > 0) {
            state[s] = S_BUSY;
            queue.push(now + model.alpha, E_SEND, s);
            return;
          }
          postSend(s, op);
          completeOp(s, op, now, lastOp[s]);
          break;
        case FlowOp.Recv: {
          const key = matchKey(opPeer[op], program.streamRank[s], opTag[op]);
          if (matches.takeArrival(key)) {
            completeOp(s, op, now, matches.time >= opStartT[op] ? matches.op : lastOp[s]);
            break;
          }
          matches.addWaiting(key, s);
          state[s] = S_RECV;
          return;
        }
        case FlowOp.Reduce:
        case FlowOp.Copy: {
          const cost = opBytes[op] * (opKind[op] === FlowOp.Reduce ? model.gammaReduce : model.gammaCopy);
          if (cost > 0) {
            state[s] = S_BUSY;
            resumePred[s] = lastOp[s];
            queue.push(now + cost, E_RESUME, s);
            return;
          }
          completeOp(s, op, now, lastOp[s]);
          break;
        }
        case FlowOp.Pace:
          gap[s] = opBytes[op];
          completeOp(s, op, now, lastOp[s]);
          break;
        case FlowOp.Barrier:
        case FlowOp.HwCollective: {
          // A barrier first waits for this stream's own sends to leave (local completion).
          if (outstanding[s] > 0) {
            state[s] = S_FENCE;
            return;
          }
          const k = opPeer[op];
          keyArrived[k]++;
          keyLast[k] = op;
          state[s] = S_BARRIER;
          keyWaiting[k].push(s);
          if (keyArrived[k] === keyExpected[k]) {
            let bytes = 0;
            for (const w of keyWaiting[k]) bytes = Math.max(bytes, opBytes[pc[w]]);
            const release = now + keyCost(op, bytes);
            for (const w of keyWaiting[k]) {
              // The last arrival chains to its own previous op; everyone else waited for it.
              resumePred[w] = w === s ? lastOp[s] : op;
              queue.push(release, E_RESUME, w);
            }
            keyWaiting[k] = [];
            keyArrived[k] = 0;
          }
          return;
        }
        default:
          throw new Error(`unknown operation kind ${opKind[op]}`);
      }
    }
  };

  const deliver = (m: number): void => {
    if (mParts[m] === -1) {
      // First half of a split flow: wait for the other half.
      mParts[m] = 0;
      return;
    }
    const src = mSrc[m];
    const dst = mDst[m];
    const key = matchKey(src, dst, mTag[m]);
    const s = matches.takeWaiting(key);
    if (s >= 0) {
      state[s] = S_READY;
      completeOp(s, pc[s], now, mOp[m]);
      runStream(s);
    } else matches.addArrival(key, now, mOp[m]);
    mNext[m] = mFree;
    mFree = m;
  };

  const finishFlow = (f: number): void => {
    // Remove from the active list (swap with last).
    const pos = fActivePos[f];
    const last = active[--nActive];
    active[pos] = last;
    fActivePos[last] = pos;
    const st = fStart[f];
    const bytes = fBytes[f];
    totalBytes += bytes;
    for (let p = st; p < st + fLen[f]; p++) {
      const r = arena[p];
      if (r < C) chBytes[r] += bytes;
    }
    liveEntries -= fLen[f];
    if (local) {
      for (let p = st; p < st + fLen[f]; p++) {
        listRemove(p);
        resRate[arena[p]] -= fRate[f];
      }
      totalRate -= fRate[f];
    }
    for (let m = fMsg[f]; m >= 0; ) {
      const next = mNext[m];
      queue.push(now + mLat[m], E_DELIVER, m);
      m = next;
    }
    const s = fStream[f];
    outstanding[s]--;
    lastSend[s] = fOp[f];
    if (outstanding[s] === 0 && state[s] === S_FENCE) {
      state[s] = S_READY;
      runStream(s);
    }
    fNextFree[f] = fFree;
    fFree = f;
    dirty = true;
  };

  // ---- main loop
  for (let s = 0; s < S; s++) runStream(s);
  let lastT = 0;
  let nextFinish = Infinity;
  const finishing: number[] = [];
  const eps = model.simultaneity;
  let opsDoneHint = 0;
  // Local update scratch: flows re-rated this time (stamped), and what the others leave per resource.
  let stamp = new Int32Array(fCap);
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
      solver.solve(active, nActive, fStart, fLen, arena, fMaxRate, fRate, capacity, fWeight);
      nextFinish = Infinity;
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        const r = fRate[f];
        total += r;
        const fin = r > 0 ? now + fRem[f] / r : Infinity;
        fFinish[f] = fin;
        if (fin < nextFinish) nextFinish = fin;
      }
    }
    rateTime.push(now);
    rateValue.push(total);
    if (trace && perClass) {
      perClass.fill(0);
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        for (let p = fStart[f]; p < fStart[f] + fLen[f]; p++) if (arena[p] < C) perClass[t.chClass[arena[p]]] += fRate[f];
      }
      trace.rates(now, perClass);
      if (perChannel && trace.channelRates) {
        perChannel.fill(0);
        for (let a = 0; a < nActive; a++) {
          const f = active[a];
          for (let p = fStart[f]; p < fStart[f] + fLen[f]; p++) if (arena[p] < C) perChannel[arena[p]] += fRate[f];
        }
        trace.channelRates(now, perChannel);
      }
    }
    dirty = false;
  };
  /** Re-rates only the flows crossing a resource that a started or finished flow touched. */
  const recomputeLocal = (): void => {
    const mark = ++epoch;
    if (stamp.length < fCap) stamp = resized(stamp, fCap);
    // The engine's growable columns are closure variables that V8 reloads on every access; the hot
    // loops below read them through locals instead.
    const st = stamp;
    const owner = arenaOwner;
    const path = arena;
    const start = fStart;
    const len = fLen;
    const rate = fRate;
    const remBytes = fRem;
    const since = fT;
    const finish = fFinish;
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
    filler.solve(affected, nA, start, len, path, fMaxRate, rate, touched, nTouched, avail, resAffected, resOnly, resList, resCount, owner, st, mark, resRate);
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
      for (let a = 0; a < nActive; a++) {
        const f = active[a];
        fRem[f] -= fRate[f] * dt;
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
          fFinish[f] = NaN; // collected
          finishing.push(f);
          finishQueue.pop();
        }
      } else for (let a = 0; a < nActive; a++) if (fFinish[active[a]] <= horizon) finishing.push(active[a]);
      // Deterministic order: by flow id.
      finishing.sort((x, y) => x - y);
      for (const f of finishing) finishFlow(f);
      nextFinish = Infinity;
      if (!dirty) {
        if (local) nextFinish = peekFinish();
        else for (let a = 0; a < nActive; a++) nextFinish = Math.min(nextFinish, fFinish[active[a]]);
      }
    }
    while (queue.peekTime() <= horizon) {
      const kind = queue.peekKind();
      const arg = queue.peekArg();
      queue.pop();
      if (kind === E_DELIVER) deliver(arg);
      else if (kind === E_SEND) {
        const s = arg;
        const op = pc[s];
        postSend(s, op);
        state[s] = S_READY;
        completeOp(s, op, now, lastOp[s]);
        runStream(s);
      } else {
        const s = arg;
        state[s] = S_READY;
        completeOp(s, pc[s], now, resumePred[s]);
        runStream(s);
      }
    }
    if (dirty) recompute();
    if (opts.progress && batches % 4096 === 0) {
      let done = 0;
      for (let s = 0; s < S; s++) done += pc[s] - streamOpStart[s];
      if (done !== opsDoneHint) opts.progress(done / Math.max(1, nOps));
      opsDoneHint = done;
    }
  }

  // ---- deadlock and unmatched-message checks
  for (let s = 0; s < S; s++) {
    if (state[s] !== S_DONE) {
      const op = pc[s];
      const rank = program.streamRank[s];
      const what =
        state[s] === S_RECV
          ? `recv from rank ${opPeer[op]} tag ${opTag[op]} never matched`
          : state[s] === S_BARRIER
            ? `${FLOW_OP_NAMES[opKind[op]]} "${program.keyNames[opPeer[op]]}" never completed (${keyArrived[opPeer[op]]} of ${keyExpected[opPeer[op]]} streams arrived)`
            : 'stream never finished';
      throw new InputError('schedule', `deadlock at rank ${rank} stream ${program.streamLocal[s]} op ${op - streamOpStart[s]}`, `a schedule whose every operation completes (${what})`);
    }
  }
  const unreceived = matches.firstUnreceived();
  if (unreceived >= 0) {
    const pair = Math.floor(unreceived / nTags);
    throw new InputError('schedule', `message from rank ${Math.floor(pair / R)} to rank ${pair % R} never received`, 'a schedule whose every message is received');
  }

  let makespan = 0;
  const rankFinish = new Float64Array(R);
  for (let s = 0; s < S; s++) {
    const r = program.streamRank[s];
    rankFinish[r] = Math.max(rankFinish[r], streamFinish[s]);
    makespan = Math.max(makespan, streamFinish[s]);
  }
  return {
    makespan,
    model,
    rankFinish,
    channelBytes: chBytes,
    opStart: opStartT,
    opEnd: opEndT,
    opPred,
    rateTime: rateTime.view(),
    rateValue: rateValue.view(),
    stats: { messages, flows: flowsCreated, bytes: totalBytes, events: queue.pushed, rateUpdates: solver.solves + filler.solves, batches, solverWork: solver.work + filler.work },
  };
}

function sameChannels(a: Int32Array, b: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

