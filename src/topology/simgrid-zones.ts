/**
 * SimGrid 3.32's cluster zones that have no Meshwork family of their own, built link for link as
 * SimGrid builds them (read from `src/kernel/routing/FatTreeZone.cpp` and `DragonflyZone.cpp`), so
 * that a SimGrid platform file loads as the same network (interop/simgrid.ts) and routes as SimGrid
 * routes it (routing/simgrid-zones.ts):
 *
 * - `simgrid-fattree:levels=L,down=D1x..xDL,up=U1x..xUL,links=P1x..xPL` — SimGrid's FAT_TREE
 *   `L;D1,..;U1,..;P1,..` (Zahavi's parallel-ports generalised fat tree): level-0 nodes are the
 *   prod(D) hosts; a level-l node has down[l-1] children and up[l] parents, joined to each by links[l]
 *   parallel links. Every link is split duplex: an `up` channel (child to parent) and a `down` one.
 * - `simgrid-dragonfly:groups=G,chassis=C,routers=R,nodes=P[,blue=..,black=..,green=..]` — SimGrid's
 *   DRAGONFLY `G,blue;C,black;R,green;P`: G groups of C chassis of R routers of P hosts; routers of a
 *   chassis fully connected (green), same-position routers of a group's chassis fully connected
 *   (black), and router y of group x (y counted over the group's chassis × routers) holding the one
 *   link to group y. SimGrid gives n parallel links as one link of n × the bandwidth, and so do we.
 *
 * Node ids: hosts first (SimGrid's host order), then the switches (fat tree: level by level,
 * position order; dragonfly: router g·C·R + c·R + b).
 */
