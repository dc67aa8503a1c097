/**
 * Symmetry at flow level (issue 29): when a run is invariant under a group of automorphisms of the
 * topology, time one representative rank per orbit and let each flow stand for its |H| images.
 *
 * - The group: the topology family's declared generators (topology/automorphisms.ts). For each
 *   generator s, the smallest power s^j under which the program is equivariant (every rank's streams
 *   are the image rank's with peers mapped; same kinds, bytes, tags, hints) spans the subgroup H.
 * - Routes must be equivariant too: route(h·a, h·b) = h·route(a, b) channel for channel. It is
 *   checked on every representative flow for every generator of H (and for the port walk of every
 *   pair of corresponding hinted ops where they first occur), after a declared refusal of routings
 *   that read loads.
 * - The quotient run: the representatives' streams only. A flow's resources are the orbits of its
 *   channels under H: an orbit O is one resource of capacity bandwidth × |O| / |H| (each channel of
 *   O carries |H| / |O| images of every flow entry on O), and a flow crossing O m times uses it m
 *   times (MaxMinSolver counts repeated path entries). Max-min is equivariant under H, so the rates
 *   are the full engine's up to floating-point order.
 * - Matching: a message from representative σ to rank x = h·ρ (ρ its representative) is delivered at
 *   ρ as from h⁻¹·σ, which is the message ρ's own stream expects; H acts freely on ranks, so h is
 *   unique and matching stays exact (no merging of sources).
 * - Barriers (G-invariant groups): their P counts every rank, |H| per representative.
 * Anything else falls back to the full engine with the reason recorded.
 */
import type { Topology } from '../../topology/graph.js';
import { automorphismGroups, type AutomorphismGenerator, type AutomorphismGroup } from '../../topology/automorphisms.js';
import { familyOf, fatpipeChannels } from '../../topology/registry.js';
import { routeWithHint } from '../../routing/hints.js';
import { makeRouteBuffers, type RoutingFunction } from '../../routing/types.js';
import { OpKind } from '../../collectives/types.js';
import type { RankAction } from '../../collectives/registry.js';
import { FlowProgram } from '../program/program.js';
import type { FlowModel } from '../program/model.js';
import { readsLoad } from './channel-load.js';

/** What a result records under `model.symmetry`. */
export type SymmetryRecord =
  | { readonly used: true; readonly group: string; readonly generators: readonly string[]; readonly order: number; readonly representatives: number; readonly dropped?: readonly string[] }
  | { readonly used: false; readonly reason: string };

/** How the engine runs a quotient: resource and delivery maps (typed arrays). */
export interface QuotientMaps {
  /** |H|. */
  readonly order: number;
  /** Rank -> its representative rank. */
  readonly repOf: Int32Array;
  /** Rank -> index of its representative among the representatives. */
  readonly repIndex: Int32Array;
  /** Rank x -> index of h⁻¹ for the h with x = h·repOf[x]. */
  readonly offsetInverse: Int32Array;
  /** Representative index i, element index e -> rank e·(representative i), at i·order + e. */
  readonly image: Int32Array;
  /** Channel -> the channel that stands for its orbit (the lowest id in it). */
  readonly channelOrbit: Int32Array;
  /** Channels in each orbit, at the orbit's standing channel (0 elsewhere). */
  readonly orbitSize: Int32Array;
}

export interface QuotientRun {
  readonly used: true;
  readonly record: SymmetryRecord & { used: true };
  readonly maps: QuotientMaps;
  /** The representatives' streams (ranks keep their ids; peers are the original ranks). */
  readonly program: FlowProgram;
  /** Quotient op -> the op of the full program it copies. */
  readonly opOrigin: Int32Array;
  /** Full program stream -> the quotient stream that times it. */
  readonly streamOf: Int32Array;
}

/** Where message x's delivery lands: the representative of x, as from h⁻¹·src. */
export function quotientSource(maps: QuotientMaps, src: number, dst: number): number {
  return maps.image[maps.repIndex[src] * maps.order + maps.offsetInverse[dst]];
}

const fallback = (reason: string): { used: false; reason: string } => ({ used: false, reason });

/**
 * The quotient of a run under the largest subgroup of the declared automorphisms it is equivariant
 * under, or why the full engine runs (model.symmetry, model.symmetryMinRanks).
 */
