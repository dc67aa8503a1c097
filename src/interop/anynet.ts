/**
 * BookSim 2 `anynet` topology files, in and out. A line is `router R` followed by what R connects
 * to: `node N [latency]` (terminal N injects and ejects at R) and `router R2 [latency]` (a
 * bidirectional link; listed on either line or both), latency in cycles (default 1).
 *
 * Import: a router with exactly one node is that terminal (a direct network: the terminal routes);
 * otherwise the router is a switch and each of its nodes a terminal linked to it. Rank r is node r.
 * Export is the inverse: a terminal linked only to one switch is a `node` of that switch's router;
 * every other node is a router (carrying its own `node` when it is an endpoint). Latencies are
 * written in cycles of `cycle` seconds (default: the smallest channel latency); bandwidth is lost.
 */
import { InputError, requireText } from '../util/errors.js';
import { maxOf } from '../util/arrays.js';
import { checkSize, TopologyBuilder, type LinkAttributes } from '../topology/builder.js';
import { NodeKind, type Topology } from '../topology/graph.js';

export interface AnynetGraph {
  readonly routers: number;
  /** Router of each node (node id = index). */
  readonly nodeRouter: Int32Array;
  /** Node-router latency in cycles. */
  readonly nodeLatency: Int32Array;
  /** Router-router links, each once: [a, b, latency cycles]. */
  readonly links: ReadonlyArray<readonly [number, number, number]>;
}

/** One `router R ...` line: what R connects to, each with the latency written after it (undefined for none). */
interface AnynetLine {
  readonly where: string;
  readonly head: number;
  readonly entries: ReadonlyArray<{ readonly kind: 'node' | 'router'; readonly id: number; readonly latency: number | undefined }>;
}

/** The lines of an anynet file, comments and blank lines left out; errors name the line and token. */
function anynetLines(text: string, field: string): AnynetLine[] {
  const out: AnynetLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') return;
    const tok = line.split(/\s+/);
    const where = `${field}.line[${i + 1}]`;
    const id = (k: number, what: string): number => {
      const v = Number(tok[k]);
      if (!(Number.isInteger(v) && v >= 0 && /^\d+$/.test(tok[k] ?? ''))) throw new InputError(`${where}.${what}`, tok[k], 'an integer id >= 0');
      return v;
    };
    if (tok[0] !== 'router') throw new InputError(where, tok[0], '"router R" at the start of the line');
    const head = id(1, 'router');
    const entries: AnynetLine['entries'][number][] = [];
    for (let k = 2; k < tok.length; ) {
      const kind = tok[k];
      if (kind !== 'node' && kind !== 'router') throw new InputError(`${where}.token[${k + 1}]`, kind, '"node N" or "router R", each optionally followed by a latency in cycles');
      const other = id(k + 1, kind);
      k += 2;
      let latency: number | undefined;
      if (k < tok.length && /^\d+$/.test(tok[k])) {
        latency = Number(tok[k]);
        if (latency < 1) throw new InputError(`${where}.latency`, tok[k], 'a latency of at least 1 cycle');
        k++;
      }
      if (kind === 'router' && other === head) throw new InputError(`${where}.router`, other, `a router other than ${head} (no self-links)`);
      entries.push({ kind, id: other, latency });
    }
    out.push({ where, head, entries });
  });
  return out;
}

/** Node n's router and latency for n = 0..nodes-1, refusing gaps. */
function nodesInOrder(nodeRouter: Map<number, [number, number]>, field: string): { routerOf: Int32Array; latencyOf: Int32Array } {
  const nodes = nodeRouter.size;
  const routerOf = new Int32Array(nodes);
  const latencyOf = new Int32Array(nodes);
  for (let n = 0; n < nodes; n++) {
    const e = nodeRouter.get(n);
    if (!e) throw new InputError(`${field}.node`, n, `node ids 0..${nodes - 1} without gaps (node ${n} is missing)`);
    routerOf[n] = e[0];
    latencyOf[n] = e[1];
  }
  return { routerOf, latencyOf };
}

/** Records that node `n` hangs off router `r`, refusing a second router. */
function attachNode(nodeRouter: Map<number, [number, number]>, n: number, r: number, latency: number, where: string): void {
  const before = nodeRouter.get(n);
  if (before && before[0] !== r) throw new InputError(`${where}.node`, n, `a node attached to one router (node ${n} is already on router ${before[0]})`);
  nodeRouter.set(n, [r, latency]);
}

