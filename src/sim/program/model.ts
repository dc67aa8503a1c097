/**
 * The flow engine's time model: every value configurable, every default stated here and in
 * docs/flow.md, and the resolved values recorded in each result.
 */
import { InputError } from '../../util/errors.js';
import { MAX_TIME_S } from '../../util/units.js';
import type { Topology } from '../../topology/graph.js';
import { fatpipeChannels } from '../../topology/registry.js';
import { parseOverheadText, type SizeOverheads } from './software-overheads.js';
import { NETWORK_MODELS, networkCorrections, parseFactorText, type NetworkCorrections, type NetworkModelName, type SizeFactors } from './network-model.js';

export interface FlowModelOptions {
  /**
   * Per-message software overhead α (LogGP o), seconds; the sending stream is busy for it. Default
   * 1µs, except on a collective library's messages (program.opLibrary): there the library's own
   * latency, paid once up front, replaces it, so their α is 0 unless set here (`libraryAlpha`).
   */
  alpha?: number;
  /** Added latency per hop (router pipeline), seconds. Default 0 (the channel latency includes it). */
  routerLatency?: number;
  /** NICs per rank; stream s of a rank injects through NIC s mod nics. Default 1. */
  nics?: number;
  /** Injection bandwidth per NIC, bytes/s; null = not a separate limit (the endpoint's links are). */
  injectionBandwidth?: number | null;
  /** Ejection bandwidth per NIC, bytes/s (a rank ejects at nics × this); null = not a separate limit. */
  ejectionBandwidth?: number | null;
  /** Latency of one stage of the modelled barrier network; cost = stage × ⌈log2 P⌉. null = α + max channel latency + router latency. */
  barrierStageLatency?: number | null;
  /**
   * How a barrier is timed. 'stages' (default): the modelled barrier network, ⌈log2 P⌉ stages of
   * `barrierStageLatency`, released together. 'linear': SMPI's default (Open MPI's basic linear):
   * every rank sends a zero-byte message to the lowest participating rank (the root), which answers
   * each once it has all of them; each rank is released when the root's answer arrives. Run as
   * those messages (program/barriers.ts `lowerLinearBarriers`), so envelopes and link sharing
   * apply; a key used by several streams of one rank is timed by route latency instead.
   */
  barrier?: BarrierModel;
  /** hwCollective combining tree: latency per tree level (up and down: 2⌈log2 P⌉ levels). Default 100ns. */
  hwLevelLatency?: number;
  /** hwCollective combining tree bandwidth, bytes/s; null = the topology's largest channel bandwidth. */
  hwBandwidth?: number | null;
  /** Extra latency at a turnaround node, cut-through in the switch (seed 001 2nd embodiment: 2.1µs vs 2µs). Default 100ns. */
  turnaroundSwitch?: number;
  /** Extra latency at a turnaround node through processor memory (1st embodiment: 4µs vs 2µs). Default 2µs. */
  turnaroundMemory?: number;
  /** Extra latency at a turnaround node with the in-switch reduce unit (5th embodiment: 2.4µs vs 2µs). Default 400ns. */
  turnaroundReduce?: number;
  /** Compute cost per byte of a reduce, s/B (γ). Default 0 (network-only model). */
  gammaReduce?: number;
  /** Compute cost per byte of a copy, s/B. Default 0. */
  gammaCopy?: number;
  /**
   * Send half of each flow with an even and half with an odd route salt when the two routes differ
   * (packet level: a message's packets alternate the salt's parity). Default: when the routing says
   * params.split = 'halves'.
   */
  splitTies?: boolean;
  /** Relative tolerance under which events count as simultaneous (batched). Default 1e-12. */
  simultaneity?: number;
  /**
   * 'exact' (default): after each batch of simultaneous events, exact max-min rates, filling again
   * only the flows the batch can move: those frozen at or above the lowest level a finished flow
   * had or a started flow saturates at, in the components the batch touched (the others keep theirs).
   * 'full': every active flow re-solved after each batch (the reference 'exact' is checked against,
   * to 1e-9 relative). 'local': only the flows that share a channel with a flow that started or
   * ended are re-rated, within what the other flows leave (feasible, not always max-min; fast).
   */
  rateUpdate?: RateUpdate;
  /**
   * The NIC model: in which order a node's outstanding sends leave it. 'fifo' (default): one queue
   * per NIC and first link, as the packet engine's source queues and a real NIC's send queue, so a
   * pipelined send's segments leave one after another; 'per-destination': one queue per
   * destination, fair across destinations (NICs with a queue pair per peer); 'shared': every
   * outstanding send shares max-min at once (SimGrid SMPI's model).
   */
  injectionOrder?: InjectionOrder;
  /**
   * Point-to-point protocol. 'eager' (default): a send's data moves as soon as it is posted and the
   * sender never waits. 'mpi': below `eagerThreshold` as eager (detached); at or above it,
   * rendezvous: the data moves only once the matching receive is posted, and the send blocks until
   * its data has left. 'smpi': SimGrid SMPI's rule: every send's data moves only once its matching
   * receive is posted (SimGrid matches both sides in a mailbox before a transfer starts); a send
   * below `eagerThreshold`, a sendrecv's included, is detached (its stream goes on at once); a send
   * at or above it completes when its message has been delivered.
   */
  protocol?: Protocol;
  /** Bytes from which protocol 'mpi' uses rendezvous, and 'smpi' stops detaching. Default 65,536 (SMPI's smpi/send-is-detached-thresh). */
  eagerThreshold?: number;
  /**
   * Protocol 'smpi': bytes below which a send's data moves at once, without waiting for its receive
   * to be posted (SMPI's smpi/async-small-thresh: such a send goes to the receiver's small mailbox,
   * which starts its transfer eagerly). Default 0, SMPI's: every send waits for its receive.
   */
  asyncSmallThreshold?: number;
  /**
   * SMPI's software overheads by message size (SimGrid's smpi/os, smpi/ois, smpi/or), in its syntax
   * `threshold:offset:per-byte;...` (program/software-overheads.ts): the sender is busy `sendOverhead`
   * before a detached blocking send and `isendOverhead` before an isend or a sendrecv's send; the
   * receiver `recvOverhead` after a message from a detached send arrives. Protocol 'smpi' only
   * (detached decides who pays); default none, as SMPI's.
   */
  sendOverhead?: string;
  isendOverhead?: string;
  recvOverhead?: string;
  /**
   * Bytes every point-to-point message carries on the wire beyond its data (flow engine): the MPI
   * envelope. Default 0; the simgrid preset 16, SMPI 3.32's (smpi_request.cpp, Request::start:
   * payload_size_ = size_ + 16, "MPI envelope size (tag+dest+communicator)"), so a zero-byte message
   * is a 16-byte flow. The moved bytes and link loads of the result count it (they are on the wire).
   */
  envelopeBytes?: number;
  /**
   * How flows share a channel. 'maxmin' (default): plain max-min fairness. 'cm02': SimGrid's CM02
   * (LMM) rule: a flow's share is weighted by 1 / its route latency, so shorter routes get more
   * (see sim/flow/maxmin.ts `cm02Weight`). Needs rateUpdate 'exact' or 'full'. 'none': no sharing,
   * ASTRA-sim's congestion-unaware analytical backend: every flow moves at its route's bottleneck
   * bandwidth whatever else crosses its channels (a model of no contention, not of a network).
   * 'store-forward': ASTRA-sim's congestion-aware analytical backend: a message crosses its route
   * link by link, each link sending one message at a time, first come first served, for bytes /
   * its bandwidth, the message reaching the next node the link's latency later and only then
   * going on (sim/flow/store-forward.ts). Needs injectionOrder shared (its default then).
   */
  sharing?: Sharing;
  /**
   * When a flow's route latency is spent (flow engine). 'on-delivery' (default): the flow transfers
   * as soon as it is posted and its receiver has the data one route latency after the last byte
   * left. 'before-transfer': SimGrid's rule: the flow holds no bandwidth for its route latency, then
   * transfers, and is delivered when the transfer ends (the same time alone; under contention flows
   * with longer routes enter later).
   */
  latencyRule?: LatencyRule;
  /**
   * SimGrid's corrections on top of CM02 sharing (program/network-model.ts). 'ideal' (default): none.
   * 'cm02': SimGrid's plain CM02 model, whose one correction is the rate bound TCP-gamma / (2 × route
   * latency) (`--preset simgrid`); needs sharing 'cm02'. 'smpi': SimGrid 3.32's default SMPI network model: per-size bandwidth and latency factors
   * (smpi/bw-factor, smpi/lat-factor), weight-S 8775 in the sharing penalty, a rate bound of
   * TCP-gamma / (2 × route latency), and cross-traffic (each flow takes 0.05 of its rate on its
   * reverse route). 'lv08': SimGrid's LV08 (latency × 13.01, bandwidth × 0.97, weight-S 20537,
   * TCP-gamma, cross-traffic). Each needs sharing 'cm02'; cross-traffic needs rateUpdate 'full' (its
   * default then).
   */
  networkModel?: NetworkModelName;
  /**
   * The network model's terms one by one (each needs a networkModel other than 'ideal', whose
   * default it replaces; SimGrid's --cfg names in brackets): the latency factor, one number for every
   * size or SimGrid's `threshold:value;...` by message size (network/latency-factor, smpi/lat-factor);
   * the bandwidth factor, the same (network/bandwidth-factor, smpi/bw-factor); weight-S in bytes
   * (network/weight-S); the TCP-gamma bound in bytes, 0 for none (network/TCP-gamma); the share of its rate a
   * flow takes on its reverse route (network/crosstraffic: SimGrid's 1 is 0.05; needs rateUpdate 'full').
   */
  latencyFactor?: string;
  bandwidthFactor?: string;
  weightS?: number;
  tcpGamma?: number;
  crossTraffic?: number;
  /** The name of the preset these options came from (sim/flow/presets.ts), recorded in the result; null for none. */
  preset?: string | null;
  /**
   * Flow engine: 'auto' (default) times one representative rank per orbit when the run is invariant
   * under a subgroup of the topology's declared automorphisms and has at least `symmetryMinRanks`
   * ranks (sim/flow/symmetry.ts; exact up to floating-point order); 'off' always runs every rank.
   * Under 'auto' an algorithm that declares its rank symmetry (the rings, pairwise, linear, Bruck, recursive doubling, Rabenseifner; on a torus hop-grouped, per-step-barrier, dimension-ordered) is timed
   * from its representatives' streams alone, never building its schedule, when that schedule would
   * exceed 2^24 ops (sim/representatives.ts `REPRESENTATIVES_AUTO_OPS`); 'representatives' does so whenever the run qualifies (no schedule view
   * and no per-op times of every op then; sim/representatives.ts).
   */
  symmetry?: SymmetryMode;
  /** Library only: the rank count from which 'auto' uses symmetry (default 1,024; tests set 1). */
  symmetryMinRanks?: number;
}

