/**
 * Meshwork's JSON graph format (schemas/topology.schema.json): custom topologies read by
 * `file:path.json`, and the `export --format json` output, which reads back to the same graph.
 *
 *   { "format": "meshwork-topology", "version": 1,
 *     "nodes": 4 | [{ "kind": "terminal" | "switch", "coords": [0, 1], "name": "r0" }, ...],
 *     "links": [{ "src": 0, "dst": 1, "class": "x+", "reverseClass": "x-", "bidirectional": true,
 *                 "bw": "25Gbps" | 3125000000, "lat": "100ns" | 1e-7 }, ...],
 *     "endpoints": [3, 2, 1, 0], "distanceConvention": "router-hops", "defaults": { "bw": ..., "lat": ... } }
 *
 * Platform neutral: takes an already parsed document; reading files is the Node adapter's job.
 */
import * as z from 'zod';
import { InputError } from '../util/errors.js';
import { parseBandwidth, parseTime } from '../util/units.js';
import { checkSize, LinkAttributes, MAX_CHANNELS, MAX_NODES, TopologyBuilder } from './builder.js';
import { DistanceConvention, NodeKind, Topology } from './graph.js';

export const TOPOLOGY_FORMAT = 'meshwork-topology';
export const TOPOLOGY_FORMAT_VERSION = 1;

const bandwidthValue = z.union([z.number().positive().finite(), z.string()]);
const timeValue = z.union([z.number().nonnegative().finite(), z.string()]);
const nodeId = z.number().int().nonnegative();

const nodeSchema = z.strictObject({
  kind: z.enum(['terminal', 'switch']).optional(),
  coords: z.array(z.number().int()).optional(),
  name: z.string().optional(),
});

const linkSchema = z.strictObject({
  src: nodeId,
  dst: nodeId,
  class: z.string().min(1).optional(),
  reverseClass: z.string().min(1).optional(),
  bidirectional: z.boolean().optional(),
  bw: bandwidthValue.optional(),
  lat: timeValue.optional(),
});

const documentSchema = z.strictObject({
  format: z.literal(TOPOLOGY_FORMAT).optional(),
  version: z.literal(TOPOLOGY_FORMAT_VERSION).optional(),
  name: z.string().optional(),
  source: z.record(z.string(), z.unknown()).optional(),
  distanceConvention: z.enum(['router-hops', 'switches-traversed']).optional(),
  defaults: z.strictObject({ bw: bandwidthValue.optional(), lat: timeValue.optional() }).optional(),
  nodes: z.union([z.number().int().min(1).max(MAX_NODES), z.array(nodeSchema).min(1).max(MAX_NODES)]),
  links: z.array(linkSchema).max(MAX_CHANNELS),
  endpoints: z.array(nodeId).optional(),
});

const KEYS_BY_PARENT: Record<string, object> = {
  links: linkSchema.shape,
  nodes: nodeSchema.shape,
  defaults: { bw: 0, lat: 0 },
};

export type TopologyDocument = z.infer<typeof documentSchema>;
export type TopologyDocumentLink = z.infer<typeof linkSchema>;
export type TopologyDocumentNode = z.infer<typeof nodeSchema>;

/** "links[3].dst" from a zod path. */
function pathText(context: string, path: readonly PropertyKey[]): string {
  let text = context;
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  return text || 'document';
}

/**
 * For a union ("nodes": count or array) zod reports only "no branch matched"; the branch whose
 * first issue lies deepest is the one the user meant (an array of nodes with one bad kind).
 */
function deepestIssue(issue: z.core.$ZodIssue): { code: string; path: PropertyKey[]; message: string; keys?: string[] } {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue as { code: string; path: PropertyKey[]; message: string };
  let best = issue.errors[0][0];
  for (const branch of issue.errors) if (branch[0] && branch[0].path.length > (best?.path.length ?? -1)) best = branch[0];
  if (!best || best.path.length === 0) return issue as { code: string; path: PropertyKey[]; message: string };
  const inner = deepestIssue(best);
  return { ...inner, path: [...issue.path, ...inner.path] };
}

function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = doc;
  for (const part of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[part];
  }
  return v;
}