export function findQuotient(t: Topology, routing: RoutingFunction, program: FlowProgram, model: FlowModel, opts: { readonly trace?: boolean } = {}): QuotientRun | { used: false; reason: string } {
  const pre = preconditions(t, routing, program.numRanks, model, { trace: opts.trace, noise: program.noise !== null, deps: program.deps !== null });
  if (typeof pre === 'string') return fallback(pre);
  const groups = pre;
  const shape = checkShape(program, model);
  if (shape) return fallback(shape);
  const streams = streamIndex(program);
  // Each declared group's largest subgroup the run is equivariant under; the largest of them serves.
  let best: Subgroup | undefined;
  const reasons: string[] = [];
  for (const group of groups) {
    const bound = group.generators.reduce((a, g) => a * g.order, 1);
    if (best !== undefined && bound <= best.maps.order) continue;
    const sub = subgroup(t, routing, program, model, streams, group);
    if ('reason' in sub) reasons.push(sub.reason);
    else if (best === undefined || sub.maps.order > best.maps.order) best = sub;
  }
  if (best === undefined) return fallback(reasons.join('; '));
  const { group, hGens, dropped, built } = best;
  const { maps, repStreams } = built;
  const { order, repOf } = maps;
  const R = maps.image.length / order;
  const { quotient, opOrigin, streamOf } = quotientProgram(program, repStreams, streams, repOf);
  return {
    used: true,
    record: { used: true, group: group.name, generators: hGens.map((g) => (g.power === 1 ? g.gen.name : `(${g.gen.name})^${g.power}`)), order, representatives: R, ...(dropped.length > 0 ? { dropped } : {}) },
    maps,
    program: quotient,
    opOrigin,
    streamOf,
  };
}


/** What every quotient needs of the run (model, routing, topology), as a reason against, or the declared groups. */
function preconditions(t: Topology, routing: RoutingFunction, N: number, model: FlowModel, run: { readonly trace?: boolean; readonly noise: boolean; readonly deps: boolean }): string | AutomorphismGroup[] {
  if (model.symmetry === 'off') return 'symmetry off';
  const minRanks = model.symmetryMinRanks;
  if (N < minRanks) return `${N} ranks, below ${minRanks}: the full engine is the reference and fast there`;
  if (t.ranksShareHosts) return 'several ranks share a host: the automorphisms move hosts, not the ranks a host holds';
  if (run.trace) return 'a trace records every flow';
  if (run.noise) return 'noise: its draws differ per rank';
  if (run.deps) return 'dependencies between streams (a workload)';
  if (model.protocol !== 'eager') return `protocol ${model.protocol}: rendezvous matching of images is not built`;
  if (model.rateUpdate === 'local') return 'rate update local is approximate and not equivariant';
  if (model.sharing === 'store-forward') return 'sharing store-forward: a link serves messages first come first served, and the order of messages reaching it at one time follows their ids, not the symmetry';
  if (model.crossTraffic > 0) return "cross-traffic: a flow's reverse-route entries have no channel orbits";
  if (readsLoad(routing)) return `routing ${routing.name} reads channel loads`;
  if (familyOf(t)?.sharedCapacities?.(t)) return 'shared capacities';
  if (fatpipeChannels(t)) return 'FATPIPE links: their usage is the largest of their flows\' loads, which channel orbits do not sum';
  const groups = automorphismGroups(t);
  if (groups.length === 0) return `family ${t.family} declares no automorphism group`;
  return groups;
}

/** The orbits of ranks and channels under the group the generators span, after checking its routes; or why not (and which generator's routes failed). */
function orbitsAndRoutes(
  t: Topology,
  routing: RoutingFunction,
  program: FlowProgram,
  streams: StreamIndex,
  hGens: readonly SubgroupGenerator[],
  split: boolean,
  groupName: string,
): { maps: QuotientMaps; repStreams: number[] } | { reason: string; generator: number } {
  const maps = orbits(t, program.numRanks, hGens, groupName);
  if ('reason' in maps) return maps;
  const { repOf } = maps;
  const repStreams: number[] = [];
  for (let s = 0; s < program.numStreams; s++) if (repOf[program.streamRank[s]] === program.streamRank[s]) repStreams.push(s);
  const { start, list } = streams;
  const routeCheck = checkRoutes(t, routing, program, repStreams, hGens, split, (_s, o) => o, (r2, s, o) => {
    const r = program.streamRank[s];
    const s2 = list[start[r2] + indexOf(list, start[r], start[r + 1], s)];
    const o2 = program.opStart[s2] + (o - program.opStart[s]);
    if (program.opKind[o2] !== OpKind.Send) return undefined;
    return { op: o2, dst: program.dsts[program.opPeer[o2]], hint: program.opHint[o2] >= 0 ? program.hints[program.opHint[o2]] : undefined };
  });
  if (routeCheck) return routeCheck;
  return { maps, repStreams };
}

