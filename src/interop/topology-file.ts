/**
 * Topologies from files, given a way to read them: `anynet:PATH[,bw=..,lat=..]`,
 * `graphml:PATH[,bw=..,lat=..]`, `simgrid:PATH` (docs/interop.md) and a parsed `file:` document (a
 * spec string, a spec object with `family`, or a JSON graph). The CLI reads the file system
 * (src/node/load-topology.ts); Meshwork Studio reads the files a user uploaded. Both go through
 * here, so a file gets the same topology and the same one-line errors in both.
 */
import { astraNetworkSpec } from '../topology/astra.js';
import { InputError } from '../util/errors.js';
import { parseBandwidth, parseTime } from '../util/units.js';
import type { LinkAttributes } from '../topology/builder.js';
import type { Topology } from '../topology/graph.js';
import { buildTopology } from '../topology/registry.js';
import type * as GraphFormat from '../topology/file-format.js';
import { anynetTopology, bookSimAnynetTopology, parseAnynet, parseBookSimAnynet } from './anynet.js';
import { graphmlTopology } from './graphml.js';
import { simgridTopology } from './simgrid.js';
import type { SimgridHostfile } from './hostfile.js';

/** The file formats named by a spec prefix. */
export const FILE_SPEC_FORMAT = /^(anynet|graphml|simgrid):/i;

/** `format:PATH[,options]` -> the topology, reading PATH with `readText` (which refuses a missing file in one line). */
export function topologyFromFileSpec(text: string, field: string, readText: (path: string, field: string) => string, hostfile?: SimgridHostfile): Topology | undefined {
  const format = FILE_SPEC_FORMAT.exec(text)?.[1].toLowerCase();
  if (!format) return undefined;
  const [path, ...options] = text.slice(format.length + 1).split(',');
  const link: LinkAttributes = {};
  let bookSimModel = false;
  for (const o of options) {
    const [key, value] = o.split('=');
    if (key === 'bw' && value !== undefined) link.bandwidth = parseBandwidth(value, `${field}.bw`);
    else if (key === 'lat' && value !== undefined) link.latency = parseTime(value, `${field}.lat`);
    else if (format === 'anynet' && key === 'model' && value === 'booksim') bookSimModel = true;
    else throw new InputError(field, o, `${format}:PATH with the options bw=.. and lat=..${format === 'anynet' ? ' (and model=booksim: the network as BookSim 2.0 reads the file)' : ''}`);
  }
  const content = readText(path, field);
  const where = `${field}(${path})`;
  if (format === 'simgrid') {
    if (options.length > 0) throw new InputError(field, options.join(','), 'simgrid:PATH alone (the cluster gives bw and lat)');
    return simgridTopology(content, where, hostfile);
  }
  if (format === 'graphml') return graphmlTopology(content, link, text, where);
  return bookSimModel ? bookSimAnynetTopology(parseBookSimAnynet(content, where), link, text) : anynetTopology(parseAnynet(content, where), link, text);
}

/**
 * A parsed `file:` document: a spec string, a spec object ({ family: torus, ... }) or a JSON graph.
 * The graph reader (zod) is passed in because callers load it lazily: it costs more start-up than the rest.
 */
export function topologyFromFileDocument(doc: unknown, path: string, field: string, graphFormat: typeof GraphFormat | undefined): Topology {
  // A YAML file holding just a spec string ("torus:8x8") is a spec too.
  if (typeof doc === 'string') return buildTopology(doc, field);
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc) && 'family' in doc) return buildTopology(doc as Record<string, unknown>, field);
  // ASTRA-sim's network file (topology, npus_count, bandwidth, latency): the `astra` family.
  const astra = astraNetworkSpec(doc);
  if (astra) return buildTopology(astra, field);
  if (!graphFormat) throw new Error('a graph file needs the graph reader loaded first (loadGraphFormat in src/node)');
  return graphFormat.topologyFromDocument(doc, { name: path, context: path });
}
