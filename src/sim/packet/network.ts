/**
 * The cycle-driven packet-level network: input-queued virtual-channel routers with credit-based
 * flow control, modelled as BookSim's `iq` router pipeline (route computation, VC allocation,
 * switch allocation, switch traversal), wormhole or virtual cut-through switching.
 *
 * Hand-written over struct-of-arrays state (typed arrays indexed by packet, port-VC and router) with
 * no per-flit objects and no closures per event: a flit is just (packet id, sequence number) in a
 * VC ring buffer, and a flit in flight on a channel is already in the downstream buffer with the
 * cycle it becomes visible. This keeps the hot loop allocation-free (see bench/packet.bench.mjs).
 *
 * Port numbering (global): channel c is both output port c of its source router and input port c
 * of its destination router, so the upstream output VC and the downstream input VC share the id
 * c·V + v (credits live there). Injection ports follow at C + node·nInj + j, ejection ports at
 * C + N·nInj + node·nEj + j.
 *
 * Timing (all stage delays 1, as BookSim's defaults): a head visible at a router in cycle a is
 * routed in a, VC-allocated in a+1, switch-allocated in a+2 and visible downstream in
 * a + 2 + swAllocDelay + stDelay + latency. A packet created in cycle g enters the injection channel
 * in g+1 at the earliest. Zero-load latency: 7 + h·(4 + L) + (P − 1) cycles for h channel hops,
 * which is what BookSim 2.0 gives (measured at injection rate 0.005 on torus88 and mesh88).
 */
import { NodeKind, type Topology } from '../../topology/graph.js';
import { familyOf, fatpipeChannels } from '../../topology/registry.js';
import type { RouteContext, RoutingFunction } from '../../routing/types.js';
import type { NodeRouteHint } from '../../routing/hints.js';
import { isHopByHop, type HopByHopRouting } from '../../routing/dal.js';
import { isCandidateRouting, makeHopCandidates, type CandidateRouting, type HopCandidates } from '../../routing/min-adapt.js';
import { ANY_VC_CLASS, makeRouteBuffers, refusePartialRoutes } from '../../routing/types.js';
import { checkPacketNetworkSize, type PacketNetworkShape } from './limits.js';
import { hash32, type RandomStream } from '../../util/rng.js';
import { getAllocator, getArbiter, type Allocator, type ArbiterDef, type PriorityValue } from './allocators/index.js';
import { perClass, type PacketConfig } from './config.js';
import { DeadlockError, findWaitCycle } from './deadlock.js';
import type { TrafficSource } from '../traffic/sources.js';
import { resized } from '../../util/typed-arrays.js';
import { InternalStepClock } from './internal-steps.js';
import { AllocationQueueOrder } from './queue-order.js';
import { laneGeometry, portLanes, type PortLanes } from './port-lanes.js';
import { InputError } from '../../util/errors.js';

const IDLE = 0;
const VC_ALLOC = 1;
const ACTIVE = 2;
/** A buffered flit's record in `buf`: its packet, sequence number, ready cycle and injection cycle. */
const FLIT = 4;
const F_PKT = 0;
const F_SEQ = 1;
const F_READY = 2;
const F_ITIME = 3;

/** ArbiterDef.reads as small integers for the hot loop's switch. */
const PRIORITY_CREATED = 0;
const PRIORITY_INJECTED = 1;
const PRIORITY_ARRIVED = 2;
const PRIORITY_HOPS = 3;
const PRIORITY_QUEUE = 4;
const PRIORITY_SEQUENCE = 5;
const PRIORITY_CODES: Readonly<Record<PriorityValue, number>> = {
  created: PRIORITY_CREATED,
  injected: PRIORITY_INJECTED,
  arrived: PRIORITY_ARRIVED,
  hops: PRIORITY_HOPS,
  'queue-length': PRIORITY_QUEUE,
  sequence: PRIORITY_SEQUENCE,
};
/**
 * What a packet outside the statistics window adds to the extremes. Module constants, not
 * `Infinity` / `-Infinity` in place: those are a global load and a negation, operations V8 collects
 * type feedback for, and the first packet outside the window (after the warm-up) would reach them
 * only after V8 optimised eject, throwing its optimised code away (a recompile mid-run).
 */
const NO_LOW = Infinity;
const NO_HIGH = -Infinity;
/** Ints per unread flit: read cycle, destination, flit itime, ctime, tail, packet itime, head atime, size, hops, recorded. */
const UNREAD_FIELDS = 10;

/** Statistics accumulated since the last `clearStats()`, read by the measurement drivers. */
export class PacketStats {
  /** Recorded packets retired: count and sums. */
  packets = 0;
  latencySum = 0;
  networkLatencySum = 0;
  hopsSum = 0;
  /** Flits ejected (all packets) since the reset. */
  acceptedFlits = 0;
  resetCycle = 0;
  /** Extremes of the recorded packets' latencies (BookSim's Stats Min/Max); ±Infinity before any. */
  latencyMin = Infinity;
  latencyMax = -Infinity;
  networkLatencyMin = Infinity;
  networkLatencyMax = -Infinity;
  /** Every ejected flit's latency from its own injection (BookSim's flit latency, f->atime − f->itime). */
  flitLatencySum = 0;
  flitLatencyMin = Infinity;
  flitLatencyMax = -Infinity;
  /** Recorded packets' fragmentation: cycles between head and tail ejection beyond size − 1. */
  fragmentationSum = 0;
  fragmentationMin = Infinity;
  fragmentationMax = -Infinity;
  /** Per terminal (rank): flits and packets injected into, and accepted from, the network since the reset. */
  readonly sentFlits: Int32Array;
  readonly sentPackets: Int32Array;
  readonly acceptedFlitsBy: Int32Array;
  readonly acceptedPacketsBy: Int32Array;

  constructor(terminals = 0) {
    this.sentFlits = new Int32Array(terminals);
    this.sentPackets = new Int32Array(terminals);
    this.acceptedFlitsBy = new Int32Array(terminals);
    this.acceptedPacketsBy = new Int32Array(terminals);
  }
}

/**
 * One of BookSim's IQRouter stage deques with a delay of `delay` ≥ 2 cycles (the routing deque,
 * `_RouteEvaluate`; the crossbar's, `_SwitchEvaluate`): an evaluate stamps the entries waiting in
 * router r's deque (done at the end of cycle stamp + delay − 1) only while its front is not still
 * in the stage, so entries move in batches. An entry that can first be stamped in cycle `ready`
 * joins the batch stamped then or later (starts[r] ≥ ready), else opens the next one once the last
 * is done. Returns the last cycle of its batch; starts/ends keep router r's latest batch.
 */
function batchDone(starts: Int32Array, ends: Int32Array, r: number, ready: number, delay: number): number {
  if (ready <= starts[r]) return ends[r];
  const start = Math.max(ready, ends[r] + 1);
  starts[r] = start;
  return (ends[r] = start + delay - 1);
}

export class PacketNetwork {
  readonly topology: Topology;
  readonly routing: RoutingFunction;
  readonly cfg: PacketConfig;
  readonly numNodes: number;
  readonly numChannels: number;
  now = 0;
  stats: PacketStats;
  /** Flits moved over each channel since construction (utilisation = chFlits / cycles). */
  readonly chFlits: Float64Array;
  /** Flits in router input buffers (network), and packets generated but not retired. */
  flitsInNetwork = 0;
  /** Σ over generated-but-unretired flits of their packet's creation cycle, and their count (BookSim's in-flight ages). */
  outstandingFlits = 0;
  outstandingCtimeSum = 0;
  /** Recorded packets not yet retired (drain condition). */
  recordedOutstanding = 0;
  /** Whether newly generated packets are recorded in the statistics. */
  recording = true;
  /**
   * Packets created before this cycle are recorded even when `recording` is off: BookSim records
   * the back-dated packets a backlogged source generates during the drain if they were due before
   * the drain began (trafficmanager.cpp, _GeneratePacket: time < _drain_time). Negative: none
   * (see the constructor for why it starts at -2).
   */
  recordCreatedBefore = -2;
  /** Flits injected from this cycle on are not counted as sent (BookSim counts them while warming up and running, not in the drain). */
  sentCountedBefore = Number.MAX_SAFE_INTEGER;
  /**
   * 1 while BookSim would be warming up: every retired packet enters the statistics, recorded or not
   * (trafficmanager.cpp _RetireFlit: `if ( ( _sim_state == warming_up ) || f->record )`), so the
   * warm-up samples' latency and the latency_thres check see the packets retired in the warm-up.
   */
  countUnrecorded = 0;
  /** Retired packets of the current cycle (for closed-loop drivers): ids are recycled next cycle. */
  retiredCount = 0;
  retiredSrc: Int32Array;
  retiredDst: Int32Array;
  retiredTag: Int32Array;
  retiredCycle: Int32Array;
  lastMoveCycle = 0;
  /** Cycles without a move that mean deadlock: cfg.deadlockCycles, or a long channel's credit round trip. */
  private readonly stallLimit: number;
  /** Tags of the packets that left their source queue in the last step (one per injection port at most). */
  dequeuedCount = 0;
  dequeuedTag: Int32Array = new Int32Array(0);
  /** Flits that entered the network from injection ports since construction. */
  injectedFlits = 0;

  // --- configuration resolved to flat values
  private readonly V: number;
  private readonly depth: number;
  private readonly nInj: number;
  /** Source queues per injection port: 1, or the largest out-degree with per-link injection. */
  private readonly linkQueues: number;
  /** Ejection sinks per ejection port: 1, or the largest in-degree with per-link ejection. */
  private readonly linkSinks: number;
  private readonly endpoints: Int32Array;
  private readonly nEj: number;
  private readonly injBase: number;
  private readonly ejBase: number;
  private readonly vct: boolean;
  private readonly chLat: Int32Array;
  /** Cycles per flit of each channel; fractional on a topology of mixed rates (chNextFree keeps the fraction). */
  private readonly chSer: Float64Array;
  /** BookSim `internal_speedup` S: the internal steps (ticks) of each cycle, as BookSim counts them. */
  private readonly clock: InternalStepClock;
  /** S ≠ 1: flits leave through per-output FIFO buffers, one per cycle (BookSim's output queues). */
  private readonly outputQueued: boolean;
  /**
   * BookSim `output_speedup` S: the switch allocator sees S columns per output, input i requesting
   * column i mod S (iq_router.cpp `expanded_output`), so an output takes up to S flits a cycle into
   * its output buffer.
   */
  private readonly outSpeedup: number;
  /** Under output queueing: the first cycle each input port's credit channel is free (one credit per cycle). */
  private readonly creditFreeAt: Int32Array;
  private readonly classSize: number;
  private readonly routingDelay: number;
  private readonly vcAllocDelay: number;
  private readonly allocIters: number;
  private readonly swAllocIters: number;
  private readonly pipe: number;
  /** Cycles from a switch grant until the freed slot's credit starts upstream (creditDelay, +1 for `next-cycle`). */
  private readonly creditDelay: number;
  /** The same for an injection port's credits, read by the source: no creditDelay (see the constructor). */
  private readonly sourceCreditDelay: number;
  /** Downstream credits VC allocation requires under wormhole: 1 (`free-with-credit`) or 0 (`free`). */
  private readonly vcAllocCredit: number;
  /** Injection VC drawn at random each cycle (`injectionVc: random`) instead of round-robin. */
  private readonly injRandom: boolean;
  /** Ejection VCs hold `depth` credits each, returned by the terminal on reading (`ejectionCredits: terminal`). */
  private readonly ejCredits: boolean;
  /**
   * Router holding each node's injection ports: the node itself, or for a terminal under `terminals:
   * direct` the switch its link leads to. `attachSlot` numbers the direct terminals whose ejection
   * ports a switch holds (the switch its link comes from: the same one, or on a BookSim fly the last stage).
   */
  private readonly attach: Int32Array;
  private readonly attachSlot: Int32Array;
  /**
   * Per node, 1 for a terminal run `terminals: direct`: its ports sit on its switch, its link is not
   * a hop, and of that link's latency only the injection (ejection) latency is paid.
   */
  readonly direct: Uint8Array;
  private readonly injLatency: number;
  private readonly ejLatency: number;
  private readonly chSrcPort: Int32Array;
  /**
   * Each channel's local index among its source router's outputs (allocator output order): the
   * topology's port, or BookSim's port number where the `booksim` preset orders ports as BookSim does.
   */
  private readonly chOutLocal: Int32Array;
  private readonly chDst: Int32Array;
  /**
   * Non-empty input VCs per router as a bit set, so a router step visits only VCs holding flits
   * (scanning every port and VC was the largest part of its time). Router r's set is words
   * r·maskWords …; input VC (local port li, VC v) is bit (li << vcShift) | v, so bits ascend in the
   * order the step visits VCs. `ivcMaskWord`/`ivcMaskBit` locate each input VC's bit.
   */
  private readonly maskWords: number;
  private readonly vcShift: number;
  private readonly rMask: Int32Array;
  private readonly ivcMaskWord: Int32Array;
  private readonly ivcMaskBit: Int32Array;
  /**
   * Input VCs whose front flit becomes visible in a later cycle (slot = cycle mod arrivalSize), to
   * join their router's set then. A flit further ahead than the wheel, or in a full slot, joins at
   * once: the set may hold VCs whose front is not yet visible (the step checks frontReady), never
   * miss one that is.
   */
  private readonly arrivalSize: number;
  private readonly arrivalCap: number;
  private readonly arrivalIds: Int32Array;
  private readonly arrivalCount: Int32Array;

