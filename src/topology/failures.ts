/**
 * Failed links and routers: `links=5%,seed=3`, `links=12`, `routers=2%`, or explicit lists
 * `cut=3-7/8-9` (links between node ids) and `down=5/9` (router node ids). A link is both channels
 * between two routers (network links only: a terminal's own link failing is its router failing for
 * it); a failed router loses every channel and takes its terminals with it, so the surviving ranks
 * are renumbered in order and the lost ones recorded. Random choices draw from Rng(seed) over the
 * network links (or routers) in channel-id (node-id) order: the same spec and seed fail the same
 * links.
 *
 * The degraded network has no family: its family's closed forms, symmetry and routings no longer
 * hold, so it gets exact BFS metrics and shortest-path routing over the survivors (the packet engine
 * routes it on up*\/down*, deadlock free with one VC class; docs/failures.md).
 */
import { InputError } from '../util/errors.js';
import { Rng } from '../util/rng.js';
import { Spec } from '../util/spec.js';
import { NodeKind, Topology } from './graph.js';

export interface FailureSpec {
  /** Fraction (0..1) or count of network links to fail at random. */
  links?: { fraction?: number; count?: number };
  routers?: { fraction?: number; count?: number };
  /** Explicit links as node-id pairs. */
  cut?: readonly (readonly [number, number])[];
  /** Explicit router node ids. */
  down?: readonly number[];
  seed?: number;
  /** The text the user gave, recorded in the result. */
  text?: string;
}

const FIELD = 'fail';

function amount(spec: Spec, key: string): { fraction?: number; count?: number } | undefined {
  const raw = spec.raw(key);
  if (raw === undefined) return undefined;
  const percent = /^([0-9]+(?:\.[0-9]+)?)%$/.exec(raw.trim());
  if (percent) {
    const fraction = Number(percent[1]) / 100;
    if (fraction > 1) throw new InputError(`${FIELD}.${key}`, raw, 'a percentage from 0% to 100%, or a count');
    return { fraction };
  }
  if (!/^[0-9]+$/.test(raw.trim())) throw new InputError(`${FIELD}.${key}`, raw, 'a percentage such as 5% or a count such as 12');
  return { count: Number(raw) };
}

function nodeList(raw: string, key: string, pairs: boolean): number[][] {
  return raw.split('/').map((item) => {
    const parts = item.split('-');
    if (parts.length !== (pairs ? 2 : 1) || parts.some((p) => !/^[0-9]+$/.test(p.trim()))) {
      throw new InputError(`${FIELD}.${key}`, raw, pairs ? 'links as node-id pairs joined by "/", e.g. 3-7/8-9' : 'node ids joined by "/", e.g. 5/9');
    }
    return parts.map(Number);
  });
}

/** Parses `links=5%,seed=3`, `routers=2`, `cut=3-7/8-9`, `down=5/9` (any combination). */
export function parseFailures(text: string): FailureSpec {
  const spec = Spec.parse(`fail:${text}`, FIELD);
  if (spec.positional !== undefined) throw new InputError(FIELD, text, 'keys links=, routers=, cut=, down=, seed= (e.g. links=5%,seed=3)');
  const links = amount(spec, 'links');
  const routers = amount(spec, 'routers');
  const cutRaw = spec.raw('cut');
  const downRaw = spec.raw('down');
  const seed = spec.int('seed', { min: 0, max: 2 ** 32 - 1, default: 1 });
  spec.assertAllRead();
  if (!links && !routers && cutRaw === undefined && downRaw === undefined) {
    throw new InputError(FIELD, text, 'at least one of links=, routers=, cut=, down= (e.g. links=5%,seed=3)');
  }
  return {
    links,
    routers,
    cut: cutRaw === undefined ? undefined : nodeList(cutRaw, 'cut', true).map(([a, b]) => [a, b] as const),
    down: downRaw === undefined ? undefined : nodeList(downRaw, 'down', false).map(([v]) => v),
    seed,
    text,
  };
}

/** Nodes that route (switches; every node of a direct network). */
function isRouter(t: Topology, v: number): boolean {
  return t.distanceConvention === 'router-hops' || t.nodeKind[v] !== NodeKind.Terminal;
}

