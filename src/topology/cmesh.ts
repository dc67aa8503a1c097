/**
 * `cmesh:k=K`: BookSim 2.0's concentrated mesh (src/networks/cmesh.cpp), as BookSim builds it. K×K
 * routers (K even, at least 4), four terminals on each (BookSim asserts c = 4, n = 2, x = y and
 * xr = yr = 2), and BookSim's express channels on the four edges: the port that would leave the mesh
 * joins the edge router K/2 away along that edge — +x of the right column links (K−1, y) with
 * (K−1, y ± K/2), −x of the left column (0, y) with (0, y ± K/2), −y of the bottom row (x, 0) with
 * (x ± K/2, 0), +y of the top row (x, K−1) with (x ± K/2, K−1). So every router has exactly four
 * network ports. Channel classes `mesh` and `express`; under BookSim's default use_noc_latency = 1 a
 * mesh channel takes 2 cycles and an express one K (the `booksim` preset's latencies).
 *
 * Router r = y·K + x (BookSim's numbering). Ranks are BookSim's terminal ids, which run across a
 * 2K×2K grid of terminals, router (x, y) holding the 2×2 tile at columns 2x..2x+1 and rows
 * 2y..2y+1; a router's ports list its terminals in that tile's row order (BookSim's NodeToPort), then
 * +x, −x, +y, −y, as BookSim adds its channels.
 */
import { InputError } from '../util/errors.js';
import type { Spec } from '../util/spec.js';
import type { LinkAttributes } from './builder.js';
import type { Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { LinkList, routerNetwork } from './router-network.js';

/** BookSim's cmesh concentration: asserted c = 4, two terminals along x and two along y. */
export const CMESH_CONCENTRATION = 4;

/** BookSim's terminal id of port t (0..3) of router r on a cmesh of side k (the `link` of cmesh.cpp _BuildNet). */
export function cmeshTerminalId(k: number, r: number, t: number): number {
  const [x, y] = [r % k, Math.floor(r / k)];
  return 2 * k * (2 * y + (t >> 1)) + 2 * x + (t & 1);
}

export function cmesh(k: number, link: LinkAttributes, spec: string): Topology {
  if (!Number.isInteger(k) || k < 4 || k % 2 !== 0 || k > 1 << 10) {
    throw new InputError('cmesh k', k, "an even integer in [4, 1024] (BookSim pairs edge routers K/2 apart; at k = 2 its express channels duplicate mesh links)");
  }
  const links = new LinkList(['mesh', 'express']);
  const at = (x: number, y: number): number => y * k + x;
  const half = k / 2;
  // Link order fixes each router's port order (router-network.ts): +x, -x, +y, -y as BookSim's.
  for (let y = 0; y < half; y++) links.add(at(k - 1, y), at(k - 1, y + half), 1);
  for (let y = k - 1; y >= 0; y--) for (let x = k - 2; x >= 0; x--) links.add(at(x, y), at(x + 1, y));
  for (let y = 0; y < half; y++) links.add(at(0, y), at(0, y + half), 1);
  for (let x = 0; x < half; x++) links.add(at(x, k - 1), at(x + half, k - 1), 1);
  for (let y = k - 2; y >= 0; y--) for (let x = k - 1; x >= 0; x--) links.add(at(x, y), at(x, y + 1));
  for (let x = 0; x < half; x++) links.add(at(x, 0), at(x + half, 0), 1);
  const routers = k * k;
  const built = routerNetwork({
    family: 'cmesh',
    spec,
    routers,
    p: CMESH_CONCENTRATION,
    links: links.done(),
    link,
    params: { k, n: 2, c: CMESH_CONCENTRATION, express: 2 * k, numbering: 'BookSim cmesh terminal ids (2K×2K grid, 2×2 tile per router)' },
    coordDims: 2,
    coords: (r, out) => {
      out[0] = r % k;
      out[1] = Math.floor(r / k);
    },
  });
  // routerNetwork numbers terminals router by router (r·4 + t); rank = BookSim's terminal id.
  const perm = new Int32Array(routers * CMESH_CONCENTRATION);
  for (let r = 0; r < routers; r++) for (let t = 0; t < CMESH_CONCENTRATION; t++) perm[cmeshTerminalId(k, r, t)] = r * CMESH_CONCENTRATION + t;
  return built.withRankOrder(perm, 'booksim-cmesh');
}

/**
 * BookSim's cmesh ports (cmesh.cpp _BuildNet): terminals 0–3, then +x, −x, +y, −y, in and out.
 * Output ports are the topology's. A router's +x input (port 4) is its +x neighbour's −x output,
 * so a mesh channel arrives on its output port's opposite; an express channel joins the same
 * side's ports (the right column's +x output is its partner's +x input), so it arrives on the
 * port it left by. The topology lists inputs by source router instead.
 */
function cmeshPorts(t: Topology): { inPort: Int32Array; outPort: Int32Array } {
  const outPort = Int32Array.from(t.chSrcPort);
  const inPort = new Int32Array(t.numChannels);
  const terminalClass = t.classNames.indexOf('terminal');
  const expressClass = t.classNames.indexOf('express');
  for (let c = 0; c < t.numChannels; c++) {
    const cls = t.chClass[c];
    inPort[c] = cls === terminalClass ? t.chDstPort[c] : cls === expressClass ? outPort[c] : outPort[c] ^ 1;
  }
  return { inPort, outPort };
}

export const cmeshFamily: TopologyFamily = {
  name: 'cmesh',
  usage: 'cmesh:k=K[,bw=25Gbps,lat=100ns]',
  description: "concentrated mesh (BookSim cmesh): K×K routers, 4 terminals each, express channels joining edge routers K/2 apart",
  build(spec: Spec, link: LinkAttributes): Topology {
    const k = spec.int('k', { min: 4, max: 1 << 10 });
    return cmesh(k, link, spec.text);
  },
  defaultRouting: 'cmesh-dor',
  booksimPorts: cmeshPorts,
  booksimRouting: 'cmesh-dor',
  // use_noc_latency = 1 (BookSim's default): a mesh channel spans one tile of 2 terminals (2 cycles),
  // an express channel half the edge, K/2 tiles of 2 (cmesh.cpp: _cY·k/2 and _cX·k/2).
  booksimChannelLatency: (t: Topology) => ({ mesh: 2, express: (t.params as { k: number }).k, terminal: 1 }),
};