  // --- routers
  private readonly rInStart: Int32Array;
  private readonly rInPorts: Int32Array;
  private readonly rOutStart: Int32Array;
  private readonly rOutDeg: Int32Array;
  private readonly vaGrantPtr: Int32Array;
  private readonly vaAcceptPtr: Int32Array;
  private readonly saGrantPtr: Int32Array;
  private readonly saAcceptPtr: Int32Array;
  /** Switch allocation's round-robin VC pointer per crossbar input (input port · inSpeedup + residue). */
  private readonly saVcPtr: Int32Array;
  /**
   * Each input port's number at its router for output speedup's column (input mod S): its local
   * index, or BookSim's port number under `portOrder: booksim` (ports a mesh edge router lacks still count there).
   */
  private readonly inPortLane: Int32Array;
  /**
   * BookSim `input_speedup` S: each input port has S crossbar inputs, VC v on input v mod S
   * (iq_router.cpp `expanded_input`), so up to S of its VCs cross in one cycle, each to its own output.
   */
  private readonly inSpeedup: number;

  // --- input VCs (channels and injection ports), indexed port·V + v
  private readonly ivcHead: Int32Array;
  readonly ivcCount: Int32Array;
  readonly ivcState: Uint8Array;
  private readonly ivcTime: Int32Array;
  readonly ivcOut: Int32Array;
  private readonly ivcOutLocal: Int32Array;
  private readonly ivcLo: Int32Array;
  private readonly ivcHi: Int32Array;
  readonly ivcOvc: Int32Array;
  /**
   * The VC ring buffers' flits, slot b (= ivc·depth + position) at b·FLIT: packet, sequence number,
   * cycle it becomes visible, cycle it left its source (BookSim's per-flit itime, for flit latency).
   * One record per flit, not one array per field: the crossbar reads them together, and on large
   * networks four arrays were four cache misses.
   */
  private readonly buf: Int32Array;
  /** Ready cycle of the front flit of each VC (dense copy of the head flit's, fewer cache misses). */
  private readonly frontReady: Int32Array;

  // --- output VCs (all ports), indexed port·V + v
  readonly ovcOwner: Int32Array;
  readonly credits: Int32Array;
  private readonly chFreeAt: Int32Array;
  /**
   * BookSim's crossbar with st_final_delay ≥ 2 (crossingBatch): per router, the cycles its latest
   * batch of flits was stamped and completes; per output port, the cycle its output buffer last sent.
   */
  private readonly batchStart: Int32Array;
  private readonly batchEnd: Int32Array;
  private readonly outLastSent: Int32Array;
  /** The same for route computations when routing_delay ≥ 2 (routedTick): per router, its latest batch's first and last cycle. */
  private readonly routeBatchStart: Int32Array;
  private readonly routeBatchEnd: Int32Array;
  /** Per output port, when it is free to the fraction of a cycle (chFreeAt is its whole cycle). */
  private readonly chNextFree: Float64Array;

  // --- credit wheel
  private readonly wheelSize: number;
  private readonly wheelCap: number;
  private readonly wheelIds: Int32Array;
  private readonly wheelCount: Int32Array;

  // --- injection (terminal side), per injection port
  private readonly injPkt: Int32Array;
  private readonly injSeq: Int32Array;
  private readonly injVc: Int32Array;
  private readonly injVcPtr: Int32Array;
  /**
   * An injection VC drawn ahead from BookSim's stream, or −1 (drawInjectionVcs): BookSim draws a
   * waiting head's VC before its routers step in the same cycle, the engine injects at the next step.
   */
  private readonly injVcDrawn: Int32Array;
  private readonly qHead: Int32Array;
  private readonly qTail: Int32Array;
  readonly queuedPackets: Int32Array;

  // --- packets (pool with free list, grows by doubling)
  private cap = 0;
  private freeTop = 0;
  private free = new Int32Array(0);
  pSrc = new Int32Array(0);
  /**
   * Ejected flits their terminal has not read yet, UNREAD_FIELDS ints each, from unreadHead to
   * unreadEnd in a ring of a power-of-two size. The engine ejects a flit as it leaves the crossbar;
   * BookSim retires it, and counts it in its statistics, in the cycle its terminal reads it, so the
   * statistics take each entry at the end of that cycle's step (retireReadFlits).
   */
  private unread = new Int32Array(UNREAD_FIELDS * 1024);
  private unreadHead = 0;
  private unreadEnd = 0;
  /** Flits ejected but not read yet, and the sum of their packets' creation cycles. */
  private unreadFlits = 0;
  private unreadCtimeSum = 0;
  /** Whether a flit can be read before one ejected ahead of it (output queues, batched crossings). */
  private readonly unorderedReads: boolean;
  pDst = new Int32Array(0);
  pSize = new Int32Array(0);
  pCtime = new Int32Array(0);
  private pItime = new Int32Array(0);
  /** Cycle the packet's head was ejected (fragmentation). */
  private pHeadAtime = new Int32Array(0);
  private pHop = new Int32Array(0);
  /** Per packet: its number among its source's packets (BookSim's _packet_seq_no, priority = sequence). */
  private pSourceSeq = new Int32Array(0);
  /** Per rank: packets it has created so far. */
  private readonly sourceSeq: Int32Array;
  private pLen = new Int32Array(0);
  private pRecord = new Uint8Array(0);
  private pNext = new Int32Array(0);
  pTag = new Int32Array(0);
  private pLeft = new Int32Array(0);
  private pRoute = new Int32Array(0);
  private pClass = new Uint8Array(0);
  /** VC class at the ejection port: a direct terminal's link class, or ANY_VC_CLASS. */
  private pEjClass = new Uint8Array(0);
  private pSalt = new Int32Array(0);
  /** The route hint of each packet: an index into `hints`, or -1. */
  private pHint = new Int32Array(0);
  /** The route hints packets may carry (the schedule's), read into `routeCtx.hint` as a packet is routed. */
  private readonly hints: readonly (NodeRouteHint | undefined)[];
  /** What the routing is told when it routes a packet: credits in use (RouteContext.load) and the packet's hint. */
  private readonly routeCtx: RouteContext;
  /** The routing chooses from network state (UGAL): routes are computed as packets leave the source queue. */
  private readonly adaptive: boolean;
  /** An adaptive routing decides as the packet leaves its source queue, else at its first router's route stage. */
  private readonly routeAtInjection: boolean;
  /** A routing that re-chooses the rest of the path at every router it reaches (DAL), or null. */
  private readonly hopByHop: HopByHopRouting | null;
  /**
   * A routing that gives each head several (channel, VC range, priority) candidates for VC
   * allocation to choose among (BookSim's min_adapt), or null. The first candidate lives in
   * ivcOut/ivcOutLocal/ivcLo/ivcHi as any route does; the second in the `…2` arrays (ivcOut2 −1:
   * none); their priorities in ivcPri/ivcPri2. Empty arrays for every other routing.
   */
  private readonly candidateRouting: CandidateRouting | null;
  private readonly hopCandidates: HopCandidates = makeHopCandidates();
  private readonly ivcOut2: Int32Array;
  private readonly ivcOutLocal2: Int32Array;
  private readonly ivcLo2: Int32Array;
  private readonly ivcHi2: Int32Array;
  private readonly ivcPri: Int32Array;
  private readonly ivcPri2: Int32Array;
  private readonly maxHops: number;
  private readonly routeBuf;
  private serial = 0;

  // --- allocator scratch
  private readonly va: Allocator;
  private readonly sa: Allocator;
  /**
   * BookSim's allocation-queue order (queue-order.ts), kept under output speedup (an output's FIFO
   * takes a step's flits in switch-queue order, not by input port) and where the routing draws as
   * heads turn (they are routed in queue order); null otherwise.
   */
  private queueOrder: AllocationQueueOrder | null;
  /** The routing draws as heads turn (drawAtTurn) and the engine draws from the run's stream. */
  private turnDraws = false;
  /**
   * The routing draws from BookSim's stream itself (drawsFromStream): each router's heads are routed
   * at the start of its step, in BookSim's order (drawTurns), and the scan takes their routes.
   */
  private preRoute = false;
  /**
   * The injection ports in the order the sources inject, where it is not the nodes' (drawFrom): BookSim
   * steps its sources by terminal id, the rank, and they draw as they inject (injection VCs, routes).
   */
  private injOrder: Int32Array | null = null;
  /** True while the sources inject and route at injection: loads are read from loadsAtInjection. */
  private injecting = false;
  private loadsAtInjection: Int32Array | null = null;
  private nextLoadsAtInjection: Int32Array | null = null;
  /** Lookahead draws waiting for the next step: (router, packet) pairs (deferTurnDraw). */
  private deferred = new Int32Array(32);
  private deferredDraws = 0;
  /** The order routers step in each cycle (drawFrom: BookSim's), or null for node order. */
  private stepOrder: Int32Array | null = null;
  /** A router step's heads to route, and their places in BookSim's routing queue (scratch). */
  private routeIvcs = new Int32Array(16);
  private routeRanks = new Float64Array(16);
  /** A step's switch grants (request indices), in the order they cross. */
  private readonly grantOrder: Int32Array;
  /** The allocator moves its state on a call without requests: call it whenever a VC waits in its stage (Allocator.allocatesWhenIdle). */
  private vaWhenIdle: boolean;
  private saWhenIdle: boolean;
  /** The run's random stream, when the engine draws from it too (drawFrom: BookSim's), else null. */
  private shared: RandomStream | null = null;
  /** The configured arbiter's priority key (lower wins). */
  private readonly arbKey: ArbiterDef['key'];
  /** Whether the key reads a priority value of the requesting VC (age and the like), else 0 is passed. */
  private readonly arbReadsCreated: boolean;
  /** Which value (ArbiterDef.reads), as a PRIORITY_* code. */
  private readonly arbReads: number;
  /** Per input VC: the routers its front packet had crossed when its head was routed here (priority = hop_count). */
  private readonly ivcHops: Int32Array;
  /**
   * The same for the keys the VC and switch allocators match by: false for an allocator that grants
   * round-robin whatever the priority (BookSim's iSLIP), whose keys then carry the round-robin order
   * only; the VC an input puts forward for the switch is still picked by the full key.
   */
  private readonly vaReadsCreated: boolean;
  /**
   * BookSim's vc_prioritize_empty: a VC request's input priority drops by 2^31 when its output VC
   * still holds flits downstream (iq_router.cpp _VCAllocEvaluate adds INT_MIN), so allocators that
   * read input priorities (separable, wavefront, select) prefer empty VCs; iSLIP, PIM, LOA and
   * max_size never read them, in BookSim as here.
   */
  private readonly vaPrioritizeEmpty: boolean;
  /**
   * BookSim's hold_switch_for_packet: a VC granted the switch for a body flit keeps its input and
   * output while its next flit is already in the buffer, sending it the next cycle without
   * allocation (iq_router.cpp _SWHoldEvaluate / _SWHoldUpdate). holdIn: per input port, the VC
   * holding it (-1: none); holdOut: per router output (rOutStart-based), the input port holding it.
   */
  private readonly hold: boolean;
  private readonly holdIn: Int32Array;
  private readonly holdOut: Int32Array;
  /** This router step's held VCs to send after switch allocation, and those to let go. */
  private readonly heldSends: Int32Array;
  private readonly heldReleases: Int32Array;
  /** BookSim's vc_shuffle_requests: VC requesters numbered VC-major (vc·inputs + input), which reorders round-robin among them. */
  private readonly vaShuffle: boolean;
  /** BookSim's vc_priority_donation: a VC's priority is its best flit's, not its front flit's (not under local_age or queue_length). */
  private readonly priorityDonation: boolean;
  private readonly saReadsCreated: boolean;
  private readonly saOutTouched: Int32Array;
  private readonly saBestKey: Float64Array;
  private readonly saBestVc: Int32Array;