import { InputError } from '../util/errors.js';
import { parseDims, Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { SharedCapacities, TopologyFamily } from './registry.js';

/** A SimGrid FAT_TREE's parameters: levels, and per level the down, up and parallel-link counts. */
export interface SimgridFatTreeShape {
  readonly levels: number;
  readonly down: readonly number[];
  readonly up: readonly number[];
  readonly links: readonly number[];
}

/**
 * The fat tree as SimGrid's FatTreeZone wires it. Labels: a node of level l at position p has the
 * digits of p in the mixed radix (up[j] for j < l, down[j] for j >= l), least significant first; a
 * parent and child are related when their labels agree except at digit l. Child c (level l) and
 * parent q are joined by links[l] links, link j on q's child port c.label[l] + j·down[l] and c's
 * parent port q.label[l] + j·up[l]. Link i's channels are 2i (up) and 2i + 1 (down).
 */
export interface SimgridFatTreeWiring {
  readonly nodes: number;
  readonly levelStart: readonly number[];
  readonly level: Int32Array;
  readonly position: Int32Array;
  /** label[node · levels + digit]. */
  readonly label: Int32Array;
  /** Parent-port table: link id, at parentPortStart[node] + port. */
  readonly parentPortStart: Int32Array;
  readonly parentPortLink: Int32Array;
  readonly childPortStart: Int32Array;
  readonly childPortLink: Int32Array;
  readonly linkChild: Int32Array;
  readonly linkParent: Int32Array;
}

/**
 * How SimGrid shares a cluster's links. `sharing`: SPLITDUPLEX gives each direction its own capacity;
 * SHARED (what 3.32 also builds for FATPIPE: it creates these links without passing the policy on)
 * one capacity for both. `limiter`: a cluster's `limiter_link`, one more SHARED link of that bandwidth
 * per host, switch and router, crossed once by every route through the node.
 */
export interface SimgridSharing {
  readonly sharing?: 'SPLITDUPLEX' | 'SHARED';
  /** Bytes/s, or undefined for none. */
  readonly limiter?: number;
}

/** Largest host count of a SimGrid fat tree or dragonfly built here (the flow engine's scale). */
export const MAX_SIMGRID_ZONE_NODES = 1 << 20;

export function simgridFatTreeWiring(shape: SimgridFatTreeShape, field = 'simgrid-fattree'): SimgridFatTreeWiring {
  const { levels: L, down, up, links } = shape;
  if (!Number.isInteger(L) || L < 1 || L > 16) throw new InputError(`${field}.levels`, L, 'an integer from 1 to 16');
  for (const [name, v] of [['down', down], ['up', up], ['links', links]] as const) {
    if (v.length !== L || v.some((x) => !Number.isInteger(x) || x < 1)) throw new InputError(`${field}.${name}`, v.join('x'), `${L} positive integers (one per level)`);
  }
  const byLevel: number[] = [down.reduce((a, b) => a * b, 1)];
  for (let i = 0; i < L; i++) {
    let n = 1;
    for (let j = 0; j <= i; j++) n *= up[j];
    for (let j = i + 1; j < L; j++) n *= down[j];
    byLevel.push(n);
  }
  const nodes = byLevel.reduce((a, b) => a + b, 0);
  let linkCount = 0;
  for (let l = 0; l < L; l++) linkCount += byLevel[l] * up[l] * links[l];
  if (!(byLevel[0] <= MAX_SIMGRID_ZONE_NODES)) throw new InputError(`${field}.down`, down.join('x'), `at most ${MAX_SIMGRID_ZONE_NODES} hosts (the product)`);
  checkSize(field, nodes, 2 * linkCount);
  const levelStart = [0];
  for (let l = 0; l <= L; l++) levelStart.push(levelStart[l] + byLevel[l]);
  const level = new Int32Array(nodes);
  const position = new Int32Array(nodes);
  const label = new Int32Array(nodes * L);
  const parentPortStart = new Int32Array(nodes + 1);
  const childPortStart = new Int32Array(nodes + 1);
  for (let l = 0; l <= L; l++) {
    for (let p = 0; p < byLevel[l]; p++) {
      const v = levelStart[l] + p;
      level[v] = l;
      position[v] = p;
      let rest = p;
      for (let j = 0; j < L; j++) {
        const radix = j >= l ? down[j] : up[j];
        label[v * L + j] = rest % radix;
        rest = Math.floor(rest / radix);
      }
      parentPortStart[v + 1] = parentPortStart[v] + (l < L ? up[l] * links[l] : 0);
      childPortStart[v + 1] = childPortStart[v] + (l > 0 ? down[l - 1] * links[l - 1] : 0);
    }
  }
  const parentPortLink = new Int32Array(parentPortStart[nodes]).fill(-1);
  const childPortLink = new Int32Array(childPortStart[nodes]).fill(-1);
  const linkChild = new Int32Array(linkCount);
  const linkParent = new Int32Array(linkCount);
  let link = 0;
  for (let l = 0; l < L; l++) {
    // Position of the parent whose label is the child's with digit l set to `digit` (radix of level l + 1).
    for (let p = 0; p < byLevel[l]; p++) {
      const child = levelStart[l] + p;
      for (let digit = 0; digit < up[l]; digit++) {
        let parentPos = 0;
        let place = 1;
        for (let j = 0; j < L; j++) {
          parentPos += (j === l ? digit : label[child * L + j]) * place;
          place *= j >= l + 1 ? down[j] : up[j];
        }
        const parent = levelStart[l + 1] + parentPos;
        for (let j = 0; j < links[l]; j++) {
          childPortLink[childPortStart[parent] + label[child * L + l] + j * down[l]] = link;
          parentPortLink[parentPortStart[child] + digit + j * up[l]] = link;
          linkChild[link] = child;
          linkParent[link] = parent;
          link++;
        }
      }
    }
  }
  return { nodes, levelStart, level, position, label, parentPortStart, parentPortLink, childPortStart, childPortLink, linkChild, linkParent };
}

export function simgridFatTree(shape: SimgridFatTreeShape & SimgridSharing, link: LinkAttributes = {}, spec?: string): Topology {
  const w = simgridFatTreeWiring(shape);
  const b = new TopologyBuilder(0, { nodes: w.nodes, channels: 2 * w.linkChild.length }, link);
  b.addNodes(NodeKind.Terminal, w.levelStart[1]);
  b.addNodes(NodeKind.Switch, w.nodes - w.levelStart[1]);
  for (let i = 0; i < w.linkChild.length; i++) b.addLink(w.linkChild[i], w.linkParent[i], 'up', 'down');
  const { levels, down, up, links } = shape;
  return b.build({
    family: 'simgrid-fattree',
    spec: spec ?? `simgrid-fattree:levels=${levels},down=${down.join('x')},up=${up.join('x')},links=${links.join('x')}${sharingSpec(shape)}`,
    params: { levels, down: [...down], up: [...up], links: [...links], terminals: w.levelStart[1], switches: w.nodes - w.levelStart[1], bandwidth: b.defaultBandwidth, latency: b.defaultLatency, ...sharingParams(shape) },
    distanceConvention: 'switches-traversed',
  });
}

export const simgridFatTreeFamily: TopologyFamily = {
  name: 'simgrid-fattree',
  usage: 'simgrid-fattree:levels=L,down=D1x..xDL,up=U1x..xUL,links=P1x..xPL[,bw=..,lat=..]',
  description: "SimGrid's FAT_TREE cluster (a generalised fat tree: children, parents and parallel links per level), wired and routed as SimGrid 3.32's FatTreeZone",
  build(spec: Spec, link: LinkAttributes): Topology {
    const levels = spec.int('levels', { min: 1, max: 16 });
    const list = (key: string): number[] => parseDims(spec.raw(key), spec.field(key), { min: 1, max: 1 << 16 });
    const shape = { levels, down: list('down'), up: list('up'), links: list('links'), ...readSharing(spec) };
    spec.assertAllRead();
    return simgridFatTree(shape, link, spec.text);
  },
  defaultRouting: 'simgrid-fattree',
  sharedCapacities: (t) => linkAndNodeCapacities(t),
};

/** A SimGrid DRAGONFLY's parameters: groups, chassis per group, routers per chassis, hosts per router, links per connection. */
export interface SimgridDragonflyShape {
  readonly groups: number;
  readonly chassis: number;
  readonly routers: number;
  readonly nodes: number;
  readonly blue: number;
  readonly black: number;
  readonly green: number;
}

export function simgridDragonfly(shape: SimgridDragonflyShape & SimgridSharing, link: LinkAttributes = {}, spec?: string): Topology {
  const { groups: G, chassis: C, routers: R, nodes: P } = shape;
  const field = 'simgrid-dragonfly';
  for (const key of ['groups', 'chassis', 'routers', 'nodes', 'blue', 'black', 'green'] as const) {
    if (!Number.isInteger(shape[key]) || shape[key] < 1) throw new InputError(`${field}.${key}`, shape[key], 'a positive integer');
  }
  // SimGrid indexes a router's green links by the target group when it leaves a group
  // (green_links_[target group], a vector of R entries): more groups than routers per chassis read
  // past it, so such a platform has no defined routes.
  if (G > R) throw new InputError(`${field}.groups`, G, `at most routers = ${R} (SimGrid 3.32 reaches group y through router y of the chassis)`);
  const hosts = G * C * R * P;
  if (!(hosts <= MAX_SIMGRID_ZONE_NODES)) throw new InputError(field, `${hosts} hosts`, `at most ${MAX_SIMGRID_ZONE_NODES} hosts`);
  const routerCount = G * C * R;
  const channels = 2 * (hosts + G * C * ((R * (R - 1)) / 2) + G * R * ((C * (C - 1)) / 2) + (G * (G - 1)) / 2);
  checkSize(field, hosts + routerCount, channels);
  const b = new TopologyBuilder(0, { nodes: hosts + routerCount, channels }, link);
  const bw = b.defaultBandwidth;
  b.addNodes(NodeKind.Terminal, hosts);
  b.addNodes(NodeKind.Switch, routerCount);
  const router = (g: number, c: number, r: number): number => hosts + (g * C + c) * R + r;
  for (let h = 0; h < hosts; h++) b.addLink(h, hosts + Math.floor(h / P), 'terminal', 'terminal');
  for (let g = 0; g < G; g++) {
    for (let c = 0; c < C; c++) {
      for (let j = 0; j < R; j++) for (let k = j + 1; k < R; k++) b.addLink(router(g, c, j), router(g, c, k), 'green', 'green', { bandwidth: bw * shape.green });
    }
  }
  for (let g = 0; g < G; g++) {
    for (let j = 0; j < C; j++) {
      for (let k = j + 1; k < C; k++) for (let r = 0; r < R; r++) b.addLink(router(g, j, r), router(g, k, r), 'black', 'black', { bandwidth: bw * shape.black });
    }
  }
  // Router number y of group x (y over the group's C·R routers) holds the link to group y.
  for (let i = 0; i < G; i++) for (let j = i + 1; j < G; j++) b.addLink(hosts + i * C * R + j, hosts + j * C * R + i, 'blue', 'blue', { bandwidth: bw * shape.blue });
  return b.build({
    family: 'simgrid-dragonfly',
    spec: spec ?? `simgrid-dragonfly:groups=${G},chassis=${C},routers=${R},nodes=${P},blue=${shape.blue},black=${shape.black},green=${shape.green}${sharingSpec(shape)}`,
    params: { groups: G, chassis: C, routers: R, nodes: P, blue: shape.blue, black: shape.black, green: shape.green, terminals: hosts, routerCount, bandwidth: bw, latency: b.defaultLatency, ...sharingParams(shape) },
    distanceConvention: 'switches-traversed',
  });
}

export const simgridDragonflyFamily: TopologyFamily = {
  name: 'simgrid-dragonfly',
  usage: 'simgrid-dragonfly:groups=G,chassis=C,routers=R,nodes=P[,blue=1,black=1,green=1,bw=..,lat=..]',
  description: "SimGrid's DRAGONFLY cluster (groups of chassis of routers; green, black and blue links), wired and routed as SimGrid 3.32's DragonflyZone",
  build(spec: Spec, link: LinkAttributes): Topology {
    const int = (key: string, def?: number): number => spec.int(key, { min: 1, max: 1 << 16, default: def });
    const shape = { groups: int('groups'), chassis: int('chassis'), routers: int('routers'), nodes: int('nodes'), blue: int('blue', 1), black: int('black', 1), green: int('green', 1), ...readSharing(spec) };
    spec.assertAllRead();
    return simgridDragonfly(shape, link, spec.text);
  },
  defaultRouting: 'simgrid-dragonfly',
  sharedCapacities: (t) => linkAndNodeCapacities(t),
};

/** `sharing=shared` and `limiter=BW` of a spec. */
function readSharing(spec: Spec): SimgridSharing {
  const sharing = (spec.raw('sharing') ?? 'splitduplex').toUpperCase();
  if (sharing !== 'SPLITDUPLEX' && sharing !== 'SHARED') throw new InputError(spec.field('sharing'), spec.raw('sharing'), 'splitduplex (each direction its own capacity) or shared (one for both)');
  const limiter = spec.bandwidth('limiter');
  if (limiter !== undefined && !(limiter > 0)) throw new InputError(spec.field('limiter'), spec.raw('limiter'), 'a positive bandwidth');
  return { sharing, limiter };
}

const sharingSpec = (s: SimgridSharing): string => `${s.sharing === 'SHARED' ? ',sharing=shared' : ''}${s.limiter !== undefined ? `,limiter=${s.limiter}Bps` : ''}`;
const sharingParams = (s: SimgridSharing): { sharing: string; limiter: number | null } => ({ sharing: s.sharing ?? 'SPLITDUPLEX', limiter: s.limiter ?? null });

/**
 * The shared capacities of a SimGrid fat tree or dragonfly: with SHARED links, link i's two channels
 * (2i and 2i + 1: both families add every link with addLink) draw on one capacity; with a limiter,
 * every channel leaving node v draws on v's limiter, and every channel into a host on the host's too,
 * so a route crosses each node's limiter once (SimGrid adds it once per node a route visits).
 */
function linkAndNodeCapacities(t: Topology): SharedCapacities | undefined {
  const { sharing, limiter } = t.params as { sharing?: string; limiter?: number | null };
  const shared = sharing === 'SHARED';
  if (!shared && (limiter === null || limiter === undefined)) return undefined;
  const links = shared ? t.numChannels / 2 : 0;
  const start = new Int32Array(t.numChannels + 1);
  const res: number[] = [];
  for (let c = 0; c < t.numChannels; c++) {
    if (shared) res.push(c >> 1);
    if (limiter) {
      res.push(links + t.chSrc[c]);
      if (t.nodeKind[t.chDst[c]] === NodeKind.Terminal) res.push(links + t.chDst[c]);
    }
    start[c + 1] = res.length;
  }
  const capacity = new Float64Array(links + (limiter ? t.numNodes : 0));
  for (let i = 0; i < links; i++) capacity[i] = t.chBandwidth[2 * i];
  if (limiter) capacity.fill(limiter, links);
  const what = [shared ? 'SHARED links (one capacity for both directions)' : '', limiter ? `a ${limiter} B/s limiter per host, switch and router` : ''].filter(Boolean).join(', ');
  return { capacity, start, res: Int32Array.from(res), what, ownLinksFrom: limiter ? links : undefined };
}

/** A FLAT cluster: hosts, their private links' sharing and limiter, and the backbone, if any. */
export interface SimgridFlatShape extends SimgridSharing {
  readonly hosts: number;
  /** bb_bw (bytes/s) and bb_lat (s): one link every route between two hosts crosses, SHARED unless `fatpipe` (bb_sharing_policy="FATPIPE"). */
  readonly backbone?: { readonly bw: number; readonly lat: number; readonly fatpipe?: boolean };
}

/**
 * SimGrid's FLAT cluster, a crossbar: each host's private link to a switch (channels `host-up`,
 * `host-down`); with a backbone, every route between two hosts is its private link up, the backbone,
 * the other private link down, and the backbone is one channel that every such flow shares (SimGrid's
 * SHARED backbone; a FATPIPE one is a FATPIPE resource: fatpipeChannels). SHARED or FATPIPE private links and a limiter are shared capacities of the two
 * channels of each host (hostCapacities).
 */
export function simgridFlat(shape: SimgridFlatShape, link: LinkAttributes = {}, spec?: string): Topology {
  const n = shape.hosts;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SIMGRID_ZONE_NODES) throw new InputError('simgrid-flat.hosts', n, `an integer from 1 to ${MAX_SIMGRID_ZONE_NODES}`);
  const b = new TopologyBuilder(0, { nodes: n + 2, channels: 2 * n + 1 }, link);
  b.addNodes(NodeKind.Terminal, n);
  const up = b.addNode(NodeKind.Switch);
  const bb = shape.backbone;
  if (!bb) {
    for (let h = 0; h < n; h++) b.addLink(h, up, 'host-up', 'host-down');
  } else {
    const down = b.addNode(NodeKind.Switch);
    for (let h = 0; h < n; h++) b.addChannel(h, up, 'host-up');
    b.addChannel(up, down, 'backbone', { bandwidth: bb.bw, latency: bb.lat });
    for (let h = 0; h < n; h++) b.addChannel(down, h, 'host-down');
  }
  return b.build({
    family: 'simgrid-flat',
    spec: spec ?? `simgrid-flat:hosts=${n}${bb ? `,bb_bw=${bb.bw}Bps,bb_lat=${bb.lat}s${bb.fatpipe ? ',bb_sharing=fatpipe' : ''}` : ''}${sharingSpec(shape)}`,
    params: { hosts: n, bandwidth: b.defaultBandwidth, latency: b.defaultLatency, backbone: bb ? { bw: bb.bw, lat: bb.lat, sharing: bb.fatpipe ? 'FATPIPE' : 'SHARED' } : null, ...sharingParams(shape) },
    distanceConvention: 'switches-traversed',
    symmetry: { reason: 'hosts are interchangeable', classes: [{ rank: 0, count: n }] },
  });
}

