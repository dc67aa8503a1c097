/**
 * The collective libraries' time presets and tuning model (issue 25). A machine preset holds, per
 * wire protocol (LL, LL128, Simple), the physical parameters NCCL's own tuning model uses
 * (src/graph/tuning.cc: a launch latency, a latency per ring step over the scale-up links and per
 * step across the network, and the fraction of a link's rate the protocol achieves). The picker
 * (`--algorithm nccl` / `rccl`) predicts each candidate's time the way the library does,
 * latency + bytes / bandwidth, and takes the fastest; the run then times the pick at flow level,
 * where the latency is paid once at the start of every stream and the bytes move over the
 * topology's links scaled by the protocol's efficiency (sim/library.ts).
 *
 * Where each value comes from is stated next to it and in docs/validation.md. Values calibrated on
 * a measured table say so: one number per protocol (its asymptotic rate, or its latency), never a
 * correction per message size.
 */
import { InputError } from '../../../util/errors.js';
import type { Topology } from '../../../topology/graph.js';
import type { CollectiveKind } from '../../types.js';
import { channelCount, layoutOf, LIBRARY_PROTOCOLS, meshRings, type LibraryProtocol, type MachineLayout } from './layout.js';

export interface ProtocolTiming {
  /** Launch latency of one collective call (NCCL baseLat), seconds. */
  readonly base_s: number;
  /** Latency per ring step over scale-up links (NCCL hwLat[NVLINK]), seconds. */
  readonly step_s: number;
  /** Latency per step across the scale-out network (NCCL hwLat[NET]), seconds. */
  readonly netStep_s: number;
  /** Fraction of a scale-up link's rate the protocol achieves (wire overhead and the kernel's own limits). */
  readonly efficiency: number;
  /** Fraction of a NIC port's rate the protocol achieves. */
  readonly netEfficiency: number;
}

export type LibraryName = 'nccl' | 'rccl';
export const LIBRARY_NAMES: readonly LibraryName[] = ['nccl', 'rccl'];

/** A direct all-pairs kernel's own timing (MSCCL's allpairs on MI300X): launch and sync latency, and the fraction of each link's rate it achieves. */
export interface DirectTiming {
  /** Paid once per stream before its first operation, seconds (the wire's link latencies come on top). */
  readonly latency_s: number;
  readonly efficiency: number;
}

/**
 * One of the MSCCL algorithms a library ships for a machine (RCCL tools/msccl-algorithms/*.xml):
 * the library runs it instead of its tuning model's pick when the call matches, as RCCL's MSCCL
 * scheduler does (src/misc/msccl/msccl_lifecycle.cc: same rank count, minBytes ≤ bytes ≤ maxBytes,
 * and the element count a multiple of the algorithm's chunks per loop).
 */
export interface MscclAlgorithm {
  /** The XML file it stands for (RCCL's tools/msccl-algorithms/). */
  readonly file: string;
  readonly collective: CollectiveKind;
  readonly ranks: number;
  readonly protocol: LibraryProtocol;
  readonly chunksPerLoop: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  /** The Meshwork schedule that moves the same bytes (allpairs: direct reduce-scatter then allgather). */
  readonly spec: string;
}

export interface LibraryMachine {
  readonly name: string;
  readonly description: string;
  readonly protocols: Readonly<Record<LibraryProtocol, ProtocolTiming>>;
  /** Protocols the library does not run on this machine (RCCL on MI300X: no LL128, tuning model 5 bwRatio 0). */
  readonly disabledProtocols?: readonly LibraryProtocol[];
  /** The direct kernels' own timing per protocol, where they are not the ring's (MSCCL allpairs). */
  readonly direct?: Readonly<Partial<Record<LibraryProtocol, DirectTiming>>>;
  /**
   * NCCL's Tree timing per protocol (base, intra-node step, network step; efficiency: the tree's
   * busBw factor). Tree is a candidate of the picker only where the preset carries it.
   */
  readonly tree?: Readonly<Record<LibraryProtocol, ProtocolTiming>>;
  /**
   * The share of a scale-up link's line rate the library moves data at, every protocol alike (its
   * own factors come on top): NCCL's per-link NVLink bandwidth over the line rate (topo.h
   * SM90_NVLINK_BW 20.6 of NVLink4's 25 GB/s, SM100_NVLINK_BW 40.1 of NVLink5's 50), the
   * bandwidth NCCL's tuning model sees and the one its kernels reach (370 GB/s on an H100's 18
   * links, NVIDIA/nccl-tests#212; nccl#1455 measures ring busbw 365-370 GB/s on 8 H100). 1 (the
   * line rate) where not set.
   */
  readonly scaleUpLinkEfficiency?: number;
  /** NVLS (in-switch reduction, Simple only): its latency inside a node and the switch's efficiency. Candidate only where set and the topology's switches reduce. */
  readonly nvls?: { readonly latency_s: number; readonly efficiency: number };
  /**
   * NCCL's NVLS_TREE (allreduce across nodes, Simple, with `nvls`): hwLat NVLink (paid once) and NET
   * (per tree level, up and down), and the per-channel bus-bandwidth cap perChMaxNVLSTreeBws for
   * [2 nodes, 3 or more]. A candidate only where set, with nodes > 1 and switches that reduce; absent
   * where the machine's profile disables NVLS (h100-tcpxo: NCCL_NVLS_ENABLE=0).
   */
  readonly nvlsTree?: { readonly latency_s: number; readonly netLatency_s: number; readonly perChannelMaxBus_Bps: readonly [number, number] };
  /**
   * NCCL's PAT (allgather, reduce-scatter; one accelerator per node, Simple): launch latency, latency
   * per log2 step across the network, a part still linear in the ranks, and its busBw factor.
   */
  readonly pat?: { readonly base_s: number; readonly logStep_s: number; readonly perRank_s: number; readonly efficiency: number };
  /** NCCL's LL bus-bandwidth cap (llMaxBws) by node count: [1 node, 2 nodes, 3 or more], bytes/s; the picker bounds LL ring and tree by it. */
  readonly llMaxBus_Bps?: readonly [number, number, number];
  /** NCCL's network post overhead (getNetOverhead): across nodes a ring's intra-node step costs at least this (× 3 for Simple). */
  readonly netOverhead_s?: number;
  /** MSCCL algorithms the library runs for matching calls before its tuning model (RCCL only). */
  readonly msccl?: readonly MscclAlgorithm[];
  /**
   * Calibrated parameters and the measured row each was solved from (docs/validation.md): the
   * table file and its size in bytes. Every other row of that table is held out.
   */
  readonly anchors?: ReadonlyArray<{ readonly parameter: string; readonly table: string; readonly size_bytes: number }>;
  /** How each value was set (docs/validation.md repeats it). */
  readonly reasons: Readonly<Record<string, string>>;
}

const us = 1e-6;