/** Parses an anynet file; errors name the line and token. */
export function parseAnynet(text: string, field = 'anynet'): AnynetGraph {
  requireText(text, field, 'the text of an anynet file');
  const nodeRouter = new Map<number, [number, number]>();
  const links = new Map<string, [number, number, number]>();
  let routers = 0;
  for (const { where, head, entries } of anynetLines(text, field)) {
    routers = Math.max(routers, head + 1);
    for (const { kind, id: other, latency = 1 } of entries) {
      if (kind === 'node') {
        attachNode(nodeRouter, other, head, latency, where);
        continue;
      }
      routers = Math.max(routers, other + 1);
      const key = head < other ? `${head},${other}` : `${other},${head}`;
      const before = links.get(key);
      if (before && before[2] !== latency) throw new InputError(`${where}.latency`, latency, `${before[2]}, the latency the link ${key} was given before`);
      links.set(key, [Math.min(head, other), Math.max(head, other), latency]);
    }
  }
  if (nodeRouter.size === 0) throw new InputError(field, 'no node', 'at least one "node N" entry');
  // Router ids may leave gaps, so the largest one sets the count: refused before anything is sized by it.
  checkSize(`${field}.routers`, routers + nodeRouter.size, 2 * (links.size + nodeRouter.size));
  const { routerOf, latencyOf } = nodesInOrder(nodeRouter, field);
  return { routers, nodeRouter: routerOf, nodeLatency: latencyOf, links: [...links.values()] };
}

/**
 * An anynet file as BookSim 2.0 reads it (anynet.cpp `readFile`, @ 28f43299): every router is a
 * router and every node a terminal on its router's injection and ejection channels (1 cycle);
 * `router A router B L` gives the channel A -> B a latency of L cycles and creates B -> A at 1 cycle
 * unless B's own entry for A sets it ("the channel latency specification between routers are not
 * bi-directional", examples/anynet/README); each mention sets its direction again.
 */
export interface BookSimAnynet {
  readonly routers: number;
  /** Router of each node (node id = index). */
  readonly nodeRouter: Int32Array;
  /** Directed router channels [from, to, latency cycles], from ascending, then to ascending (BookSim's channel order). */
  readonly channels: ReadonlyArray<readonly [number, number, number]>;
}

/** Parses an anynet file with BookSim's semantics (BookSimAnynet), refusing what BookSim would misread or crash on. */
export function parseBookSimAnynet(text: string, field = 'anynet'): BookSimAnynet {
  requireText(text, field, 'the text of a BookSim anynet file');
  const nodeRouter = new Map<number, [number, number]>();
  const latency = new Map<number, Map<number, number>>();
  const out = (r: number): Map<number, number> => latency.get(r) ?? latency.set(r, new Map()).get(r)!;
  for (const { where, head, entries } of anynetLines(text, field)) {
    out(head);
    for (const e of entries) {
      if (e.kind === 'node') {
        // anynet.cpp stores a weight after `node N` on router R's entry for router N (LINK_WEIGHT
        // indexes its router map by the line's head type): a channel R -> N, not the node's latency.
        if (e.latency !== undefined) throw new InputError(`${where}.latency`, e.latency, `nothing after "node ${e.id}" (BookSim 2.0 reads it as the latency of a channel from router ${head} to router ${e.id}, not of the node's channels, which are 1 cycle)`);
        attachNode(nodeRouter, e.id, head, 1, where);
        continue;
      }
      out(head).set(e.id, e.latency ?? 1);
      if (!out(e.id).has(head)) out(e.id).set(head, 1);
    }
  }
  const routers = latency.size;
  for (let r = 0; r < routers; r++) {
    if (!latency.has(r)) throw new InputError(`${field}.router`, maxOf([...latency.keys()]), `router ids 0..${routers - 1} without gaps (router ${r} is missing; BookSim indexes its routers by id)`);
  }
  if (nodeRouter.size === 0) throw new InputError(field, 'no node', 'at least one "node N" entry');
  const channels: [number, number, number][] = [];
  for (let r = 0; r < routers; r++) for (const [to, lat] of [...latency.get(r)!].sort((a, b) => a[0] - b[0])) channels.push([r, to, lat]);
  checkSize(`${field}.routers`, routers + nodeRouter.size, channels.length + 2 * nodeRouter.size);
  return { routers, nodeRouter: nodesInOrder(nodeRouter, field).routerOf, channels };
}

/** The Meshwork topology of an anynet graph; `link.latency` is one cycle, `link.bandwidth` every channel's. */
export function anynetTopology(g: AnynetGraph, link: LinkAttributes, spec: string): Topology {
  const cycle = link.latency ?? 1e-9;
  const perRouter = new Int32Array(g.routers);
  for (const r of g.nodeRouter) perRouter[r]++;
  const b = new TopologyBuilder(0, { nodes: g.routers + g.nodeRouter.length, channels: 2 * (g.links.length + g.nodeRouter.length) }, link);
  // Routers keep their ids; a router with one node is that terminal.
  for (let r = 0; r < g.routers; r++) b.addNode(perRouter[r] === 1 ? NodeKind.Terminal : NodeKind.Switch);
  const endpoints = new Int32Array(g.nodeRouter.length);
  g.nodeRouter.forEach((r, n) => {
    if (perRouter[r] === 1) {
      endpoints[n] = r;
      return;
    }
    endpoints[n] = b.addNode(NodeKind.Terminal);
    b.addLink(endpoints[n], r, 'host-up', 'host-down', { ...link, latency: g.nodeLatency[n] * cycle });
  });
  for (const [x, y, lat] of g.links) b.addLink(x, y, 'link', 'link', { ...link, latency: lat * cycle });
  b.setEndpoints(endpoints);
  const hasSwitch = perRouter.some((c) => c !== 1);
  return b.build({
    family: 'file',
    spec,
    params: { format: 'anynet', routers: g.routers, nodes: g.nodeRouter.length, links: g.links.length, cycle_s: cycle },
    distanceConvention: hasSwitch ? 'switches-traversed' : 'router-hops',
  });
}