export const simgridFlatFamily: TopologyFamily = {
  name: 'simgrid-flat',
  usage: 'simgrid-flat:hosts=N[,bb_bw=..,bb_lat=..,bb_sharing=shared|fatpipe,sharing=shared,limiter=..,bw=..,lat=..]',
  description: "SimGrid's FLAT cluster: each host's private link to one switch, with or without a shared backbone",
  build(spec: Spec, link: LinkAttributes): Topology {
    const hosts = spec.int('hosts', { min: 1, max: MAX_SIMGRID_ZONE_NODES });
    const bw = spec.bandwidth('bb_bw');
    const lat = spec.time('bb_lat');
    if (bw === undefined && lat !== undefined) throw new InputError(spec.field('bb_bw'), undefined, 'a backbone bandwidth with bb_lat');
    if (bw === undefined && spec.has('bb_sharing')) throw new InputError(spec.field('bb_sharing'), spec.raw('bb_sharing'), 'nothing without a backbone (bb_bw)');
    const bbSharing = spec.choice('bb_sharing', ['shared', 'fatpipe'] as const, 'shared');
    const shape = { hosts, backbone: bw === undefined ? undefined : { bw, lat: lat ?? 0, fatpipe: bbSharing === 'fatpipe' }, ...readSharing(spec) };
    spec.assertAllRead();
    return simgridFlat(shape, link, spec.text);
  },
  sharedCapacities: (t) => hostCapacities(t),
  fatpipeChannels: (t) => flatFatpipe(t),
  selfRoute: (t, node, channels) => flatSelfRoute(t, node, channels),
};