export type SymmetryMode = 'auto' | 'off' | 'representatives';
export const SYMMETRY_MODES: readonly SymmetryMode[] = ['auto', 'off', 'representatives'];
/**
 * Below this many ranks `symmetry: auto` runs the full engine: it is the reference and takes at most
 * a few CPU seconds there (pairwise alltoall on 512 ranks: 1.75 s, docs/performance.md), while the
 * quotient's checks cost a pass over the whole program either way.
 */
export const SYMMETRY_MIN_RANKS = 1024;

export type BarrierModel = 'stages' | 'linear';
export const BARRIER_MODELS: readonly BarrierModel[] = ['stages', 'linear'];

export type LatencyRule = 'on-delivery' | 'before-transfer';
export const LATENCY_RULES: readonly LatencyRule[] = ['on-delivery', 'before-transfer'];

export type Sharing = 'maxmin' | 'cm02' | 'none' | 'store-forward';
export const SHARINGS: readonly Sharing[] = ['maxmin', 'cm02', 'none', 'store-forward'];

export type InjectionOrder = 'fifo' | 'per-destination' | 'shared';
export const INJECTION_ORDERS: readonly InjectionOrder[] = ['fifo', 'per-destination', 'shared'];
export type Protocol = 'eager' | 'mpi' | 'smpi';
export const PROTOCOLS: readonly Protocol[] = ['eager', 'mpi', 'smpi'];