/** Per-class channel latencies in cycles of a BookSim anynet topology (params.booksimChannelLatency): router channels are classed by latency. */
export const anynetChannelClass = (cycles: number): string => (cycles === 1 ? 'link' : `link-${cycles}`);

/**
 * BookSim's anynet network as a Meshwork topology: routers 0..R-1 are switches (node ids kept),
 * node n is terminal R + n on its router, router channels in BookSim's order with their own
 * latencies (`link.latency` is one cycle). Each router's ports are in BookSim's order too
 * (anynet.cpp `_BuildNet`): its nodes' injection and ejection channels first, by node id, then its
 * router channels by neighbour id. The order is the allocators' round-robin order: with routers
 * first, Meshwork's latency near the knee was 20-80 % over BookSim's with 1-3 VCs (a ring of 4
 * routers, 2 or 4 nodes each). The packet engine's `booksim` preset reads each channel
 * class's latency in cycles from params.booksimChannelLatency.
 */
export function bookSimAnynetTopology(g: BookSimAnynet, link: LinkAttributes, spec: string): Topology {
  const cycle = link.latency ?? 1e-9;
  const nodes = g.nodeRouter.length;
  const b = new TopologyBuilder(0, { nodes: g.routers + nodes, channels: g.channels.length + 2 * nodes }, link);
  b.addNodes(NodeKind.Switch, g.routers);
  const classCycles: Record<string, number> = { 'host-up': 1, 'host-down': 1 };
  // Terminal channels first: BookSim numbers a router's ports from its nodes, then its router channels.
  const endpoints = new Int32Array(nodes);
  g.nodeRouter.forEach((r, n) => {
    endpoints[n] = b.addNode(NodeKind.Terminal);
    b.addLink(endpoints[n], r, 'host-up', 'host-down', { ...link, latency: cycle });
  });
  for (const [from, to, lat] of g.channels) {
    classCycles[anynetChannelClass(lat)] = lat;
    b.addChannel(from, to, anynetChannelClass(lat), { ...link, latency: lat * cycle });
  }
  b.setEndpoints(endpoints);
  return b.build({
    family: 'file',
    spec,
    params: { format: 'anynet', model: 'booksim', routers: g.routers, nodes, channels: g.channels.length, cycle_s: cycle, booksimChannelLatency: classCycles },
    distanceConvention: 'switches-traversed',
  });
}

/** Writes a topology as an anynet file (one line per router; each link on both of its routers' lines). */
export function topologyToAnynet(t: Topology, cycle?: number): string {
  let minLat = Infinity;
  for (let c = 0; c < t.numChannels; c++) if (t.chLatency[c] > 0) minLat = Math.min(minLat, t.chLatency[c]);
  const unit = cycle ?? (Number.isFinite(minLat) ? minLat : 1);
  const cycles = (c: number): number => Math.max(1, Math.round(t.chLatency[c] / unit));
  const neighbours = (v: number): number[] => {
    const out: number[] = [];
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) out.push(t.outChannels[i]);
    return out;
  };
  // A terminal whose every channel leads to one switch is a node of that switch.
  const hostOf = new Int32Array(t.numNodes).fill(-1);
  for (let v = 0; v < t.numNodes; v++) {
    if (t.nodeKind[v] !== NodeKind.Terminal || t.rankOfNode[v] < 0) continue;
    const peers = new Set(neighbours(v).map((c) => t.chDst[c]));
    const [only] = peers;
    if (peers.size === 1 && t.nodeKind[only] === NodeKind.Switch) hostOf[v] = only;
  }
  const routerId = new Int32Array(t.numNodes).fill(-1);
  let routers = 0;
  for (let v = 0; v < t.numNodes; v++) if (hostOf[v] < 0) routerId[v] = routers++;
  const lines: string[] = [];
  for (let v = 0; v < t.numNodes; v++) {
    if (hostOf[v] >= 0) continue;
    const parts = [`router ${routerId[v]}`];
    if (t.rankOfNode[v] >= 0) parts.push(`node ${t.rankOfNode[v]}`);
    const seen = new Set<number>();
    for (const c of neighbours(v)) {
      const w = t.chDst[c];
      if (seen.has(w)) continue;
      seen.add(w);
      const lat = cycles(c);
      parts.push(hostOf[w] === v ? `node ${t.rankOfNode[w]}${lat === 1 ? '' : ` ${lat}`}` : `router ${routerId[w]}${lat === 1 ? '' : ` ${lat}`}`);
    }
    lines.push(parts.join(' '));
  }
  return `${lines.join('\n')}\n`;
}
