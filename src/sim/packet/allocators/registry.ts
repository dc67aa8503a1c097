/**
 * Registries of the packet engine's allocators and arbiters, like the topology families and
 * collective algorithms: adding one is one file that registers itself (imported from ./index.ts)
 * plus its test. Configurations name them (`PacketConfig.allocator`, `PacketConfig.arbitration`);
 * unknown names are refused with the registered ones listed.
 *
 * An arbiter is a priority key (lower wins) so that one sparse allocator loop serves every policy
 * without a closure per decision; an allocator matches requests between inputs and outputs.
 */
import { InputError } from '../../../util/errors.js';
import type { AllocatorGeometry } from '../port-lanes.js';
import type { RandomStream } from '../../../util/rng.js';

/**
 * What a priority arbiter reads of the flit at the front of the requesting VC, lower first (BookSim's
 * `priority` values, highest pri first): `created`, the packet's creation cycle (age); `injected`,
 * the cycle the flit entered the network (network_age, per flit); `arrived`, the cycle it entered
 * this VC buffer (local_age); `hops`, the routers its packet has crossed, negated (hop_count: more
 * hops first); `queue-length`, the flits in the VC, negated (queue_length); `sequence`, the packet's
 * number among its source's packets (sequence).
 */
export type PriorityValue = 'created' | 'injected' | 'arrived' | 'hops' | 'queue-length' | 'sequence';

export interface ArbiterDef {
  readonly name: string;
  readonly description: string;
  /** BookSim's name for it (`arb_type` or `priority`), when BookSim has one. */
  readonly bookSimName?: string;
  /**
   * Priority of a request (lower wins): the requesting VC's priority value (`reads`: by default the
   * packet's creation cycle), the requester's index, the arbiter's round-robin pointer and the
   * number of requesters.
   */
  key(priorityValue: number, requester: number, pointer: number, size: number): number;
  /** Which priority value `key` reads; default `created`. */
  readonly reads?: PriorityValue;
  /**
   * True when `key` never reads its priority value: the engine then passes 0 instead of looking the
   * requesting packet up (a cache miss per request on large networks). Unset: it is looked up.
   */
  readonly ignoresCreated?: boolean;
}

/** A request matcher over flat arrays, reset and reused every cycle. */
export interface Allocator {
  readonly reqIn: Int32Array;
  readonly reqOut: Int32Array;
  readonly reqAux: Int32Array;
  readonly matchOfIn: Int32Array;
  count: number;
  add(input: number, output: number, key: number, aux?: number): void;
  /**
   * `add` with the request's priority at its input, higher first (BookSim's `in_pri`); plain `add`
   * means priority 0. A caller uses one or the other for all of a cycle's requests.
   */
  addPrioritized(input: number, output: number, key: number, aux: number, inPri: number): void;
  /** Matches the requests; `grantPtr`/`acceptPtr` are the caller's persistent round-robin pointers. */
  allocate(iterations: number, grantPtr: Int32Array, ptrBaseOut: number, acceptPtr: Int32Array, ptrBaseIn: number): number;
  reset(): void;
  /**
   * Present on an allocator that reads where a port sits in the request matrix, not only the ports'
   * cyclic order (the wavefront, max_size): each request index's place in its router's matrix, and
   * the matrix's side and inputs at the router's output base, indexed from the per-router bases
   * `allocate` receives (port-lanes.ts `laneGeometry`).
   */
  portGeometry?(geometry: AllocatorGeometry): void;
  /**
   * True when an allocation without requests still moves its state (max_size's priority input):
   * the engine then calls `allocate` in every cycle a VC waits in the stage, requests or not, as
   * BookSim's router calls Allocate() whenever its stage queue holds a VC.
   */
  readonly allocatesWhenIdle?: boolean;
  /**
   * Present on an allocator that draws random numbers (pim): from now on it draws them from
   * `stream`, as many and in the order BookSim's does (the engine then also calls it without
   * requests, where BookSim draws too).
   */
  drawFrom?(stream: RandomStream): void;
}

export interface AllocatorDef {
  readonly name: string;
  readonly description: string;
  /** BookSim's name for it (`vc_allocator`, `sw_allocator`), when BookSim has one. */
  readonly bookSimName?: string;
  /**
   * False when its matching never compares requests' priorities, only their round-robin order
   * (BookSim's iSLIP_Sparse): the engine then leaves the packet's age out of the keys it gives it,
   * and age arbitration only picks the VC each input puts forward. Unset: it reads them.
   */
  readonly readsPriority?: boolean;
  /** `seed`: the run's, for an allocator that draws (pim); one per allocator of a network (VC, switch). */
  create(maxInputs: number, maxOutputs: number, maxRequests: number, seed: number): Allocator;
}

// The tables live in table.ts so the built-in files, which register themselves as they load, can
// run while this module is still loading: importing this registry registers every built-in.
export { allocatorNames, arbiterNames, findAllocator, findArbiter, listAllocators, listArbiters, registerAllocator, registerArbiter } from './table.js';
import { allocatorNames, arbiterNames, findAllocator, findArbiter, listAllocators, listArbiters } from './table.js';
import './islip.js';
import './round-robin.js';
import './age.js';
import './separable.js';
import './wavefront.js';
import './pim.js';
import './max-size.js';
import './loa.js';

export function getArbiter(name: string): ArbiterDef {
  const def = findArbiter(name);
  if (!def) throw new InputError('arbitration', name, arbiterNames().join(' | '));
  return def;
}

export function getAllocator(name: string): AllocatorDef {
  const def = findAllocator(name);
  if (!def) throw new InputError('allocator', name, allocatorNames().join(' | '));
  return def;
}

function defs(kind: 'arbiter' | 'allocator'): Array<ArbiterDef | AllocatorDef> {
  return kind === 'arbiter' ? listArbiters() : listAllocators();
}

/** BookSim's names of the registered arbiters or allocators that have one. */
export function bookSimNames(kind: 'arbiter' | 'allocator'): string[] {
  return defs(kind).flatMap((d) => (d.bookSimName ? [d.bookSimName] : []));
}

/** The name of the registered arbiter or allocator BookSim calls `bookSimName` (one of bookSimNames). */
export function byBookSimName(kind: 'arbiter' | 'allocator', bookSimName: string): string {
  const def = defs(kind).find((d) => d.bookSimName === bookSimName);
  if (!def) throw new InputError(kind, bookSimName, bookSimNames(kind).join(' | '));
  return def.name;
}