/** NCCL's NVLink bandwidth per link over the line rate (topo.h, NCCL_SOURCE): Hopper 20.6 of 25 GB/s, Blackwell 40.1 of 50. */
const HOPPER_NVLINK_EFFICIENCY = 20.6 / 25;
const BLACKWELL_NVLINK_EFFICIENCY = 40.1 / 50;
/** Ampere (SM80): NCCL's 20.0 GB/s per NVLink 3 link of 25 GB/s line rate (topo.h SM80_NVLINK_BW, NCCL_SOURCE). */
const AMPERE_NVLINK_EFFICIENCY = 20.0 / 25;

/**
 * Bytes each accelerator's link carries per byte of buffer in an NVLS allreduce over G accelerators,
 * each way: the switch reads every shard from every accelerator (multimem.ld_reduce: out S) and
 * returns each its reduced shard (in S / G), which the owner stores to the multicast address (out
 * S / G) and the switch copies to all G (in S): S (1 + 1 / G) each way.
 */
export const nvlsTrafficFactor = (G: number): number => 1 + 1 / G;

/** The NIC-side factor of Simple, solved (with its network step) from the A3 Mega table's 32 MiB and 8 GiB rows; it carries over to other NICs. */
const NIC_SIMPLE_EFFICIENCY = 0.9335;
const A3_MEGA = 'h100_a3mega_2node_16gpu_allreduce.csv';

/** MI300X values solved from one or two anchor rows of the measured table each (anchors below; docs/validation.md). */
const MI300X_TABLE = 'mi300x_1node_8gpu_allreduce.csv';
const MI300X_RING_SIMPLE_EFFICIENCY = 0.7054;
const MI300X_ALLPAIRS_LL_LATENCY = 13.35 * us;
const MI300X_ALLPAIRS_SIMPLE_LATENCY = 23.05 * us;
const MI300X_ALLPAIRS_SIMPLE_EFFICIENCY = 0.5178;

/** The NCCL source the constants and rules below follow. */
export const NCCL_SOURCE = 'NVIDIA/nccl 2.30.7 (@ 5067397c) src/graph/tuning.cc ncclTunerConstantsDefaults, ncclTopoTuneModel, ncclTopoGetAlgoTime; src/enqueue.cc updateCollCostTable';

/**
 * NCCL's ring constants (NCCL_SOURCE): baseLat Ring {LL 6.6, LL128 14.0, Simple 8.4} µs, hwLat
 * NVLink Ring {.6, 1.9, 3.4} µs, NET Ring {2.7, 4.0, 14.0} µs; bus bandwidth × .5 for LL (an 8-byte
 * line carries 4 bytes of data and a 4-byte flag), × .92 for LL128 (120 of 128 bytes per line).
 */
const NCCL_MODEL: Record<LibraryProtocol, ProtocolTiming> = {
  LL: { base_s: 6.6 * us, step_s: 0.6 * us, netStep_s: 2.7 * us, efficiency: 0.5, netEfficiency: 0.5 },
  LL128: { base_s: 14 * us, step_s: 1.9 * us, netStep_s: 4.0 * us, efficiency: 0.92, netEfficiency: 0.92 },
  Simple: { base_s: 8.4 * us, step_s: 3.4 * us, netStep_s: 14.0 * us, efficiency: 1, netEfficiency: 1 },
};

/**
 * NCCL's Tree, same source: baseLat Tree {LL 6.8, LL128 14.0, Simple 8.4} µs, hwLat NVLink Tree
 * {.6, 1.25, 4.0} µs, NET Tree {5.0, 8.5, 14} µs. Bus bandwidth: × .92 for allreduce, LL further
 * / 3.8, LL128 × 120/128 across nodes (7/9 in one node: `treeEfficiency`).
 */
const NCCL_TREE: Record<LibraryProtocol, ProtocolTiming> = {
  LL: { base_s: 6.8 * us, step_s: 0.6 * us, netStep_s: 5.0 * us, efficiency: 0.92 / 3.8, netEfficiency: 0.92 / 3.8 },
  LL128: { base_s: 14 * us, step_s: 1.25 * us, netStep_s: 8.5 * us, efficiency: 0.92 * (120 / 128), netEfficiency: 0.92 * (120 / 128) },
  Simple: { base_s: 8.4 * us, step_s: 4.0 * us, netStep_s: 14 * us, efficiency: 0.92, netEfficiency: 0.92 },
};

/**
 * NCCL's Tree correction (ncclTopoGetAlgoTime, NCCL_SOURCE): the tree's bandwidth × this factor
 * for allreduce of 64 B · 2^i bytes (i = ⌊log2(bytes / 64)⌋, 0 ≤ i < 23), per protocol. It is
 * NCCL's own model (the library picks with it), so the picker applies it as NCCL does; the run
 * itself times the tree's schedule at flow level without it.
 */
export const NCCL_TREE_CORRECTION: Readonly<Record<LibraryProtocol, readonly number[]>> = {
  LL: [1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0],
  LL128: [1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0, 1.0, 1.0],
  Simple: [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9, 0.9],
};

/** NCCL's tree correction factor for an allreduce of `bytes` (1 outside the table's range). */
export function treeCorrection(protocol: LibraryProtocol, bytes: number): number {
  const logSize = Math.floor(Math.log2(Math.max(1, Math.floor(bytes / 64))));
  return bytes >= 64 && logSize < 23 ? NCCL_TREE_CORRECTION[protocol][logSize] : 1;
}

/**
 * NCCL's ring "plateau" (ncclTopoGetAlgoTime, NCCL_SOURCE): across nodes, a ring Simple allreduce
 * of at least 64 bytes per channel and rank has its latency × 1.4 (compute capability ≥ 8.0; 1.9 before).
 */
const NCCL_RING_PLATEAU = 1.4;

/**
 * NCCL's LL bus-bandwidth caps, llMaxBws (NCCL_SOURCE), GB/s by node count (1, 2, ≥ 3 nodes): in
 * one node the GPU generation's (Hopper 141), across nodes the host CPU's (x86 Intel row 39, 39, 20.4).
 */
const HOPPER_INTEL_LL_MAX_BUS = [141e9, 39e9, 20.4e9] as const;

/**
 * NCCL's NVLS (NCCL_SOURCE): no base latency, hwLat NVLink NVLS Simple 25 µs; the switch's
 * efficiency on Hopper, nvlsEfficiency 0.85. NCCL disables NVLS across nodes unless CollNet (a
 * reducing network, SHARP) is enabled, and Meshwork models no CollNet: the picker offers `nvls`
 * in one node only (it still runs across nodes when named).
 */
const NCCL_NVLS = { latency_s: 25 * us, efficiency: 0.85 };

