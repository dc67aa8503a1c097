/**
 * Named settings of the flow engine's time model and routing for comparisons with other simulators.
 * A preset only supplies defaults: every option given explicitly still wins, and the result records
 * the preset's name (`model.preset`) next to the resolved values.
 */
import { InputError } from '../../util/errors.js';
import type { RoutingOptions } from '../../routing/registry.js';
import type { Topology } from '../../topology/graph.js';
import type { FlowModelOptions } from '../program/model.js';

export type FlowPresetName = 'simgrid' | 'simgrid-smpi' | 'seed001' | 'astra' | 'astra-congestion-aware';
export const FLOW_PRESET_NAMES: readonly FlowPresetName[] = ['simgrid', 'simgrid-smpi', 'seed001', 'astra', 'astra-congestion-aware'];

export interface FlowPreset {
  readonly name: FlowPresetName;
  readonly model: FlowModelOptions;
  readonly routing: RoutingOptions;
  /**
   * A routing the preset chooses on one topology family only, where it applies (presetRoutingOptions:
   * that family, the flow engine, and the preset's sharing): the family, the routing's name, and why
   * (recorded in the routing's params as `chosen_by`).
   */
  readonly familyRouting?: { readonly family: string; readonly routing: string; readonly reason: string };
  /** Why each setting, in words (docs/flow.md, "Comparing with SimGrid SMPI"). */
  readonly reasons: Readonly<Record<string, string>>;
}

/**
 * `simgrid`: SimGrid 3.32 SMPI with its plain CM02 network model (network/model:CM02: no correction
 * factors, weight-S 0, but its TCP-gamma bound, gamma / (2 × route latency), which binds on routes of
 * more than 210 µs at 10 GBps) and no cross-traffic, as the reference cases in test/reference/simgrid/
 * were run.
 */
const SIMGRID: FlowPreset = {
  name: 'simgrid',
  model: { alpha: 0, sharing: 'cm02', networkModel: 'cm02', injectionOrder: 'shared', protocol: 'smpi', eagerThreshold: 65536, envelopeBytes: 16, barrier: 'linear', latencyRule: 'before-transfer', preset: 'simgrid' },
  routing: { tie: 'simgrid' },
  reasons: {
    alpha: "SMPI's default software overheads (smpi/os, smpi/or, smpi/ois) are 0",
    sharing: "CM02's LMM weights each flow's share by 1 / its route latency",
    networkModel:
      "cm02: network/model:CM02 has no correction factors and weight-S 0, but network_cm02.cpp still bounds each transfer's rate by TCP-gamma 4 MiB / (2 × route latency): on a route of 4 ms at 1 GBps a 16 MiB pairwise alltoall was 9 % fast without it",
    latencyRule:
      "before-transfer: a SimGrid CM02 action holds no bandwidth while its latency elapses, then transfers; with on-delivery the binomial broadcast at 1 KiB was 18-34 % slow (flows to near and far children shared the root's link at once)",
    tie: "SimGrid's TorusZone sends a k/2 tie + except from coordinate k/2 itself, which goes −",
    injectionOrder: "shared: SMPI shares a host's link among all its outstanding sends (max-min, no NIC queue)",
    protocol:
      "smpi: SimGrid starts a transfer only once both sides are matched in a mailbox (smpi/async-small-thresh 0), every send below 64 KiB, MPI_Sendrecv's included, is detached (smpi/send-is-detached-thresh) and returns at once, and every send from 64 KiB completes when its data has arrived. With mpi instead (small sends eager: data moving before the receive is posted) the ring allreduce was 42-56 % fast at 1 KiB; when a sendrecv's small send waited for delivery, the shift allgather at 1 KiB was +17 % on the dragonfly and the ring allreduce on SHARED links -7 %; with eager, pairwise alltoall was +35 % and the binomial broadcast up to +250 %",
    envelopeBytes:
      "16: SMPI adds a 16-byte MPI envelope to every message it sends (smpi_request.cpp, payload_size_ = size_ + 16); without it the fat-tree and dragonfly barriers were 11-12 % fast and dragonfly rab_rdb at 1 KiB 2.1 %",
    barrier:
      "linear: SMPI 3.32's default barrier is Open MPI's basic linear (smpirun on the 4x4x4 torus: default 1.2132 µs = ompi_basic_linear; recursive doubling 0.9244 µs, bruck 1.5201 µs): zero-byte messages to rank 0 and back over the routes",
  },
};