export type RateUpdate = 'exact' | 'full' | 'local';
export const RATE_UPDATES: readonly RateUpdate[] = ['exact', 'full', 'local'];

export interface FlowModel extends NetworkCorrections {
  readonly alpha: number;
  /** α of a collective library's messages (program.opLibrary): the α set, else 0 (the library's latency replaces it). */
  readonly libraryAlpha: number;
  readonly routerLatency: number;
  readonly nics: number;
  readonly injectionBandwidth: number | null;
  readonly ejectionBandwidth: number | null;
  readonly barrierStageLatency: number;
  readonly barrier: BarrierModel;
  readonly hwLevelLatency: number;
  /** hwLevelLatency of a collective library's hw operations (program.opLibrary: NVLS): the one set, else 0 (the library's latency, NCCL's NVLS hwLat, replaces it). */
  readonly libraryHwLevelLatency: number;
  readonly hwBandwidth: number;
  readonly turnaroundSwitch: number;
  readonly turnaroundMemory: number;
  readonly turnaroundReduce: number;
  readonly gammaReduce: number;
  readonly gammaCopy: number;
  readonly splitTies: boolean;
  readonly simultaneity: number;
  readonly rateUpdate: RateUpdate;
  readonly injectionOrder: InjectionOrder;
  readonly protocol: Protocol;
  readonly eagerThreshold: number;
  readonly asyncSmallThreshold: number;
  /** SMPI's software overheads (null: none): see FlowModelOptions.sendOverhead. */
  readonly sendOverhead: SizeOverheads | null;
  readonly isendOverhead: SizeOverheads | null;
  readonly recvOverhead: SizeOverheads | null;
  readonly envelopeBytes: number;
  readonly sharing: Sharing;
  readonly latencyRule: LatencyRule;
  readonly preset: string | null;
  readonly symmetry: SymmetryMode;
  readonly symmetryMinRanks: number;
}