  /**
   * `hints`: route hints by message tag (schedule runs); `vcsPerClass`: VCs each routing class may
   * take on router-to-router channels. Default V / classes (every VC in use); 1 is BookSim's
   * dragonflynew routings (`out_vc = ph`): class c takes VC c only, and VCs above the classes serve
   * the injection port alone.
   */
  /**
   * `channelLatency`: cycles per channel, overriding `cfg.channelLatency` (per class) where a class's
   * channels differ in latency (a schedule run on a file graph takes each channel's own).
   * `channelSlowdown`: per channel, the factor (≥ 1, fractional) its serialization is multiplied
   * by: on a topology of mixed rates the cycle is a flit time of the fastest channel and a channel
   * of rate b takes fastest / b cycles per flit (on average: a fraction carries to the next flit).
   */
  constructor(topology: Topology, routing: RoutingFunction, cfg: PacketConfig, hints: readonly (NodeRouteHint | undefined)[] = [], vcsPerClass?: number, channelLatency?: Int32Array, channelSlowdown?: Float64Array) {
    refusePartialRoutes(routing, 'packet');
    this.topology = topology;
    this.routing = routing;
    this.cfg = cfg;
    this.stats = new PacketStats(topology.numEndpoints);
    // Reassigned (both values mean none): V8 treats a field never reassigned as a constant in
    // optimised code, and the drain's first write would throw enqueue's optimised code away mid-run.
    this.recordCreatedBefore = -1;
    this.hints = hints;
    this.routeCtx = { load: (c: number) => (this.injecting ? this.loadsAtInjection![c] : this.usedCredits(c)), hint: undefined };
    const N = topology.numNodes;
    const C = topology.numChannels;
    // Every front end builds its packet network here: refuse one too large before allocating it.
    checkPacketNetworkSize(packetShape(topology, routing, cfg), topology.spec);
    const shared = familyOf(topology)?.sharedCapacities?.(topology);
    if (shared) throw new InputError('engine', 'packet', `the flow engine for ${topology.spec}: its ${shared.what} are capacities several channels share, which packet channels do not model`);
    if (fatpipeChannels(topology)) throw new InputError('engine', 'packet', `the flow engine for ${topology.spec}: its FATPIPE links carry every flow at once, each at most at the link's bandwidth, which a packet channel does not model`);
    this.numNodes = N;
    this.numChannels = C;
    const V = (this.V = cfg.vcs);
    this.depth = cfg.vcBuf;
    let maxOutDeg = 1;
    for (let r = 0; r < N; r++) maxOutDeg = Math.max(maxOutDeg, topology.outDegree(r));
    this.linkQueues = cfg.perLinkInjection ? maxOutDeg : 1;
    this.nInj = cfg.injectionPorts * this.linkQueues;
    this.endpoints = topology.endpoints;
    let maxInDeg = 1;
    for (let r = 0; r < N; r++) maxInDeg = Math.max(maxInDeg, topology.inDegree(r));
    this.linkSinks = cfg.perLinkEjection ? maxInDeg : 1;
    this.nEj = cfg.ejectionPorts * this.linkSinks;
    this.injBase = C;
    this.ejBase = C + N * this.nInj;
    this.vct = cfg.switching === 'vct';
    this.classSize = vcsPerClass ?? V / routing.vcClasses;
    if (!Number.isInteger(this.classSize) || this.classSize < 1 || this.classSize * routing.vcClasses > V) {
      throw new InputError('vcs-per-class', this.classSize, `an integer in [1, ${Math.floor(V / routing.vcClasses)}] (${V} VCs, ${routing.vcClasses} classes)`);
    }
    this.routingDelay = cfg.routingDelay;
    this.vcAllocDelay = cfg.vcAllocDelay;
    this.allocIters = cfg.allocIters;
    this.swAllocIters = cfg.swAllocIters ?? cfg.allocIters;
    this.pipe = cfg.swAllocDelay + cfg.stDelay;
    this.creditDelay = cfg.creditDelay + (cfg.creditReturn === 'next-cycle' ? 1 : 0);
    // A source acts one cycle behind the routers here (a flit injected in injectAll's cycle c is
    // BookSim's injection in c − 1: pItime = now − 1), so the credit it reads in BookSim's cycle
    // t + 2 after a grant in t (router WriteOutputs, credit channel, TrafficManager::_Step reads it
    // first thing) is this engine's t + 3: one more than the credit channel's latency and next-cycle.
    this.sourceCreditDelay = (cfg.creditReturn === 'next-cycle' ? 1 : 0) + 1;
    // `empty`: BookSim's wait_for_tail_credit frees a VC when its occupancy falls to 0 after the tail
    // was sent (buffer_state.cpp ProcessCredit); credits return in order, so that is all `depth` back.
    this.vcAllocCredit = cfg.vcAllocCheck === 'empty' ? this.depth : cfg.vcAllocCheck === 'free-with-credit' ? 1 : 0;
    this.injRandom = cfg.injectionVc === 'random';
    this.ejCredits = cfg.ejectionCredits === 'terminal';
    this.clock = new InternalStepClock(cfg.internalSpeedup);
    this.outSpeedup = cfg.outputSpeedup ?? 1;
    this.outputQueued = cfg.internalSpeedup !== 1 || this.outSpeedup !== 1;
    this.adaptive = routing.adaptive === true;
    this.routeAtInjection = this.adaptive && cfg.adaptiveDecision === 'injection';
    if (this.routeAtInjection) {
      this.loadsAtInjection = new Int32Array(topology.numChannels);
      this.nextLoadsAtInjection = new Int32Array(topology.numChannels);
    }
    this.hopByHop = isHopByHop(routing) ? routing : null;
    this.candidateRouting = isCandidateRouting(routing) ? routing : null;
    if (this.candidateRouting && V < this.candidateRouting.minVcs) throw new InputError('vcs', V, `at least ${this.candidateRouting.minVcs} with ${routing.name} (BookSim's min_adapt_torus takes VC 3)`);
    this.injLatency = cfg.injectionLatency;
    this.ejLatency = cfg.ejectionLatency;
    this.chSrcPort = topology.chSrcPort;
    this.chDst = topology.chDst;
    const bsPorts = cfg.portOrder === 'booksim' ? familyOf(topology)?.booksimPorts?.(topology) : undefined;
    this.chOutLocal = bsPorts ? rankWithin(topology.chSrc, bsPorts.outPort, N) : topology.chSrcPort;
    const nPorts = this.ejBase + N * this.nEj;
    const nInPorts = this.ejBase;

    this.chLat = new Int32Array(C);
    this.chSer = new Float64Array(C);
    let maxLat = Math.max(cfg.injectionLatency, cfg.ejectionLatency);
    for (let c = 0; c < C; c++) {
      const cls = topology.className(c);
      this.chLat[c] = channelLatency ? channelLatency[c] : perClass(cfg.channelLatency, cls);
      this.chSer[c] = perClass(cfg.serialization, cls) * (channelSlowdown ? channelSlowdown[c] : 1);
      if (this.chLat[c] > maxLat) maxLat = this.chLat[c];
    }
    this.chFlits = new Float64Array(C);
    // A flit on a long channel, or a credit coming back over one, moves nothing for its latency:
    // the detector waits at least a credit round trip and a flit's serialization past its threshold.
    let maxSer = 1;
    for (let c = 0; c < C; c++) maxSer = Math.max(maxSer, this.chSer[c]);
    this.stallLimit = Math.max(cfg.deadlockCycles, 2 * maxLat + cfg.creditDelay + Math.ceil(maxSer) + 16);

    // Direct terminals: one link each way to a switch; their ports move onto that switch.
    this.attach = new Int32Array(N);
    this.attachSlot = new Int32Array(N);
    this.direct = new Uint8Array(N);
    // Direct terminals injecting at each switch, and ejecting at each.
    const attachedIn = new Int32Array(N);
    const attachedOut = new Int32Array(N);
    const splitTerminals = familyOf(topology)?.terminalsAcrossStages === true;
    for (let v = 0; v < N; v++) {
      this.attach[v] = v;
      if (cfg.terminals !== 'direct' || topology.nodeKind[v] !== NodeKind.Terminal) continue;
      if (topology.outDegree(v) !== 1 || topology.inDegree(v) !== 1) continue;
      const sw = topology.chDst[topology.outChannels[topology.outStart[v]]];
      const from = topology.chSrc[topology.inChannels[topology.inStart[v]]];
      if (topology.nodeKind[sw] !== NodeKind.Switch || topology.nodeKind[from] !== NodeKind.Switch) continue;
      // A unidirectional MIN injects into its first stage and ejects from its last: BookSim's fly
      // splits the terminal's ports across the two (its family says so); an omega terminal keeps its
      // own ports (seed 004's MIN folded onto its processors).
      if (from !== sw && !splitTerminals) continue;
      this.direct[v] = 1;
      this.attach[v] = sw;
      attachedIn[sw]++;
      this.attachSlot[v] = attachedOut[from]++;
    }

    // Router port lists.
    this.rInStart = new Int32Array(N + 1);
    this.rOutStart = new Int32Array(N + 1);
    this.rOutDeg = new Int32Array(N);
    let maxIn = 0;
    let maxOut = 0;
    for (let r = 0; r < N; r++) {
      const own = this.direct[r] ? 0 : 1;
      const nin = own * (topology.inDegree(r) + this.nInj) + attachedIn[r] * this.nInj;
      const nout = own * (topology.outDegree(r) + this.nEj) + attachedOut[r] * this.nEj;
      this.rInStart[r + 1] = this.rInStart[r] + nin;
      this.rOutStart[r + 1] = this.rOutStart[r] + nout;
      this.rOutDeg[r] = topology.outDegree(r);
      maxIn = Math.max(maxIn, nin);
      maxOut = Math.max(maxOut, nout);
    }
    this.rInPorts = new Int32Array(this.rInStart[N]);
    const fill = this.rInStart.slice(0, N);
    for (let r = 0; r < N; r++) {
      if (this.direct[r]) continue;
      for (let i = topology.inStart[r]; i < topology.inStart[r + 1]; i++) {
        const c = topology.inChannels[i];
        if (!this.direct[topology.chSrc[c]]) this.rInPorts[fill[r]++] = c;
      }
    }
    // BookSim's port order: a router's input channels by BookSim's port number (its allocators'
    // round-robin order), before the injection ports as in BookSim.
    if (bsPorts) {
      for (let r = 0; r < N; r++) {
        const ports = this.rInPorts.subarray(this.rInStart[r], fill[r]);
        ports.sort((a, b) => bsPorts.inPort[a] - bsPorts.inPort[b]);
      }
    }
    for (let v = 0; v < N; v++) {
      const r = this.attach[v];
      for (let j = 0; j < this.nInj; j++) this.rInPorts[fill[r]++] = this.injBase + v * this.nInj + j;
    }
    const lanes = portLanes({
      topology,
      bsPorts,
      rInStart: this.rInStart,
      rInPorts: this.rInPorts,
      inFilled: Int32Array.from({ length: N }, (_, r) => fill[r] - this.rInStart[r]),
      rOutStart: this.rOutStart,
      chOutLocal: this.chOutLocal,
      rOutDeg: this.rOutDeg,
      direct: this.direct,
      attachSlot: this.attachSlot,
      nInj: this.nInj,
      nEj: this.nEj,
      injBase: this.injBase,
    });
    this.inPortLane = new Int32Array(this.ejBase);
    for (let slot = 0; slot < this.rInStart[N]; slot++) if (lanes.inLane[slot] >= 0) this.inPortLane[this.rInPorts[slot]] = lanes.inLane[slot];
    this.vaGrantPtr = new Int32Array(this.rOutStart[N] * V);
    this.vaAcceptPtr = new Int32Array(this.rInStart[N] * V);
    this.saGrantPtr = new Int32Array(this.rOutStart[N] * this.outSpeedup);
    const IS = (this.inSpeedup = cfg.inputSpeedup ?? 1);
    this.saAcceptPtr = new Int32Array(this.rInStart[N] * IS);
    // BookSim starts crossbar input i's VC pointer at i mod input_speedup (the first VC of its residue).
    this.saVcPtr = Int32Array.from({ length: nInPorts * IS }, (_, i) => i % IS);

    // Per output port (channels and, output-queued, ejection ports): when it can send again.
    this.chFreeAt = new Int32Array(nPorts);
    const batched = cfg.stDelay >= 2;
    this.batchStart = new Int32Array(batched ? N : 0).fill(-2);
    this.batchEnd = new Int32Array(batched ? N : 0).fill(-2);
    this.unorderedReads = this.outputQueued || batched;
    this.outLastSent = new Int32Array(batched ? nPorts : 0).fill(-2);
    const routeBatched = cfg.routingDelay >= 2 && !this.outputQueued;
    this.routeBatchStart = new Int32Array(routeBatched ? N : 0).fill(-2);
    this.routeBatchEnd = new Int32Array(routeBatched ? N : 0).fill(-2);
    this.chNextFree = new Float64Array(nPorts);
    this.creditFreeAt = new Int32Array(this.outputQueued ? nInPorts : 0);
    const nIvc = nInPorts * V;
    this.vcShift = 32 - Math.clz32(V - 1);
    this.maskWords = Math.max(1, Math.ceil((maxIn << this.vcShift) / 32));
    this.rMask = new Int32Array(N * this.maskWords);
    this.ivcMaskWord = new Int32Array(nIvc);
    this.ivcMaskBit = new Int32Array(nIvc);
    for (let r = 0; r < N; r++) {
      for (let li = 0; li < this.rInStart[r + 1] - this.rInStart[r]; li++) {
        const port = this.rInPorts[this.rInStart[r] + li];
        for (let v = 0; v < V; v++) {
          const bit = (li << this.vcShift) | v;
          this.ivcMaskWord[port * V + v] = r * this.maskWords + (bit >>> 5);
          this.ivcMaskBit[port * V + v] = 1 << (bit & 31);
        }
      }
    }
    this.ivcHead = new Int32Array(nIvc);
    this.ivcCount = new Int32Array(nIvc);
    this.ivcHops = new Int32Array(nIvc);
    this.sourceSeq = new Int32Array(topology.numEndpoints);
    this.ivcState = new Uint8Array(nIvc);
    this.ivcTime = new Int32Array(nIvc);
    this.ivcOut = new Int32Array(nIvc).fill(-1);
    this.ivcOutLocal = new Int32Array(nIvc);
    this.ivcLo = new Int32Array(nIvc);
    this.ivcHi = new Int32Array(nIvc);
    this.ivcOvc = new Int32Array(nIvc).fill(-1);
    const nCand = this.candidateRouting ? nIvc : 0;
    this.ivcOut2 = new Int32Array(nCand).fill(-1);
    this.ivcOutLocal2 = new Int32Array(nCand);
    this.ivcLo2 = new Int32Array(nCand);
    this.ivcHi2 = new Int32Array(nCand);
    this.ivcPri = new Int32Array(nCand);
    this.ivcPri2 = new Int32Array(nCand);
    this.buf = new Int32Array(nIvc * this.depth * FLIT);
    this.frontReady = new Int32Array(nIvc);

    this.ovcOwner = new Int32Array(nPorts * V).fill(-1);
    this.credits = new Int32Array(nPorts * V).fill(this.depth);

    // Output-queued, an input port's credits wait their turn on its credit channel: at most one per
    // freed buffer slot (V·depth), so they are sent within that many cycles.
    const creditBacklog = this.outputQueued ? V * this.depth + cfg.swAllocDelay : 0;
    // An ejection credit comes back two ejection latencies after the grant's flit leaves, which an
    // output FIFO may delay by up to the credits it holds (V·depth).
    // Crossing in batches (st_final_delay ≥ 2) a flit waits up to one batch and its output buffer up to one more.
    const batchWait = cfg.stDelay >= 2 ? 2 * cfg.stDelay : 0;
    const ejectionSpan = this.ejCredits ? this.pipe + batchWait + cfg.ejectionLatency + 2 + (this.outputQueued ? V * this.depth : 0) : 0;
    this.wheelSize = maxLat + this.creditDelay + 2 + creditBacklog + ejectionSpan;
    this.wheelCap = nInPorts + (this.ejCredits ? N * this.nEj : 0);
    this.wheelIds = new Int32Array(this.wheelSize * this.wheelCap);
    this.wheelCount = new Int32Array(this.wheelSize);
    // A flit is visible at most pipeline + latency + 1 cycles after it is pushed (output-queued:
    // later, and those join at once); one arrival per input port per cycle. At most 32 slots, so the
    // wheel stays under half the input buffers' memory: flits on longer channels join at once.
    this.arrivalSize = Math.min(maxLat + this.pipe + 2, 32);
    this.arrivalCap = nInPorts;
    this.arrivalIds = new Int32Array(this.arrivalSize * this.arrivalCap);
    this.arrivalCount = new Int32Array(this.arrivalSize);

    const nInjPorts = N * this.nInj;
    this.injPkt = new Int32Array(nInjPorts).fill(-1);
    this.injSeq = new Int32Array(nInjPorts);
    this.injVc = new Int32Array(nInjPorts);
    this.injVcPtr = new Int32Array(nInjPorts);
    this.injVcDrawn = new Int32Array(nInjPorts).fill(-1);
    this.qHead = new Int32Array(nInjPorts).fill(-1);
    this.qTail = new Int32Array(nInjPorts).fill(-1);
    this.queuedPackets = new Int32Array(nInjPorts);

    this.maxHops = Math.max(1, routeColumns(routing));
    this.routeBuf = makeRouteBuffers(this.maxHops);
    this.grow(Math.max(1024, nIvc * 2 + nInjPorts * 2));

    const allocator = getAllocator(cfg.allocator);
    const swAllocator = getAllocator(cfg.swAllocator ?? cfg.allocator);
    this.va = allocator.create(maxIn * V, maxOut * V, maxIn * V * V, hash32(cfg.seed, 0x7661));
    this.sa = swAllocator.create(maxIn * IS, maxOut * this.outSpeedup, maxIn * Math.min(V, maxOut * IS), hash32(cfg.seed, 0x7361));
    this.va.portGeometry?.(laneGeometry(lanes, this.rInStart, this.rOutStart, V, V, cfg.vcShuffleRequests === true));
    this.sa.portGeometry?.(laneGeometry(lanes, this.rInStart, this.rOutStart, IS, this.outSpeedup, false));
    this.vaWhenIdle = this.va.allocatesWhenIdle === true;
    this.saWhenIdle = this.sa.allocatesWhenIdle === true;
    this.startPointersAtLaneZero(lanes, V, IS, cfg.vcShuffleRequests === true);
    this.queueOrder = this.outSpeedup > 1 ? new AllocationQueueOrder(nIvc, cfg.routingDelay === 0) : null;
    this.grantOrder = new Int32Array(maxIn * Math.min(V, maxOut * IS));
    const arbiter = getArbiter(cfg.arbitration);
    this.arbKey = arbiter.key;
    this.arbReadsCreated = arbiter.ignoresCreated !== true;
    this.arbReads = PRIORITY_CODES[arbiter.reads ?? 'created'];
    this.vaReadsCreated = this.arbReadsCreated && allocator.readsPriority !== false;
    this.vaPrioritizeEmpty = cfg.vcPrioritizeEmpty === true;
    this.vaShuffle = cfg.vcShuffleRequests === true;
    this.hold = cfg.holdSwitchForPacket === true;
    if (this.hold && (this.outputQueued || this.inSpeedup !== 1)) {
      throw new InputError('hold-switch-for-packet', 'true', 'false with an internal, input or output speedup (held switch connections are modelled at speedup 1 only)');
    }
    this.holdIn = new Int32Array(this.hold ? nPorts : 0).fill(-1);
    this.holdOut = new Int32Array(this.hold ? this.rOutStart[N] : 0).fill(-1);
    this.heldSends = new Int32Array(this.hold ? maxIn : 0);
    this.heldReleases = new Int32Array(this.hold ? maxIn : 0);
    this.priorityDonation = cfg.vcPriorityDonation === true && this.arbReads !== PRIORITY_ARRIVED && this.arbReads !== PRIORITY_QUEUE;
    this.saReadsCreated = this.arbReadsCreated && swAllocator.readsPriority !== false;
    this.saOutTouched = new Int32Array(V);
    this.saBestKey = new Float64Array(V);
    this.saBestVc = new Int32Array(V);
    this.retiredSrc = new Int32Array(N * this.nEj + 16);
    this.retiredDst = new Int32Array(N * this.nEj + 16);
    this.retiredTag = new Int32Array(N * this.nEj + 16);
    this.dequeuedTag = new Int32Array(N * this.nInj);
    this.retiredCycle = new Int32Array(N * this.nEj + 16);
  }

