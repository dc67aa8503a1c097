/**
 * Exporters: platform-neutral string builders. JSON is Meshwork's own graph format (reads back with
 * topologyFromDocument), GraphML for Gephi/yEd, DOT for Graphviz. Every exporter writes one entry
 * per node and one per directed channel, so nothing of the model is lost.
 */
import { InputError } from '../../util/errors.js';
import { NodeKind, Topology } from '../graph.js';
import { topologyToDocument } from '../file-format.js';

export const EXPORT_FORMATS = ['json', 'graphml', 'dot'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportTopology(t: Topology, format: string): string {
  switch (format) {
    case 'json':
      return exportJson(t);
    case 'graphml':
      return exportGraphml(t);
    case 'dot':
      return exportDot(t);
    default:
      throw new InputError('format', format, EXPORT_FORMATS.join(', '));
  }
}

/** One key per line, one node or link per line: diffable and still compact for large graphs. */
export function exportJson(t: Topology): string {
  const doc = topologyToDocument(t) as Record<string, unknown>;
  const entries = Object.entries(doc).map(([key, value]) => {
    const body = Array.isArray(value) && typeof value[0] === 'object' ? `[\n    ${value.map((v) => JSON.stringify(v)).join(',\n    ')}\n  ]` : JSON.stringify(value);
    return `  ${JSON.stringify(key)}: ${body}`;
  });
  return `{\n${entries.join(',\n')}\n}\n`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function kindName(t: Topology, v: number): string {
  return t.nodeKind[v] === NodeKind.Switch ? 'switch' : 'terminal';
}

function coordText(t: Topology, v: number): string {
  return t.coords ? Array.from(t.coords.subarray(v * t.coordDims, (v + 1) * t.coordDims)).join(',') : '';
}

export function exportGraphml(t: Topology): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    '  <key id="kind" for="node" attr.name="kind" attr.type="string"/>',
    '  <key id="rank" for="node" attr.name="rank" attr.type="int"/>',
    '  <key id="coords" for="node" attr.name="coords" attr.type="string"/>',
    '  <key id="class" for="edge" attr.name="class" attr.type="string"/>',
    '  <key id="bandwidth" for="edge" attr.name="bandwidth_Bps" attr.type="double"/>',
    '  <key id="latency" for="edge" attr.name="latency_s" attr.type="double"/>',
    '  <key id="srcport" for="edge" attr.name="src_port" attr.type="int"/>',
    '  <key id="dstport" for="edge" attr.name="dst_port" attr.type="int"/>',
    `  <graph id="${xml(t.spec)}" edgedefault="directed">`,
  ];
  for (let v = 0; v < t.numNodes; v++) {
    const coords = t.coords ? `<data key="coords">${coordText(t, v)}</data>` : '';
    lines.push(`    <node id="n${v}"><data key="kind">${kindName(t, v)}</data><data key="rank">${t.rankOfNode[v]}</data>${coords}</node>`);
  }
  for (let c = 0; c < t.numChannels; c++) {
    lines.push(
      `    <edge id="c${c}" source="n${t.chSrc[c]}" target="n${t.chDst[c]}"><data key="class">${xml(t.className(c))}</data>` +
        `<data key="bandwidth">${t.chBandwidth[c]}</data><data key="latency">${t.chLatency[c]}</data>` +
        `<data key="srcport">${t.chSrcPort[c]}</data><data key="dstport">${t.chDstPort[c]}</data></edge>`,
    );
  }
  lines.push('  </graph>', '</graphml>', '');
  return lines.join('\n');
}

function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function exportDot(t: Topology): string {
  const lines = [`digraph ${dotString(t.spec)} {`, '  node [shape=circle];'];
  for (let v = 0; v < t.numNodes; v++) {
    const rank = t.rankOfNode[v];
    const label = rank >= 0 ? `r${rank}` : `s${v}`;
    const shape = t.nodeKind[v] === NodeKind.Switch ? ' shape=box' : '';
    const coords = t.coords ? ` coords=${dotString(coordText(t, v))}` : '';
    lines.push(`  n${v} [label=${dotString(label)} kind=${kindName(t, v)}${shape}${coords}];`);
  }
  for (let c = 0; c < t.numChannels; c++) {
    // Numbers are quoted: Graphviz IDs may not hold exponents (1e-7 is a syntax error unquoted).
    lines.push(`  n${t.chSrc[c]} -> n${t.chDst[c]} [class=${dotString(t.className(c))} bandwidth=${dotString(String(t.chBandwidth[c]))} latency=${dotString(String(t.chLatency[c]))}];`);
  }
  lines.push('}', '');
  return lines.join('\n');
}
