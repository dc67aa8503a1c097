/**
 * Packet-engine configuration: every knob the router model has, validated at the edge, and the
 * named presets. Components receive these plain values (no string-keyed lookups in the hot loop).
 */
import { InputError, requireRecord } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';
import { familyOf } from '../../topology/registry.js';
import { getAllocator, getArbiter } from './allocators/index.js';

export type Switching = 'wormhole' | 'vct';
/** A registered arbiter's name (allocators/registry.ts); built in: round-robin, age. */
export type Arbitration = string;
/**
 * When a freed buffer slot's credit leaves for the upstream router: `next-cycle` (BookSim: the credit
 * is made in `_SWAllocUpdate` and sent by `_SendCredits` over a credit `Channel`, one cycle later)
 * or `same-cycle` (it leaves in the cycle of the switch grant).
 */
export type CreditReturn = 'next-cycle' | 'same-cycle';
export const CREDIT_RETURNS: readonly CreditReturn[] = ['next-cycle', 'same-cycle'];
/**
 * Terminals of indirect networks (fat trees, dragonflies: terminal nodes with one link to a switch):
 * `direct` injects and ejects straight at the switch's input and output ports, as BookSim's
 * terminals do; `routers` models each terminal as a one-port router (two more router pipelines).
 */
export type TerminalModel = 'direct' | 'routers';
export const TERMINAL_MODELS: readonly TerminalModel[] = ['direct', 'routers'];
/**
 * What VC allocation requires of a downstream VC: `free` (not owned; BookSim's
 * `vc_busy_when_full = 0`), `free-with-credit` (also at least one credit, a whole packet's under VCT)
 * or `empty` (also every credit back: the previous packet's tail has left the downstream buffer,
 * BookSim's `wait_for_tail_credit = 1`).
 */
export type VcAllocCheck = 'free' | 'free-with-credit' | 'empty';
export const VC_ALLOC_CHECKS: readonly VcAllocCheck[] = ['free', 'free-with-credit', 'empty'];
/**
 * The VC a packet enters the network on: `round-robin` over the free ones (BookSim's source) or
 * `random`, one VC drawn afresh each cycle, waiting if it is busy (BookSim's `min_dragonflynew`).
 */
export type InjectionVc = 'round-robin' | 'random';
export const INJECTION_VCS: readonly InjectionVc[] = ['round-robin', 'random'];
/**
 * Credits of an ejection port's VCs: `terminal` (each VC holds `vcBuf` credits, spent at the switch
 * grant and returned by the terminal when it reads the flit, over the ejection channel: BookSim's
 * `_SWAllocEvaluate` checks them at every output, and its terminals send a credit back on reading)
 * or `unlimited` (the terminal sinks every flit; the grant needs no credit).
 */
export type EjectionCredits = 'terminal' | 'unlimited';
export const EJECTION_CREDITS: readonly EjectionCredits[] = ['terminal', 'unlimited'];

/**
 * When an adaptive routing (one that reads credits) chooses the packet's path: `first-router`, at
 * the route stage of the first router the packet's head reaches (BookSim's routing functions, called
 * there with `in_channel < gC`; what a router reading its own credit counters does) or `injection`,
 * as the packet leaves its source queue (a cycle or more earlier, and before any wait behind another
 * packet in the injection VC).
 */
export type AdaptiveDecision = 'first-router' | 'injection';
export const ADAPTIVE_DECISIONS: readonly AdaptiveDecision[] = ['first-router', 'injection'];