function nonNegative(field: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!(typeof v === 'number' && Number.isFinite(v) && v >= 0)) throw new InputError(field, v, 'a non-negative finite number');
  return v;
}

/** A duration in seconds, up to MAX_TIME_S (10^9 s, about 32 years, the bound of typed times): beyond, a run's sums of times overflow. */
function duration(field: string, v: number | undefined, dflt: number): number {
  const t = nonNegative(field, v, dflt);
  if (t > MAX_TIME_S) throw new InputError(field, v, 'a non-negative time in seconds, at most 1e9');
  return t;
}

function positiveInteger(field: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!(Number.isInteger(v) && v >= 1)) throw new InputError(field, v, 'a positive integer');
  return v;
}

function positiveOrNull(field: string, v: number | null | undefined): number | null {
  if (v === undefined || v === null) return null;
  if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw new InputError(field, v, 'a positive finite bandwidth such as 25Gbps');
  return v;
}

/** Checks the topology's channel bandwidths: zero, negative or non-finite is refused. */
export function checkTopologyBandwidth(t: Topology): void {
  for (let c = 0; c < t.numChannels; c++) {
    const b = t.chBandwidth[c];
    if (!(b > 0 && Number.isFinite(b))) throw new InputError(`topology.channel[${c}].bandwidth`, b, 'a positive finite bandwidth');
    const l = t.chLatency[c];
    if (!(l >= 0 && Number.isFinite(l))) throw new InputError(`topology.channel[${c}].latency`, l, 'a non-negative finite latency');
  }
}

