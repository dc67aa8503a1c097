/**
 * DCE/MDCE self-routing (seed 004, spec/seed004_mdce.md §2.1–2.3).
 *
 * At node (x0, x1…xr) bound for (w0, w1…wr), with d_i = w_i XOR x_i: if bit bit(x0) of some d_i is 1,
 * leave on that dimension's cross link, otherwise on the parallel link; stop when every d_i = 0 and
 * x0 = w0. When several d_i qualify, CCC-type dimensions (δ = 0) go first, then c-Banyan-type, each
 * in dimension order: CCC-first is the order that attains Eq. (1)'s diameter (spec §2.2, §9 item 4);
 * c-Banyan-first needs extra laps. With P > 1 parallel links a packet uses copy (salt mod P) throughout.
 *
 * Virtual-channel classes (spec §2.3, "B+2 channels" with the spiral-buffer method): the class of a
 * hop is the number of times the route has crossed the ring's dateline (ring position L−1 → 0), that
 * hop included. Within one class a route moves forward along the ring without wrapping and takes CCC
 * hops at one position in increasing dimension order, so the channel dependencies are acyclic.
 * A route advances at most (B+1)L − 1 ring positions (B ≥ 1), hence ≤ B+1 crossings and B+2 classes,
 * the paper's count. With B = 0 (CCC, CCC products) it advances up to 2L − 2 positions, which can
 * cross the dateline twice, so 3 classes (the paper's formula would give 2; spec §2.3 flags it).
 *
 * A one-dimension DCE with δ ≥ 2 (Appendix A) routes by the same rule: cross where bit bit(x0) of d
 * is 1, else take the parallel link. A cross link skips δ − 1 positions, so a bit left behind costs
 * another lap; every hop still moves forward, so the dateline classes stay acyclic, and their count
 * and the longest route are found by routing every (position, d, destination position) once (XOR
 * translation makes every other pair a copy of these).
 */
import { InputError } from '../util/errors.js';
import { crossBit, dceShape } from '../topology/mdce/network.js';
import type { Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

/** Largest ring advance of a self-routed path, in ring positions (see the header). */
export function maxRingAdvance(ringLength: number, B: number): number {
  return B >= 1 ? (B + 1) * ringLength - 1 : 2 * ringLength - 2;
}

/** VC classes needed by the dateline rule: 1 + the most dateline crossings any route can make. */
export function mdceVcClasses(ringLength: number, B: number): number {
  return 1 + Math.floor((ringLength - 1 + maxRingAdvance(ringLength, B)) / ringLength);
}

/**
 * Longest route and dateline classes of the one-dimension self-routing with cross-link advance
 * delta ≥ 2, by routing (x0, d, w0) for every start position x0, ring-index difference d and
 * destination position w0 (L·2^n·L routes of at most a few laps each).
 */
export function widestRoutes(L: number, delta: number, bitAt: Int32Array): { maxHops: number; vcClasses: number } {
  let maxHops = 0;
  let maxCrossings = 0;
  const rings = 2 ** bitAt.reduce((m, b) => Math.max(m, b + 1), 0);
  for (let x0 = 0; x0 < L; x0++) {
    for (let d0 = 0; d0 < rings; d0++) {
      for (let w0 = 0; w0 < L; w0++) {
        let x = x0;
        let d = d0;
        let hops = 0;
        let crossings = 0;
        while (d !== 0 || x !== w0) {
          const bit = bitAt[x];
          const step = bit >= 0 && (d >>> bit) & 1 ? delta : 1;
          if (step === delta) d ^= 1 << bit;
          const next = (x + step) % L;
          if (next < x) crossings++;
          x = next;
          hops++;
        }
        if (hops > maxHops) maxHops = hops;
        if (crossings > maxCrossings) maxCrossings = crossings;
      }
    }
  }
  return { maxHops, vcClasses: maxCrossings + 1 };
}

export function mdceRouting(topology: Topology): RoutingFunction {
  const shape = dceShape(topology, 'routing.topology');
  const { n, ringLength: L, deltas, P, extraStage, B, C } = shape;
  if (deltas.some((d) => d > 1) && deltas.length > 1) {
    throw new InputError('routing.topology', topology.spec, 'an MDCE with delta 0 or 1 in every dimension (a delta of 2 or more is defined for one-dimension DCEs)');
  }
  // Dimensions in the order the tie-break tries them: CCC-type first, then c-Banyan-type.
  const order = [...deltas.keys()].sort((a, b) => deltas[a] - deltas[b] || a - b);
  const r = deltas.length;
  const orderShift = Int32Array.from(order, (i) => n * i);
  const orderPort = Int32Array.from(order, (i) => P + i);
  const bitAt = Int32Array.from({ length: L }, (_, x0) => crossBit(x0, n, extraStage));
  const { outStart, outChannels, chDst } = topology;
  const wide = deltas.length === 1 && deltas[0] > 1 ? widestRoutes(L, deltas[0], bitAt) : undefined;
  const maxHops = wide ? wide.maxHops : maxRingAdvance(L, B) + C * n;
  const vcClasses = wide ? wide.vcClasses : mdceVcClasses(L, B);

  return {
    name: 'mdce-self-routing(ccc-first)',
    params: {
      tieBreak: 'ccc-first, then dimension order',
      parallelCopy: P > 1 ? 'salt mod P' : 'single',
      vcRule: 'dateline at ring position L-1 -> 0; class = crossings so far',
      vcClasses,
      extraStage,
    },
    vcClasses,
    deadlockFree: true,
    maxHops,
    route(src: number, dst: number, salt: number, out: RouteBuffers): number {
      const copy = P > 1 ? (salt >>> 0) % P : 0;
      const dstX0 = dst % L;
      const dstRing = (dst - dstX0) / L;
      let v = src;
      let x0 = v % L;
      let ring = (v - x0) / L;
      let hops = 0;
      let vc = 0;
      for (;;) {
        const diff = ring ^ dstRing;
        if (diff === 0 && x0 === dstX0) return hops;
        let port = copy;
        const bit = bitAt[x0];
        if (bit >= 0 && diff !== 0) {
          for (let k = 0; k < r; k++) {
            if ((diff >>> (orderShift[k] + bit)) & 1) {
              port = orderPort[k];
              break;
            }
          }
        }
        const ch = outChannels[outStart[v] + port];
        v = chDst[ch];
        const nextX0 = v % L;
        if (nextX0 < x0) vc++;
        x0 = nextX0;
        ring = (v - x0) / L;
        if (hops >= maxHops) throw new Error(`mdce routing exceeded ${maxHops} hops from ${src} to ${dst}`);
        out.channels[hops] = ch;
        out.vcClass[hops] = vc;
        hops++;
      }
    },
  };
}

export const mdceEntry: RoutingEntry = {
  name: 'mdce',
  description: 'DCE/MDCE self-routing (seed 004), CCC-first, B+2 dateline VC classes',
  create: (topology) => mdceRouting(topology),
};