/** The orbits of ranks (H must act freely) and of channels under the group the generators span. */
function orbits(t: Topology, N: number, hGens: readonly SubgroupGenerator[], groupName: string): QuotientMaps | { reason: string; generator: number } {
  const order = hGens.reduce((a, g) => a * g.order, 1);
  // Orbits of ranks: representatives (lowest rank of each orbit), offsets, images; H must act freely.
  const repOf = new Int32Array(N).fill(-1);
  const repIndex = new Int32Array(N);
  const offset = new Int32Array(N);
  const reps: number[] = [];
  const orbit = new Int32Array(order);
  const stride = new Int32Array(hGens.length);
  for (let i = 0, s = 1; i < hGens.length; i++) {
    stride[i] = s;
    s *= hGens[i].order;
  }
  for (let r = 0; r < N; r++) {
    if (repOf[r] >= 0) continue;
    const ri = reps.length;
    reps.push(r);
    orbit[0] = r;
    for (let e = 1; e < order; e++) {
      // The lowest non-zero digit i: e = (e − stride_i) moved by generator i.
      let i = 0;
      while (Math.floor(e / stride[i]) % hGens[i].order === 0) i++;
      orbit[e] = hGens[i].rank[orbit[e - stride[i]]];
    }
    for (let e = 0; e < order; e++) {
      const x = orbit[e];
      if (repOf[x] >= 0) return { reason: `${groupName}: the subgroup does not act freely on ranks (rank ${x} is fixed by a non-identity element)`, generator: -1 };
      repOf[x] = r;
      repIndex[x] = ri;
      offset[x] = e;
    }
  }
  const R = reps.length;
  const image = new Int32Array(R * order);
  const offsetInverse = new Int32Array(N);
  for (let x = 0; x < N; x++) {
    image[repIndex[x] * order + offset[x]] = x;
    let inv = 0;
    for (let i = 0; i < hGens.length; i++) {
      const d = Math.floor(offset[x] / stride[i]) % hGens[i].order;
      inv += ((hGens[i].order - d) % hGens[i].order) * stride[i];
    }
    offsetInverse[x] = inv;
  }

  // Channel orbits.
  const C = t.numChannels;
  const channelOrbit = new Int32Array(C).fill(-1);
  const orbitSize = new Int32Array(C);
  const queue: number[] = [];
  for (let c = 0; c < C; c++) {
    if (channelOrbit[c] >= 0) continue;
    channelOrbit[c] = c;
    queue.length = 0;
    queue.push(c);
    for (let q = 0; q < queue.length; q++) {
      for (const g of hGens) {
        const d = g.channel[queue[q]];
        if (channelOrbit[d] < 0) {
          channelOrbit[d] = c;
          queue.push(d);
        }
      }
    }
    orbitSize[c] = queue.length;
  }
  return { order, repOf, repIndex, offsetInverse, image, channelOrbit, orbitSize };
}

/** A generator of the subgroup H: a power of a declared generator, with its rank, node and channel permutations. */
interface SubgroupGenerator {
  readonly gen: AutomorphismGenerator;
  readonly power: number;
  readonly order: number;
  readonly rank: Int32Array;
  readonly node: Int32Array;
  readonly channel: Int32Array;
}

interface Subgroup {
  readonly group: AutomorphismGroup;
  readonly hGens: SubgroupGenerator[];
  readonly dropped: string[];
  readonly built: { maps: QuotientMaps; repStreams: number[] };
  readonly maps: QuotientMaps;
}

/** The largest subgroup of `group` the program and the routes are equivariant under, or why there is none. */
function subgroup(t: Topology, routing: RoutingFunction, program: FlowProgram, model: FlowModel, streams: StreamIndex, group: AutomorphismGroup): Subgroup | { reason: string } {
  if (group.generators.length === 0) return { reason: `${group.name}: no declared automorphism verified (${group.refused.join('; ')})` };
  const N = program.numRanks;
  // Per generator, its rank permutation and the smallest power the program is equivariant under.
  const hGens: SubgroupGenerator[] = [];
  for (const gen of group.generators) {
    const h = smallestPower(t, N, gen, (pj) => equivariant(program, streams, pj));
    if (h !== undefined) hGens.push(h);
  }
  if (hGens.length === 0) return { reason: `the program is equivariant under no power of the ${group.name}` };
  const dropped: string[] = [];
  let built = orbitsAndRoutes(t, routing, program, streams, hGens, model.splitTies, group.name);
  while ('reason' in built) {
    // A generator whose routes are not equivariant is dropped; the rest may still serve.
    if (built.generator < 0 || hGens.length === 1) return { reason: [...dropped, built.reason].join('; ') };
    dropped.push(built.reason);
    hGens.splice(built.generator, 1);
    built = orbitsAndRoutes(t, routing, program, streams, hGens, model.splitTies, group.name);
  }
  return { group, hGens, dropped, built, maps: built.maps };
}