export interface PacketConfig {
  /** Virtual channels per port. */
  vcs: number;
  /** Buffer depth per VC, flits. */
  vcBuf: number;
  /** Flits per packet for synthetic traffic. */
  packetSize: number;
  switching: Switching;
  /** Pipeline stage delays, cycles (BookSim: routing_delay, vc_alloc_delay, sw_alloc_delay, st_final_delay). */
  routingDelay: number;
  vcAllocDelay: number;
  swAllocDelay: number;
  stDelay: number;
  /**
   * Router internal speedup (BookSim `internal_speedup`): the router's pipeline (routing, VC and
   * switch allocation, crossbar) runs floor(c·S) − floor((c−1)·S) times in cycle c, and each output
   * keeps a FIFO output buffer that sends one flit per cycle (BookSim's IQRouter output queues).
   * 1: no output buffering, one crossbar pass per cycle.
   */
  internalSpeedup: number;
  /**
   * Output speedup (BookSim `output_speedup`, an integer): an output accepts up to S flits a cycle
   * from the crossbar, input i on lane i mod S, into its output buffer, which sends one flit per
   * cycle. Default 1.
   */
  outputSpeedup?: number;
  /**
   * Crossbar inputs per input port (BookSim `input_speedup`, an integer): VC v of a port feeds
   * crossbar input v mod S, so up to S of its VCs (in different residues) cross in one cycle, each
   * to its own output. Default 1.
   */
  inputSpeedup?: number;
  /**
   * Extra cycles before a router uses a credit from downstream (BookSim credit_delay, which the
   * receiving router adds in _ReceiveCredits); a source reads its injection port's credits without it.
   */
  creditDelay: number;
  creditReturn: CreditReturn;
  terminals: TerminalModel;
  vcAllocCheck: VcAllocCheck;
  /**
   * BookSim's vc_prioritize_empty: in VC allocation an input prefers output VCs whose downstream
   * buffer is empty (for allocators that read input priorities: separable, wavefront, select).
   * Absent: false.
   */
  vcPrioritizeEmpty?: boolean;
  /**
   * BookSim's vc_shuffle_requests: VC allocation numbers its requesters VC-major (vc·inputs + input)
   * rather than input-major, which changes the round-robin order among them. Absent: false.
   */
  vcShuffleRequests?: boolean;
  /**
   * BookSim's vc_priority_donation: under a packet priority (not local-age or queue-length) a VC
   * competes with the best priority of any flit it holds, not its front flit's. Absent: false.
   */
  vcPriorityDonation?: boolean;
  /**
   * BookSim's hold_switch_for_packet: a VC granted the switch for a body flit keeps its input and
   * output while its packet's next flit is already in the buffer, and sends it the next cycle without
   * allocation. Speedup 1 only. Absent: false.
   */
  holdSwitchForPacket?: boolean;
  injectionVc: InjectionVc;
  ejectionCredits: EjectionCredits;
  adaptiveDecision: AdaptiveDecision;
  /** Channel latency in cycles: one number, or per channel class name (e.g. {"x+": 2}); `default` key for the rest. */
  channelLatency: number | Readonly<Record<string, number>>;
  /** Serialisation cycles per flit on a channel: one number or per class (seed 004: d clocks per packet per link). */
  serialization: number | Readonly<Record<string, number>>;
  injectionLatency: number;
  ejectionLatency: number;
  /** Registered allocator for VC and switch allocation (built in: islip; islip-rr, BookSim's default, under the booksim preset). */
  allocator: string;
  /** A different registered allocator for switch allocation only (BookSim's sw_allocator); absent: `allocator`. */
  swAllocator?: string;
  /** Allocator iterations for VC and switch allocation (iSLIP's; BookSim's `islip(N)`). */
  allocIters: number;
  /** Switch allocator iterations where they differ from allocIters (BookSim's `sw_allocator = islip(N)`); absent: allocIters. */
  swAllocIters?: number;
  /**
   * Priority used by every allocator and arbiter, including injection against through traffic:
   * round-robin (per input, BookSim's round_robin arb_type) or age (oldest packet first).
   */
  arbitration: Arbitration;
  injectionPorts: number;
  /**
   * Each injection port (NIC) keeps one source queue per out-link of its node, and a packet waits in
   * the queue of its first hop: the NIC then feeds every link at full rate, as the flow model's
   * `injection=links` (no NIC limit) assumes. Off: one FIFO per port at one flit per cycle (BookSim).
   */
  perLinkInjection: boolean;
  ejectionPorts: number;
  /**
   * Each ejection port has one sink per in-link of its node, and a packet leaves through the sink
   * of the link it arrived on (the flow model's `ejection=links`). Off: one flit per cycle per port.
   */
  perLinkEjection: boolean;
  /**
   * The order of a router's ports in its allocators (round-robin order): `topology` (the topology's
   * own port numbers) or `booksim` (BookSim's port numbers where the family declares them,
   * `booksimPorts`: on a k-ary n-cube the +x neighbour's port before the −x one's). Default topology.
   */
  portOrder?: PortOrder;
  /** Deadlock detector: stop when no flit moved for this many cycles while flits are in flight. */
  deadlockCycles: number;
  seed: number;
}

/** Crossbar passes per cycle accepted: beyond a few, the router is an output-queued switch anyway. */
export const MAX_INTERNAL_SPEEDUP = 16;

export type PortOrder = 'topology' | 'booksim';
export const PORT_ORDERS: readonly PortOrder[] = ['topology', 'booksim'];

export type PresetName = 'booksim' | 'default';
export const PRESET_NAMES: readonly PresetName[] = ['booksim', 'default'];

/**
 * The presets, with what each sets. `booksim` reproduces BookSim 2.0's default `iq` router with the
 * reference configuration (../shared/reference/booksim/README.md): 4-stage pipeline (routing,
 * VC alloc, switch alloc, switch traversal, 1 cycle each), credit_delay 0, iSLIP with 1 iteration,
 * round-robin arbitration, wormhole, vc_buf_size 8, 1 injection and 1 ejection port, and BookSim's
 * `use_noc_latency` channel latencies: 1 cycle on a mesh, 2 on a torus (its wrap links are longer),
 * 1 cycle on injection and ejection channels.
 */