const ACCEPTED: Record<string, string> = {
  format: `"${TOPOLOGY_FORMAT}"`,
  version: String(TOPOLOGY_FORMAT_VERSION),
  nodes: `a node count 1..${MAX_NODES} or a non-empty array of {kind, coords, name}`,
  links: 'an array of {src, dst, class, reverseClass, bidirectional, bw, lat}',
  src: 'a node id (integer >= 0)',
  dst: 'a node id (integer >= 0)',
  kind: '"terminal" or "switch"',
  coords: 'an array of integers',
  class: 'a non-empty string',
  reverseClass: 'a non-empty string',
  bidirectional: 'true or false',
  bw: 'a bandwidth: bytes/s as a positive number, or a string such as "25Gbps"',
  lat: 'a latency: seconds as a number >= 0, or a string such as "100ns"',
  distanceConvention: '"router-hops" or "switches-traversed"',
  endpoints: 'an array of node ids in rank order',
};

/** Validates a parsed JSON/YAML graph document and builds its Topology. Errors name the field. */
export function topologyFromDocument(doc: unknown, opts: { name?: string; context?: string } = {}): Topology {
  const context = opts.context ?? '';
  const parsed = documentSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = deepestIssue(parsed.error.issues[0]);
    if (issue.code === 'unrecognized_keys') {
      const key = issue.keys![0];
      const known = Object.keys(KEYS_BY_PARENT[String(issue.path[0] ?? '')] ?? documentSchema.shape);
      throw new InputError(pathText(context, [...issue.path, key]), valueAt(doc, [...issue.path, key]), `only the keys ${known.join(', ')}`);
    }
    const last = [...issue.path].reverse().find((p) => typeof p === 'string');
    const accepted = (last !== undefined && ACCEPTED[String(last)]) || issue.message;
    const field = pathText(context, issue.path);
    throw new InputError(field, valueAt(doc, issue.path), issue.path.length === 0 ? 'a JSON object with "nodes" and "links"' : accepted);
  }
  const d = parsed.data;
  const nodes = typeof d.nodes === 'number' ? d.nodes : d.nodes.length;
  const channelCount = d.links.reduce((sum, l) => sum + (l.bidirectional === false ? 1 : 2), 0);
  checkSize(pathText(context, ['links']), nodes, channelCount);
  const field = (...path: PropertyKey[]): string => pathText(context, path);

  const defaults: LinkAttributes = {
    bandwidth: toBandwidth(d.defaults?.bw, field('defaults', 'bw')),
    latency: toTime(d.defaults?.lat, field('defaults', 'lat')),
  };
  let coordDims = 0;
  if (Array.isArray(d.nodes)) {
    const withCoords = d.nodes.findIndex((n) => n.coords !== undefined);
    if (withCoords >= 0) coordDims = d.nodes[withCoords].coords!.length;
    d.nodes.forEach((n, i) => {
      if (withCoords >= 0 && (n.coords === undefined || n.coords.length !== coordDims)) {
        throw new InputError(field('nodes', i, 'coords'), n.coords, `${coordDims} integers, as nodes[${withCoords}] has (all nodes or none have coords)`);
      }
    });
  }
  const b = new TopologyBuilder(coordDims, { nodes, channels: channelCount }, defaults);
  if (typeof d.nodes === 'number') b.addNodes(NodeKind.Terminal, nodes);
  else for (const n of d.nodes) b.addNode(n.kind === 'switch' ? NodeKind.Switch : NodeKind.Terminal, n.coords);

  const idRange = `a node id 0..${nodes - 1}`;
  d.links.forEach((l, i) => {
    if (l.src >= nodes) throw new InputError(field('links', i, 'src'), l.src, idRange);
    if (l.dst >= nodes) throw new InputError(field('links', i, 'dst'), l.dst, idRange);
    if (l.src === l.dst) throw new InputError(field('links', i, 'dst'), l.dst, `a node other than src (${l.src}); self-loops are not channels`);
    if (l.reverseClass !== undefined && l.bidirectional === false) {
      throw new InputError(field('links', i, 'reverseClass'), l.reverseClass, 'nothing on a unidirectional link (bidirectional: false)');
    }
    const attrs: LinkAttributes = {
      bandwidth: toBandwidth(l.bw, field('links', i, 'bw')),
      latency: toTime(l.lat, field('links', i, 'lat')),
    };
    const cls = l.class ?? 'link';
    if (l.bidirectional === false) b.addChannel(l.src, l.dst, cls, attrs);
    else b.addLink(l.src, l.dst, cls, l.reverseClass ?? cls, attrs);
  });

  const kinds = Array.isArray(d.nodes) ? d.nodes.map((n) => n.kind ?? 'terminal') : undefined;
  if (d.endpoints) {
    const seen = new Map<number, number>();
    d.endpoints.forEach((v, r) => {
      if (v >= nodes) throw new InputError(field('endpoints', r), v, idRange);
      const before = seen.get(v);
      if (before !== undefined) throw new InputError(field('endpoints', r), v, `each node at most once (node ${v} is already rank ${before})`);
      seen.set(v, r);
    });
    b.setEndpoints(d.endpoints);
  } else if (kinds && !kinds.includes('terminal')) {
    throw new InputError(field('nodes'), `${nodes} switches`, 'at least one terminal node, or an "endpoints" list');
  }
  const hasSwitch = kinds?.includes('switch') ?? false;
  const name = opts.name ?? d.name ?? 'inline';
  const distanceConvention: DistanceConvention = d.distanceConvention ?? (hasSwitch ? 'switches-traversed' : 'router-hops');
  return b.build({
    family: 'file',
    spec: `file:${name}`,
    params: {
      name, nodes, links: d.links.length, distanceConvention,
      ...(d.source ? { source: d.source } : {}),
      bandwidth: b.defaultBandwidth, latency: b.defaultLatency,
    },
    distanceConvention,
  });
}