/**
 * NCCL's NVLS_TREE (NCCL_SOURCE; tuning.cc ncclTunerConstantsDefaults and ncclTopoTuneModel):
 * baseLatencies NVLS Tree 0; hwLatencies NVLINK NVLSTree Simple 25 µs, NET NVLSTree Simple 20.9 µs;
 * latency = intraLat + 2 · log2i(nNodes) · interLat (interLat + the graph's latencyInter, twice for
 * Simple: the net plugin's latency, 0 for InfiniBand). Bandwidth per channel: min(bwIntra ·
 * nvlsEfficiency · (nc − 1)/nc · 2 ("AllReduce pipelines two operations"), bwInter · 2 if nNodes ≤ 2
 * ("2 node case of NVLSTree"), perChMaxNVLSTreeBws[arch][N2 | N4]), × nChannels, × nRanks /
 * (2(nRanks − 1)) to algBw. perChMaxNVLSTreeBws: Hopper {0, 57.7, 45.5}, Blackwell {0, 96.0, 80.0}
 * GB/s (N1, N2, N4; index nNodes ≤ 2 ? nNodes − 1 : 2). NCCL disables it on one node only
 * (ncclTopoTuneModel: "Disable NVLS Tree on a single node"). The tree correction factor applies to
 * it on Blackwell x86 only (ncclTopoGetAlgoTime: minCompCap ≥ 100), so not on Hopper.
 */
const NCCL_NVLS_TREE_HOPPER = { latency_s: 25 * us, netLatency_s: 20.9 * us, perChannelMaxBus_Bps: [57.7e9, 45.5e9] as const };
const NCCL_NVLS_TREE_BLACKWELL = { ...NCCL_NVLS_TREE_HOPPER, perChannelMaxBus_Bps: [96.0e9, 80.0e9] as const };

/**
 * NCCL's NVLS channels in its tuning model: the NVLS graph's nChannels, one per head, at most one per
 * accelerator and per NIC of the node (search.cc: maxChannels = min(NCCL_MAX_NVLS_ARITY 32, GPUs);
 * ncclTopoSearchRecNet stops at netCount heads). 8 on HGX H100.
 */
export function nvlsTreeChannels(t: Topology, layout: MachineLayout): number {
  const nics = (t.params as { nics?: unknown }).nics;
  return Math.max(1, Math.min(32, layout.gpusPerNode, typeof nics === 'number' && nics > 0 ? nics : layout.gpusPerNode));
}

/**
 * NCCL's NVLS_TREE bus bandwidth (ncclTopoTuneModel, above), from the topology's rates: bwIntra per
 * channel is the accelerator's scale-up rate over nc + 1 (the NVLS search takes bwIntra from every
 * accelerator's links per channel and twice from the channel's head), bwInter per channel a NIC's share
 * of the node's network rate.
 */
export function nvlsTreeBus(machine: LibraryMachine, scaleUp: number, nodeNet: number, nodes: number, nc: number): number {
  const nvlsTree = machine.nvlsTree!;
  const intra = (scaleUp / (nc + 1)) * machine.nvls!.efficiency * ((nc - 1) / nc) * 2;
  const inter = (nodeNet / nc) * (nodes <= 2 ? 2 : 1);
  const cap = nvlsTree.perChannelMaxBus_Bps[nodes <= 2 ? 0 : 1];
  return nc * Math.min(intra, inter, cap);
}

/**
 * NCCL's PAT (NCCL_SOURCE): baseLat 8 µs; log2(N) × the network's Tree Simple latency (hwLat NET
 * Tree Simple 14 µs) / 3.5, plus 2.8 µs per rank ("still a linear part"); busBw × 0.75. Enabled
 * only with one GPU per node and a host-side network (ncclPatEnable: no net device offload).
 */
const NCCL_PAT = { base_s: 8 * us, logStep_s: (14 / 3.5) * us, perRank_s: 2.8 * us, efficiency: 0.75 };

/**
 * The caps on an Ampere machine with AMD EPYC hosts (DGX A100: 2 × EPYC 7742): in one node Ampere's
 * 87.7 GB/s (llMaxBws Ampere-N1), across nodes the AMD host row (22.5 for 2 nodes, 19.0 for more).
 */
const AMPERE_AMD_LL_MAX_BUS = [87.7e9, 22.5e9, 19.0e9] as const;

/** NCCL's network post overhead on an x86 AMD host (getNetOverhead): 2 µs. */
const AMD_HOST_NET_OVERHEAD = 2 * us;

/** The same caps on Blackwell: 2 × 141 GB/s in one node (llMaxBws Blackwell-N1); across nodes the host's row (Grace is neither Intel nor AMD: row 0). */
const BLACKWELL_LL_MAX_BUS = [282e9, 39e9, 20.4e9] as const;

/** NCCL's network post overhead (getNetOverhead): 1 µs on x86 Intel hosts (2 µs AMD), × 3 for Simple; a multi-node ring's intra-node step costs at least this. */
const INTEL_HOST_NET_OVERHEAD = 1 * us;

/** A3 Mega's ring constants over GPUDirect-TCPXO: NCCL's inside the VM, the network steps and NIC efficiencies calibrated (anchors of `h100-tcpxo`). */
const TCPXO_RING: Record<LibraryProtocol, ProtocolTiming> = {
  LL: { ...NCCL_MODEL.LL, netStep_s: 56.28 * us, netEfficiency: 0.00854 },
  LL128: { ...NCCL_MODEL.LL128, netStep_s: 51.98 * us, netEfficiency: 0.1093 },
  Simple: { ...NCCL_MODEL.Simple, netStep_s: 342.7 * us, netEfficiency: NIC_SIMPLE_EFFICIENCY },
};

/**
 * NCCL's Tree over TCPXO, derived, not calibrated: Google's TCPXO profile (nccl-env-profile.sh)
 * sets NCCL_ALGO=Ring,Tree, so NCCL considers the tree there. A tree's network step is the same
 * physical operation as a ring's (one message through the NIC's host-side offload), so it costs the
 * ring's calibrated TCPXO step for the protocol; inside the VM NCCL's Tree constants; the NIC-side
 * efficiency is the ring's calibrated one × NCCL's tree-to-ring bandwidth factor for the protocol
 * (LL (.92 / 3.8) / .5, LL128 120/128, Simple .92).
 */
const TCPXO_TREE: Record<LibraryProtocol, ProtocolTiming> = {
  LL: { ...NCCL_TREE.LL, netStep_s: TCPXO_RING.LL.netStep_s, netEfficiency: (TCPXO_RING.LL.netEfficiency * (0.92 / 3.8)) / 0.5 },
  LL128: { ...NCCL_TREE.LL128, netStep_s: TCPXO_RING.LL128.netStep_s, netEfficiency: TCPXO_RING.LL128.netEfficiency * (120 / 128) },
  Simple: { ...NCCL_TREE.Simple, netStep_s: TCPXO_RING.Simple.netStep_s, netEfficiency: TCPXO_RING.Simple.netEfficiency * 0.92 },
};