  private grow(newCap: number): void {
    const old = this.cap;
    const g32 = (a: Int32Array, n: number): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.pSrc = g32(this.pSrc, newCap);
    this.pDst = g32(this.pDst, newCap);
    this.pSize = g32(this.pSize, newCap);
    this.pCtime = g32(this.pCtime, newCap);
    this.pItime = g32(this.pItime, newCap);
    this.pHeadAtime = g32(this.pHeadAtime, newCap);
    this.pHop = g32(this.pHop, newCap);
    this.pSourceSeq = g32(this.pSourceSeq, newCap);
    this.pLen = g32(this.pLen, newCap);
    this.pNext = g32(this.pNext, newCap);
    this.pTag = g32(this.pTag, newCap);
    this.pLeft = g32(this.pLeft, newCap);
    this.pSalt = g32(this.pSalt, newCap);
    this.pHint = g32(this.pHint, newCap);
    const rec = new Uint8Array(newCap);
    rec.set(this.pRecord);
    this.pRecord = rec;
    this.pRoute = g32(this.pRoute, newCap * this.maxHops);
    const cls = new Uint8Array(newCap * this.maxHops);
    cls.set(this.pClass);
    this.pClass = cls;
    const ej = new Uint8Array(newCap);
    ej.set(this.pEjClass);
    this.pEjClass = ej;
    const free = new Int32Array(newCap);
    free.set(this.free.subarray(0, this.freeTop));
    for (let i = newCap - 1; i >= old; i--) free[this.freeTop++] = i;
    this.free = free;
    this.cap = newCap;
  }

  /** Resets the statistics window (BookSim _ClearStats). */
  clearStats(): void {
    this.stats = new PacketStats(this.topology.numEndpoints);
    this.stats.resetCycle = this.now;
  }

  /** Whether a rank's injection port (NIC) has nothing queued or in progress (BookSim's empty partial-packet queue). */
  sourceIdle(rank: number, port = 0): boolean {
    const first = this.endpoints[rank] * this.nInj + port * this.linkQueues;
    for (let ip = first; ip < first + this.linkQueues; ip++) if (this.qHead[ip] >= 0 || this.injPkt[ip] >= 0) return false;
    return true;
  }

  /**
   * Creates a packet from rank `src` to rank `dst` in its node's source queue (NIC `port`), created at `ctime`.
   * `salt` is the route salt the routing gets; default a hash of the packet's serial number.
   * `hint` indexes the route hints given to the constructor (-1: none).
   * Returns the packet id.
   */
  enqueue(src: number, dst: number, size: number, ctime: number, tag = 0, port = 0, salt?: number, hint = -1): number {
    if (this.freeTop === 0) this.grow(this.cap * 2);
    const p = this.free[--this.freeTop];
    this.pSrc[p] = src;
    this.pDst[p] = dst;
    this.pSize[p] = size;
    this.pCtime[p] = ctime;
    this.pHop[p] = 0;
    this.pSourceSeq[p] = this.sourceSeq[src]++;
    this.pTag[p] = tag;
    this.pLeft[p] = size;
    this.pNext[p] = -1;
    const record = this.recording || ctime < this.recordCreatedBefore;
    this.pRecord[p] = record ? 1 : 0;
    this.recordedOutstanding += record ? 1 : 0;
    // The serial advances either way, so a given salt leaves every other packet's hash unchanged.
    const hashed = hash32(this.serial++, this.cfg.seed);
    this.pSalt[p] = salt ?? hashed;
    this.pHint[p] = hint;
    // An adaptive routing decides later: in injectAll or at the first routeHead (cfg.adaptiveDecision).
    if (!this.adaptive) this.fillRoute(p);
    this.outstandingFlits += size;
    this.outstandingCtimeSum += size * ctime;
    // The source queue sits at the rank's node; with per-link injection, the one of the first hop.
    const firstHop = this.pRoute[p * this.maxHops];
    const link = this.linkQueues > 1 && !this.adaptive && this.pLen[p] > 0 && !this.direct[this.endpoints[src]] ? this.chSrcPort[firstHop] % this.linkQueues : 0;
    const ip = this.endpoints[src] * this.nInj + port * this.linkQueues + link;
    if (this.qTail[ip] < 0) this.qHead[ip] = p;
    else this.pNext[this.qTail[ip]] = p;
    this.qTail[ip] = p;
    this.queuedPackets[ip]++;
    return p;
  }

  /** Computes packet p's route (channels and VC classes) from its source and destination. */
  private fillRoute(p: number): void {
    const srcNode = this.endpoints[this.pSrc[p]];
    const dstNode = this.endpoints[this.pDst[p]];
    const h = this.pHint[p];
    this.routeCtx.hint = h >= 0 ? this.hints[h] : undefined;
    const fullLen = this.routing.route(srcNode, dstNode, this.pSalt[p], this.routeBuf, this.routeCtx);
    // A direct terminal's own link is not a hop: the packet starts and ends at its switch.
    const first = fullLen > 0 && this.direct[srcNode] ? 1 : 0;
    const last = fullLen > first && this.direct[dstNode] ? 1 : 0;
    const len = fullLen - first - last;
    this.pLen[p] = len;
    // The dropped terminal link's VC class holds at the ejection port, as BookSim's routing functions
    // give the ejection hop a VC range (dragonflynew `min`: VC 1 after the global hop), unless the
    // routing opens every VC there (BookSim's flatfly routings). A packet to its own terminal crossed
    // no channel: it ejects in the routing's class for it (dragonflynew `min` gives it VC 0, its
    // phase at injection; `ugal` VC 2).
    const selfSend = fullLen === 0 && this.direct[dstNode] === 1;
    this.pEjClass[p] = this.routing.ejectAnyVc ? ANY_VC_CLASS : last ? this.routeBuf.vcClass[fullLen - 1] : selfSend ? (this.routing.selfSendClass ?? 0) : ANY_VC_CLASS;
    const base = p * this.maxHops;
    for (let h = 0; h < len; h++) {
      this.pRoute[base + h] = this.routeBuf.channels[first + h];
      this.pClass[base + h] = this.routeBuf.vcClass[first + h];
    }
  }

  /** Rewrites packet p's route from hop `hop` on, chosen at router r from the credits it sees now. */
  private rerouteAt(p: number, r: number, hop: number): void {
    const dstNode = this.endpoints[this.pDst[p]];
    this.routeCtx.hint = undefined;
    const n = this.hopByHop!.reroute(this.endpoints[this.pSrc[p]], r, dstNode, this.pSalt[p], this.routeBuf, this.routeCtx);
    const len = n - (this.direct[dstNode] ? 1 : 0);
    const base = p * this.maxHops + hop;
    for (let h = 0; h < len; h++) {
      this.pRoute[base + h] = this.routeBuf.channels[h];
      this.pClass[base + h] = this.routeBuf.vcClass[h];
    }
    this.pLen[p] = hop + len;
  }

  /** Credits in use on channel c over all its VCs: flits buffered downstream or in flight (BookSim GetUsedCredit). */
  usedCredits(c: number): number {
    let used = 0;
    for (let v = 0; v < this.V; v++) used += this.depth - this.credits[c * this.V + v];
    return used;
  }

  /**
   * The credits in use per channel as the sources see them when they route at injection
   * (routeAtInjection): BookSim's sources inject before the cycle's router steps, so they see the
   * channels as the routers left them the cycle before, before this cycle's returning credits. The
   * engine injects a cycle late (injectAll), so it reads the state taken at the start of the step before.
   */
  private takeInjectionLoads(): void {
    const done = this.loadsAtInjection!;
    this.loadsAtInjection = this.nextLoadsAtInjection;
    this.nextLoadsAtInjection = done;
    for (let c = 0; c < this.numChannels; c++) done[c] = this.usedCredits(c);
  }