/**
 * `simgrid-smpi`: SimGrid 3.32 SMPI as `smpirun` runs it by default, with its `SMPI` network model
 * (smpirun's --cfg=network/model:SMPI; program/network-model.ts): everything of `simgrid`, plus the
 * model's per-size bandwidth and latency factors, weight-S 8775, the TCP-gamma bound and cross-traffic
 * (network/crosstraffic on). The reference cases in test/reference/simgrid/smpi-model-cases/.
 */
const SIMGRID_SMPI: FlowPreset = {
  name: 'simgrid-smpi',
  model: { ...SIMGRID.model, networkModel: 'smpi', rateUpdate: 'full', preset: 'simgrid-smpi' },
  routing: SIMGRID.routing,
  reasons: {
    ...SIMGRID.reasons,
    networkModel:
      "smpi: smpirun's default network model (SimGrid 3.32 smpirun sets --cfg=network/model:SMPI): a transfer of S bytes (envelope included) waits its route latency × smpi/lat-factor(S) holding no bandwidth, then moves at smpi/bw-factor(S) × the bandwidth it holds (factors of SimGrid's sg_config.cpp, looked up as network_smpi.cpp does); its CM02 penalty adds weight-S 8775 / bandwidth per link (surf_network_model_init_SMPI); its rate is at most TCP-gamma 4 MiB / (2 × route latency); and it loads its reverse route with 0.05 of its rate (network/crosstraffic, default on: its acknowledgements)",
    rateUpdate: 'full: cross-traffic entries are read by the full solver only',
  },
};

/**
 * `seed001`: the latency model of JP 2020-046713 A as shared/spec/seed001_fullmesh.md §1.4 and §8
 * read it, the one seed 001's reproduction times with (analysis/reproduce/seed001-timing.ts).
 * The reproduction's packet-level runs name `injectionOrder: 'fifo'` over it (seed001-timing.ts,
 * SEED001_PACKET_MODEL); a packet run under the preset alone shares each link packet by packet.
 */
const SEED001: FlowPreset = {
  name: 'seed001',
  model: { alpha: 2e-6, routerLatency: 0, turnaroundMemory: 2e-6, turnaroundSwitch: 100e-9, turnaroundReduce: 400e-9, injectionOrder: 'shared', preset: 'seed001' },
  routing: {},
  reasons: {
    alpha: 'T0 = 2 µs per direct transfer, [0057] (spec §1.4)',
    routerLatency: "0: the document's latencies are per transfer (T0, T1), with nothing per hop besides them",
    turnaroundMemory: 'T1 − T0 through processor memory: 4 µs − 2 µs ([0035] 1st embodiment; [0100] 4th reduce)',
    turnaroundSwitch: 'T1 − T0 turned around in the switch: 2.1 µs − 2 µs ([0035] 2nd, [0057] 3rd embodiment)',
    turnaroundReduce: 'T1 − T0 with the reduce unit in the switch: 2.4 µs − 2 µs ([0103] 5th embodiment)',
    injectionOrder: "shared: a node's sends issued in parallel share a link (spec §8's break-even sizes assume it)",
  },
};

/**
 * `astra`: ASTRA-sim's congestion-unaware analytical network backend (astra-sim @ 518bd513,
 * astra-network-analytical congestion_unaware: a message takes hops × latency + size / bandwidth
 * whatever else is in flight), which times a message by the first dimension its NPUs differ in: on
 * astra networks the routing astra-first-dimension (familyRouting). Its system layer's costs are the run's other options: `--alpha` its
 * endpoint-delay (10 ns unless the system file says otherwise), `--reduce-bw` its local-mem-bw / 3
 * (docs/workloads.md, "ASTRA-sim's network files").
 */