export const LIBRARY_MACHINES: Readonly<Record<string, LibraryMachine>> = {
  generic: {
    name: 'generic',
    description: "NCCL's own tuning constants (tuning.cc), links at their nominal rate",
    protocols: NCCL_MODEL,
    tree: NCCL_TREE,
    nvls: NCCL_NVLS,
    nvlsTree: NCCL_NVLS_TREE_HOPPER,
    pat: NCCL_PAT,
    llMaxBus_Bps: HOPPER_INTEL_LL_MAX_BUS,
    netOverhead_s: INTEL_HOST_NET_OVERHEAD,
    reasons: { all: `${NCCL_SOURCE}: baseLat, hwLat, protocol bandwidth factors, Hopper's llMaxBws and nvlsEfficiency, the x86 Intel host's net overhead; unchanged` },
  },
  'hgx-h100': {
    name: 'hgx-h100',
    description: 'NCCL on HGX H100 with InfiniBand/RoCE rails: NCCL constants, NVLink and NIC efficiencies of the A3 Mega calibration',
    scaleUpLinkEfficiency: HOPPER_NVLINK_EFFICIENCY,
    protocols: {
      LL: { ...NCCL_MODEL.LL },
      LL128: { ...NCCL_MODEL.LL128 },
      Simple: { ...NCCL_MODEL.Simple, netEfficiency: NIC_SIMPLE_EFFICIENCY },
    },
    tree: NCCL_TREE,
    nvls: NCCL_NVLS,
    nvlsTree: NCCL_NVLS_TREE_HOPPER,
    pat: NCCL_PAT,
    llMaxBus_Bps: HOPPER_INTEL_LL_MAX_BUS,
    netOverhead_s: INTEL_HOST_NET_OVERHEAD,
    reasons: {
      latencies: `${NCCL_SOURCE} constants, Tree, NVLS and PAT included (no InfiniBand table to calibrate on)`,
      'Simple.netEfficiency': "0.9335: solved with the Simple network step from the A3 Mega table's 32 MiB and 8 GiB rows (338.8 GB/s busbw) as simulated with the hierarchical schedule (channels at once, each from its own send queue, 64 pipelined chunks each; its fill included); NIC-side, so it carries over to other NICs",
    },
  },
  'hgx-a100': {
    name: 'hgx-a100',
    description: "NCCL on HGX/DGX A100 (Ampere, NVLink 3, no NVLS): NCCL's constants with Ampere's NVLink bandwidth and LL cap, AMD hosts",
    scaleUpLinkEfficiency: AMPERE_NVLINK_EFFICIENCY,
    protocols: {
      LL: { ...NCCL_MODEL.LL },
      LL128: { ...NCCL_MODEL.LL128 },
      Simple: { ...NCCL_MODEL.Simple, netEfficiency: NIC_SIMPLE_EFFICIENCY },
    },
    tree: NCCL_TREE,
    pat: NCCL_PAT,
    llMaxBus_Bps: AMPERE_AMD_LL_MAX_BUS,
    netOverhead_s: AMD_HOST_NET_OVERHEAD,
    reasons: {
      latencies: `${NCCL_SOURCE}: baseLat, hwLat (NVLink and NET, Ring and Tree) and PAT, the same on every GPU generation; not calibrated`,
      scaleUpLinkEfficiency: 'NCCL topo.h SM80_NVLINK_BW 20.0 GB/s per link over NVLink 3’s 25 GB/s line rate (0.8): 240 GB/s on an A100’s 12 links',
      llMaxBus_Bps: 'NCCL tuning.cc llMaxBws: Ampere-N1 87.7 GB/s in one node; across nodes the AMD host row (22.5 GB/s for 2 nodes, 19.0 for more): DGX A100 has 2 AMD EPYC 7742',
      netOverhead_s: 'NCCL getNetOverhead: 2 µs on an x86 AMD host (× 3 for Simple)',
      nvls: "none: NCCL's nvlsEfficiency for Ampere is 0, and the second-generation NVSwitch does not reduce (the topology's nvls is off)",
      'Simple.netEfficiency': "0.9335, the NIC-side factor of the A3 Mega calibration (as hgx-h100); no multi-node A100 table to set it on",
    },
  },
  'gb200-nvl72': {
    name: 'gb200-nvl72',
    description: "NCCL on GB200 NVL72 (Blackwell): NCCL's constants with Blackwell's NVLS efficiency and LL cap",
    protocols: NCCL_MODEL,
    tree: NCCL_TREE,
    scaleUpLinkEfficiency: BLACKWELL_NVLINK_EFFICIENCY,
    nvls: { ...NCCL_NVLS, efficiency: 0.74 },
    nvlsTree: NCCL_NVLS_TREE_BLACKWELL,
    pat: NCCL_PAT,
    llMaxBus_Bps: BLACKWELL_LL_MAX_BUS,
    netOverhead_s: INTEL_HOST_NET_OVERHEAD,
    reasons: {
      all: `${NCCL_SOURCE}: the generic constants, with Blackwell's nvlsEfficiency 0.74 and llMaxBws (282 GB/s in one NVLink domain); net overhead 1 µs (getNetOverhead's default for a non-x86 host such as Grace). Not calibrated: no GB200 table`,
    },
  },
  'h100-tcpxo': {
    name: 'h100-tcpxo',
    description: 'NCCL on Google Cloud A3 Mega (HGX H100, 8 × 200 Gb/s GPUDirect-TCPXO NICs): network latencies and efficiencies calibrated on the measured 2-node table',
    protocols: TCPXO_RING,
    tree: TCPXO_TREE,
    llMaxBus_Bps: HOPPER_INTEL_LL_MAX_BUS,
    netOverhead_s: INTEL_HOST_NET_OVERHEAD,
    anchors: [
      { parameter: 'LL.netStep_s', table: A3_MEGA, size_bytes: 8 },
      { parameter: 'LL.netEfficiency', table: A3_MEGA, size_bytes: 32768 },
      { parameter: 'LL128.netStep_s', table: A3_MEGA, size_bytes: 131072 },
      { parameter: 'LL128.netEfficiency', table: A3_MEGA, size_bytes: 8388608 },
      { parameter: 'Simple.netStep_s', table: A3_MEGA, size_bytes: 33554432 },
      { parameter: 'Simple.netEfficiency', table: A3_MEGA, size_bytes: 8589934592 },
    ],
    reasons: {
      'base, step': 'NCCL tuning.cc constants (NVLink inside the VM)',
      tree: "a candidate (Google's TCPXO profile: NCCL_ALGO=Ring,Tree): NCCL's Tree constants inside the VM; each network step the ring's calibrated TCPXO step of the protocol (the same message through the same NIC offload); NIC efficiency the ring's calibrated one × NCCL's tree-to-ring factor. Derived, not calibrated: no measured row runs it (on 2 nodes its 2 network steps equal the hierarchical's, at a lower rate)",
      'nvls, nvlsTree, pat':
        "not candidates, as in NCCL: NVLS across nodes needs CollNet (tuning.cc disables it otherwise) and Google's profile sets NCCL_NVLS_ENABLE=0 (no NVLS Tree either: the preset carries no nvlsTree); PAT needs one GPU per node and a host-side network (ncclPatEnable: TCPXO is net-device offload)",
      'netStep_s, netEfficiency':
        'calibrated, two per protocol, each pair solved from two rows of the A3 Mega table: the smallest size the protocol runs at and the largest one not at a switch to the next protocol (LL 8 B and 32 KiB, LL128 128 KiB and 8 MiB, Simple 32 MiB and 8 GiB); the other 25 rows are held out. TCPXO moves data through host-side offload, hence network steps far above NCCL’s 2.7–14 µs for InfiniBand (LL and LL128 re-solved for NCCL 2.30.7’s base and step latencies: netStep − Δlatency / 2, the other anchors unchanged)',
    },
  },
  mi300x: {
    name: 'mi300x',
    description:
      "RCCL on one MI300X node (xGMI full mesh): RCCL's own tuning constants (tuning model 5), its MSCCL allpairs algorithms between 1 KiB and 16 MiB, xGMI efficiencies calibrated on 4 rows of the measured table",
    protocols: {
      // RCCL tuning.cc: baseLat {LL 12, Simple 17} µs; tuning_model_5 hwLat[NVLINK][Ring] {LL 0.8, Simple 2.1} µs per step,
      // of which the topology's 150 ns xGMI link latency is paid by the wire: the step here is the rest.
      // Across nodes LL moves RCCL's tuning_model_5 bwRatio Ring LL (2 nodes and more) 0.08 of the bus bandwidth.
      LL: { ...NCCL_MODEL.LL, base_s: 12 * us, step_s: 0.65 * us, efficiency: 0.25, netEfficiency: 0.08 },
      LL128: { ...NCCL_MODEL.LL128, base_s: 12 * us },
      Simple: { ...NCCL_MODEL.Simple, base_s: 17 * us, step_s: 1.95 * us, efficiency: MI300X_RING_SIMPLE_EFFICIENCY, netEfficiency: NIC_SIMPLE_EFFICIENCY },
    },
    disabledProtocols: ['LL128'],
    direct: {
      LL: { latency_s: MI300X_ALLPAIRS_LL_LATENCY, efficiency: 0.25 },
      Simple: { latency_s: MI300X_ALLPAIRS_SIMPLE_LATENCY, efficiency: MI300X_ALLPAIRS_SIMPLE_EFFICIENCY },
    },
    msccl: [
      { file: 'allreduce-allpairs-8n-ll-32tb-op.xml', collective: 'allreduce', ranks: 8, protocol: 'LL', chunksPerLoop: 256, minBytes: 0, maxBytes: 65536, spec: 'direct:mode=twoshot' },
      { file: 'allreduce-allpairs-8n-ll-64tb-op.xml', collective: 'allreduce', ranks: 8, protocol: 'LL', chunksPerLoop: 512, minBytes: 65537, maxBytes: 524287, spec: 'direct:mode=twoshot' },
      { file: 'allreduce-allpairs-8n-simple-op.xml', collective: 'allreduce', ranks: 8, protocol: 'Simple', chunksPerLoop: 512, minBytes: 524288, maxBytes: 16777216, spec: 'direct:mode=twoshot' },
    ],
    anchors: [
      { parameter: 'direct.LL.latency_s', table: MI300X_TABLE, size_bytes: 1024 },
      { parameter: 'direct.Simple.latency_s', table: MI300X_TABLE, size_bytes: 524288 },
      { parameter: 'direct.Simple.efficiency', table: MI300X_TABLE, size_bytes: 16777216 },
      { parameter: 'Simple.efficiency', table: MI300X_TABLE, size_bytes: 8589934592 },
    ],
    reasons: {
      'base_s, step_s':
        'RCCL src/graph/tuning.cc (ROCm/rccl @ 0cbce2a): baseLat LL 12, Simple 17 µs; tuning_model_5 (the MI300X platform model, rome_model_79) hwLat NVLink Ring LL 0.8, Simple 2.1 µs per step, minus the 150 ns link latency the wire adds; not calibrated',
      disabledProtocols: 'RCCL tuning_model_5 gives LL128 a bandwidth ratio of 0: RCCL does not run LL128 on MI300X',
      msccl:
        'RCCL tools/msccl-algorithms/allreduce-allpairs-8n-{ll-32tb,ll-64tb,simple}-op.xml (minBytes/maxBytes, nchunksperloop 256/512): RCCL runs them for out-of-place allreduce on 8 ranks when the float count is a multiple of the chunks per loop, so 1 KiB to 16 MiB; below 1 KiB (fewer than 256 floats) it falls back to its ring',
      'direct.LL.latency_s': 'calibrated on one row: the 1 KiB row (13.67 µs) minus the two link latencies and the bytes',
      'direct.Simple': 'calibrated on two rows: latency and efficiency solved from the 512 KiB (27.3 µs) and 16 MiB (149.9 µs) rows',
      'direct.LL.efficiency': "NCCL's LL factor 0.25 (half the bytes are flags, and LL moves 8-byte words); not calibrated",
      'Simple.efficiency': 'calibrated on one row: the 8 GiB row (315.7 GB/s busbw) over the 7 rings × 64 GB/s of the xGMI mesh',
      'Simple.netEfficiency': 'the NIC-side factor of the A3 Mega calibration (0.9335); no multi-node MI300X table to set it on',
      'LL.netEfficiency': "RCCL tuning_model_5 bwRatio Ring LL 0.08 (2 nodes and more): the share of the bus bandwidth RCCL's own model gives LL across nodes on MI300X (NCCL's × .5 is in the non-HIP branch only)",
      netStep_s: "NCCL 2.30.7's NET Ring latencies (LL 2.7, Simple 14 µs), not tuning_model_5's hwLat NET Ring (LL 9.5, Simple 320 µs): those weight RCCL's picker (320 µs × 2(N − 1) would add 0.64 ms to every 2-node Simple ring), not a RoCE round trip",
    },
  },
};

