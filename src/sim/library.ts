/**
 * Timing the collective libraries' schedules (issue 25): a schedule built by `nccl-ring`,
 * `hierarchical`, `direct`, `nccl-tree`, `nvls`, `nvls-tree`, `pat`, or picked by `nccl`/`rccl`, runs under its machine preset's protocol
 * (collectives/algorithms/library/tuning.ts):
 * - every link runs at the rate the protocol achieves on it (scale-up links × efficiency, NIC and
 *   rail links × netEfficiency): the run's topology is the physical one with its rates scaled;
 * - the library's latency (launch + per-step latencies of NCCL's model) is paid once, before the
 *   first operation of every stream, as NCCL's own model adds it once to the bandwidth term;
 * - α, the generic per-message overhead, is 0 on the library's messages unless the caller sets it
 *   (the latency above replaces it): the program marks them (`opLibrary`) and both engines' stream
 *   semantics give them `FlowModel.libraryAlpha`, so a library collective inside a workload, beside
 *   plain messages that keep α, times as the same collective run alone.
 * Everything is recorded in the result as `model.library`.
 */
import { Spec } from '../util/spec.js';
import { Topology } from '../topology/graph.js';
import type { Schedule } from '../collectives/schedule.js';
import { libraryEfficiencies, libraryLatency, libraryMachine } from '../collectives/algorithms/library/tuning.js';
import { LIBRARY_PROTOCOLS, layoutOf, type LibraryProtocol } from '../collectives/algorithms/library/layout.js';
import type { FlowProgram } from './program/program.js';

/**
 * Algorithms whose timing follows a library's protocol model, by the collectives they are the
 * library's for: other collectives have algorithms of the same name (one-to-one `direct`) that
 * must keep the plain time model.
 */
const LIBRARY_ALGORITHMS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['nccl-ring', new Set(['allreduce', 'allgather', 'reduce-scatter'])],
  ['hierarchical', new Set(['allreduce'])],
  ['direct', new Set(['allreduce'])],
  ['nccl-tree', new Set(['allreduce'])],
  ['nvls', new Set(['allreduce'])],
  ['nvls-tree', new Set(['allreduce'])],
  ['pat', new Set(['allgather', 'reduce-scatter'])],
]);

/** Channel classes of the scale-out network (fabric.ts); every other class is scale-up. */
const NETWORK_CLASSES = new Set(['nic-up', 'nic-down', 'rail-up', 'rail-down']);

export interface LibraryTiming {
  readonly machine: string;
  readonly algorithm: string;
  readonly protocol: LibraryProtocol;
  /** Paid once before every stream's first operation, seconds. */
  readonly latency_s: number;
  readonly efficiency: number;
  readonly netEfficiency: number;
  /** The library that picked the algorithm (`nccl`, `rccl`), or null when it was named. */
  readonly pickedBy: string | null;
  /**
   * Where its channels queue their sends, set by the run (program/send-lanes.ts): `per-channel`, a
   * queue of each channel's own; `nic`, its NIC's queue, where an injection bandwidth is modelled.
   */
  readonly sendQueues?: 'per-channel' | 'nic' | 'none';
}

/** The library timing of a schedule, or undefined when its algorithm is not a library's. */
export function libraryTiming(schedule: Schedule, topology: Topology): LibraryTiming | undefined {
  let spec: Spec;
  try {
    spec = Spec.parse(schedule.algorithmSpec, 'algorithm');
  } catch {
    return undefined;
  }
  if (!LIBRARY_ALGORITHMS.get(spec.family)?.has(schedule.collective)) return undefined;
  const proto = (spec.raw('proto') ?? 'Simple') as LibraryProtocol;
  if (!LIBRARY_PROTOCOLS.includes(proto)) return undefined;
  const machine = libraryMachine(topology, spec.raw('machine'));
  const eff = libraryEfficiencies(topology, spec.family, proto, machine);
  return {
    machine: machine.name,
    algorithm: spec.family,
    protocol: proto,
    latency_s: libraryLatency(topology, schedule.collective, spec.family, proto, machine),
    efficiency: eff.efficiency,
    netEfficiency: eff.netEfficiency,
    pickedBy: schedule.algorithm === spec.family ? null : schedule.algorithm,
  };
}

/** The topology with every channel at the rate the protocol achieves on it. */
export function effectiveTopology(t: Topology, timing: LibraryTiming): Topology {
  const bw = new Float64Array(t.numChannels);
  for (let c = 0; c < t.numChannels; c++) bw[c] = t.chBandwidth[c] * (NETWORK_CLASSES.has(t.className(c)) ? timing.netEfficiency : timing.efficiency);
  return new Topology({
    family: t.family,
    spec: t.spec,
    params: t.params,
    nodeKind: t.nodeKind,
    chSrc: t.chSrc,
    chDst: t.chDst,
    chBandwidth: bw,
    chLatency: t.chLatency,
    chClass: t.chClass,
    classNames: t.classNames,
    endpoints: t.endpoints,
    physicalEndpoints: t.physicalEndpoints,
    coordDims: t.coordDims,
    coords: t.coords,
    distanceConvention: t.distanceConvention,
    symmetry: t.symmetry,
    explicitRoutes: t.explicitRoutes,
  });
}

/**
 * The one efficiency a workload applies to a library schedule's messages (workload/lower.ts runs
 * many collectives on one topology, so it scales bytes, not link rates): the network's on a
 * topology of several nodes (their rings' bottleneck is the NIC), the scale-up links' otherwise.
 * On a topology of one link class this equals `effectiveTopology`.
 */
export function messageEfficiency(topology: Topology, timing: LibraryTiming): number {
  return layoutOf(topology).nodes > 1 ? timing.netEfficiency : timing.efficiency;
}

/**
 * The program of a library schedule: the library latency before every stream's first operation,
 * and every op marked as the library's (its messages take `libraryAlpha`); every other field kept
 * (non-blocking flags, dependencies).
 */
export function withLibraryLatency(program: FlowProgram, timing: LibraryTiming): FlowProgram {
  const delay = program.opDelay ? program.opDelay.slice() : new Float64Array(program.numOps);
  for (let s = 0; s < program.numStreams; s++) if (program.opStart[s + 1] > program.opStart[s]) delay[program.opStart[s]] += timing.latency_s;
  return program.with({ opDelay: delay, opLibrary: new Uint8Array(program.numOps).fill(1) });
}