const ASTRA: FlowPreset = {
  name: 'astra',
  model: { alpha: 10e-9, sharing: 'none', injectionOrder: 'shared', preset: 'astra' },
  routing: {},
  familyRouting: {
    family: 'astra',
    routing: 'astra-first-dimension',
    reason:
      "--preset astra on an astra network, flow engine, sharing none: ASTRA-sim's congestion-unaware MultiDimTopology::send charges a message only in the first dimension its NPUs differ in (get_dim_to_transfer), so routing across every dimension made oneRing and oneDirect 8-202 % slow on multi-dimensional networks",
  },
  reasons: {
    alpha: "10 ns: ASTRA-sim's default endpoint-delay (Sys.cc), charged once per message",
    sharing: 'none: the congestion-unaware backend times every message as if it were alone on its links (BasicTopology::send)',
    injectionOrder: 'shared: the backend sends every message the moment the system layer issues it, with no NIC queue',
  },
};

/**
 * `astra-congestion-aware`: ASTRA-sim's congestion-aware analytical network backend
 * (AstraSim_Analytical_Congestion_Aware; astra-network-analytical congestion_aware, one-dimensional
 * networks only): store-and-forward links, each sending one message at a time first come first
 * served (sim/flow/store-forward.ts), over its own routes (on astra networks the routing
 * astra-congestion-aware: Ring clockwise at a tie). The system layer's costs as under `astra`.
 */
const ASTRA_CONGESTION_AWARE: FlowPreset = {
  name: 'astra-congestion-aware',
  model: { alpha: 10e-9, sharing: 'store-forward', injectionOrder: 'shared', preset: 'astra-congestion-aware' },
  routing: {},
  familyRouting: {
    family: 'astra',
    routing: 'astra-congestion-aware',
    reason:
      "--preset astra-congestion-aware on an astra network, flow engine, sharing store-forward: ASTRA-sim's congestion-aware Ring::route goes clockwise at a tie (Meshwork's shortest-path tie takes the lower node id), FullyConnected direct, Switch NPU-switch-NPU",
  },
  reasons: {
    alpha: ASTRA.reasons.alpha,
    sharing:
      "store-forward: the congestion-aware backend sends a chunk link by link (Chunk::chunk_arrived_next_device), each link one chunk at a time from a FIFO of pending chunks (Link::send), busy for size / bandwidth and delivering latency later; on a Switch network a message so pays its serialization twice, where cut-through max-min (Meshwork's default) pays it once: 11-45 % faster than ASTRA-sim there",
    injectionOrder: "shared: every link queues its own messages, the NPU's first link included (no NIC queue besides)",
  },
};

/**
 * The routing options a preset gives a run: its own, plus its family routing where that applies
 * (the topology of its family, the flow engine, sharing none once `model` — the options given — is
 * laid over the preset's), with the reason for it. Elsewhere the topology's default routing stays.
 */
export function presetRoutingOptions(preset: FlowPreset, topology: Topology, engine: 'flow' | 'packet', model: FlowModelOptions = {}): RoutingOptions {
  const choice = preset.familyRouting;
  const sharing = model.sharing ?? preset.model.sharing;
  if (!choice || topology.family !== choice.family || engine !== 'flow' || sharing !== preset.model.sharing) return preset.routing;
  return { ...preset.routing, routing: choice.routing, chosenBy: choice.reason };
}

export function flowPreset(name: string): FlowPreset {
  if (name === 'simgrid') return SIMGRID;
  if (name === 'simgrid-smpi') return SIMGRID_SMPI;
  if (name === 'seed001') return SEED001;
  if (name === 'astra') return ASTRA;
  if (name === 'astra-congestion-aware') return ASTRA_CONGESTION_AWARE;
  throw new InputError('preset', name, FLOW_PRESET_NAMES.join(', '));
}