/** What the quotient cannot express, or undefined. */
function checkShape(p: FlowProgram, model: FlowModel): string | undefined {
  let barriers = false;
  for (let o = 0; o < p.numOps; o++) {
    const k = p.opKind[o];
    if (k === OpKind.Send) {
      if (p.opCount[o] !== 1) return 'a send to several destinations (multicast)';
      const h = p.opHint[o];
      if (h >= 0 && p.hints[h].kind !== 'ports') return 'a route hint by node ids';
    } else if (k === OpKind.HwCollective) return 'a hardware collective';
    else if (k === OpKind.Barrier) barriers = true;
  }
  if (barriers && model.barrier === 'linear') return 'a linear barrier (rooted at the lowest rank)';
  return undefined;
}

/** A send's route hint as the program holds it. */
type RouteHintOf = FlowProgram['hints'][number] | undefined;

/** Streams by (rank, local index): CSR over ranks, ordered by local index. */
interface StreamIndex {
  readonly start: Int32Array;
  readonly list: Int32Array;
}

function streamIndex(p: FlowProgram): StreamIndex {
  const N = p.numRanks;
  const start = new Int32Array(N + 1);
  for (let s = 0; s < p.numStreams; s++) start[p.streamRank[s] + 1]++;
  for (let r = 0; r < N; r++) start[r + 1] += start[r];
  const fill = start.slice(0, N);
  const list = new Int32Array(p.numStreams);
  for (let s = 0; s < p.numStreams; s++) list[fill[p.streamRank[s]]++] = s;
  for (let r = 0; r < N; r++) {
    const part = list.subarray(start[r], start[r + 1]);
    if (part.length > 1) part.sort((a, b) => p.streamLocal[a] - p.streamLocal[b]);
  }
  return { start, list };
}

/**
 * The generator's smallest power (a divisor of its order) whose permutation of the ranks `accept`s,
 * or undefined when none does or the generator moves a rank off the ranks in use.
 */
function smallestPower(t: Topology, N: number, gen: AutomorphismGenerator, accept: (rank: Int32Array) => boolean): SubgroupGenerator | undefined {
  const rank = new Int32Array(N);
  for (let r = 0; r < N; r++) {
    const x = t.rankOfNode[gen.node[t.endpoints[r]]];
    if (x < 0 || x >= N) return undefined;
    rank[r] = x;
  }
  for (let j = 1; j < gen.order; j++) {
    if (gen.order % j !== 0) continue;
    const pj = power(rank, j);
    if (accept(pj)) return { gen, power: j, order: gen.order / j, rank: pj, node: power(gen.node, j), channel: power(gen.channel, j) };
  }
  return undefined;
}

/** perm^j. */
function power(perm: Int32Array, j: number): Int32Array {
  const out = perm.slice();
  for (let k = 1; k < j; k++) for (let i = 0; i < out.length; i++) out[i] = perm[out[i]];
  return out;
}

