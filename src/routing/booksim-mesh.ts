/**
 * BookSim 2.0's randomised mesh routings (routefunc.cpp), for `--booksim-config` files and any mesh:
 * - `romm` (`romm_mesh`): an intermediate router drawn uniformly in the minimal box of source and
 *   destination, per coordinate (`rand_min_intr_mesh`); dimension order to it on VC class 0, then
 *   dimension order to the destination on class 1.
 * - `valiant-dor` (`valiant_mesh`): the same two phases through an intermediate drawn uniformly over
 *   every router (source and destination included, where the route is plain dimension order).
 * - `xy-yx` (`xy_yx_mesh`): per packet a fair coin picks dimension order lowest dimension first (XY,
 *   class 0) or highest first (YX, class 1).
 * - `adaptive-xy-yx` (`adaptive_xy_yx_mesh`): the same two orders, the one whose first channel has
 *   fewer credits in use at the source router (BookSim's GetUsedCredit of the two output ports), the
 *   coin on a tie (as when one dimension differs and both orders leave by the same channel). Decided
 *   once, at the packet's first router: BookSim keeps the order the head's VC names from then on.
 * Each class is half the VCs; the ejection hop takes every VC, as BookSim's "at the destination
 * router we don't need to separate VCs" (hence `ejectAnyVc`). The draws are per packet, from the
 * route salt and the seed; with BookSim's stream (`--random-stream booksim`) the packet engine has
 * `drawAtTurn` redraw them as BookSim does, at the packet's first router (except adaptive-xy-yx's coin).
 */
import { InputError } from '../util/errors.js';
import { hash32, type RandomStream } from '../util/rng.js';
import type { Topology } from '../topology/graph.js';
import { familyOf } from '../topology/registry.js';
import { dimensionOrderRouting } from './dimension-order.js';
import type { RoutingEntry } from './registry.js';
import { ANY_VC_CLASS, loadOf, makeRouteBuffers, type RouteBuffers, type RouteContext, type RoutingFunction } from './types.js';

export type BookSimMeshRoutingKind = 'romm' | 'valiant-dor' | 'xy-yx' | 'adaptive-xy-yx';

function meshGrid(topology: Topology, kind: string): readonly number[] {
  const grid = topology.coords ? familyOf(topology)?.grid?.(topology) : undefined;
  if (!grid || grid.wrap || !topology.coords) throw new InputError('routing', `${kind} on ${topology.family}`, 'a mesh topology (BookSim defines it on meshes only)');
  return grid.dims;
}

/** Writes leg `leg` (length h) into a route's channels and classes at `at`, every hop on `cls`; returns the new length. */
function append(channels: Int32Array, classes: Uint8Array, at: number, leg: RouteBuffers, h: number, cls: number): number {
  for (let i = 0; i < h; i++) {
    channels[at + i] = leg.channels[i];
    classes[at + i] = cls;
  }
  return at + h;
}

