/**
 * ASTRA-sim's congestion-unaware charge on its multi-dimensional networks (the `astra` family):
 * MultiDimTopology::send (astra-network-analytical, congestion_unaware) translates both NPUs to
 * addresses, takes the FIRST dimension in which they differ (get_dim_to_transfer) and has that
 * dimension's building block alone time the message between the two local ids: hops × the
 * dimension's latency + size / its bandwidth. The other dimensions are never charged.
 *
 * This routing reproduces it as a route: within that dimension only, from the source to the NPU
 * with the destination's coordinate there and the source's elsewhere, by the block's own hop count
 * (Ring: the shorter way round, its anticlockwise way (−) at a tie, as Ring::compute_hops_count's
 * `clockwise < anticlockwise` test; FullyConnected: the direct link, 1 hop; Switch: up to the
 * dimension's switch and down, 2 hops). A route may so end before its destination
 * (`partialRoutes`): its latency and bottleneck bandwidth are ASTRA-sim's charge, but its links are
 * not the message's path, so it serves the flow engine without sharing only (engine.ts refuses
 * the rest, the packet engine refuses it) and no topology bound is given with it (assemble.ts).
 * `--preset astra` chooses it on astra networks (presets.ts, presetRoutingOptions).
 */
import { maxOf } from '../util/arrays.js';
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export const ASTRA_FIRST_DIMENSION = 'astra-first-dimension';

/** What the routing does, recorded in its params. */
const RULE =
  "ASTRA-sim's congestion-unaware MultiDimTopology::send: a message is charged only in the first dimension its NPUs differ in, from the source to the NPU with the destination's coordinate there (Ring: shorter way, − at a tie; FullyConnected: 1 hop; Switch: 2 hops)";

/**
 * The route of ASTRA-sim's building block of dimension d between two NPUs that differ only there
 * (Ring: the shorter way round, `tie` at equal distances; FullyConnected: the direct link; Switch:
 * up to the dimension's switch and down), shared by ASTRA-sim's two analytical backends.
 */
interface BlockRouter {
  readonly maxHops: number;
  /** Writes the route from src to the NPU `target` (differing from src in dimension d only); returns its hops. */
  route(d: number, src: number, target: number, dst: number, tie: 'clockwise' | 'anticlockwise', out: RouteBuffers): number;
}

function blockRouter(topology: Topology, name: string): BlockRouter {
  if (topology.family !== 'astra' || !topology.coords) throw new InputError('routing', `${name} on ${topology.family}`, "an astra network (ASTRA-sim's dimensions: astra:topology=...)");
  const blocks = topology.params.topology as readonly string[];
  const sizes = topology.params.npus as readonly number[];
  const coords = topology.coords;
  const nd = sizes.length;
  const npus = topology.numEndpoints;
  const strides = new Int32Array(nd);
  let stride = 1;
  for (let d = 0; d < nd; d++) {
    strides[d] = stride;
    stride *= sizes[d];
  }
  // The switch of each NPU in each Switch dimension (-1 elsewhere): the node its `d<d>-up` channel leads to.
  const switchOf = new Int32Array(npus * nd).fill(-1);
  for (let c = 0; c < topology.numChannels; c++) {
    const className = topology.className(c);
    if (!className.endsWith('-up')) continue;
    switchOf[topology.chSrc[c] * nd + Number(className.slice(1, -3))] = topology.chDst[c];
  }
  const maxHops = maxOf(blocks.map((b, d) => (b === 'Ring' ? Math.floor(sizes[d] / 2) : b === 'Switch' ? 2 : 1)));

  function link(u: number, v: number, src: number, dst: number): number {
    const c = topology.channelBetween(u, v);
    if (c < 0) throw new InputError('route', `${src} -> ${dst}`, `NPUs of ${topology.spec} (no link ${u} -> ${v})`);
    return c;
  }

  function route(d: number, src: number, target: number, dst: number, tie: 'clockwise' | 'anticlockwise', out: RouteBuffers): number {
    let hops = 0;
    const push = (c: number): void => {
      out.channels[hops] = c;
      out.vcClass[hops++] = 0;
    };
    if (blocks[d] === 'FullyConnected') push(link(src, target, src, dst));
    else if (blocks[d] === 'Switch') {
      const sw = switchOf[src * nd + d];
      push(link(src, sw, src, dst));
      push(link(sw, target, src, dst));
    } else {
      const n = sizes[d];
      const x = coords[src * nd + d];
      const y = coords[target * nd + d];
      const clockwise = (y - x + n) % n;
      const anticlockwise = n - clockwise;
      const step = clockwise < anticlockwise || (clockwise === anticlockwise && tie === 'clockwise') ? 1 : n - 1;
      for (let cur = src, at = x; at !== y; ) {
        const nextAt = (at + step) % n;
        const next = cur + (nextAt - at) * strides[d];
        push(link(cur, next, src, dst));
        cur = next;
        at = nextAt;
      }
    }
    return hops;
  }

  return { maxHops, route };
}

