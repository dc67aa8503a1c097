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

export function astraFirstDimensionRouting(topology: Topology, chosenBy?: string): RoutingFunction {
  if (topology.family !== 'astra' || !topology.coords) throw new InputError('routing', `${ASTRA_FIRST_DIMENSION} on ${topology.family}`, "an astra network (ASTRA-sim's dimensions: astra:topology=...)");
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
    const name = topology.className(c);
    if (!name.endsWith('-up')) continue;
    switchOf[topology.chSrc[c] * nd + Number(name.slice(1, -3))] = topology.chDst[c];
  }
  const maxHops = maxOf(blocks.map((b, d) => (b === 'Ring' ? Math.floor(sizes[d] / 2) : b === 'Switch' ? 2 : 1)));

  function link(u: number, v: number, src: number, dst: number): number {
    const c = topology.channelBetween(u, v);
    if (c < 0) throw new InputError('route', `${src} -> ${dst}`, `NPUs of ${topology.spec} (no link ${u} -> ${v})`);
    return c;
  }

  function route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
    if (src === dst) return 0;
    // A switch has no address: ASTRA-sim charges NPU to NPU only (a route hint through a switch is refused).
    if (src >= npus || dst >= npus) throw new InputError('route', `${src} -> ${dst}`, `NPUs of ${topology.spec} (0 … ${npus - 1}): ${ASTRA_FIRST_DIMENSION} routes between NPUs only`);
    let d = 0;
    while (d < nd && coords[src * nd + d] === coords[dst * nd + d]) d++;
    if (d === nd) return 0;
    const x = coords[src * nd + d];
    const y = coords[dst * nd + d];
    const stride = strides[d];
    const target = src + (y - x) * stride;
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
      const clockwise = (y - x + n) % n;
      const step = clockwise < n - clockwise ? 1 : n - 1;
      for (let cur = src, at = x; at !== y; ) {
        const nextAt = (at + step) % n;
        const next = cur + (nextAt - at) * stride;
        push(link(cur, next, src, dst));
        cur = next;
        at = nextAt;
      }
    }
    return hops;
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
    maxHops,
    partialRoutes: true,
    route,
  };
}

export const astraFirstDimensionEntry: RoutingEntry = {
  name: ASTRA_FIRST_DIMENSION,
  description: "ASTRA-sim's congestion-unaware charge on astra networks: only the first dimension whose coordinates differ (flow engine, sharing none)",
  create: (topology, opts) => astraFirstDimensionRouting(topology, opts.chosenBy),
};