/** A FLAT cluster's FATPIPE backbone channel, flagged (undefined for a SHARED backbone or none). */
function flatFatpipe(t: Topology): Uint8Array | undefined {
  const bb = (t.params as { backbone?: { sharing?: string } | null }).backbone;
  if (bb?.sharing !== 'FATPIPE') return undefined;
  const flags = new Uint8Array(t.numChannels);
  const backbone = t.classNames.indexOf('backbone');
  for (let c = 0; c < t.numChannels; c++) if (t.chClass[c] === backbone) flags[c] = 1;
  return flags;
}

/**
 * A host's route to itself in a FLAT cluster (SimGrid 3.32 StarZone::get_local_route without a
 * loopback link): its links up, then its links down, each link once (`added_links`): its private
 * link up, the backbone when there is one, its private link down. SMPI times a message to oneself
 * over it (MVAPICH2's scatter_dest alltoall sends each rank's own block so).
 */
function flatSelfRoute(t: Topology, node: number, channels: Int32Array): number {
  let hops = 0;
  const up = t.outChannels[t.outStart[node]];
  channels[hops++] = up;
  const backbone = t.classNames.indexOf('backbone');
  if (backbone >= 0) {
    const sw = t.chDst[up];
    for (let k = t.outStart[sw]; k < t.outStart[sw + 1]; k++) if (t.chClass[t.outChannels[k]] === backbone) channels[hops++] = t.outChannels[k];
  }
  channels[hops++] = t.inChannels[t.inStart[node]];
  return hops;
}