/** A switch has no address: ASTRA-sim routes NPU to NPU only (a route hint through a switch is refused). */
function checkNpus(topology: Topology, name: string, src: number, dst: number): void {
  const npus = topology.numEndpoints;
  if (src >= npus || dst >= npus) throw new InputError('route', `${src} -> ${dst}`, `NPUs of ${topology.spec} (0 … ${npus - 1}): ${name} routes between NPUs only`);
}

export function astraFirstDimensionRouting(topology: Topology, chosenBy?: string): RoutingFunction {
  const blocks = blockRouter(topology, ASTRA_FIRST_DIMENSION);
  const sizes = topology.params.npus as readonly number[];
  const coords = topology.coords!;
  const nd = sizes.length;

  function route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
    if (src === dst) return 0;
    checkNpus(topology, ASTRA_FIRST_DIMENSION, src, dst);
    let d = 0;
    let stride = 1;
    while (d < nd && coords[src * nd + d] === coords[dst * nd + d]) stride *= sizes[d++];
    if (d === nd) return 0;
    const target = src + (coords[dst * nd + d] - coords[src * nd + d]) * stride;
    return blocks.route(d, src, target, dst, 'anticlockwise', out);
  }

  return {
    name: ASTRA_FIRST_DIMENSION,
    params: {
      routing: ASTRA_FIRST_DIMENSION,
      rule: RULE,
      partial_routes:
        "a route may end before its destination: its latency and bottleneck are ASTRA-sim's charge, its links are not the message's path (channel bytes count the charged links); flow engine with sharing none only, and no topology bound",
      ...(chosenBy === undefined ? {} : { chosen_by: chosenBy }),
    },
    vcClasses: 1,
    deadlockFree: false,
    maxHops: blocks.maxHops,
    partialRoutes: true,
    route,
  };
}

export const ASTRA_CONGESTION_AWARE = 'astra-congestion-aware';

/**
 * ASTRA-sim's congestion-aware backend's routes (astra-network-analytical congestion_aware,
 * one-dimensional networks only: Helper.cpp construct_topology exits on more): Ring::route goes
 * clockwise (increasing NPU id) unless anticlockwise is strictly shorter, so a tie goes clockwise
 * (the congestion-unaware Ring::compute_hops_count goes the other way, see above); FullyConnected
 * the direct link; Switch NPU, switch, NPU. Whole routes, so every engine and sharing can use them.
 */
export function astraCongestionAwareRouting(topology: Topology, chosenBy?: string): RoutingFunction {
  const blocks = blockRouter(topology, ASTRA_CONGESTION_AWARE);
  const sizes = topology.params.npus as readonly number[];
  if (sizes.length !== 1) {
    throw new InputError('routing', `${ASTRA_CONGESTION_AWARE} on ${topology.spec}`, "a one-dimensional astra network (ASTRA-sim's congestion-aware backend supports 1-dim topologies only)");
  }

  function route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
    if (src === dst) return 0;
    checkNpus(topology, ASTRA_CONGESTION_AWARE, src, dst);
    return blocks.route(0, src, dst, dst, 'clockwise', out);
  }

  return {
    name: ASTRA_CONGESTION_AWARE,
    params: {
      routing: ASTRA_CONGESTION_AWARE,
      rule: "ASTRA-sim's congestion-aware routes on a one-dimensional network: Ring the shorter way, clockwise (increasing NPU id) at a tie (Ring::route); FullyConnected the direct link; Switch NPU, switch, NPU",
      ...(chosenBy === undefined ? {} : { chosen_by: chosenBy }),
    },
    vcClasses: 1,
    deadlockFree: false,
    maxHops: blocks.maxHops,
    route,
  };
}

export const astraCongestionAwareEntry: RoutingEntry = {
  name: ASTRA_CONGESTION_AWARE,
  description: "ASTRA-sim's congestion-aware backend's routes on a one-dimensional astra network (Ring: clockwise at a tie)",
  create: (topology, opts) => astraCongestionAwareRouting(topology, opts.chosenBy),
};

export const astraFirstDimensionEntry: RoutingEntry = {
  name: ASTRA_FIRST_DIMENSION,
  description: "ASTRA-sim's congestion-unaware charge on astra networks: only the first dimension whose coordinates differ (flow engine, sharing none)",
  create: (topology, opts) => astraFirstDimensionRouting(topology, opts.chosenBy),
};