export function resolveFlowModel(opts: FlowModelOptions, topology: Topology, routingSplit: unknown): FlowModel {
  const alpha = duration('model.alpha', opts.alpha, 1e-6);
  const routerLatency = duration('model.routerLatency', opts.routerLatency, 0);
  const nics = opts.nics ?? 1;
  if (!Number.isInteger(nics) || nics < 1 || nics > 64) throw new InputError('model.nics', nics, 'an integer from 1 to 64');
  let maxLat = 0;
  let maxBw = 0;
  for (let c = 0; c < topology.numChannels; c++) {
    maxLat = Math.max(maxLat, topology.chLatency[c]);
    maxBw = Math.max(maxBw, topology.chBandwidth[c]);
  }
  const barrier = opts.barrierStageLatency ?? null;
  const network = oneOf('model.networkModel', opts.networkModel, NETWORK_MODELS, 'ideal');
  const corrections = resolveCorrections(opts, network);
  const protocol = oneOf('model.protocol', opts.protocol, PROTOCOLS, 'eager');
  return {
    alpha,
    libraryAlpha: opts.alpha === undefined ? 0 : alpha,
    routerLatency,
    nics,
    injectionBandwidth: positiveOrNull('model.injectionBandwidth', opts.injectionBandwidth),
    ejectionBandwidth: positiveOrNull('model.ejectionBandwidth', opts.ejectionBandwidth),
    barrierStageLatency: barrier === null ? alpha + maxLat + routerLatency : duration('model.barrierStageLatency', barrier, 0),
    barrier: oneOf('model.barrier', opts.barrier, BARRIER_MODELS, 'stages'),
    hwLevelLatency: duration('model.hwLevelLatency', opts.hwLevelLatency, 100e-9),
    libraryHwLevelLatency: opts.hwLevelLatency === undefined ? 0 : duration('model.hwLevelLatency', opts.hwLevelLatency, 100e-9),
    hwBandwidth: positiveOrNull('model.hwBandwidth', opts.hwBandwidth) ?? (maxBw > 0 ? maxBw : 1),
    turnaroundSwitch: duration('model.turnaroundSwitch', opts.turnaroundSwitch, 100e-9),
    turnaroundMemory: duration('model.turnaroundMemory', opts.turnaroundMemory, 2e-6),
    turnaroundReduce: duration('model.turnaroundReduce', opts.turnaroundReduce, 400e-9),
    gammaReduce: nonNegative('model.gammaReduce', opts.gammaReduce, 0),
    gammaCopy: nonNegative('model.gammaCopy', opts.gammaCopy, 0),
    splitTies: opts.splitTies ?? routingSplit === 'halves',
    simultaneity: nonNegative('model.simultaneity', opts.simultaneity, 1e-12),
    rateUpdate: checkRateUpdate(opts.rateUpdate, network, corrections.crossTraffic, fatpipeChannels(topology) !== undefined),
    injectionOrder: checkInjectionOrder(opts),
    protocol,
    eagerThreshold: nonNegative('model.eagerThreshold', opts.eagerThreshold, 65536),
    asyncSmallThreshold: asyncSmallThreshold(opts.asyncSmallThreshold, protocol),
    sendOverhead: softwareOverhead('sendOverhead', opts.sendOverhead, protocol),
    isendOverhead: softwareOverhead('isendOverhead', opts.isendOverhead, protocol),
    recvOverhead: softwareOverhead('recvOverhead', opts.recvOverhead, protocol),
    envelopeBytes: nonNegative('model.envelopeBytes', opts.envelopeBytes, 0),
    sharing: checkSharing(opts, network),
    latencyRule: checkLatency(opts.latencyRule, opts.sharing === 'store-forward' ? 'shared' : opts.injectionOrder),
    preset: opts.preset ?? null,
    symmetry: oneOf('model.symmetry', opts.symmetry, SYMMETRY_MODES, 'auto'),
    symmetryMinRanks: positiveInteger('model.symmetryMinRanks', opts.symmetryMinRanks, SYMMETRY_MIN_RANKS),
    ...corrections,
  };
}

/** SMPI's smpi/async-small-thresh: a whole number of bytes, above 0 only under protocol smpi. */
function asyncSmallThreshold(v: number | undefined, protocol: Protocol): number {
  const bytes = nonNegative('model.asyncSmallThreshold', v, 0);
  if (!Number.isSafeInteger(bytes)) throw new InputError('model.asyncSmallThreshold', v, 'a whole number of bytes >= 0');
  if (bytes > 0 && protocol !== 'smpi') throw new InputError('model.asyncSmallThreshold', v, "a threshold with protocol smpi only (SMPI's small sends: --protocol smpi, or --preset simgrid / simgrid-smpi)");
  return bytes;
}

/** One of SMPI's software overheads: parsed, and only under protocol smpi, whose detached sends decide who pays it. */
function softwareOverhead(field: 'sendOverhead' | 'isendOverhead' | 'recvOverhead', v: string | undefined, protocol: Protocol): SizeOverheads | null {
  if (v === undefined) return null;
  if (typeof v !== 'string') throw new InputError(`model.${field}`, v, "SimGrid's overhead syntax threshold:offset:per-byte;...");
  const overheads = parseOverheadText(v, `model.${field}`);
  if (overheads !== null && protocol !== 'smpi') throw new InputError(`model.${field}`, v, "an overhead with protocol smpi only (SMPI's detached sends decide which messages pay it: --protocol smpi, or --preset simgrid / simgrid-smpi)");
  return overheads;
}