/** Network links: for each, its channel ids (a channel and its reverse partner, paired in id order). */
function networkLinks(t: Topology): Int32Array[] {
  const partner = new Int32Array(t.numChannels).fill(-1);
  const links: Int32Array[] = [];
  for (let c = 0; c < t.numChannels; c++) {
    const u = t.chSrc[c];
    const v = t.chDst[c];
    if (partner[c] >= 0 || !isRouter(t, u) || !isRouter(t, v)) continue;
    let back = -1;
    for (let i = t.outStart[v]; i < t.outStart[v + 1] && back < 0; i++) {
      const r = t.outChannels[i];
      if (t.chDst[r] === u && partner[r] < 0 && r !== c) back = r;
    }
    if (back >= 0) {
      partner[c] = back;
      partner[back] = c;
      links.push(Int32Array.of(c, back));
    } else {
      partner[c] = c;
      links.push(Int32Array.of(c));
    }
  }
  return links;
}

/** `k` distinct indices of 0..n−1 drawn by a partial Fisher–Yates shuffle. */
function pick(n: number, k: number, rng: Rng): Int32Array {
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(n - i);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, k).sort();
}

function countOf(a: { fraction?: number; count?: number }, total: number, field: string): number {
  const k = a.count ?? Math.round((a.fraction ?? 0) * total);
  if (k > total) throw new InputError(field, a.count, `at most ${total} (the network has ${total})`);
  return k;
}

/** The topology with the failures applied (see the module comment). Throws InputError on ids that do not exist. */
export function applyFailures(t: Topology, f: FailureSpec): Topology {
  // Declared routes (a SimGrid platform of zones) name links a failure would remove: refused, not rerouted.
  if (t.explicitRoutes) throw new InputError(FIELD, 'failures on a SimGrid platform of zones', 'a topology whose routes are computed (the platform declares its routes, which failed links would break)');
  const rng = new Rng(f.seed ?? 1);
  const dead = new Uint8Array(t.numChannels);
  const deadNode = new Uint8Array(t.numNodes);
  const links = networkLinks(t);
  let failedLinks = 0;
  if (f.links) {
    for (const i of pick(links.length, countOf(f.links, links.length, `${FIELD}.links`), rng)) {
      for (const c of links[i]) dead[c] = 1;
      failedLinks++;
    }
  }
  for (const [u, v] of f.cut ?? []) {
    const link = links.find((l) => (t.chSrc[l[0]] === u && t.chDst[l[0]] === v) || (t.chSrc[l[0]] === v && t.chDst[l[0]] === u));
    if (!link || dead[link[0]]) throw new InputError(`${FIELD}.cut`, `${u}-${v}`, `a working network link of ${t.spec} (node ids 0..${t.numNodes - 1})`);
    for (const c of link) dead[c] = 1;
    failedLinks++;
  }
  const routers: number[] = [];
  for (let v = 0; v < t.numNodes; v++) if (isRouter(t, v)) routers.push(v);
  if (f.routers) for (const i of pick(routers.length, countOf(f.routers, routers.length, `${FIELD}.routers`), rng)) deadNode[routers[i]] = 1;
  for (const v of f.down ?? []) {
    if (!(v < t.numNodes && isRouter(t, v))) throw new InputError(`${FIELD}.down`, v, `a router node id of ${t.spec}`);
    deadNode[v] = 1;
  }
  // A failed router's terminals go with it: they have no other way into the network.
  for (let c = 0; c < t.numChannels; c++) {
    const u = t.chSrc[c];
    const v = t.chDst[c];
    if (deadNode[u] && !isRouter(t, v)) deadNode[v] = 1;
    if (deadNode[v] && !isRouter(t, u)) deadNode[u] = 1;
  }
  const keep: number[] = [];
  for (let c = 0; c < t.numChannels; c++) if (!dead[c] && !deadNode[t.chSrc[c]] && !deadNode[t.chDst[c]]) keep.push(c);
  const endpoints: number[] = [];
  const lostRanks: number[] = [];
  for (let r = 0; r < t.numEndpoints; r++) {
    if (deadNode[t.endpoints[r]]) lostRanks.push(r);
    else endpoints.push(t.endpoints[r]);
  }
  if (endpoints.length === 0) throw new InputError(FIELD, f.text ?? describe(f), 'failures that leave at least one rank');
  const take = <T extends Int32Array | Float64Array | Uint16Array>(a: T): T => {
    const out = new (a.constructor as new (n: number) => T)(keep.length);
    for (let i = 0; i < keep.length; i++) out[i] = a[keep[i]];
    return out;
  };
  let failedRouters = 0;
  for (let v = 0; v < t.numNodes; v++) if (deadNode[v] && isRouter(t, v)) failedRouters++;
  return new Topology({
    family: 'degraded',
    spec: `${t.spec} fail=${f.text ?? describe(f)}`,
    params: {
      base: t.spec,
      baseFamily: t.family,
      baseParams: t.params,
      failures: { spec: f.text ?? describe(f), seed: f.seed ?? 1, failedLinks, networkLinks: links.length, failedRouters, routers: routers.length, lostRanks },
      bandwidth: t.params.bandwidth,
      latency: t.params.latency,
      ...(t.params.loopback !== undefined ? { loopback: t.params.loopback } : {}),
    },
    nodeKind: t.nodeKind,
    chSrc: take(t.chSrc),
    chDst: take(t.chDst),
    chBandwidth: take(t.chBandwidth),
    chLatency: take(t.chLatency),
    chClass: take(t.chClass),
    classNames: t.classNames,
    endpoints: Int32Array.from(endpoints),
    coordDims: t.coordDims,
    coords: t.coords,
    distanceConvention: t.distanceConvention,
  });
}