export const LIBRARY_MACHINE_NAMES = Object.keys(LIBRARY_MACHINES);

/** The time preset of a topology: its fabric machine's, else 'generic'; `name` overrides. */
export function libraryMachine(topology: Topology, name?: string): LibraryMachine {
  if (name !== undefined && name !== 'auto') {
    const m = LIBRARY_MACHINES[name];
    if (!m) throw new InputError('machine', name, LIBRARY_MACHINE_NAMES.join(', '));
    return m;
  }
  const machine = (topology.params as { machine?: unknown }).machine;
  return typeof machine === 'string' && machine in LIBRARY_MACHINES ? LIBRARY_MACHINES[machine] : LIBRARY_MACHINES.generic;
}

/** One algorithm the library may run: its spec (algorithm + parameters), protocol, predicted time. */
export interface TuningCandidate {
  readonly spec: string;
  readonly algorithm: 'nccl-ring' | 'hierarchical' | 'direct' | 'nccl-tree' | 'nvls' | 'nvls-tree' | 'pat';
  readonly protocol: LibraryProtocol;
  readonly latency_s: number;
  readonly bandwidth_Bps: number;
  readonly predicted_s: number;
}

export interface TuningChoice {
  readonly library: LibraryName;
  readonly machine: string;
  readonly pick: TuningCandidate;
  readonly candidates: readonly TuningCandidate[];
  /** The MSCCL algorithm that matched the call (and was run instead of the tuning model's pick), if any. */
  readonly msccl?: MscclAlgorithm;
}