/** The network model's corrections with the terms the options set one by one (each needs a SimGrid network model). */
function resolveCorrections(opts: FlowModelOptions, network: NetworkModelName): NetworkCorrections {
  const base = networkCorrections(network);
  const given = (['latencyFactor', 'bandwidthFactor', 'weightS', 'tcpGamma', 'crossTraffic'] as const).find((k) => opts[k] !== undefined);
  if (given === undefined) return base;
  if (network === 'ideal') throw new InputError(`model.${given}`, opts[given], 'a term of a SimGrid network model: with networkModel cm02, lv08 or smpi (--preset simgrid or simgrid-smpi)');
  const factor = (field: 'latencyFactor' | 'bandwidthFactor', dflt: SizeFactors | null): SizeFactors | null => {
    const v = opts[field];
    if (v === undefined) return dflt;
    if (typeof v !== 'string') throw new InputError(`model.${field}`, v, "a positive number (every size), or SimGrid's factor syntax threshold:value;...");
    return parseFactorText(v, `model.${field}`);
  };
  const tcpGamma = opts.tcpGamma;
  if (tcpGamma !== undefined && !(typeof tcpGamma === 'number' && tcpGamma >= 0 && Number.isFinite(tcpGamma))) throw new InputError('model.tcpGamma', tcpGamma, 'a number of bytes >= 0 (0: no bound)');
  const crossTraffic = opts.crossTraffic;
  if (crossTraffic !== undefined && !(typeof crossTraffic === 'number' && crossTraffic >= 0 && crossTraffic <= 1)) throw new InputError('model.crossTraffic', crossTraffic, "a share from 0 to 1 (SimGrid's network/crosstraffic 1 is 0.05)");
  return {
    networkModel: network,
    latencyFactors: factor('latencyFactor', base.latencyFactors),
    bandwidthFactors: factor('bandwidthFactor', base.bandwidthFactors),
    weightS: nonNegative('model.weightS', opts.weightS, base.weightS),
    // SimGrid's solver reads a rate bound of 0 as none (lmm maxmin.cpp: `bound_ > 0`).
    tcpGamma: tcpGamma === undefined ? base.tcpGamma : tcpGamma === 0 ? null : tcpGamma,
    crossTraffic: crossTraffic ?? base.crossTraffic,
  };
}

/**
 * Model choices that only the flow engine can make, each with the reason it does not apply at
 * packet level. A packet run keeps the rest of the model (α, protocol, injection order, barrier:
 * sim/program/semantics.ts) and records these as not applied (docs/packet.md, "Flow-only model
 * choices"): refusing them would refuse `--preset simgrid` at packet level, whose other settings do
 * apply.
 */
const FLOW_ONLY_CHOICES = [
  {
    field: 'latencyRule',
    packetValue: 'on-delivery',
    reason:
      "not applied: SimGrid CM02's flow holding no bandwidth during its route latency is a flow-model artefact; at packet level latency is physical (router pipeline and channel latency per hop), and a packet transfers as soon as it is posted, which is on-delivery",
  },
  {
    field: 'sharing',
    packetValue: 'maxmin',
    reason: "not applied: CM02's 1 / route-latency weights, no sharing at all (ASTRA-sim's congestion-unaware backend) and whole messages stored and forwarded link by link (its congestion-aware backend) are flow-model rules; at packet level routers share a link by round-robin arbitration among input ports, as max-min does",
  },
  {
    field: 'networkModel',
    packetValue: 'ideal',
    reason: "not applied: SMPI's per-size bandwidth and latency factors, weight-S, TCP-gamma bound and cross-traffic are corrections of a flow model; the packet engine moves flits over the links as they are",
  },
  {
    field: 'envelopeBytes',
    packetValue: 0,
    reason: 'not applied: the packet engine sends the data bytes alone',
  },
] as const;

/**
 * The model a packet run records: the flow-only choices replaced by what the packet engine does,
 * and `notApplied` naming each one the caller asked for with its reason (absent when none).
 */
export function packetModelRecord(model: FlowModel): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const notApplied: Record<string, string> = {};
  for (const choice of FLOW_ONLY_CHOICES) {
    const asked = model[choice.field];
    if (asked === choice.packetValue) continue;
    record[choice.field] = choice.packetValue;
    notApplied[choice.field] = `${asked}: ${choice.reason}`;
  }
  // The corrections' resolved values go with their network model: the packet engine's are none.
  if (model.networkModel !== 'ideal') Object.assign(record, networkCorrections('ideal'));
  if (Object.keys(notApplied).length > 0) record.notApplied = notApplied;
  return record;
}