function toBandwidth(value: number | string | undefined, field: string): number | undefined {
  return typeof value === 'string' ? parseBandwidth(value, field) : value;
}

function toTime(value: number | string | undefined, field: string): number | undefined {
  return typeof value === 'string' ? parseTime(value, field) : value;
}

/**
 * The document that rebuilds `t` exactly: same node ids and kinds, same channels in the same order
 * (so the same ports), same rank order. A channel and the next one are written as one bidirectional
 * link when they join the same nodes in opposite directions with equal attributes.
 */
export function topologyToDocument(t: Topology): TopologyDocument {
  const bw0 = t.numChannels > 0 ? t.chBandwidth[0] : undefined;
  const lat0 = t.numChannels > 0 ? t.chLatency[0] : undefined;
  const terminalsOnly = t.nodeKind.every((k) => k === NodeKind.Terminal);
  const nodes: TopologyDocument['nodes'] =
    terminalsOnly && !t.coords
      ? t.numNodes
      : Array.from({ length: t.numNodes }, (_, v) => ({
          kind: t.nodeKind[v] === NodeKind.Switch ? ('switch' as const) : ('terminal' as const),
          ...(t.coords ? { coords: Array.from(t.coords.subarray(v * t.coordDims, (v + 1) * t.coordDims)) } : {}),
        }));
  const links: TopologyDocumentLink[] = [];
  for (let c = 0; c < t.numChannels; c++) {
    const link: TopologyDocumentLink = { src: t.chSrc[c], dst: t.chDst[c], class: t.className(c) };
    if (t.chBandwidth[c] !== bw0) link.bw = t.chBandwidth[c];
    if (t.chLatency[c] !== lat0) link.lat = t.chLatency[c];
    const r = c + 1;
    if (r < t.numChannels && t.chSrc[r] === t.chDst[c] && t.chDst[r] === t.chSrc[c] && t.chBandwidth[r] === t.chBandwidth[c] && t.chLatency[r] === t.chLatency[c]) {
      if (t.chClass[r] !== t.chClass[c]) link.reverseClass = t.className(r);
      c++;
    } else {
      link.bidirectional = false;
    }
    links.push(link);
  }
  let defaultOrder = true;
  for (let r = 0, v = 0; v < t.numNodes; v++) {
    if (t.nodeKind[v] !== NodeKind.Terminal) continue;
    if (t.endpoints[r++] !== v) defaultOrder = false;
  }
  const terminalCount = t.nodeKind.reduce((n, k) => n + (k === NodeKind.Terminal ? 1 : 0), 0);
  if (terminalCount !== t.numEndpoints) defaultOrder = false;
  return {
    format: TOPOLOGY_FORMAT,
    version: TOPOLOGY_FORMAT_VERSION,
    name: t.spec,
    source: { family: t.family, spec: t.spec, params: t.params },
    distanceConvention: t.distanceConvention,
    defaults: { ...(bw0 !== undefined ? { bw: bw0 } : {}), ...(lat0 !== undefined ? { lat: lat0 } : {}) },
    nodes,
    links,
    ...(defaultOrder ? {} : { endpoints: Array.from(t.endpoints) }),
  };
}