/** The machine's MSCCL algorithm for this call, as RCCL's scheduler matches one (element count a multiple of its chunks per loop, bytes in range). */
export function mscclMatch(machine: LibraryMachine, collective: CollectiveKind, ranks: number, bytes: number, elementBytes: number): MscclAlgorithm | undefined {
  const count = Math.floor(bytes / elementBytes);
  return machine.msccl?.find((m) => m.collective === collective && m.ranks === ranks && count > 0 && count % m.chunksPerLoop === 0 && bytes >= m.minBytes && bytes <= m.maxBytes);
}

/** Bandwidths of a layout the model needs, bytes/s per direction. */
interface Rates {
  /** Per accelerator over the scale-up network (what a ring over all channels can use). */
  readonly scaleUp: number;
  /** Per node across the network (all its NIC ports). */
  readonly nodeNet: number;
}

function ratesOf(t: Topology, layout: MachineLayout, channels: number): Rates {
  const p = t.params as Record<string, unknown>;
  if (typeof p.scaleUpBandwidthPerGpu === 'number') {
    const perGpu = p.scaleUpBandwidthPerGpu;
    // A mesh ring channel uses one link per accelerator: the rings in use carry perGpu × rings / (G − 1).
    const rings = layout.meshScaleUp ? Math.min(channels, meshRings(layout.gpusPerNode).length) : layout.gpusPerNode - 1;
    const scaleUp = layout.meshScaleUp ? (perGpu * rings) / (layout.gpusPerNode - 1) : perGpu;
    return { scaleUp, nodeNet: (p.nics as number) * (p.nicBandwidth as number) };
  }
  // Any other topology: rank 0's links out.
  let out = 0;
  const v = t.endpoints[0];
  for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) out += t.chBandwidth[t.outChannels[i]];
  return { scaleUp: out, nodeNet: out };
}

/** Pipelined chunks per tree of the double binary tree: one per 64 KiB of its half of the buffer, at most 32 (the tree's depth is crossed once per chunk, not per buffer). */
export function treeChunks(bytes: number): number {
  return Math.max(1, Math.min(32, Math.ceil(bytes / 2 / (64 << 10))));
}

/** The efficiencies a tree runs at: the preset's Tree factors; LL128 in one node × 7/9 rather than 120/128 (NCCL). */
export function treeEfficiencies(machine: LibraryMachine, protocol: LibraryProtocol, nodes: number): { efficiency: number; netEfficiency: number } {
  const p = machine.tree?.[protocol] ?? machine.protocols[protocol];
  const oneNodeLL128 = machine.tree && protocol === 'LL128' && nodes === 1 ? 7 / 9 / (120 / 128) : 1;
  return { efficiency: p.efficiency * oneNodeLL128, netEfficiency: p.netEfficiency };
}

/** The link efficiencies a library algorithm's run uses (scale-up, network), by algorithm and protocol. */
export function libraryEfficiencies(topology: Topology, algorithm: string, protocol: LibraryProtocol, machine: LibraryMachine): { efficiency: number; netEfficiency: number } {
  const e = uncappedEfficiencies(topology, algorithm, protocol, machine);
  if (algorithm === 'nvls-tree' && machine.nvls && machine.nvlsTree) {
    // NCCL's per-channel cap of NVLS_TREE (perChMaxNVLSTreeBws) bounds what its kernels reach, so the run honours
    // it as it does the LL cap: the in-switch phases (algBw: the accelerator's scale-up rate × efficiency, the hw
    // operations' rate) and the rails (the node's NICs: a ring allreduce of a G-th per NIC) scaled so that the
    // bus bandwidth, 2(n − 1)/n × the algorithm bandwidth, stays under nc × the cap.
    const layout = layoutOf(topology);
    const rates = ratesOf(topology, layout, channelCount(layout, 0));
    const n = topology.numEndpoints;
    const N = layout.nodes;
    const algBw = Math.min(rates.scaleUp * e.efficiency, N > 1 ? (rates.nodeNet * e.netEfficiency * N) / (2 * (N - 1)) : Infinity);
    const cap = nvlsTreeChannels(topology, layout) * machine.nvlsTree.perChannelMaxBus_Bps[N <= 2 ? 0 : 1];
    const factor = Math.min(1, cap / ((algBw * 2 * (n - 1)) / n));
    return { efficiency: e.efficiency * factor, netEfficiency: e.netEfficiency * factor };
  }
  if (protocol !== 'LL' || !machine.llMaxBus_Bps) return e;
  // NCCL's LL cap (llMaxBws) is a limit of the LL kernels, so the run honours it too: every link's LL rate
  // scaled so that the bus bandwidth (scale-up, or the node's NICs across nodes) stays under it.
  const layout = layoutOf(topology);
  const rates = ratesOf(topology, layout, channelCount(layout, 0));
  // Meshwork's trees span ranks: across nodes a rank's tree traffic has its own NIC, not the node's (as the picker's tree bandwidth).
  const net = algorithm === 'nccl-tree' ? rates.nodeNet / layout.gpusPerNode : rates.nodeNet;
  const bus = Math.min(rates.scaleUp * e.efficiency, layout.nodes > 1 ? net * e.netEfficiency : Infinity);
  const factor = Math.min(1, machine.llMaxBus_Bps[Math.min(layout.nodes, 3) - 1] / bus);
  return { efficiency: e.efficiency * factor, netEfficiency: e.netEfficiency * factor };
}

function uncappedEfficiencies(topology: Topology, algorithm: string, protocol: LibraryProtocol, machine: LibraryMachine): { efficiency: number; netEfficiency: number } {
  const e = protocolEfficiencies(topology, algorithm, protocol, machine);
  return { efficiency: e.efficiency * (machine.scaleUpLinkEfficiency ?? 1), netEfficiency: e.netEfficiency };
}

function protocolEfficiencies(topology: Topology, algorithm: string, protocol: LibraryProtocol, machine: LibraryMachine): { efficiency: number; netEfficiency: number } {
  const p = machine.protocols[protocol];
  if (algorithm === 'direct') return { efficiency: machine.direct?.[protocol]?.efficiency ?? p.efficiency, netEfficiency: p.netEfficiency };
  if (algorithm === 'nccl-tree' && machine.tree) return treeEfficiencies(machine, protocol, layoutOf(topology).nodes);
  // The hw allreduce moves each accelerator's buffer once each way at the link rate: its S (1 + 1/G) is the link's rate × G / (G + 1).
  if (algorithm === 'nvls' && machine.nvls) return { efficiency: machine.nvls.efficiency / nvlsTrafficFactor(layoutOf(topology).gpusPerNode), netEfficiency: p.netEfficiency };
  // NVLS Tree: the same switch work per byte as NVLS (its reduce-scatter and multicast overlap, S (1 + 1/G) each way).
  if (algorithm === 'nvls-tree' && machine.nvls) return { efficiency: machine.nvls.efficiency / nvlsTrafficFactor(layoutOf(topology).gpusPerNode), netEfficiency: p.netEfficiency };
  if (algorithm === 'pat' && machine.pat) return { efficiency: p.efficiency * machine.pat.efficiency, netEfficiency: p.netEfficiency * machine.pat.efficiency };
  return { efficiency: p.efficiency, netEfficiency: p.netEfficiency };
}