/** Whether every rank's streams map onto its image's under the rank permutation `pi`. */
function equivariant(p: FlowProgram, streams: StreamIndex, pi: Int32Array): boolean {
  const { start, list } = streams;
  const { opStart, opKind, opPeer, opBytes, opTag, opHint, dsts, streamLocal } = p;
  const nb = p.opNonBlocking;
  const delay = p.opDelay;
  const library = p.opLibrary;
  const separate = p.opSeparateSend;
  for (let r = 0; r < p.numRanks; r++) {
    const r2 = pi[r];
    const n = start[r + 1] - start[r];
    if (start[r2 + 1] - start[r2] !== n) return false;
    for (let k = 0; k < n; k++) {
      const s = list[start[r] + k];
      const s2 = list[start[r2] + k];
      if (streamLocal[s] !== streamLocal[s2]) return false;
      const len = opStart[s + 1] - opStart[s];
      if (opStart[s2 + 1] - opStart[s2] !== len) return false;
      const base = opStart[s];
      const base2 = opStart[s2];
      for (let i = 0; i < len; i++) {
        const o = base + i;
        const o2 = base2 + i;
        const kind = opKind[o];
        if (kind !== opKind[o2] || opBytes[o] !== opBytes[o2] || opTag[o] !== opTag[o2]) return false;
        if (nb !== null && nb[o] !== nb[o2]) return false;
        if (delay !== null && delay[o] !== delay[o2]) return false;
        if (library !== null && library[o] !== library[o2]) return false;
        if (separate !== null && separate[o] !== separate[o2]) return false;
        if ((opHint[o] < 0) !== (opHint[o2] < 0)) return false;
        switch (kind) {
          case OpKind.Send:
            if (pi[dsts[opPeer[o]]] !== dsts[opPeer[o2]]) return false;
            break;
          case OpKind.Recv:
            if (pi[opPeer[o]] !== opPeer[o2]) return false;
            break;
          case OpKind.Barrier:
            if (opPeer[o] !== opPeer[o2]) return false;
            break;
          case OpKind.Wait:
            if (opPeer[o] < 0 ? opPeer[o2] >= 0 : opPeer[o] - base !== opPeer[o2] - base2) return false;
            break;
          default:
            break;
        }
      }
    }
  }
  return true;
}

/**
 * route(g·a, g·b) = g·route(a, b) for every representative flow, for every generator g of H along
 * its whole cycle (g^i·a to g^i·b, each image routed as its own op: the
 * image op's own hint, as the full engine would route it), and the representative's route is the
 * same under the quotient's op numbering (salt): else the reason.
 */
function checkRoutes(
  t: Topology,
  routing: RoutingFunction,
  p: FlowProgram,
  repStreams: readonly number[],
  hGens: readonly SubgroupGenerator[],
  split: boolean,
  fullOp: (s: number, o: number) => number,
  /**
   * The image op at rank r2 of op o of stream s: its id (salt), destination and hint; `moved`: its
   * route is the representative's moved by the automorphism, by construction (not routed again).
   */
  imageOf: (r2: number, s: number, o: number) => { readonly op: number; readonly dst: number; readonly hint: RouteHintOf; readonly moved?: boolean } | undefined,
  /**
   * Walk each generator's cycle once per (source, destination, tie half) and hold every other op of
   * that pair to the same route under its own salts (the declared path: a ring's 2(n−1) sends from a
   * representative all go to one neighbour, so walking every op's cycle would route the full program).
   * Only pairs a stream sends to more than once are remembered: pairwise alltoall's 512
   * representatives on 16³ send to 2.1 M distinct pairs, and a route kept per pair cost 0.5 GiB.
   */
  oncePerPair = false,
): { reason: string; generator: number } | undefined {
  const hops = 2 * routing.maxHops + 64;
  const a = makeRouteBuffers(hops);
  const b = makeRouteBuffers(hops);
  const c = makeRouteBuffers(hops);
  const scratch = makeRouteBuffers(hops);
  let qOp = 0;
  const walked = new Map<number, Int32Array>();
  // Sends of the current stream per destination (oncePerPair): a pair sent to once is walked and not kept.
  const sendsTo = oncePerPair ? new Int32Array(p.numRanks) : undefined;
  const countSends = (s: number, add: number): void => {
    for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) if (p.opKind[o] === OpKind.Send) sendsTo![p.dsts[p.opPeer[o]]] += add;
  };
  for (const s of repStreams) {
    const r = p.streamRank[s];
    if (sendsTo) countSends(s, 1);
    for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++, qOp++) {
      if (p.opKind[o] !== OpKind.Send) continue;
      const dst = p.dsts[p.opPeer[o]];
      if (dst === r) continue;
      const hint = p.opHint[o] >= 0 ? p.hints[p.opHint[o]] : undefined;
      const src = t.endpoints[r];
      const dn = t.endpoints[dst];
      for (let parity = 0; parity < (split ? 2 : 1); parity++) {
        const n = routeWithHint(t, routing, src, dn, hint, 2 * fullOp(s, o) + parity, a, scratch);
        const nq = routeWithHint(t, routing, src, dn, hint, 2 * qOp + parity, b, scratch);
        if (nq !== n || !same(a.channels, b.channels, n)) return { reason: `routing ${routing.name} depends on the op's salt`, generator: -1 };
        if (sendsTo && sendsTo[dst] > 1) {
          // Sends to one destination by different hinted walks take different routes: keyed by the hint too.
          const key = ((p.opHint[o] + 1) * p.numRanks * p.numRanks + r * p.numRanks + dst) * 2 + parity;
          const seen = walked.get(key);
          if (seen !== undefined) {
            if (seen.length !== n || !same(seen, a.channels, n)) return { reason: `routing ${routing.name} depends on the op's salt`, generator: -1 };
            continue;
          }
          walked.set(key, a.channels.slice(0, n));
        }
        // Along each generator's whole cycle through the flow (g^i·a to g^i·b), so that a rule tied to one coordinate (SimGrid's tie at k/2) shows.
        for (let gi = 0; gi < hGens.length; gi++) {
          const g = hGens[gi];
          let n1 = n;
          let cur = a;
          let next = b;
          let ri = r;
          let di = dst;
          for (let step = 1; step < g.order; step++) {
            const r2 = g.rank[ri];
            const d2 = g.rank[di];
            const img = imageOf(r2, s, o);
            if (img === undefined || img.dst !== d2) return { reason: `the program's image under ${g.gen.name} differs at rank ${r2}`, generator: gi };
            if (img.moved) {
              ri = r2;
              di = d2;
              continue;
            }
            const n2 = routeWithHint(t, routing, t.endpoints[r2], t.endpoints[d2], img.hint, 2 * img.op + parity, next, scratch);
            if (n2 !== n1) return { reason: `routing ${routing.name} is not equivariant under ${g.gen.name} (rank ${ri} to ${di}: ${n1} against ${n2} hops)`, generator: gi };
            for (let i = 0; i < n1; i++) {
              if (g.channel[cur.channels[i]] !== next.channels[i]) return { reason: `routing ${routing.name} is not equivariant under ${g.gen.name} (rank ${ri} to ${di}, hop ${i})`, generator: gi };
            }
            // The representative's route in `a` stays for the next generator.
            const spare = cur === a ? c : cur;
            cur = next;
            next = spare;
            n1 = n2;
            ri = r2;
            di = d2;
          }
        }
      }
    }
    if (sendsTo) countSends(s, -1);
  }
  return undefined;
}