  /**
   * One cycle: credits, injection, then every router with buffered flits. A traffic source given
   * here generates this cycle's packets after the injection and before the routers: BookSim's order
   * of draws (TrafficManager::_Step: _Inject, then the routers' Evaluate), which matters where the
   * routers draw from the source's stream (drawFrom). The routers cannot see the new packets before
   * the next cycle's injection either way. A source that reads this cycle's retirements (batch
   * mode, `afterRouters`) generates after the step.
   */
  step(source?: TrafficSource): void {
    const now = this.now;
    this.retiredCount = 0;
    this.dequeuedCount = 0;
    if (this.routeAtInjection) this.takeInjectionLoads();
    // Credits arriving this cycle.
    const slot = now % this.wheelSize;
    const wc = this.wheelCount[slot];
    if (wc > 0) {
      const base = slot * this.wheelCap;
      for (let i = 0; i < wc; i++) this.credits[this.wheelIds[base + i]]++;
      this.wheelCount[slot] = 0;
    }
    const arrivals = this.arrivalCount[now % this.arrivalSize];
    if (arrivals > 0) {
      const base = (now % this.arrivalSize) * this.arrivalCap;
      for (let i = 0; i < arrivals; i++) {
        const ivc = this.arrivalIds[base + i];
        this.rMask[this.ivcMaskWord[ivc]] |= this.ivcMaskBit[ivc];
      }
      this.arrivalCount[now % this.arrivalSize] = 0;
    }
    this.injecting = this.routeAtInjection;
    this.injectAll(now);
    this.injecting = false;
    if (this.deferredDraws > 0) this.drawDeferredTurns();
    const early = source !== undefined && source.afterRouters !== true;
    if (early) source.generate(this, now);
    if (early && this.injRandom && this.shared !== null) this.drawInjectionVcs(now + 1);
    const N = this.numNodes;
    const order = this.stepOrder;
    if (!this.outputQueued) {
      for (let i = 0; i < N; i++) {
        const r = order === null ? i : order[i];
        if (this.hasVisibleFlits(r)) this.routerStep(r, now, now);
      }
    } else {
      // BookSim's Router::Evaluate: the internal steps of this cycle, one after another. Routers
      // only meet through channels and credits, which take at least a cycle, so router by router is
      // the same as step by step.
      const first = this.ticksBefore(now);
      const ticks = this.ticksBefore(now + 1) - first;
      for (let i = 0; i < N; i++) {
        const r = order === null ? i : order[i];
        for (let k = 0; k < ticks && this.hasVisibleFlits(r); k++) this.routerStep(r, now, first + k);
      }
    }
    if (this.flitsInNetwork > 0 && now - this.lastMoveCycle > this.stallLimit) {
      throw new DeadlockError(now, this.stallLimit, findWaitCycle(this));
    }
    this.retireReadFlits(now);
    this.now = now + 1;
    if (source !== undefined && !early) source.generate(this, now);
  }

  /** Whether router r holds a flit that is visible (or may be: see arrivalIds), the only ones a step can move. */
  private hasVisibleFlits(r: number): boolean {
    const words = this.maskWords;
    for (let w = r * words; w < r * words + words; w++) if (this.rMask[w] !== 0) return true;
    return false;
  }

  /** Internal steps before cycle c (BookSim's `_partial_internal_cycles` accumulator: internal-steps.ts). */
  private ticksBefore(c: number): number {
    return this.clock.ticksBefore(c);
  }

  /** The cycle internal step t belongs to. */
  private cycleOfTick(t: number): number {
    return this.clock.cycleOfTick(t);
  }

  /**
   * The step at which the next stage may start after a stage begun at step `tick` (of cycle `now`)
   * with a delay of d cycles. BookSim's Evaluate stamps the stage `now + d − 1` and the Update of the
   * first internal step that reaches it completes it; the next stage evaluates one step later. At
   * speedup 1 this is tick + d. d = 0 (lookahead routing) starts the next stage in the same step.
   */
  private nextStageTick(tick: number, now: number, d: number): number {
    if (!this.outputQueued || d === 0) return tick + d;
    return Math.max(tick, this.ticksBefore(now + d - 1)) + 1;
  }

  private scheduleCredit(id: number, at: number): void {
    const slot = at % this.wheelSize;
    this.wheelIds[slot * this.wheelCap + this.wheelCount[slot]++] = id;
  }

  /**
   * Makes the engine draw its own random numbers (a random injection VC, an allocator's, the
   * routing's as heads turn) from the traffic source's stream, in BookSim's order within each
   * cycle: the sources' injection VCs node by node, then router by router (BookSim's numbering)
   * the heads' routes and the VC and switch allocations. With BookSim's stream
   * (`--random-stream booksim`) these are BookSim's draws (TrafficManager::_Step, then each
   * router's _InternalStep).
   */
  drawFrom(stream: RandomStream): void {
    this.shared = stream;
    // Routers draw in the order BookSim evaluates them (its router numbering).
    this.stepOrder = familyOf(this.topology)?.booksimRouterOrder?.(this.topology) ?? null;
    this.turnDraws = this.routing.drawAtTurn !== undefined;
    const endpoints = this.topology.endpoints;
    if (endpoints.some((node, rank) => node !== rank)) {
      const ports: number[] = [];
      const seen = new Uint8Array(this.numNodes);
      for (const node of endpoints) {
        if (seen[node]++ > 0) continue;
        for (let j = 0; j < this.nInj; j++) ports.push(node * this.nInj + j);
      }
      this.injOrder = Int32Array.from(ports);
    }
    if (this.routing.drawsFromStream === true) {
      this.routeCtx.stream = stream;
      // With lookahead routing the heads are routed as they cross the router before, one by one.
      this.preRoute = this.routingDelay > 0;
    }
    // The routing draws in the order BookSim routes heads, which follows its switch order.
    if ((this.turnDraws || this.preRoute) && this.queueOrder === null) this.queueOrder = new AllocationQueueOrder(this.ivcState.length, this.routingDelay === 0);
    this.va.drawFrom?.(stream);
    this.sa.drawFrom?.(stream);
    this.vaWhenIdle = this.va.allocatesWhenIdle === true;
    this.saWhenIdle = this.sa.allocatesWhenIdle === true;
  }

  /**
   * The random injection VCs the next step's injectAll will take (cycle `next`), drawn now: BookSim
   * draws them (TrafficManager::_Step) after the cycle's new packets and before its routers, which
   * may draw too (ugal's intermediate). The same heads as injectAll's: no VC yet, created by `next`.
   */
  private drawInjectionVcs(next: number): void {
    const order = this.injOrder;
    const nInjPorts = order === null ? this.numNodes * this.nInj : order.length;
    for (let k = 0; k < nInjPorts; k++) {
      const ip = order === null ? k : order[k];
      if (this.injPkt[ip] >= 0) continue;
      const p = this.qHead[ip];
      if (p >= 0 && this.pCtime[p] <= next) this.injVcDrawn[ip] = this.shared!.int(this.V);
    }
  }

  private injectAll(now: number): void {
    const V = this.V;
    const order = this.injOrder;
    const nInjPorts = order === null ? this.numNodes * this.nInj : order.length;
    const readyAt = now + this.cfg.injectionLatency;
    for (let k = 0; k < nInjPorts; k++) {
      const ip = order === null ? k : order[k];
      let p = this.injPkt[ip];
      const port = this.injBase + ip;
      if (p < 0) {
        p = this.qHead[ip];
        // A packet is not injected before its creation cycle (schedule-driven pacing posts ahead).
        if (p < 0 || this.pCtime[p] > now) continue;
        // Choose a free injection VC with credit: round-robin from the last one used (BookSim's source),
        // or one VC drawn afresh each cycle (BookSim's dragonflynew `min` at injection).
        // The source's buffer state follows wait_for_tail_credit too (`empty`: vcAllocCredit = depth).
        const need = Math.max(this.vct ? this.pSize[p] : 1, this.vcAllocCredit);
        let vc = -1;
        // The draw hashes the packet's salt (its serial), not its slot: slots are reused as packets retire.
        let start = this.injVcPtr[ip];
        if (this.injRandom) {
          const drawn = this.injVcDrawn[ip];
          this.injVcDrawn[ip] = -1;
          start = drawn >= 0 ? drawn : this.shared !== null ? this.shared.int(V) : hash32(this.pSalt[p], now, this.cfg.seed) % V;
        }
        for (let k = 0; k < (this.injRandom ? 1 : V); k++) {
          const v = (start + k) % V;
          const o = port * V + v;
          if (this.ovcOwner[o] < 0 && this.credits[o] >= need) {
            vc = v;
            break;
          }
        }
        if (vc < 0) continue;
        if (this.routeAtInjection) this.fillRoute(p);
        this.qHead[ip] = this.pNext[p];
        if (this.qHead[ip] < 0) this.qTail[ip] = -1;
        this.queuedPackets[ip]--;
        this.injPkt[ip] = p;
        this.dequeuedTag[this.dequeuedCount++] = this.pTag[p];
        this.injSeq[ip] = 0;
        this.injVc[ip] = vc;
        this.injVcPtr[ip] = (vc + 1) % V;
        this.ovcOwner[port * V + vc] = ip;
        this.pItime[p] = now - 1;
        // Lookahead routing: BookSim routes the head for its first router as the source injects it.
        if (this.turnDraws && this.routingDelay === 0) this.drawTurn(this.attach[this.endpoints[this.pSrc[p]]], p);
      }
      const o = port * V + this.injVc[ip];
      if (this.credits[o] <= 0) continue;
      this.credits[o]--;
      const seq = this.injSeq[ip];
      this.pushFlit(o, p, seq, readyAt, now - 1);
      // Injected at BookSim's cycle now − 1: counted in the window that cycle belongs to.
      const counted = now - 1 >= this.stats.resetCycle && now - 1 < this.sentCountedBefore ? 1 : 0;
      this.stats.sentFlits[this.pSrc[p]] += counted;
      if (seq === 0) this.stats.sentPackets[this.pSrc[p]] += counted;
      this.flitsInNetwork++;
      this.injectedFlits++;
      // An injection is a move: after a long idle gap (compute in a schedule) the detector restarts here.
      this.lastMoveCycle = now;
      if (seq + 1 === this.pSize[p]) {
        this.injPkt[ip] = -1;
        this.ovcOwner[o] = -1;
      } else {
        this.injSeq[ip] = seq + 1;
      }
    }
  }

  private pushFlit(ivc: number, p: number, seq: number, ready: number, itime: number): void {
    const depth = this.depth;
    const b = ivc * depth + ((this.ivcHead[ivc] + this.ivcCount[ivc]) % depth);
    this.buf[b * FLIT + F_PKT] = p;
    this.buf[b * FLIT + F_SEQ] = seq;
    this.buf[b * FLIT + F_READY] = ready;
    this.buf[b * FLIT + F_ITIME] = itime;
    if (this.ivcCount[ivc]++ === 0) {
      this.frontReady[ivc] = ready;
      // The VC joins its router's set when its flit becomes visible: on a channel it is still in
      // flight for 1 + latency cycles, a third of the visits a router step would otherwise make.
      const wait = ready - this.now;
      const slot = ready % this.arrivalSize;
      if (wait <= 0 || wait >= this.arrivalSize || this.arrivalCount[slot] === this.arrivalCap) this.rMask[this.ivcMaskWord[ivc]] |= this.ivcMaskBit[ivc];
      else this.arrivalIds[slot * this.arrivalCap + this.arrivalCount[slot]++] = ivc;
    }
  }