/**
 * Pipelined chunks per channel of the hierarchical allreduce (and NVLS Tree, one channel): one per
 * 4 MiB (NCCL_BUFFSIZE, a channel's buffer) of its slice, at most 64 per channel. The channels run
 * at once, each from its own send queue (sim/program/send-lanes.ts), so a channel's pipeline fills at its
 * share of the links: with 8 chunks per channel the fill cost 10 % of an 8 GiB allreduce on A3 Mega,
 * with 64 under 4 % (NCCL's pipeline steps are 512 KiB, its fill negligible).
 */
export function hierarchicalChunks(bytes: number, channels: number): number {
  return Math.max(1, Math.min(64, Math.ceil(bytes / channels / (4 << 20))));
}

/**
 * NCCL's model of each candidate, latency + bytes / bandwidth. Ring: 2(n−1) steps for allreduce
 * (n−1 for allgather and reduce-scatter), 2(N−1) of them across the network; bus bandwidth the
 * smaller of the scale-up rate and the node's NIC rate (each channel crosses every node boundary
 * once per direction). Hierarchical: 2(G−1) scale-up and 2(N−1) network steps; its phases are
 * pipelined, so the slower of intra (2(G−1)/G of the buffer per accelerator) and inter (2(N−1)/N of
 * a G-th per accelerator over its share of the NICs). Where the preset carries NCCL's constants for
 * them: Tree (allreduce), NVLS (allreduce, in-switch reduction) and PAT (allgather, reduce-scatter,
 * one accelerator per node). RCCL: a matching MSCCL algorithm of the preset comes first.
 */
export function tuneCollective(req: { topology: Topology; collective: CollectiveKind; size: number; library: LibraryName; machine?: string; elementBytes?: number }): TuningChoice {
  const { topology: t, collective, library } = req;
  if (!['allreduce', 'allgather', 'reduce-scatter'].includes(collective)) {
    throw new InputError('algorithm', library, `${library} for allreduce, allgather or reduce-scatter (its tuning model covers those)`);
  }
  const machine = libraryMachine(t, req.machine);
  const layout = layoutOf(t);
  const n = t.numEndpoints;
  const N = layout.nodes;
  const G = layout.gpusPerNode;
  const channels = channelCount(layout, 0);
  // The picks keep the links' line rates (the NCCL mirror the picks were checked against); the run times
  // them at scaleUpLinkEfficiency (libraryEfficiencies). NCCL's own tuning model sees its NVLink bandwidth.
  const rates = ratesOf(t, layout, channels);
  // Bytes per rank the bus-bandwidth figure refers to: the whole buffer (allgather: n blocks).
  const total = collective === 'allgather' ? req.size * n : req.size;
  const candidates: TuningCandidate[] = [];
  for (const protocol of LIBRARY_PROTOCOLS) {
    if (machine.disabledProtocols?.includes(protocol)) continue;
    const p = machine.protocols[protocol];
    const llCap = protocol === 'LL' && machine.llMaxBus_Bps ? machine.llMaxBus_Bps[Math.min(N, 3) - 1] : Infinity;
    const ringBus = Math.min(rates.scaleUp * p.efficiency, N > 1 ? rates.nodeNet * p.netEfficiency : Infinity, llCap);
    const ringFactor = collective === 'allreduce' ? (2 * (n - 1)) / n : (n - 1) / n;
    // NCCL's ring plateau: across nodes, Simple allreduce with ≥ 64 bytes per channel and rank pays its latency × 1.4.
    // Not RCCL's: its ncclTopoGetAlgoTime applies it only in the non-HIP branch (ROCm/rccl @ 0cbce2a src/graph/tuning.cc).
    const plateau = library === 'nccl' && protocol === 'Simple' && collective === 'allreduce' && N > 1 && req.size / (channels * n) >= 64 ? NCCL_RING_PLATEAU : 1;
    const ringLatency = libraryLatency(t, collective, 'nccl-ring', protocol, machine) * plateau;
    candidates.push(candidate(`nccl-ring:channels=${channels},proto=${protocol}`, 'nccl-ring', protocol, ringLatency, ringBus / ringFactor, total));
    const tree = machine.tree?.[protocol];
    if (collective === 'allreduce' && tree) {
      // NCCL's Tree: up and down a chain of G − 1 steps in each node and log2(N) across; algBw half its busBw.
      const eff = treeEfficiencies(machine, protocol, N);
      // Meshwork's trees span ranks: over switches a rank's tree traffic can use its whole scale-up rate, over a
      // full mesh only the links to its parents (one per tree), and across nodes its own NIC (NCCL's node-level
      // tree with intra-node chains spreads over all of them; the hierarchical candidate stands for that).
      const treeScaleUp = layout.meshScaleUp ? (rates.scaleUp * Math.min(2, G - 1)) / Math.max(1, G - 1) : rates.scaleUp;
      const bus = Math.min(treeScaleUp * eff.efficiency, N > 1 ? (rates.nodeNet / G) * eff.netEfficiency : Infinity, llCap);
      const latency = libraryLatency(t, collective, 'nccl-tree', protocol, machine);
      // NCCL's per-size tree correction of its bandwidth (ncclTopoGetAlgoTime): part of the model the library picks with.
      const algBw = (bus / 2) * treeCorrection(protocol, req.size);
      candidates.push(candidate(`nccl-tree:chunks=${treeChunks(req.size)},proto=${protocol}`, 'nccl-tree', protocol, latency, algBw, total));
    }
    if (collective === 'allreduce' && protocol === 'Simple' && machine.nvls && layout.inSwitchReduction && N === 1) {
      // NVLS as the picker rates it: the link rate × the switch's efficiency (the run also pays the S (1 + 1/G) each
      // link carries, nvlsTrafficFactor, and the NVLink efficiency). One node only: NCCL disables NVLS across nodes
      // without CollNet (tuning.cc), which Meshwork does not model.
      const algBw = rates.scaleUp * machine.nvls.efficiency;
      candidates.push(candidate('nvls:proto=Simple', 'nvls', protocol, libraryLatency(t, collective, 'nvls', protocol, machine), algBw, total));
    }
    if (collective === 'allreduce' && protocol === 'Simple' && machine.nvls && machine.nvlsTree && layout.inSwitchReduction && N > 1) {
      // NCCL's NVLS_TREE (enabled on more than one node; tuning.cc): its bus bandwidth, n / 2(n − 1) of it the algorithm's.
      const bus = nvlsTreeBus(machine, rates.scaleUp, rates.nodeNet, N, nvlsTreeChannels(t, layout));
      const latency = libraryLatency(t, collective, 'nvls-tree', protocol, machine);
      candidates.push(candidate(`nvls-tree:chunks=${hierarchicalChunks(req.size, 1)},proto=Simple`, 'nvls-tree', protocol, latency, (bus * n) / (2 * (n - 1)), total));
    }
    if (collective !== 'allreduce' && protocol === 'Simple' && machine.pat && library === 'nccl' && G === 1 && N > 1) {
      // PAT (NCCL enables it with one accelerator per node): busBw × 0.75, which NCCL does not convert to algBw for allgather/reduce-scatter.
      const bus = Math.min(rates.scaleUp, rates.nodeNet * p.netEfficiency) * machine.pat.efficiency;
      candidates.push(candidate('pat', 'pat', protocol, libraryLatency(t, collective, 'pat', protocol, machine), bus, total));
    }
    // The hierarchical stand-in for NCCL's node-level Tree: on 2 nodes they move the same bytes per NIC
    // (S/G each way); on more, NCCL's double binary tree moves about 2S/G per NIC at its interior nodes,
    // the stand-in's rail rings 2(N − 1)/N × S/G, so it would stand for a faster algorithm than NCCL has
    // (on 4 and 8 HGX H100 nodes 20–26 % faster than measured). NCCL runs Ring, Tree or NVLS Tree there.
    if (collective === 'allreduce' && N === 2) {
      const intra = (2 * (G - 1)) / G / (rates.scaleUp * (machine.scaleUpLinkEfficiency ?? 1) * p.efficiency);
      const inter = (2 * (N - 1)) / N / G / ((rates.nodeNet / G) * p.netEfficiency);
      const chunks = hierarchicalChunks(req.size, channels);
      const latency = p.base_s + 2 * (G - 1) * p.step_s + 2 * (N - 1) * p.netStep_s;
      // NCCL's LL cap bounds its bus bandwidth, 2(n − 1)/n × the algorithm bandwidth.
      const algBw = Math.min(1 / Math.max(intra, inter), (llCap * n) / (2 * (n - 1)));
      candidates.push(candidate(`hierarchical:channels=${channels},chunks=${chunks},proto=${protocol}`, 'hierarchical', protocol, latency, algBw, total));
    }
  }
  let pick = candidates[0];
  for (const c of candidates) if (c.predicted_s < pick.predicted_s) pick = c;
  // RCCL's MSCCL scheduler comes before its tuning model: a matching algorithm runs whatever the model predicts.
  const msccl = library === 'rccl' ? mscclMatch(machine, collective, n, req.size, req.elementBytes ?? 4) : undefined;
  if (msccl) {
    const d = machine.direct?.[msccl.protocol];
    const latency = d?.latency_s ?? libraryLatency(t, collective, 'direct', msccl.protocol, machine);
    const bus = rates.scaleUp * (d?.efficiency ?? machine.protocols[msccl.protocol].efficiency);
    pick = candidate(`${msccl.spec},proto=${msccl.protocol}`, 'direct', msccl.protocol, latency, bus / ((2 * (n - 1)) / n), total);
    candidates.push(pick);
  }
  return { library, machine: machine.name, pick, candidates, ...(msccl ? { msccl } : {}) };
}