export function presetConfig(name: PresetName, topology: Topology): PacketConfig {
  if (!PRESET_NAMES.includes(name)) throw new InputError('preset', name, PRESET_NAMES.join(' | '));
  const base: PacketConfig = {
    vcs: 2,
    vcBuf: 8,
    packetSize: 1,
    switching: 'wormhole',
    routingDelay: 1,
    vcAllocDelay: 1,
    swAllocDelay: 1,
    stDelay: 1,
    internalSpeedup: 1,
    creditDelay: 0,
    creditReturn: 'next-cycle',
    terminals: 'direct',
    vcAllocCheck: 'free',
    injectionVc: 'round-robin',
    ejectionCredits: 'unlimited',
    adaptiveDecision: 'first-router',
    channelLatency: 1,
    serialization: 1,
    injectionLatency: 1,
    ejectionLatency: 1,
    allocator: 'islip',
    allocIters: 1,
    arbitration: 'round-robin',
    injectionPorts: 1,
    perLinkInjection: false,
    ejectionPorts: 1,
    perLinkEjection: false,
    deadlockCycles: 2000,
    seed: 1,
  };
  if (name === 'booksim') {
    const family = familyOf(topology);
    // A file topology has no family; BookSim's anynet declares its channels' latencies itself (interop/anynet.ts).
    const declared = topology.params.booksimChannelLatency as Readonly<Record<string, number>> | undefined;
    const latency = family?.booksimChannelLatency ?? declared ?? 1;
    base.channelLatency = typeof latency === 'function' ? latency(topology) : latency;
    if (family?.booksimInjectionVc) base.injectionVc = family.booksimInjectionVc;
    base.ejectionCredits = 'terminal';
    if (family?.booksimPorts) base.portOrder = 'booksim';
    base.allocator = 'islip-rr';
  }
  return base;
}

/**
 * BookSim's channel latencies: `use_noc_latency` gives torus links 2 cycles (wrap links are longer),
 * mesh and fat-tree links 1; `dragonflynew` is built with DRAGON_LATENCY (local 10, global 100,
 * terminal channels 1).
 */
function checkInt(field: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) throw new InputError(field, v, `an integer in [${min}, ${max}]`);
}

function checkChoice<T extends string>(field: string, v: T, accepted: readonly T[]): void {
  if (!accepted.includes(v)) throw new InputError(field, v, accepted.join(' | '));
}

function checkPerClass(field: string, v: number | Readonly<Record<string, number>>, min: number, max: number): void {
  const values = typeof v === 'number' ? [v] : Object.values(v);
  for (const x of values) checkInt(field, x, min, max);
}

/**
 * Cycles per flit at most: a channel a thousandth of the router's flit rate. Every cycle a flit waits
 * for its channel is a router step, so 10^5 took minutes on a 16-node run while its flits waited.
 */
export const MAX_SERIALIZATION = 1000;

/**
 * A per-class channel latency the caller gave names only classes the topology has (or `default`):
 * a class it lacks matched no channel, so `--channel-latency glboal=100` was silently ignored.
 */
export function checkChannelClasses(latency: PacketConfig['channelLatency'] | undefined, topology: Topology): void {
  if (latency === undefined || typeof latency === 'number') return;
  for (const name of Object.keys(latency)) {
    if (name !== 'default' && !topology.classNames.includes(name)) {
      throw new InputError('channel-latency', name, `a channel class of ${topology.spec}: ${[...topology.classNames, 'default'].join(', ')}`);
    }
  }
}

/**
 * Validates a configuration against a topology and the VC classes its routing needs. With
 * `vcsPerClass` (BookSim's dragonflynew: class c on VC c alone) any count from classes × vcsPerClass
 * runs, the VCs above them serving injection only; otherwise the VCs split evenly over the classes.
 */