  /** One pass of router r's pipeline in cycle `now`, internal step `tick` (= now at speedup 1). */
  private routerStep(r: number, now: number, tick: number): void {
    const V = this.V;
    const depth = this.depth;
    const inStart = this.rInStart[r];
    const nIn = this.rInStart[r + 1] - inStart;
    const outStart = this.rOutStart[r];
    const va = this.va;
    const sa = this.sa;
    va.reset();
    sa.reset();
    const ivcState = this.ivcState;
    const ivcTime = this.ivcTime;
    const frontReady = this.frontReady;
    const buf = this.buf;
    const credits = this.credits;
    const ovcOwner = this.ovcOwner;
    const arbKey = this.arbKey;
    // Read here, not in the branch that first needs them: a field first read after V8 optimised
    // routerStep has no type feedback and throws the optimised code away (a recompile mid-run).
    const saOutTouched = this.saOutTouched;
    const saBestKey = this.saBestKey;
    const saBestVc = this.saBestVc;
    const IS = this.inSpeedup;
    const byCandidates = this.candidateRouting !== null;
    const hold = this.hold;
    let nHeld = 0;
    let nReleased = 0;

    // The non-empty input VCs, port by port in the router's order and VC by VC (the bit order).
    // Switch requests: per (crossbar input, output port) the input's best VC by its round-robin
    // offset (BookSim _SWAllocAddReq with _sw_rr_offset), or the oldest under age arbitration.
    // A crossbar input is a residue of the VCs mod input_speedup: `slot` = output · IS + residue.
    // They are collected per input port and added when the scan leaves the port.
    const vcShift = this.vcShift;
    const vcBits = (1 << vcShift) - 1;
    const rMask = this.rMask;
    const words = this.maskWords;
    let li = -1;
    let port = 0;
    let touched = 0;
    if (this.preRoute || (this.turnDraws && this.routingDelay > 0)) this.drawTurns(r, now, tick);
    const ordered = this.queueOrder !== null;
    // Whether a VC waits in VC or switch allocation this step (BookSim's _vc_alloc_vcs or
    // _sw_alloc_vcs is not empty, so its router calls Allocate()), requests or not.
    let vaWaiting = false;
    let saWaiting = false;
    for (let w = 0; w < words; w++) {
      let m = rMask[r * words + w];
      while (m !== 0) {
        const low = m & -m;
        m ^= low;
        const bit = (w << 5) | (31 - Math.clz32(low));
        const v = bit & vcBits;
        if (bit >>> vcShift !== li) {
          if (touched > 0) this.addSwitchRequests(li, port, touched, outStart, nIn);
          li = bit >>> vcShift;
          port = this.rInPorts[inStart + li];
          touched = 0;
        }
        const ivc = port * V + v;
        if (frontReady[ivc] > now) continue;
        const b = ivc * depth + this.ivcHead[ivc];
        let st = ivcState[ivc];
        if (st === IDLE) {
          if (this.preRoute) ivcState[ivc] = VC_ALLOC;
          else this.routeHead(r, ivc, buf[b * FLIT + F_PKT], now, tick);
          this.queueOrder?.routed(ivc, now, frontReady[ivc] === now, li * V + v);
          st = VC_ALLOC;
        } else if (ordered && st === ACTIVE && frontReady[ivc] === now) {
          // A body flit that arrived this cycle into an empty active VC.
          this.queueOrder!.refilled(ivc, now, li * V + v);
        }
        if (ivcTime[ivc] > tick) continue;
        if (st === VC_ALLOC) {
          vaWaiting = true;
          const out = this.ivcOut[ivc];
          const p = buf[b * FLIT + F_PKT];
          const need = this.vct && out < this.ejBase ? Math.max(this.pSize[p], this.vcAllocCredit) : this.vcAllocCredit;
          const inIdx = this.vaShuffle ? v * nIn + li : li * V + v;
          if (byCandidates) {
            this.addCandidateRequests(ivc, inIdx, p, need, outStart, nIn);
            continue;
          }
          const outLocal = this.ivcOutLocal[ivc];
          const hi = this.ivcHi[ivc];
          for (let v2 = this.ivcLo[ivc]; v2 <= hi; v2++) {
            const o = out * V + v2;
            if (ovcOwner[o] >= 0 || credits[o] < need) continue;
            const outIdx = outLocal * V + v2;
            const ptr = this.vaGrantPtr[outStart * V + outIdx];
            const key = arbKey(this.vaReadsCreated ? this.priorityValue(ivc, b) : 0, inIdx, ptr, nIn * V);
            if (this.vaPrioritizeEmpty) va.addPrioritized(inIdx, outIdx, key, ivc, this.emptyVcPriority(o, 0));
            else va.add(inIdx, outIdx, key, ivc);
          }
        } else {
          // ACTIVE: a switch request needs a credit downstream and a free channel (output-queued:
          // the output buffer takes the flit whatever the channel is doing, as BookSim's unbounded one).
          const out = this.ivcOut[ivc];
          if (hold) {
            const held = this.holdIn[port];
            if (held === ivc) {
              // The held VC crosses without allocation while a credit is left; without one it lets go
              // after this step and requests the switch from the next cycle (BookSim's _SWHoldUpdate).
              const noCredit = (out < this.numChannels || this.ejCredits) && credits[this.ivcOvc[ivc]] <= 0;
              if (noCredit) {
                this.heldReleases[nReleased++] = ivc;
                ivcTime[ivc] = tick + 1;
              } else if (out >= this.numChannels || this.chFreeAt[out] <= now) this.heldSends[nHeld++] = ivc;
              continue;
            }
            saWaiting = true;
            // A held input or output takes no other request (_SWAllocAddReq).
            if (held >= 0 || this.holdOut[outStart + this.ivcOutLocal[ivc]] >= 0) continue;
          }
          saWaiting = true;
          if (out < this.numChannels) {
            if (credits[this.ivcOvc[ivc]] <= 0 || (!this.outputQueued && this.chFreeAt[out] > now)) continue;
          } else if (this.ejCredits && credits[this.ivcOvc[ivc]] <= 0) {
            continue;
          }
          const residue = v % IS;
          const key = arbKey(this.arbReadsCreated ? this.priorityValue(ivc, b) : 0, v, this.saVcPtr[port * IS + residue], V);
          const slot = this.ivcOutLocal[ivc] * IS + residue;
          let t = 0;
          while (t < touched && saOutTouched[t] !== slot) t++;
          // Compared always, one store site for a new output and a better VC: a read, compare or
          // store V8 first meets after optimising routerStep would throw its optimised code away.
          const better = key < saBestKey[t];
          if (t === touched) saOutTouched[touched++] = slot;
          else if (!better) continue;
          saBestKey[t] = key;
          saBestVc[t] = v;
        }
      }
    }
    if (touched > 0) this.addSwitchRequests(li, port, touched, outStart, nIn);

    if (va.count > 0 || (vaWaiting && this.vaWhenIdle)) {
      va.allocate(this.allocIters, this.vaGrantPtr, outStart * V, this.vaAcceptPtr, inStart * V);
      for (let k = 0; k < va.count; k++) {
        const inIdx = va.reqIn[k];
        const outIdx = va.matchOfIn[inIdx];
        if (outIdx !== va.reqOut[k]) continue;
        // The request carries its input VC.
        const ivc = va.reqAux[k];
        if (this.candidateRouting !== null) this.takeCandidate(ivc, outIdx);
        const o = this.ivcOut[ivc] * V + (outIdx - this.ivcOutLocal[ivc] * V);
        ovcOwner[o] = ivc;
        this.ivcOvc[ivc] = o;
        ivcState[ivc] = ACTIVE;
        this.queueOrder?.activated(ivc, tick);
        ivcTime[ivc] = this.nextStageTick(tick, now, this.vcAllocDelay);
      }
    }

    if (sa.count > 0 || (saWaiting && this.saWhenIdle)) {
      sa.allocate(this.swAllocIters, this.saGrantPtr, outStart * this.outSpeedup, this.saAcceptPtr, inStart * IS);
      const queue = this.queueOrder;
      if (queue === null) {
        for (let k = 0; k < sa.count; k++) if (sa.matchOfIn[sa.reqIn[k]] === sa.reqOut[k]) this.crossGranted(r, k, inStart, outStart, now, tick);
      } else {
        // In BookSim's switch-queue order (queue-order.ts), each grant's rank kept.
        const order = this.grantOrder;
        let nGrants = 0;
        for (let k = 0; k < sa.count; k++) if (sa.matchOfIn[sa.reqIn[k]] === sa.reqOut[k]) order[nGrants++] = k;
        if (nGrants > 1) this.sortByQueue(order, nGrants, inStart);
        for (let g = 0; g < nGrants; g++) {
          queue.crossed(this.grantVc(order[g], inStart), g);
          this.crossGranted(r, order[g], inStart, outStart, now, tick);
        }
      }
    }
    if (hold) this.sendHeld(r, nHeld, nReleased, now, tick);
  }

  /** Switch request k (granted) of router r crosses. */
  private crossGranted(r: number, k: number, inStart: number, outStart: number, now: number, tick: number): void {
    const sa = this.sa;
    const V = this.V;
    const IS = this.inSpeedup;
    const input = sa.reqIn[k];
    const li = (input / IS) | 0;
    const port = this.rInPorts[inStart + li];
    const v = sa.reqAux[k];
    // BookSim: _sw_rr_offset[expanded_input] = (vc + input_speedup) % vcs.
    this.saVcPtr[port * IS + (input - li * IS)] = (v + IS) % V;
    const ivc = port * V + v;
    this.traverse(r, port, ivc, now, tick);
    // A body flit whose successor is already here holds the connection (_SWAllocUpdate).
    if (this.hold && this.ivcState[ivc] === ACTIVE && this.ivcCount[ivc] > 0 && this.frontReady[ivc] <= now) {
      this.holdIn[port] = ivc;
      this.holdOut[outStart + this.ivcOutLocal[ivc]] = port;
    }
  }

  /**
   * The routing's draws for the heads router r routes this step (drawAtTurn), made in the order
   * BookSim routes them (AllocationQueueOrder.routeRank), before the scan routes them; or, for a
   * routing that draws as it routes (preRoute), the heads' whole routes in that order.
   */
  private drawTurns(r: number, now: number, tick: number): void {
    const V = this.V;
    const words = this.maskWords;
    const inStart = this.rInStart[r];
    const order = this.queueOrder!;
    let n = 0;
    for (let w = 0; w < words; w++) {
      let m = this.rMask[r * words + w];
      while (m !== 0) {
        const low = m & -m;
        m ^= low;
        const bit = (w << 5) | (31 - Math.clz32(low));
        const li = bit >>> this.vcShift;
        const v = bit & ((1 << this.vcShift) - 1);
        const ivc = this.rInPorts[inStart + li] * V + v;
        if (this.ivcState[ivc] !== IDLE || this.frontReady[ivc] > now) continue;
        if (n === this.routeIvcs.length) {
          this.routeIvcs = resized(this.routeIvcs, 2 * n);
          this.routeRanks = resized(this.routeRanks, 2 * n);
        }
        const rank = order.routeRank(ivc, this.frontReady[ivc] === now, li * V + v);
        let k = n++;
        while (k > 0 && this.routeRanks[k - 1] > rank) {
          this.routeIvcs[k] = this.routeIvcs[k - 1];
          this.routeRanks[k] = this.routeRanks[k - 1];
          k--;
        }
        this.routeIvcs[k] = ivc;
        this.routeRanks[k] = rank;
      }
    }
    for (let k = 0; k < n; k++) {
      const ivc = this.routeIvcs[k];
      const p = this.buf[(ivc * this.depth + this.ivcHead[ivc]) * FLIT + F_PKT];
      if (!this.preRoute) {
        this.drawTurn(r, p);
        continue;
      }
      // Routed now, taken by the scan as it reaches the VC (still IDLE until then).
      this.routeHead(r, ivc, p, now, tick);
      this.ivcState[ivc] = IDLE;
    }
  }

  /**
   * Lookahead routing's draws for the heads that crossed a router last cycle, in the order they
   * crossed. BookSim makes them in its routers' switch update, after the sources' injections of
   * that cycle, which the engine runs at the start of the next step (injectAll's cycle now − 1).
   */
  private deferTurnDraw(r: number, p: number): void {
    if (2 * this.deferredDraws === this.deferred.length) this.deferred = resized(this.deferred, 2 * this.deferred.length);
    this.deferred[2 * this.deferredDraws] = r;
    this.deferred[2 * this.deferredDraws + 1] = p;
    this.deferredDraws++;
  }

  private drawDeferredTurns(): void {
    for (let k = 0; k < this.deferredDraws; k++) this.drawTurn(this.deferred[2 * k], this.deferred[2 * k + 1]);
    this.deferredDraws = 0;
  }

  /** The routing's draws for packet p's head at router r (drawAtTurn), at its current hop. */
  private drawTurn(r: number, p: number): void {
    const hop = this.pHop[p];
    const base = p * this.maxHops;
    const end = this.routing.drawAtTurn!(r, hop > 0 ? this.pRoute[base + hop - 1] : -1, this.endpoints[this.pDst[p]], this.pRoute, this.pClass, base + hop, base + this.pLen[p], this.shared!);
    this.pLen[p] = end - base;
  }

  /** Sorts a step's switch grants (request indices) into BookSim's switch-queue order. */
  private sortByQueue(order: Int32Array, n: number, inStart: number): void {
    const queue = this.queueOrder!;
    for (let a = 1; a < n; a++) {
      const k = order[a];
      const vc = this.grantVc(k, inStart);
      let b = a - 1;
      while (b >= 0 && queue.switchAhead(vc, this.grantVc(order[b], inStart))) {
        order[b + 1] = order[b];
        b--;
      }
      order[b + 1] = k;
    }
  }

  /** The input VC of switch request k. */
  private grantVc(k: number, inStart: number): number {
    return this.rInPorts[inStart + ((this.sa.reqIn[k] / this.inSpeedup) | 0)] * this.V + this.sa.reqAux[k];
  }

  /** The held VCs of this router step: each sends its flit, and lets go after a tail or when no flit of its packet is here yet, or had no credit. */
  private sendHeld(r: number, nHeld: number, nReleased: number, now: number, tick: number): void {
    const V = this.V;
    const outStart = this.rOutStart[r];
    for (let k = 0; k < nReleased; k++) this.releaseHold(this.heldReleases[k], outStart);
    for (let k = 0; k < nHeld; k++) {
      const ivc = this.heldSends[k];
      const port = (ivc / V) | 0;
      const outLocal = this.ivcOutLocal[ivc];
      this.traverse(r, port, ivc, now, tick);
      if (this.ivcState[ivc] !== ACTIVE || this.ivcCount[ivc] === 0 || this.frontReady[ivc] > now) {
        this.holdIn[port] = -1;
        this.holdOut[outStart + outLocal] = -1;
      }
    }
  }

  private releaseHold(ivc: number, outStart: number): void {
    this.holdIn[(ivc / this.V) | 0] = -1;
    this.holdOut[outStart + this.ivcOutLocal[ivc]] = -1;
  }

  /** Adds input port `port`'s switch requests (local index li), collected in saOutTouched/saBestVc. */
  private addSwitchRequests(li: number, port: number, touched: number, outStart: number, nIn: number): void {
    const V = this.V;
    const IS = this.inSpeedup;
    for (let t = 0; t < touched; t++) {
      const residue = this.saOutTouched[t] % IS;
      const input = li * IS + residue;
      const ol = ((this.saOutTouched[t] - residue) / IS) * this.outSpeedup + (this.inPortLane[port] % this.outSpeedup);
      const ptr = this.saGrantPtr[outStart * this.outSpeedup + ol];
      const v = this.saBestVc[t];
      const ivc = port * V + v;
      if (!this.saReadsCreated) {
        this.sa.add(input, ol, this.arbKey(0, input, ptr, nIn * IS), v);
        continue;
      }
      // BookSim asks for the switch with the VC's priority on both sides (iq_router.cpp
      // _SWAllocAddReq: AddRequest(..., prio, prio)): a separable allocator's input arbiter then
      // takes the output of the highest-priority VC first (higher in_pri first: the value negated).
      const value = this.priorityValue(ivc, ivc * this.depth + this.ivcHead[ivc]);
      this.sa.addPrioritized(input, ol, this.arbKey(value, input, ptr, nIn * IS), v, -value);
    }
  }