/**
 * A FLAT cluster's shared capacities: with SHARED (or FATPIPE) private links, host h's two channels
 * draw on one capacity (its link's bandwidth); with a limiter, on h's limiter too.
 */
function hostCapacities(t: Topology): SharedCapacities | undefined {
  const { sharing, limiter, hosts } = t.params as { sharing?: string; limiter?: number | null; hosts: number };
  const shared = sharing === 'SHARED';
  if (!shared && (limiter === null || limiter === undefined)) return undefined;
  const start = new Int32Array(t.numChannels + 1);
  const res: number[] = [];
  const [upClass, downClass] = [t.classNames.indexOf('host-up'), t.classNames.indexOf('host-down')];
  const capacity = new Float64Array((shared ? hosts : 0) + (limiter ? hosts : 0));
  for (let c = 0; c < t.numChannels; c++) {
    const host = t.chClass[c] === upClass ? t.chSrc[c] : t.chClass[c] === downClass ? t.chDst[c] : -1;
    if (host >= 0 && shared) {
      res.push(host);
      capacity[host] = t.chBandwidth[c];
    }
    if (host >= 0 && limiter) res.push((shared ? hosts : 0) + host);
    start[c + 1] = res.length;
  }
  if (limiter) capacity.fill(limiter, shared ? hosts : 0);
  const what = [shared ? 'SHARED private links (one capacity for both directions)' : '', limiter ? `a ${limiter} B/s limiter per host` : ''].filter(Boolean).join(', ');
  return { capacity, start, res: Int32Array.from(res), what, ownLinksFrom: limiter ? (shared ? hosts : 0) : undefined };
}