export function validateConfig(cfg: PacketConfig, vcClasses: number, vcsPerClass?: number): void {
  requireRecord(cfg, 'config', 'a PacketConfig object');
  checkInt('vcs', cfg.vcs, 1, 64);
  if (vcsPerClass !== undefined) {
    if (cfg.vcs < vcClasses * vcsPerClass) throw new InputError('vcs', cfg.vcs, `at least ${vcClasses * vcsPerClass} (${vcClasses} VC classes of ${vcsPerClass})`);
  } else if (cfg.vcs < vcClasses || cfg.vcs % vcClasses !== 0) {
    throw new InputError('vcs', cfg.vcs, `a multiple of ${vcClasses} (minimum ${vcClasses}: the routing needs ${vcClasses} VC classes for deadlock freedom)`);
  }
  checkInt('vc-buf', cfg.vcBuf, 1, 1 << 16);
  checkInt('packet-size', cfg.packetSize, 1, 1 << 16);
  if (cfg.switching !== 'wormhole' && cfg.switching !== 'vct') throw new InputError('switching', cfg.switching, 'wormhole | vct');
  if (cfg.switching === 'vct' && cfg.vcBuf < cfg.packetSize) {
    throw new InputError('vc-buf', cfg.vcBuf, `at least the packet size (${cfg.packetSize} flits) under virtual cut-through`);
  }
  checkInt('routing-delay', cfg.routingDelay, 0, 1000);
  checkInt('vc-alloc-delay', cfg.vcAllocDelay, 1, 1000);
  checkInt('sw-alloc-delay', cfg.swAllocDelay, 0, 1000);
  checkInt('st-delay', cfg.stDelay, 0, 1000);
  if (typeof cfg.internalSpeedup !== 'number' || !(cfg.internalSpeedup >= 1 && cfg.internalSpeedup <= MAX_INTERNAL_SPEEDUP)) {
    throw new InputError('internal-speedup', cfg.internalSpeedup, `a number in [1, ${MAX_INTERNAL_SPEEDUP}]`);
  }
  if (cfg.outputSpeedup !== undefined) checkInt('output-speedup', cfg.outputSpeedup, 1, 16);
  if (cfg.inputSpeedup !== undefined) checkInt('input-speedup', cfg.inputSpeedup, 1, cfg.vcs);
  checkInt('credit-delay', cfg.creditDelay, 0, 1000);
  checkChoice('credit-return', cfg.creditReturn, CREDIT_RETURNS);
  checkChoice('terminals', cfg.terminals, TERMINAL_MODELS);
  checkChoice('vc-alloc-check', cfg.vcAllocCheck, VC_ALLOC_CHECKS);
  checkChoice('injection-vc', cfg.injectionVc, INJECTION_VCS);
  for (const [key, value] of [['vc-prioritize-empty', cfg.vcPrioritizeEmpty], ['vc-shuffle-requests', cfg.vcShuffleRequests], ['vc-priority-donation', cfg.vcPriorityDonation], ['hold-switch-for-packet', cfg.holdSwitchForPacket]] as const) {
    if (value !== undefined && typeof value !== 'boolean') throw new InputError(key, value, 'true | false');
  }
  if (cfg.portOrder !== undefined) checkChoice('port-order', cfg.portOrder, PORT_ORDERS);
  checkChoice('ejection-credits', cfg.ejectionCredits, EJECTION_CREDITS);
  checkChoice('adaptive-decision', cfg.adaptiveDecision, ADAPTIVE_DECISIONS);
  checkPerClass('channel-latency', cfg.channelLatency, 1, 1_000_000);
  checkPerClass('serialization', cfg.serialization, 1, MAX_SERIALIZATION);
  checkInt('injection-latency', cfg.injectionLatency, 1, 1000);
  checkInt('ejection-latency', cfg.ejectionLatency, 1, 1000);
  checkInt('alloc-iters', cfg.allocIters, 1, 64);
  if (cfg.swAllocIters !== undefined) checkInt('sw-alloc-iters', cfg.swAllocIters, 1, 64);
  getArbiter(cfg.arbitration);
  getAllocator(cfg.allocator);
  if (cfg.swAllocator !== undefined) getAllocator(cfg.swAllocator);
  checkInt('injection-ports', cfg.injectionPorts, 1, 64);
  checkInt('ejection-ports', cfg.ejectionPorts, 1, 64);
  if (typeof cfg.perLinkInjection !== 'boolean') throw new InputError('per-link-injection', cfg.perLinkInjection, 'true | false');
  if (typeof cfg.perLinkEjection !== 'boolean') throw new InputError('per-link-ejection', cfg.perLinkEjection, 'true | false');
  checkInt('deadlock-cycles', cfg.deadlockCycles, 10, 1e9);
}

/** Resolves a per-class value for channel c. */
export function perClass(v: number | Readonly<Record<string, number>>, className: string): number {
  if (typeof v === 'number') return v;
  return v[className] ?? v.default ?? 1;
}

/** Each channel class's [min, max] latency in cycles, given every channel's (`cycles[c]`). */
export function channelLatencyRanges(t: Topology, cycles: Int32Array): Record<string, [number, number]> {
  const ranges: Record<string, [number, number]> = {};
  for (let c = 0; c < t.numChannels; c++) {
    const r = (ranges[t.className(c)] ??= [cycles[c], cycles[c]]);
    r[0] = Math.min(r[0], cycles[c]);
    r[1] = Math.max(r[1], cycles[c]);
  }
  return ranges;
}