function indexOf(list: Int32Array, from: number, to: number, s: number): number {
  for (let i = from; i < to; i++) if (list[i] === s) return i - from;
  return -1;
}

function same(x: Int32Array, y: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The representatives' streams as a program of their own (ranks and peers keep their ids). */
function quotientProgram(p: FlowProgram, repStreams: readonly number[], streams: StreamIndex, repOf: Int32Array): { quotient: FlowProgram; opOrigin: Int32Array; streamOf: Int32Array } {
  let nOps = 0;
  for (const s of repStreams) nOps += p.opStart[s + 1] - p.opStart[s];
  const S = repStreams.length;
  const opStart = new Int32Array(S + 1);
  const opOrigin = new Int32Array(nOps);
  let n = 0;
  for (let i = 0; i < S; i++) {
    const s = repStreams[i];
    opStart[i] = n;
    for (let o = p.opStart[s]; o < p.opStart[s + 1]; o++) opOrigin[n++] = o;
  }
  opStart[S] = n;
  const pick = <T extends Int32Array | Float64Array | Uint8Array>(col: T): T => {
    const out = new (col.constructor as new (n: number) => T)(nOps);
    for (let i = 0; i < nOps; i++) out[i] = col[opOrigin[i]];
    return out;
  };
  const opKind = pick(p.opKind);
  const opPeer = pick(p.opPeer);
  const opCount = pick(p.opCount);
  const dsts = new Int32Array(nOps);
  for (let i = 0; i < nOps; i++) {
    const o = opOrigin[i];
    if (opKind[i] === OpKind.Send) {
      dsts[i] = p.dsts[p.opPeer[o]];
      opPeer[i] = i;
    } else if (opKind[i] === OpKind.Wait && opPeer[i] >= 0) opPeer[i] = opPeer[i] - o + i;
  }
  // Every stream of the full program -> the quotient stream of its representative with the same local index.
  const qStream = new Int32Array(p.numStreams).fill(-1);
  repStreams.forEach((s, i) => (qStream[s] = i));
  const streamOf = new Int32Array(p.numStreams);
  const { start, list } = streams;
  for (let r = 0; r < p.numRanks; r++) {
    const rep = repOf[r];
    for (let k = 0; k < start[r + 1] - start[r]; k++) streamOf[list[start[r] + k]] = qStream[list[start[rep] + k]];
  }
  const quotient = new FlowProgram({
    numRanks: p.numRanks,
    streamRank: Int32Array.from(repStreams, (s) => p.streamRank[s]),
    streamLocal: Int32Array.from(repStreams, (s) => p.streamLocal[s]),
    opStart,
    opKind,
    opPeer,
    opCount,
    opBytes: pick(p.opBytes),
    opTag: pick(p.opTag),
    opHint: pick(p.opHint),
    dsts,
    hints: p.hints,
    keyNames: p.keyNames,
    opNonBlocking: p.opNonBlocking ? pick(p.opNonBlocking) : null,
    opDelay: p.opDelay ? pick(p.opDelay) : null,
    opLibrary: p.opLibrary ? pick(p.opLibrary) : null,
    opSeparateSend: p.opSeparateSend ? pick(p.opSeparateSend) : null,
  });
  return { quotient, opOrigin, streamOf };
}

/**
 * A program declared equivariant (collectives/registry.ts `RotationStreams`): every rank's streams
 * alike, rank r's ops rank 0's with peers (and a send's path) moved by the rank permutation taking
 * 0 to r (`action`), barriers on groups of every rank; `emit` lowers the given ranks' streams only
 * (in rank order), as lowerSchedule would.
 */
export interface DeclaredRotation {
  readonly numRanks: number;
  /** How peers move with the rank: p + r mod N ('rotation'), p XOR r ('xor'), or digit by digit ({ translation: dims }). */
  readonly action: RankAction;
  readonly opsPerRank: number;
  emit(ranks: readonly number[]): FlowProgram;
}

/** A quotient built from the representatives' streams alone: no full program, so no op of it to map back to. */
export interface DeclaredQuotient {
  readonly used: true;
  readonly record: SymmetryRecord & { used: true };
  readonly maps: QuotientMaps;
  readonly program: FlowProgram;
  /** How the declaration moves peers with the rank (recorded in the result's rule). */
  readonly action: RankAction;
}

/**
 * The quotient of a declared equivariant run without its full program (issue 29): the same
 * preconditions as findQuotient; H is spanned by, per declared generator, its smallest power that
 * acts on ranks as an element of the declared action (a rotation r -> r + c mod N, r -> r XOR c, or
 * a translation of the digits; the declaration then gives equivariance); routes are checked on the
 * representatives' flows as findQuotient checks them, with every image op's id in the full lowering
 * (rank·opsPerRank + its index among the rank's ops) as its salt; a hinted send's images are its
 * path moved with the rank (as declared), whose routes the automorphism gives by construction.
 */
export function declaredQuotient(
  t: Topology,
  routing: RoutingFunction,
  model: FlowModel,
  decl: DeclaredRotation,
  run: { readonly trace?: boolean; readonly noise?: boolean; readonly maxOps?: number },
): DeclaredQuotient | { used: false; reason: string } {
  const N = decl.numRanks;
  const pre = preconditions(t, routing, N, model, { trace: run.trace, noise: run.noise === true, deps: false });
  if (typeof pre === 'string') return fallback(pre);
  const move = actionOf(decl.action, N);
  if (typeof move === 'string') return fallback(move);
  let best: DeclaredQuotient | undefined;
  const reasons: string[] = [];
  // Largest candidate subgroup first: emitting a small one's many representatives (the top bit flip
  // of a fat tree is the rotation by N/2: N/2 representatives) costs what the full program would.
  const candidates = pre.map((group) => ({ group, hGens: actionGenerators(t, N, group, move) })).sort((a, b) => orderOf(b.hGens) - orderOf(a.hGens));
  for (const { group, hGens } of candidates) {
    if (best !== undefined && orderOf(hGens) <= best.maps.order) break;
    if (hGens.length === 0) {
      reasons.push(`no power of the ${group.name} ${actionVerb(decl.action)} the ranks`);
      continue;
    }
    const dropped: string[] = [];
    let found: DeclaredQuotient | undefined;
    while (hGens.length > 0 && found === undefined) {
      const maps = orbits(t, N, hGens, group.name);
      if ('reason' in maps) {
        reasons.push(maps.reason);
        break;
      }
      const reps: number[] = [];
      for (let r = 0; r < N; r++) if (maps.repOf[r] === r) reps.push(r);
      if (run.maxOps !== undefined && reps.length * decl.opsPerRank > run.maxOps) {
        reasons.push(`${reps.length} representatives × ${decl.opsPerRank} ops exceed ${run.maxOps}`);
        break;
      }
      const program = decl.emit(reps);
      const shape = checkShape(program, model);
      if (shape) return fallback(shape);
      const L = decl.opsPerRank;
      // Op o's index among its rank's ops (the streams of a rank are emitted one after another).
      const rankFirstOp = new Int32Array(N);
      for (let s = program.numStreams - 1; s >= 0; s--) rankFirstOp[program.streamRank[s]] = program.opStart[s];
      const all = Array.from({ length: program.numStreams }, (_, s) => s);
      // A hinted send's image follows its own explicit path, the representative's moved with the
      // rank (as declared; tested op for op against the lowering): the full lowering walks it by
      // the first channel between consecutive nodes, and the automorphism maps a node's first
      // channel to a neighbour onto the image's first one, so the image's route is the
      // representative's moved, by construction. Routing it again would mean emitting every image
      // rank's ops (its own port walk: a torus lists a node's links by neighbour id, so +x is port 0
      // at coordinate 0 and port 1 elsewhere): at 32³, 93 ranks × 32,767 paths for per-step-barrier.
      const check = checkRoutes(t, routing, program, all, hGens, model.splitTies, (s, o) => program.streamRank[s] * L + (o - rankFirstOp[program.streamRank[s]]), (r2, s, o) => {
        const r = program.streamRank[s];
        const index = o - rankFirstOp[r];
        return { op: r2 * L + index, dst: move(program.dsts[program.opPeer[o]], r, r2), hint: undefined, moved: program.opHint[o] >= 0 };
      }, true);
      if (check === undefined) {
        const record = { used: true as const, group: group.name, generators: hGens.map((g) => (g.power === 1 ? g.gen.name : `(${g.gen.name})^${g.power}`)), order: maps.order, representatives: reps.length, ...(dropped.length > 0 ? { dropped } : {}) };
        found = { used: true, record, maps, program, action: decl.action };
      } else if (check.generator < 0 || hGens.length === 1) {
        reasons.push([...dropped, check.reason].join('; '));
        break;
      } else {
        dropped.push(check.reason);
        hGens.splice(check.generator, 1);
      }
    }
    if (found !== undefined && (best === undefined || found.maps.order > best.maps.order)) best = found;
  }
  return best ?? fallback(reasons.join('; '));
}

const orderOf = (hGens: readonly SubgroupGenerator[]): number => (hGens.length === 0 ? 0 : hGens.reduce((a, g) => a * g.order, 1));

/**
 * How the declared action moves rank x by its element taking `from` to `to` (each a translation of
 * digits: rotation, one digit of radix N; XOR, N's bits; or the declared radices, written out for
 * the first two since the route check moves every representative flow along every generator's
 * cycle), or why it does not fit N ranks.
 */
function actionOf(action: RankAction, N: number): RankMove | string {
  if (action === 'rotation') return (x, from, to) => (((x + to - from) % N) + N) % N;
  if (action === 'xor') {
    if ((N & (N - 1)) !== 0) return `XOR symmetry declared on ${N} ranks (not a power of two)`;
    return (x, from, to) => x ^ from ^ to;
  }
  const radices = Int32Array.from(action.translation);
  if (radices.some((k) => !(k >= 1)) || radices.reduce((a, k) => a * k, 1) !== N) return `translation declared on digits ${action.translation.join('x')}, not ${N} ranks`;
  return (x, from, to) => translate(x, from, to, radices);
}

function actionVerb(action: RankAction): string {
  return action === 'xor' ? 'XORs' : action === 'rotation' ? 'rotates' : 'translates';
}

/** Rank x moved by the translation taking `from` to `to`: x + (to − from), digit by digit, each mod its radix. */
function translate(x: number, from: number, to: number, radices: Int32Array): number {
  let out = 0;
  for (let i = 0, stride = 1; i < radices.length; i++) {
    const k = radices[i];
    const d = (Math.floor(x / stride) % k) + (Math.floor(to / stride) % k) - (Math.floor(from / stride) % k);
    out += (((d % k) + k) % k) * stride;
    stride *= k;
  }
  return out;
}

/** Moves rank x by the action's element taking `from` to `to`. */
type RankMove = (x: number, from: number, to: number) => number;

/** Per declared generator, its smallest power that acts on the ranks as an element of the action (the one taking 0 to c, c ≠ 0). */
function actionGenerators(t: Topology, N: number, group: AutomorphismGroup, move: RankMove): SubgroupGenerator[] {
  const out: SubgroupGenerator[] = [];
  for (const gen of group.generators) {
    const h = smallestPower(t, N, gen, (pi) => isElement(pi, move));
    if (h !== undefined) out.push(h);
  }
  return out;
}

function isElement(pi: Int32Array, move: RankMove): boolean {
  const c = pi[0];
  if (c === 0) return false;
  for (let r = 1; r < pi.length; r++) if (pi[r] !== move(r, 0, c)) return false;
  return true;
}