export function bookSimMeshRouting(topology: Topology, kind: BookSimMeshRoutingKind, seedOption = 1): RoutingFunction {
  const dims = meshGrid(topology, kind);
  const seed = seedOption >>> 0;
  const nd = dims.length;
  const coords = topology.coords as Int32Array;
  const xy = dimensionOrderRouting(topology);
  const yx = dimensionOrderRouting(topology, { order: dims.map((_, d) => nd - 1 - d) });
  // Node at each coordinate vector (dimension 0 fastest), to name a drawn intermediate.
  const stride = dims.map((_, d) => dims.slice(0, d).reduce((a, b) => a * b, 1));
  const nodeAt = new Int32Array(dims.reduce((a, b) => a * b, 1)).fill(-1);
  for (let v = 0; v < topology.numNodes; v++) {
    let index = 0;
    for (let d = 0; d < nd; d++) index += coords[v * nd + d] * stride[d];
    nodeAt[index] = v;
  }
  const leg = makeRouteBuffers(xy.maxHops);
  const legYx = makeRouteBuffers(yx.maxHops);
  const intermediate = (src: number, dst: number, salt: number): number => {
    let index = 0;
    let draw = salt;
    for (let d = 0; d < nd; d++) {
      const a = coords[src * nd + d];
      const b = coords[dst * nd + d];
      // One draw per dimension, each a hash of the one before, as BookSim's successive RandomInt
      // calls: draws differing only in hash32's last input are correlated (see hash32).
      draw = hash32(draw, seed, 0x726f6d6d);
      // romm: uniform in [min, max] of the two coordinates; valiant: uniform over the dimension.
      const c = kind === 'romm' ? Math.min(a, b) + (draw % (Math.abs(a - b) + 1)) : draw % dims[d];
      index += c * stride[d];
    }
    return nodeAt[index];
  };
  /** Dimension order from src to mid on class 0, then to dst on class 1, written at `at`; returns the end. */
  const viaIntermediate = (src: number, mid: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number): number => {
    // BookSim switches to phase 1 at the intermediate router, so a source intermediate is all phase 1.
    const end = mid === src ? at : append(channels, classes, at, leg, xy.route(src, mid, 0, leg), 0);
    // Phase 0 may pass the destination (valiant): BookSim separates VCs by phase only elsewhere.
    for (let h = at; h < end; h++) if (topology.chSrc[channels[h]] === dst) classes[h] = ANY_VC_CLASS;
    return append(channels, classes, end, leg, xy.route(mid, dst, 0, leg), 1);
  };
  /**
   * BookSim's own draws, at the packet's first router (its injection port is `in_channel == 2*gN`):
   * xy_yx_mesh's `RandomInt(1) > 0` for XY (none at the destination router, which ejects);
   * romm_mesh's rand_min_intr_mesh, `RandomInt(|dist|)` per dimension from the lower coordinate,
   * even for a packet to its own router; valiant_mesh's `RandomInt(gNodes − 1)`, the router itself.
   */
  function drawAtTurn(node: number, prev: number, dst: number, channels: Int32Array, classes: Uint8Array, at: number, end: number, stream: RandomStream): number {
    if (prev >= 0) return end;
    if (kind === 'xy-yx') {
      if (node === dst) return end;
      const yFirst = stream.int(2) > 0 ? 0 : 1;
      return append(channels, classes, at, leg, (yFirst ? yx : xy).route(node, dst, 0, leg), yFirst);
    }
    let mid: number;
    if (kind === 'valiant-dor') mid = nodeAt[stream.int(nodeAt.length)];
    else {
      let index = 0;
      for (let d = 0; d < nd; d++) {
        const a = coords[node * nd + d];
        const b = coords[dst * nd + d];
        index += (Math.min(a, b) + stream.int(Math.abs(a - b) + 1)) * stride[d];
      }
      mid = nodeAt[index];
    }
    return viaIntermediate(node, mid, dst, channels, classes, at);
  }
  const description = {
    romm: 'ROMM: dimension order via a random router of the minimal box (class 0), then to the destination (class 1)',
    'valiant-dor': 'Valiant: dimension order via a random router (class 0), then to the destination (class 1)',
    'xy-yx': 'XY (class 0) or YX (class 1) dimension order, a fair coin per packet',
    'adaptive-xy-yx': 'XY (class 0) or YX (class 1) dimension order, whichever first channel has fewer credits in use at the source router, a fair coin on a tie',
  }[kind];
  const twoOrders = kind === 'xy-yx' || kind === 'adaptive-xy-yx';
  return {
    name: `${kind}(booksim)`,
    params: { routing: kind, booksim: { romm: 'romm', 'valiant-dor': 'valiant', 'xy-yx': 'xy_yx', 'adaptive-xy-yx': 'adaptive_xy_yx' }[kind], seed, path: description, ejection: 'every VC' },
    vcClasses: 2,
    deadlockFree: true,
    ejectAnyVc: true,
    maxHops: twoOrders ? xy.maxHops : 2 * xy.maxHops,
    ...(kind === 'adaptive-xy-yx' ? { adaptive: true as const, drawsFromStream: true as const } : { drawAtTurn }),
    route(src: number, dst: number, salt: number, out: RouteBuffers, ctx?: RouteContext): number {
      // valiant_mesh has no special case for a packet to its own node: it too goes via the intermediate.
      if (src === dst && kind !== 'valiant-dor') return 0;
      if (twoOrders) {
        let yFirst = hash32(salt, seed, 0x79) & 1;
        if (kind !== 'adaptive-xy-yx') return append(out.channels, out.vcClass, 0, leg, (yFirst ? yx : xy).route(src, dst, salt, leg), yFirst);
        // Both orders routed once each; their first channels' loads choose.
        const hopsXy = xy.route(src, dst, salt, leg);
        const hopsYx = yx.route(src, dst, salt, legYx);
        const loadXy = loadOf(ctx, leg.channels[0]);
        const loadYx = loadOf(ctx, legYx.channels[0]);
        if (loadXy !== loadYx) yFirst = loadXy > loadYx ? 1 : 0;
        // adaptive_xy_yx_mesh's coin on a tie, RandomInt(1) > 0 for XY.
        else if (ctx?.stream) yFirst = ctx.stream.int(2) > 0 ? 0 : 1;
        return yFirst ? append(out.channels, out.vcClass, 0, legYx, hopsYx, 1) : append(out.channels, out.vcClass, 0, leg, hopsXy, 0);
      }
      const mid = intermediate(src, dst, salt);
      // BookSim switches to phase 1 at the intermediate router, so a source intermediate is all phase 1.
      return viaIntermediate(src, mid, dst, out.channels, out.vcClass, 0);
    },
  };
}

function entry(name: BookSimMeshRoutingKind, description: string): RoutingEntry {
  return { name, description, create: (topology, opts) => bookSimMeshRouting(topology, name, opts.seed) };
}

export const rommEntry = entry('romm', "BookSim's romm on a mesh: dimension order via a random router of the minimal box, 2 VC classes");
export const valiantDorEntry = entry('valiant-dor', "BookSim's valiant on a mesh: dimension order via a random router, 2 VC classes");
export const xyYxEntry = entry('xy-yx', "BookSim's xy_yx on a mesh: XY or YX dimension order per packet, one VC class each");
export const adaptiveXyYxEntry = entry('adaptive-xy-yx', "BookSim's adaptive_xy_yx on a mesh: XY or YX, whichever first channel has fewer credits in use at the source router, one VC class each");