function checkSharing(opts: FlowModelOptions, network: NetworkModelName): Sharing {
  const v = opts.sharing;
  const rateUpdate = opts.rateUpdate;
  const sharing = oneOf('model.sharing', v, SHARINGS, 'maxmin');
  if (sharing === 'store-forward') checkStoreForward(opts);
  // Weight-S, cross-traffic and the TCP-gamma bound are terms of SimGrid's CM02 actions and LMM.
  if (network !== 'ideal' && sharing !== 'cm02') {
    // Name what the user set: the sharing when given, else the network model that needs it.
    if (v === undefined) throw new InputError('model.networkModel', network, `ideal, or ${network} with sharing cm02 (its corrections are terms of CM02 sharing; --preset ${network === 'smpi' ? 'simgrid-smpi' : 'simgrid'} sets both)`);
    throw new InputError('model.sharing', v, `cm02 with networkModel ${network} (its corrections are terms of CM02 sharing)`);
  }
  // The local filler re-rates subsets unweighted; CM02 is implemented in the exact solver only.
  if (sharing === 'cm02' && rateUpdate === 'local') throw new InputError('model.sharing', v, 'maxmin with rateUpdate local (cm02 needs rateUpdate exact)');
  return sharing;
}

/**
 * What store-and-forward links cannot combine with: every link is its own first-come-first-served
 * queue (a NIC queue would hold a message twice), its latency follows its serialization, and a
 * message takes one route over channels only.
 */
function checkStoreForward(opts: FlowModelOptions): void {
  const refuse = (field: string, value: unknown, accepted: string): never => {
    throw new InputError(field, value, `${accepted} with sharing store-forward (ASTRA-sim's congestion-aware links)`);
  };
  if (opts.latencyRule === 'before-transfer') refuse('model.latencyRule', opts.latencyRule, 'on-delivery: each link pays its latency after serializing the message');
  if (opts.splitTies === true) refuse('model.splitTies', true, 'false: a message takes one route');
  if (opts.injectionBandwidth != null) refuse('model.injectionBandwidth', opts.injectionBandwidth, 'none: the first link is the NIC');
  if (opts.ejectionBandwidth != null) refuse('model.ejectionBandwidth', opts.ejectionBandwidth, 'none: the last link is the NIC');
}

/** The NIC's send order: `fifo` by default, `shared` under store-and-forward links (each link queues its own messages). */
function checkInjectionOrder(opts: FlowModelOptions): InjectionOrder {
  const storeForward = opts.sharing === 'store-forward';
  const order = oneOf('model.injectionOrder', opts.injectionOrder, INJECTION_ORDERS, storeForward ? 'shared' : 'fifo');
  if (storeForward && order !== 'shared') throw new InputError('model.injectionOrder', order, "shared with sharing store-forward (every link, the NIC's first included, queues its messages first come first served)");
  return order;
}

function checkRateUpdate(v: RateUpdate | undefined, network: NetworkModelName, crossTraffic: number, fatpipe: boolean): RateUpdate {
  // Cross-traffic loads a flow's reverse route at a fraction of its rate, and a FATPIPE link takes
  // the largest of its flows' loads: only the full solver reads either.
  if (crossTraffic > 0 || fatpipe) {
    const why = crossTraffic > 0 ? `cross-traffic (networkModel ${network}'s cross-traffic is solved by the full update only)` : "FATPIPE links (SimGrid's sharing of a FATPIPE link is solved by the full update only)";
    if (v !== undefined && v !== 'full') throw new InputError('model.rateUpdate', v, `full with ${why}`);
    return 'full';
  }
  return oneOf('model.rateUpdate', v, RATE_UPDATES, 'exact');
}

function checkLatency(v: LatencyRule | undefined, order: InjectionOrder | undefined): LatencyRule {
  const rule = oneOf('model.latencyRule', v, LATENCY_RULES, 'on-delivery');
  // SimGrid's rule is about flows that all start when posted; a NIC queue would hold a flow twice.
  if (rule === 'before-transfer' && order !== 'shared') throw new InputError('model.latencyRule', v, 'on-delivery unless injectionOrder is shared (before-transfer models SimGrid, whose sends share the NIC)');
  return rule;
}

function oneOf<T extends string>(field: string, v: T | undefined, accepted: readonly T[], dflt: T): T {
  if (v === undefined) return dflt;
  if (!accepted.includes(v)) throw new InputError(field, v, accepted.join(', '));
  return v;
}