  /**
   * VC requests of `ivc`'s head under a candidate routing: every free VC of its first candidate
   * (or its ejection port) and of its second, each with the candidate's input priority.
   */
  private addCandidateRequests(ivc: number, inIdx: number, p: number, need: number, outStart: number, nIn: number): void {
    const created = this.vaReadsCreated ? this.priorityValue(ivc, ivc * this.depth + this.ivcHead[ivc]) : 0;
    this.addRangeRequests(ivc, inIdx, this.ivcOut[ivc], this.ivcOutLocal[ivc], this.ivcLo[ivc], this.ivcHi[ivc], this.ivcPri[ivc], need, created, outStart, nIn);
    const out2 = this.ivcOut2[ivc];
    if (out2 >= 0) this.addRangeRequests(ivc, inIdx, out2, this.ivcOutLocal2[ivc], this.ivcLo2[ivc], this.ivcHi2[ivc], this.ivcPri2[ivc], need, created, outStart, nIn);
  }

  private addRangeRequests(ivc: number, inIdx: number, out: number, outLocal: number, lo: number, hi: number, inPri: number, need: number, created: number, outStart: number, nIn: number): void {
    const V = this.V;
    for (let v2 = lo; v2 <= hi; v2++) {
      const o = out * V + v2;
      if (this.ovcOwner[o] >= 0 || this.credits[o] < need) continue;
      const outIdx = outLocal * V + v2;
      const ptr = this.vaGrantPtr[outStart * V + outIdx];
      this.va.addPrioritized(inIdx, outIdx, this.arbKey(created, inIdx, ptr, nIn * V), ivc, this.vaPrioritizeEmpty ? this.emptyVcPriority(o, inPri) : inPri);
    }
  }

  /**
   * The arbiter's priority value (lower first) of input VC `ivc`, whose front flit is in buffer slot
   * `b`: BookSim's VC priority, the front flit's pri (vc.cpp UpdatePriority), or under
   * vc_priority_donation the best over the VC's flits.
   */
  private priorityValue(ivc: number, b: number): number {
    if (this.priorityDonation) return this.donatedPriority(ivc);
    return this.flitPriority(ivc, b, this.ivcHops[ivc]);
  }

  /** The priority value of the flit in buffer slot `b` of `ivc`, whose packet has made `hops` hops. */
  private flitPriority(ivc: number, b: number, hops: number): number {
    switch (this.arbReads) {
      case PRIORITY_CREATED:
        return this.pCtime[this.buf[b * FLIT + F_PKT]];
      case PRIORITY_INJECTED:
        return this.buf[b * FLIT + F_ITIME];
      case PRIORITY_ARRIVED:
        return this.buf[b * FLIT + F_READY];
      case PRIORITY_HOPS:
        return -hops;
      case PRIORITY_QUEUE:
        return -this.arrivedFlits(ivc);
      default:
        return this.pSourceSeq[this.buf[b * FLIT + F_PKT]];
    }
  }

  /**
   * The flits of `ivc` that have arrived by this cycle: BookSim's VC buffer, to which a flit is added
   * when it arrives (a flit still on its channel already counts in ivcCount).
   */
  private arrivedFlits(ivc: number): number {
    const depth = this.depth;
    let n = 0;
    while (n < this.ivcCount[ivc] && this.buf[(ivc * depth + ((this.ivcHead[ivc] + n) % depth)) * FLIT + F_READY] <= this.now) n++;
    return n;
  }

  /**
   * Under vc_priority_donation: the best (lowest) value over every flit that has arrived in `ivc` (vc.cpp
   * UpdatePriority). A flit's hop count is its packet's at this router: the front packet's as
   * recorded when its head was routed here, a later packet's its current one (its head is still here).
   * Donation never reads the arrival cycle or the queue length (the constructor keeps it off there).
   */
  private donatedPriority(ivc: number): number {
    const depth = this.depth;
    const front = this.buf[(ivc * depth + this.ivcHead[ivc]) * FLIT + F_PKT];
    let best = Infinity;
    for (let k = 0, n = this.arrivedFlits(ivc); k < n; k++) {
      const b = ivc * depth + ((this.ivcHead[ivc] + k) % depth);
      const p = this.buf[b * FLIT + F_PKT];
      best = Math.min(best, this.flitPriority(ivc, b, p === front ? this.ivcHops[ivc] : this.pHop[p]));
    }
    return best;
  }

  /** A VC request's input priority under vc_prioritize_empty: `inPri`, less 2^31 while output VC `o` holds flits downstream. */
  private emptyVcPriority(o: number, inPri: number): number {
    return this.credits[o] === this.depth ? inPri : inPri - 2 ** 31;
  }

  /** After a VC grant at local output VC `outIdx`: the candidate it belongs to becomes the head's output. */
  private takeCandidate(ivc: number, outIdx: number): void {
    const V = this.V;
    const outLocal = (outIdx / V) | 0;
    const v = outIdx - outLocal * V;
    const first = outLocal === this.ivcOutLocal[ivc] && v >= this.ivcLo[ivc] && v <= this.ivcHi[ivc];
    if (!first) {
      this.ivcOut[ivc] = this.ivcOut2[ivc];
      this.ivcOutLocal[ivc] = this.ivcOutLocal2[ivc];
      this.ivcLo[ivc] = this.ivcLo2[ivc];
      this.ivcHi[ivc] = this.ivcHi2[ivc];
    }
    this.ivcOut2[ivc] = -1;
  }

  /** The candidates of the head of `ivc` (packet p) at router r, from the VC it is on. */
  private routeByCandidates(r: number, ivc: number, p: number): void {
    const V = this.V;
    const port = (ivc / V) | 0;
    const c = this.hopCandidates;
    this.candidateRouting!.candidates(r, this.endpoints[this.pDst[p]], port < this.numChannels ? port : -1, ivc - port * V, this.pSalt[p], V, c, this.routeCtx.stream);
    this.ivcOut[ivc] = c.channel[0];
    this.ivcOutLocal[ivc] = this.chOutLocal[c.channel[0]];
    this.ivcLo[ivc] = c.vcLo[0];
    this.ivcHi[ivc] = c.vcHi[0];
    this.ivcPri[ivc] = c.priority[0];
    this.ivcOut2[ivc] = c.count > 1 ? c.channel[1] : -1;
    if (c.count > 1) {
      this.ivcOutLocal2[ivc] = this.chOutLocal[c.channel[1]];
      this.ivcLo2[ivc] = c.vcLo[1];
      this.ivcHi2[ivc] = c.vcHi[1];
      this.ivcPri2[ivc] = c.priority[1];
    }
  }

  /** Route computation for the head at the front of `ivc`. */
  private routeHead(r: number, ivc: number, p: number, now: number, tick: number): void {
    const hop = this.pHop[p];
    this.ivcHops[ivc] = hop;
    if (this.candidateRouting !== null && hop < this.pLen[p]) {
      this.routeByCandidates(r, ivc, p);
      this.ivcState[ivc] = VC_ALLOC;
      this.ivcTime[ivc] = this.routedTick(r, now, tick);
      return;
    }
    // Hop 0 is routed once, at the packet's first router: there an adaptive routing reads the credits.
    if (hop === 0 && this.adaptive && !this.routeAtInjection) this.fillRoute(p);
    else if (this.hopByHop !== null && hop > 0 && hop < this.pLen[p]) this.rerouteAt(p, r, hop);
    const cpv = this.classSize;
    if (hop < this.pLen[p]) {
      const ch = this.pRoute[p * this.maxHops + hop];
      const cls = this.pClass[p * this.maxHops + hop];
      this.ivcOut[ivc] = ch;
      this.ivcOutLocal[ivc] = this.chOutLocal[ch];
      this.ivcLo[ivc] = cls === ANY_VC_CLASS ? 0 : cls * cpv;
      this.ivcHi[ivc] = cls === ANY_VC_CLASS ? this.V - 1 : cls * cpv + cpv - 1;
    } else {
      // Ejection port by packet; with per-link ejection, its sink for the link the packet came in on.
      const port = (ivc / this.V) | 0;
      const dstNode = this.endpoints[this.pDst[p]];
      const direct = this.direct[dstNode];
      const j =
        this.linkSinks > 1
          ? (p % (this.nEj / this.linkSinks)) * this.linkSinks + (port < this.numChannels && !direct ? this.topology.chDstPort[port] % this.linkSinks : 0)
          : this.nEj > 1
            ? p % this.nEj
            : 0;
      this.ivcOut[ivc] = this.ejBase + dstNode * this.nEj + j;
      // Local outputs: channels, the router's own ejection ports, then those of its direct terminals.
      this.ivcOutLocal[ivc] = this.rOutDeg[r] + (direct ? (1 + this.attachSlot[dstNode]) * this.nEj : 0) + j;
      // A candidate routing's ejection requests: BookSim's every VC at priority 0.
      if (this.candidateRouting !== null) this.ivcPri[ivc] = 0;
      const ejClass = this.pEjClass[p];
      this.ivcLo[ivc] = ejClass === ANY_VC_CLASS ? 0 : ejClass * cpv;
      this.ivcHi[ivc] = ejClass === ANY_VC_CLASS ? this.V - 1 : ejClass * cpv + cpv - 1;
    }
    this.ivcState[ivc] = VC_ALLOC;
    this.ivcTime[ivc] = this.routedTick(r, now, tick);
  }

  /** Moves the front flit of `ivc` through the crossbar onto its output. */
  private traverse(r: number, port: number, ivc: number, now: number, tick: number): void {
    const depth = this.depth;
    const b = ivc * depth + this.ivcHead[ivc];
    const p = this.buf[b * FLIT + F_PKT];
    const seq = this.buf[b * FLIT + F_SEQ];
    const itime = this.buf[b * FLIT + F_ITIME];
    const head = (this.ivcHead[ivc] + 1) % depth;
    this.ivcHead[ivc] = head;
    if (--this.ivcCount[ivc] > 0) this.frontReady[ivc] = this.buf[(ivc * depth + head) * FLIT + F_READY];
    else this.rMask[this.ivcMaskWord[ivc]] &= ~this.ivcMaskBit[ivc];
    this.lastMoveCycle = now;
    const out = this.ivcOut[ivc];
    // `sent`: the cycle the flit is written to its output channel (the ejection channel for an
    // ejection port); it is visible downstream `1 + latency` cycles later.
    let sent: number;
    // The freed slot's credit travels back upstream over the credit channel. credit_delay is the
    // upstream router's wait before it processes a credit (iq_router.cpp _ReceiveCredits:
    // GetSimTime() + _credit_delay); a source reads its credits at once (trafficmanager.cpp _Step:
    // ProcessCredit on ReadCredit), so an injection port's credit skips it.
    const back = port < this.numChannels ? this.chLat[port] + this.creditDelay : this.injLatency + this.sourceCreditDelay;
    if (!this.outputQueued) {
      sent = this.batchEnd.length > 0 ? this.crossingBatch(r, out, now) : now + this.pipe - 1;
      this.scheduleCredit(ivc, now + back);
      if (out < this.numChannels) this.occupy(out, now);
    } else {
      // BookSim's IQRouter with internal speedup: the grant completes at the step the switch
      // allocation delay reaches, the crossbar one step later, then the flit waits in its output's
      // FIFO buffer, which sends one flit per cycle (`_SendFlits`). The credit is made with the grant
      // and each input port sends one credit per cycle (`_SendCredits`).
      // (A delay of 0 completes in the same step in BookSim, as 1 does.)
      const granted = this.nextStageTick(tick, now, Math.max(1, this.cfg.swAllocDelay)) - 1;
      const grantCycle = this.cycleOfTick(granted);
      const crossed = this.nextStageTick(granted + 1, this.cycleOfTick(granted + 1), Math.max(1, this.cfg.stDelay)) - 1;
      sent = Math.max(this.cycleOfTick(crossed), this.chFreeAt[out]);
      if (out < this.numChannels) this.occupy(out, sent);
      else this.chFreeAt[out] = sent + 1;
      const creditSent = Math.max(grantCycle, this.creditFreeAt[port]);
      this.creditFreeAt[port] = creditSent + 1;
      this.scheduleCredit(ivc, creditSent + back);
    }
    const o = this.ivcOvc[ivc];
    const tail = seq + 1 === this.pSize[p];
    if (out < this.numChannels) {
      this.credits[o]--;
      this.chFlits[out]++;
      this.pushFlit(o, p, seq, sent + 1 + this.chLat[out], itime);
      if (seq === 0) {
        this.pHop[p]++;
        // Lookahead routing: BookSim routes the head for the next router as it crosses this one,
        // after this cycle's injections draw (drawn at the next step's start, see step()).
        if (this.turnDraws && this.routingDelay === 0) this.deferTurnDraw(this.topology.chDst[out], p);
      }
    } else {
      this.flitsInNetwork--;
      const read = sent + 1 + this.ejLatency;
      if (this.ejCredits) {
        // The terminal sends the credit back in the cycle it reads the flit (trafficmanager.cpp _Step).
        this.credits[o]--;
        this.scheduleCredit(o, read + this.creditDelay + this.ejLatency);
      }
      this.eject(p, read, itime);
    }
    if (tail) {
      this.ovcOwner[o] = -1;
      this.ivcState[ivc] = IDLE;
    }
  }