function describe(f: FailureSpec): string {
  const parts: string[] = [];
  const amountText = (a: { fraction?: number; count?: number }): string => (a.count !== undefined ? String(a.count) : `${(a.fraction ?? 0) * 100}%`);
  if (f.links) parts.push(`links=${amountText(f.links)}`);
  if (f.routers) parts.push(`routers=${amountText(f.routers)}`);
  if (f.cut) parts.push(`cut=${f.cut.map(([a, b]) => `${a}-${b}`).join('/')}`);
  if (f.down) parts.push(`down=${f.down.join('/')}`);
  parts.push(`seed=${f.seed ?? 1}`);
  return parts.join(',');
}

/**
 * Throws a one-line InputError when some rank cannot reach rank 0 over the surviving channels (links
 * are two-way, so reaching rank 0 is reaching every rank).
 */
export function assertRanksConnected(t: Topology, context = FIELD): void {
  // A platform's declared routes join every pair (a pair without one is refused at load); its graph may join them through hubs.
  if (t.numEndpoints === 0 || t.explicitRoutes) return;
  const seen = new Uint8Array(t.numNodes);
  const queue = new Int32Array(t.numNodes);
  let tail = 0;
  queue[tail++] = t.endpoints[0];
  seen[t.endpoints[0]] = 1;
  for (let head = 0; head < tail; head++) {
    const v = queue[head];
    // Terminals never carry transit traffic in an indirect network.
    if (v !== t.endpoints[0] && !isRouter(t, v)) continue;
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const w = t.chDst[t.outChannels[i]];
      if (!seen[w]) {
        seen[w] = 1;
        queue[tail++] = w;
      }
    }
  }
  let cut = 0;
  let first = -1;
  for (let r = 0; r < t.numEndpoints; r++) {
    if (!seen[t.endpoints[r]]) {
      cut++;
      if (first < 0) first = r;
    }
  }
  if (cut > 0) {
    const failures = (t.params as { failures?: { spec?: string } }).failures;
    const unreached = `${cut} of ${t.numEndpoints} ranks, rank ${first} first, cannot reach rank 0`;
    // Without failures the network itself is in pieces (a file graph): say so rather than blame --fail.
    if (!failures) throw new InputError('topology', t.spec, `a connected network: every rank must reach every other (${unreached}); topo shows the unreachable pairs`);
    throw new InputError(context, failures.spec ?? t.spec, `failures that leave every rank in use connected (${unreached})`);
  }
}