function candidate(spec: string, algorithm: TuningCandidate['algorithm'], protocol: LibraryProtocol, latency: number, algBw: number, bytes: number): TuningCandidate {
  return { spec, algorithm, protocol, latency_s: latency, bandwidth_Bps: algBw, predicted_s: latency + bytes / algBw };
}

/** The library latency of a schedule spec (what the run adds at the start of every stream): the candidate's latency term. */
export function libraryLatency(topology: Topology, collective: CollectiveKind, algorithm: string, protocol: LibraryProtocol, machine: LibraryMachine): number {
  const layout = layoutOf(topology);
  const n = topology.numEndpoints;
  const N = layout.nodes;
  const G = layout.gpusPerNode;
  const p = machine.protocols[protocol];
  const net = N > 1 ? (collective === 'allreduce' ? 2 * (N - 1) : N - 1) : 0;
  if (algorithm === 'hierarchical') return p.base_s + 2 * (G - 1) * p.step_s + 2 * (N - 1) * p.netStep_s;
  if (algorithm === 'direct') return machine.direct?.[protocol]?.latency_s ?? p.base_s + 2 * p.step_s;
  // PAT: NCCL's log-plus-linear latency.
  if (algorithm === 'pat' && machine.pat) return machine.pat.base_s + Math.floor(Math.log2(N)) * machine.pat.logStep_s + n * machine.pat.perRank_s;
  if (algorithm === 'pat') return p.base_s + Math.ceil(Math.log2(Math.max(2, n))) * (N > 1 ? p.netStep_s : p.step_s);
  // In-switch reduction: NCCL's NVLS latency in the node, plus the rail rings' network steps across nodes.
  if (algorithm === 'nvls' && machine.nvls) return machine.nvls.latency_s + 2 * (N - 1) * p.netStep_s;
  // NCCL's NVLS_TREE: baseLat 0 + hwLat NVLink 25 µs + 2 log2i(N) × hwLat NET 20.9 µs (tuning.cc ncclTopoTuneModel).
  if (algorithm === 'nvls-tree' && machine.nvlsTree) return machine.nvlsTree.latency_s + 2 * Math.floor(Math.log2(N)) * machine.nvlsTree.netLatency_s;
  if (algorithm === 'nvls-tree') return p.base_s + 2 * p.step_s + 2 * Math.ceil(Math.log2(Math.max(2, N))) * p.netStep_s;
  // One reduce and one multicast step in the node, the rail ring's steps across nodes.
  if (algorithm === 'nvls') return p.base_s + 2 * p.step_s + 2 * (N - 1) * p.netStep_s;
  // NCCL's Tree: up and down (G − 1) intra-node steps and ⌊log2 N⌋ network steps.
  const tree = machine.tree?.[protocol];
  if (algorithm === 'nccl-tree' && tree) return tree.base_s + 2 * ((G - 1) * tree.step_s + Math.floor(Math.log2(N)) * tree.netStep_s);
  // Without Tree constants: up and down its depth, ⌈log2 n⌉ steps each way (the ring's step latency stands for a tree step).
  if (algorithm === 'nccl-tree') return p.base_s + 2 * Math.ceil(Math.log2(Math.max(2, n))) * p.step_s;
  const steps = collective === 'allreduce' ? 2 * (n - 1) : n - 1;
  // NCCL: with one accelerator per node every network latency is exposed, and the ring pays the Tree's network step.
  const netStep = G === 1 && machine.tree ? machine.tree[protocol].netStep_s : p.netStep_s;
  // NCCL: across nodes every ring step still posts to the network, at least the host's overhead (× 3 for Simple).
  const overhead = N > 1 && machine.netOverhead_s !== undefined ? machine.netOverhead_s * (protocol === 'Simple' ? 3 : 1) : 0;
  return p.base_s + (steps - net) * Math.max(p.step_s, overhead) + net * netStep;
}
