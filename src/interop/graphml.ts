/**
 * GraphML import (Meshwork exports it: src/topology/export). Keys are matched by their attr.name,
 * so files from other tools read too: `kind` (terminal or switch, default terminal), `rank`
 * (endpoint order; default every terminal in node order), `class`, `bandwidth_Bps` or `bandwidth`
 * (bytes/s), `latency_s` or `latency` (seconds). An undirected edge is a link (two channels), a
 * directed one a channel; a missing bandwidth or latency takes the spec's `bw=`/`lat=`.
 */
import { InputError } from '../util/errors.js';
import { TopologyBuilder, type LinkAttributes } from '../topology/builder.js';
import { NodeKind, type Topology } from '../topology/graph.js';
import { parseXml, type XmlAttributes } from './xml.js';

interface Element {
  readonly attrs: XmlAttributes;
  readonly data: Map<string, string>;
}

export function graphmlTopology(text: string, link: LinkAttributes, spec: string, field = 'graphml'): Topology {
  const keyName = new Map<string, string>();
  const nodes: Element[] = [];
  const edges: Element[] = [];
  let directedDefault = false;
  let current: Element | undefined;
  let dataKey: string | undefined;
  let dataText = '';
  parseXml(
    text,
    {
      open: (name, attrs) => {
        if (name === 'key' && attrs.id !== undefined) keyName.set(attrs.id, attrs['attr.name'] ?? attrs.id);
        else if (name === 'graph') directedDefault = attrs.edgedefault === 'directed';
        else if (name === 'node' || name === 'edge') {
          current = { attrs, data: new Map() };
          (name === 'node' ? nodes : edges).push(current);
        } else if (name === 'data') {
          dataKey = attrs.key;
          dataText = '';
        }
      },
      text: (t) => {
        if (dataKey !== undefined) dataText += t;
      },
      close: (name) => {
        if (name === 'data' && dataKey !== undefined && current) current.data.set(keyName.get(dataKey) ?? dataKey, dataText.trim());
        if (name === 'data') dataKey = undefined;
        if (name === 'node' || name === 'edge') current = undefined;
      },
    },
    field,
  );
  if (nodes.length === 0) throw new InputError(field, 'no <node>', 'a GraphML graph with nodes and edges');
  const index = new Map<string, number>();
  const b = new TopologyBuilder(0, { nodes: nodes.length, channels: 2 * edges.length }, link);
  const ranked: Array<[number, number]> = [];
  nodes.forEach((n, i) => {
    const where = `${field}.node[${i}]`;
    if (n.attrs.id === undefined || index.has(n.attrs.id)) throw new InputError(`${where}.id`, n.attrs.id, 'a node id used once');
    index.set(n.attrs.id, i);
    const kind = n.data.get('kind') ?? 'terminal';
    if (kind !== 'terminal' && kind !== 'switch') throw new InputError(`${where}.kind`, kind, 'terminal or switch');
    b.addNode(kind === 'switch' ? NodeKind.Switch : NodeKind.Terminal);
    const rank = Number(n.data.get('rank') ?? -1);
    if (!Number.isInteger(rank)) throw new InputError(`${where}.rank`, n.data.get('rank'), 'an integer (-1 for none)');
    if (rank >= 0) ranked.push([rank, i]);
  });
  edges.forEach((e, i) => {
    const where = `${field}.edge[${i}]`;
    const end = (k: 'source' | 'target'): number => {
      const v = index.get(e.attrs[k] ?? '');
      if (v === undefined) throw new InputError(`${where}.${k}`, e.attrs[k], 'the id of a <node>');
      return v;
    };
    const number = (names: string[], what: string): number | undefined => {
      const name = names.find((n) => e.data.has(n));
      if (name === undefined) return undefined;
      const v = Number(e.data.get(name));
      if (!(Number.isFinite(v) && v >= 0)) throw new InputError(`${where}.${name}`, e.data.get(name), `a ${what} >= 0`);
      return v;
    };
    const attrs: LinkAttributes = { bandwidth: number(['bandwidth_Bps', 'bandwidth'], 'bandwidth in bytes/s'), latency: number(['latency_s', 'latency'], 'latency in seconds') };
    const [s, t] = [end('source'), end('target')];
    if (s === t) throw new InputError(`${where}.target`, e.attrs.target, 'a node other than the source (self-loops are not channels)');
    const cls = e.data.get('class') ?? 'link';
    const directed = e.attrs.directed === undefined ? directedDefault : e.attrs.directed === 'true';
    if (directed) b.addChannel(s, t, cls, attrs);
    else b.addLink(s, t, cls, cls, attrs);
  });
  if (ranked.length > 0) {
    ranked.sort((x, y) => x[0] - y[0]);
    ranked.forEach(([r], i) => {
      if (r !== i) throw new InputError(`${field}.node.rank`, r, `ranks 0..${ranked.length - 1}, each once (rank ${i} is missing or repeated)`);
    });
    b.setEndpoints(ranked.map(([, v]) => v));
  }
  const hasSwitch = nodes.some((n) => n.data.get('kind') === 'switch');
  return b.build({ family: 'file', spec, params: { format: 'graphml', nodes: nodes.length, edges: edges.length }, distanceConvention: hasSwitch ? 'switches-traversed' : 'router-hops' });
}