  /**
   * The step at which a head whose route computation starts at router r in cycle `now` (step `tick`)
   * may request a VC. With routing_delay ≥ 2 (and no internal speedup) route computations run in
   * batches, as BookSim's IQRouter runs them (iq_router.cpp `_RouteEvaluate` stamps the heads waiting
   * in the router's one routing deque only while its front is not still being routed, as the
   * crossbar's, crossingBatch): a head that arrives while a batch is routed waits for it to end, then
   * is routed with every head that arrived meanwhile.
   */
  private routedTick(r: number, now: number, tick: number): number {
    if (this.routeBatchEnd.length === 0) return this.nextStageTick(tick, now, this.routingDelay);
    return batchDone(this.routeBatchStart, this.routeBatchEnd, r, now, this.routingDelay) + 1;
  }

  /**
   * The cycle a flit granted in cycle `now` leaves router r's crossbar for output `out` when
   * st_final_delay ≥ 2, as BookSim's IQRouter moves it (iq_router.cpp): a grant puts the flit at the
   * back of the router's one crossbar deque (_SWAllocUpdate), and _SwitchEvaluate stamps the
   * unstamped flits (done at now + delay − 1) only while the deque's front is not still crossing, so
   * flits cross in batches: one granted while a batch crosses waits for it to complete, then crosses
   * with every flit granted meanwhile, and its output buffer sends one flit per cycle. At zero load a
   * packet's second flit is one cycle late per router and cycle of delay above 1 (mesh 4×4, 4-flit
   * packets: +4.4 cycles per cycle of st_final_delay, where one per router would be +3.5).
   */
  private crossingBatch(r: number, out: number, now: number): number {
    // The grant completes (the flit joins the deque) in the update of cycle now + swAllocDelay − 1.
    const end = batchDone(this.batchStart, this.batchEnd, r, now + this.cfg.swAllocDelay, this.cfg.stDelay);
    const sent = Math.max(end, this.outLastSent[out] + 1);
    this.outLastSent[out] = sent;
    return sent;
  }

  /**
   * Channel `out` takes a flit in cycle `at`: busy for its serialization. A whole number of cycles
   * (every uniform network) keeps BookSim's rule, free again at `at + ser`; a fraction is carried, so
   * a channel of 1.5 cycles per flit sends in cycles 0, 1, 3, 4, 6, … (1.5 on average).
   */
  private occupy(out: number, at: number): void {
    const free = Math.max(this.chNextFree[out], at) + this.chSer[out];
    this.chNextFree[out] = free;
    this.chFreeAt[out] = Math.floor(free);
  }

  /**
   * BookSim's round-robin pointers start at 0: at its lowest-numbered port, which on a concentrated
   * router is terminal 0, while the engine lists a router's network ports before its terminals. The
   * cyclic orders agree (portLanes), so starting each pointer at the local index of the lowest lane
   * makes every first grant BookSim's; after a grant the pointers agree by themselves. An allocator
   * that reads BookSim's port numbers itself (portGeometry: a wavefront's diagonal, max_size's
   * priority input) keeps its state in that numbering, where BookSim's 0 is 0.
   */
  private startPointersAtLaneZero(lanes: PortLanes, V: number, IS: number, shuffled: boolean): void {
    const OS = this.outSpeedup;
    const vaLocal = this.va.portGeometry === undefined;
    const saLocal = this.sa.portGeometry === undefined;
    for (let r = 0; r < this.rOutStart.length - 1; r++) {
      const liFirst = lowestLaneAt(lanes.inLane, this.rInStart[r], this.rInStart[r + 1]);
      const loFirst = lowestLaneAt(lanes.outLane, this.rOutStart[r], this.rOutStart[r + 1]);
      if (liFirst === 0 && loFirst === 0) continue;
      const nOutLocal = this.rOutStart[r + 1] - this.rOutStart[r];
      const nInLocal = this.rInStart[r + 1] - this.rInStart[r];
      if (vaLocal) {
        this.vaGrantPtr.fill(shuffled ? liFirst : liFirst * V, this.rOutStart[r] * V, (this.rOutStart[r] + nOutLocal) * V);
        this.vaAcceptPtr.fill(loFirst * V, this.rInStart[r] * V, (this.rInStart[r] + nInLocal) * V);
      }
      if (saLocal) {
        this.saGrantPtr.fill(liFirst * IS, this.rOutStart[r] * OS, (this.rOutStart[r] + nOutLocal) * OS);
        this.saAcceptPtr.fill(loFirst * OS, this.rInStart[r] * IS, (this.rInStart[r] + nInLocal) * IS);
      }
    }
  }

  /**
   * A flit leaves the crossbar for its terminal, which reads it at cycle `t`: the packet's progress
   * and the retired-packet log (schedule runs, batch mode) move now; its statistics wait for `t`.
   */
  private eject(p: number, t: number, itime: number): void {
    this.outstandingFlits--;
    this.outstandingCtimeSum -= this.pCtime[p];
    if (this.pLeft[p] === this.pSize[p]) this.pHeadAtime[p] = t;
    const tail = --this.pLeft[p] === 0;
    this.logUnread(p, t, itime, tail);
    if (!tail) return;
    if (this.retiredCount === this.retiredSrc.length) {
      const n = this.retiredCount * 2;
      const widen = (a: Int32Array): Int32Array<ArrayBuffer> => {
        const w = new Int32Array(n);
        w.set(a);
        return w;
      };
      this.retiredSrc = widen(this.retiredSrc);
      this.retiredDst = widen(this.retiredDst);
      this.retiredTag = widen(this.retiredTag);
      this.retiredCycle = widen(this.retiredCycle);
    }
    const k = this.retiredCount++;
    this.retiredSrc[k] = this.pSrc[p];
    this.retiredDst[k] = this.pDst[p];
    this.retiredTag[k] = this.pTag[p];
    this.retiredCycle[k] = t;
    this.free[this.freeTop++] = p;
  }

  /** Appends an ejected flit to the unread ring (its packet's slot may be reused before it is read). */
  private logUnread(p: number, t: number, itime: number, tail: boolean): void {
    let ring = this.unread;
    let cap = ring.length / UNREAD_FIELDS;
    if (this.unreadEnd - this.unreadHead === cap) {
      const grown = new Int32Array(ring.length * 2);
      for (let k = this.unreadHead; k < this.unreadEnd; k++) {
        const from = (k & (cap - 1)) * UNREAD_FIELDS;
        grown.set(ring.subarray(from, from + UNREAD_FIELDS), (k - this.unreadHead) * UNREAD_FIELDS);
      }
      this.unreadEnd -= this.unreadHead;
      this.unreadHead = 0;
      this.unread = ring = grown;
      cap *= 2;
    }
    const at = (this.unreadEnd++ & (cap - 1)) * UNREAD_FIELDS;
    ring[at] = t;
    ring[at + 1] = this.pDst[p];
    ring[at + 2] = itime;
    ring[at + 3] = this.pCtime[p];
    ring[at + 4] = tail ? 1 : 0;
    ring[at + 5] = this.pItime[p];
    ring[at + 6] = this.pHeadAtime[p];
    ring[at + 7] = this.pSize[p];
    ring[at + 8] = this.pLen[p] + 1;
    ring[at + 9] = this.pRecord[p];
    this.unreadFlits++;
    this.unreadCtimeSum += this.pCtime[p];
  }

  /**
   * Retires into the statistics the unread flits their terminals read by cycle `upTo` (BookSim's
   * _RetireFlit). Reads follow ejections in order unless the crossbar's output can hold a flit
   * back (output queues, batched crossings): then the scan goes past a later read, marking what it
   * retired (read −1), and the head moves past retired entries only.
   */
  private retireReadFlits(upTo: number): void {
    const ring = this.unread;
    const mask = ring.length / UNREAD_FIELDS - 1;
    const s = this.stats;
    let blocked = false;
    for (let k = this.unreadHead; k < this.unreadEnd; k++) {
      const at = (k & mask) * UNREAD_FIELDS;
      const t = ring[at];
      if (t > upTo) {
        if (!this.unorderedReads) break;
        blocked = true;
        continue;
      }
      if (!blocked) this.unreadHead = k + 1;
      if (t < 0) continue;
      ring[at] = -1;
      const dst = ring[at + 1];
      const ctime = ring[at + 3];
      this.unreadFlits--;
      this.unreadCtimeSum -= ctime;
      s.acceptedFlits++;
      s.acceptedFlitsBy[dst]++;
      const flitLatency = t - ring[at + 2];
      s.flitLatencySum += flitLatency;
      // Branch-free statistics here and below: a store V8 first meets after optimising this loop (a
      // new extreme, the first recorded packet once the warm-up ends) would throw its optimised code away.
      s.flitLatencyMin = Math.min(s.flitLatencyMin, flitLatency);
      s.flitLatencyMax = Math.max(s.flitLatencyMax, flitLatency);
      if (ring[at + 4] === 0) continue;
      s.acceptedPacketsBy[dst]++;
      // A packet outside the window adds 0 to the sums and ±Infinity to the extremes.
      const recorded = ring[at + 9];
      const record = recorded | this.countUnrecorded;
      const latency = t - ctime;
      const networkLatency = t - ring[at + 5];
      const fragmentation = t - ring[at + 6] - (ring[at + 7] - 1);
      s.packets += record;
      s.latencySum += record * latency;
      s.networkLatencySum += record * networkLatency;
      s.fragmentationSum += record * fragmentation;
      s.latencyMin = Math.min(s.latencyMin, record ? latency : NO_LOW);
      s.latencyMax = Math.max(s.latencyMax, record ? latency : NO_HIGH);
      s.networkLatencyMin = Math.min(s.networkLatencyMin, record ? networkLatency : NO_LOW);
      s.networkLatencyMax = Math.max(s.networkLatencyMax, record ? networkLatency : NO_HIGH);
      s.fragmentationMin = Math.min(s.fragmentationMin, record ? fragmentation : NO_LOW);
      s.fragmentationMax = Math.max(s.fragmentationMax, record ? fragmentation : NO_HIGH);
      s.hopsSum += record * ring[at + 8];
      this.recordedOutstanding -= recorded;
    }
  }

  /** Retires every flit still unread, as if its terminal had read it (a run's end). */
  retireUnread(): void {
    this.retireReadFlits(Number.MAX_SAFE_INTEGER);
  }

  /** Flits buffered in router r's input VCs, visible or still arriving. */
  routerFlits(r: number): number {
    let n = 0;
    for (let i = this.rInStart[r]; i < this.rInStart[r + 1]; i++) for (let v = 0; v < this.V; v++) n += this.ivcCount[this.rInPorts[i] * this.V + v];
    return n;
  }

  /** Credits on their way upstream (BookSim's Credit::OutStanding, waited for before "Time taken"). */
  creditsInFlight(): number {
    let n = 0;
    for (let i = 0; i < this.wheelSize; i++) n += this.wheelCount[i];
    return n;
  }

  /** Σ over outstanding flits of their age, as BookSim's latency-threshold check counts them. */
  outstandingAgeSum(): number {
    return this.now * (this.outstandingFlits + this.unreadFlits) - (this.outstandingCtimeSum + this.unreadCtimeSum);
  }

  /** Flits not yet retired by BookSim's count: in the network or its source queues, or ejected and not yet read. */
  get unretiredFlits(): number {
    return this.outstandingFlits + this.unreadFlits;
  }

  /** Channels (by id) leaving node `r` used for VC-level diagnostics. */
  vcsPerPort(): number {
    return this.V;
  }
}

/** Per channel, the rank of its key among the channels sharing its router (`router[c]`): 0, 1, … by ascending key. */
function rankWithin(router: Int32Array, key: Int32Array, numRouters: number): Int32Array {
  const order = Array.from({ length: router.length }, (_, c) => c).sort((a, b) => router[a] - router[b] || key[a] - key[b]);
  const rank = new Int32Array(router.length);
  const next = new Int32Array(numRouters);
  for (const c of order) rank[c] = next[router[c]]++;
  return rank;
}

/** Hops a packet's route columns hold: the routing's longest route where it gives one, else its bound. */
function routeColumns(routing: RoutingFunction): number {
  return routing.longestRoute?.() ?? routing.maxHops;
}

/** What a packet network's memory grows with (limits.ts packetNetworkBytes), read from its inputs. */
export function packetShape(topology: Topology, routing: RoutingFunction, cfg: PacketConfig): PacketNetworkShape {
  let maxOutDegree = 1;
  let maxInDegree = 1;
  for (let v = 0; v < topology.numNodes; v++) {
    maxOutDegree = Math.max(maxOutDegree, topology.outDegree(v));
    maxInDegree = Math.max(maxInDegree, topology.inDegree(v));
  }
  return {
    numNodes: topology.numNodes,
    numChannels: topology.numChannels,
    maxOutDegree,
    maxInDegree,
    maxHops: routeColumns(routing),
    vcs: cfg.vcs,
    vcBuf: cfg.vcBuf,
    injectionPorts: cfg.injectionPorts,
    ejectionPorts: cfg.ejectionPorts,
    perLinkInjection: cfg.perLinkInjection,
    perLinkEjection: cfg.perLinkEjection,
  };
}

/** The local index, within lane[start..end), of the slot with the lowest lane (slots without one, −1, skipped). */
function lowestLaneAt(lane: Int32Array, start: number, end: number): number {
  let best = 0;
  for (let k = start; k < end; k++) if (lane[k] >= 0 && (lane[start + best] < 0 || lane[k] < lane[start + best])) best = k - start;
  return best;
}
