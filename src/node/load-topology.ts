/**
 * Node adapter: topologies from files. `loadTopology` is what every CLI command calls with the
 * user's topology argument; it accepts
 *   - a spec string:                    torus:8x8,bw=25Gbps
 *   - file:graph.json / graph.json      a custom graph in Meshwork JSON format (nodes + links)
 *   - file:net.yaml / net.yaml / .json  a spec object: { family: torus, shape: 8x8, bw: 25Gbps },
 *                                       or a spec string
 * and an optional `mapping`: a named order (identity, reverse, random:seed=N, snake) or a
 * permutation file (JSON array, or integers separated by spaces, commas or newlines).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { createRequire } from 'node:module';
import { InputError } from '../util/errors.js';
import { buildTopology } from '../topology/registry.js';
import { applyHostList, applyMapping, isNamedMapping } from '../topology/mapping.js';
import { applyFailures, parseFailures } from '../topology/failures.js';
import { refuseSingleEndpoint } from '../topology/endpoint-count.js';
import type * as GraphFormat from '../topology/file-format.js';
import { filePathOf, mayNameGraphFile } from './file-path.js';
import { detectTopologyFile } from '../interop/file-detect.js';
import type { Topology } from '../topology/graph.js';
import type * as TopologyFile from '../interop/topology-file.js';
import { hostfileEntries, type SimgridHostfile } from '../interop/hostfile.js';

// The YAML parser is loaded on the first YAML file, not at start-up (most runs read none).
const requireCjs = createRequire(import.meta.url);
function parseYaml(text: string): unknown {
  return (requireCjs('yaml') as typeof import('yaml')).parse(text);
}

/**
 * Largest file Meshwork reads (a 2^24-node graph document is far smaller than this in practice): at
 * most 1 GiB, and no more bytes than V8's longest string (512 MiB), so the text always decodes.
 */
export const MAX_FILE_BYTES = Math.min(1 << 30, bufferConstants.MAX_STRING_LENGTH);


// The JSON graph format's reader validates with zod, which costs more start-up than the rest of
// `meshwork topo`: it is loaded by loadGraphFormat, which the `meshwork/node` entry awaits on import
// and the CLI only when an argument may name a graph file.
let graphFormat: typeof GraphFormat | undefined;
// The file readers (other simulators' formats, with their XML parser) load with it: a spec string,
// as in most runs, needs neither.
let topologyFile: typeof TopologyFile | undefined;

export async function loadGraphFormat(): Promise<void> {
  graphFormat ??= await import('../topology/file-format.js');
  topologyFile ??= await import('../interop/topology-file.js');
}

export interface LoadOptions {
  mapping?: string;
  /** Failed links/routers (`links=5%,seed=3`, `cut=3-7`, ...), applied before the mapping. */
  fail?: string;
  /** Field name used in error messages for the topology argument. */
  field?: string;
}

export function loadTopology(specOrPath: string, opts: LoadOptions = {}): Topology {
  const field = opts.field ?? 'topology';
  const hostfile = simgridHostfile(specOrPath, opts.mapping);
  const built = loadUnmapped(specOrPath, field, hostfile);
  const topology = opts.fail === undefined ? built : applyFailures(built, parseFailures(opts.fail));
  // A SimGrid platform loaded with its hostfile has that mapping already (its hosts, in its order).
  const mapped = opts.mapping === undefined || hostfile !== undefined ? topology : loadMapping(topology, opts.mapping);
  return refuseSingleEndpoint(mapped, specOrPath, field);
}

/**
 * The hostfile of a `simgrid:` platform, read once: a platform of zones then computes routes among its
 * hosts alone (SimGrid routes only the hosts smpirun runs on). A named order or a JSON permutation stays a mapping.
 */
function simgridHostfile(spec: string, mapping: string | undefined): SimgridHostfile | undefined {
  if (mapping === undefined || typeof spec !== 'string' || !/^simgrid:/i.test(spec.trim()) || isNamedMapping(mapping.trim())) return undefined;
  const path = mapping.trim().replace(/^file:/i, '');
  const content = readText(path, 'mapping');
  if (content.trim().startsWith('[')) return undefined;
  const label = `file:${path}`;
  return { entries: hostfileEntries(content, label), label };
}

function loadUnmapped(specOrPath: string, field: string, hostfile?: SimgridHostfile): Topology {
  if (typeof specOrPath !== 'string' || specOrPath.trim() === '') {
    throw new InputError(field, specOrPath, 'a spec such as torus:8x8, or file:graph.json');
  }
  const text = specOrPath.trim();
  if (!mayNameGraphFile(text)) return buildTopology(text, field);
  if (topologyFile === undefined) throw new Error('a topology file needs the file readers loaded first (loadGraphFormat in src/node)');
  const fromFormat = topologyFile.topologyFromFileSpec(text, field, readText, hostfile);
  if (fromFormat) return fromFormat;
  const path = filePathOf(text)!;
  // `file:net.graphml` or `file:net.anynet`: the reader the content and name call for (issue 28 item 17).
  const detected = detectTopologyFile(path, readText(path, field));
  if (!detected.startsWith('file:')) return topologyFile.topologyFromFileSpec(detected, field, readText)!;
  return topologyFile.topologyFromFileDocument(readStructured(path, field), path, field, graphFormat);
}

/** Reads and parses a JSON or YAML file; every failure is an InputError naming the file. */
export function readStructured(path: string, field: string): unknown {
  const text = readText(path, field);
  try {
    return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    // A parser's stack overflow on deep nesting is the user's file, said in our words (issue 28 item 3).
    const detail = err instanceof RangeError || /call stack/i.test((err as Error).message) ? 'nested too deeply to read' : (err as Error).message.split('\n')[0];
    throw new InputError(field, path, `a well-formed ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'} file (${detail})`);
  }
}

/**
 * Reads a user-named text file, refusing a missing, oversized or non-file path with one line. A pipe
 * or device (`--measured /dev/stdin`, `<(cmd)`) is read up to the same limit, so /dev/zero is
 * refused instead of filling memory. A leading UTF-8 byte-order mark (Windows editors) is dropped.
 */
export function readText(path: string, field: string): string {
  let size: number;
  let stream: boolean;
  try {
    const st = statSync(path);
    if (st.isDirectory() || !(st.isFile() || st.isFIFO() || st.isCharacterDevice())) throw new Error('not a regular file');
    stream = !st.isFile();
    size = st.size;
  } catch (err) {
    throw new InputError(field, path, `a readable file (${(err as Error).message.split('\n')[0]})`);
  }
  const tooLarge = (): InputError => new InputError(field, path, `a file of at most ${MAX_FILE_BYTES} bytes`);
  if (size > MAX_FILE_BYTES) throw tooLarge();
  const text = stream ? readStream(path, field, tooLarge) : readFileSync(path, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A pipe or device read to its end in chunks, refused once it passes MAX_FILE_BYTES. */
function readStream(path: string, field: string, tooLarge: () => InputError): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new InputError(field, path, `a readable file (${(err as Error).message.split('\n')[0]})`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 20);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_FILE_BYTES) throw tooLarge();
      chunks.push(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Applies a named order, or reads a permutation file. */
export function loadMapping(topology: Topology, mapping: string): Topology {
  const text = mapping.trim();
  if (isNamedMapping(text)) return applyMapping(topology, text);
  const path = text.toLowerCase().startsWith('file:') ? text.slice(5) : text;
  // Neither a named order nor a file: a mistyped name, more often than a missing file.
  if (!existsSync(path)) throw new InputError('mapping', text, 'identity, reverse, snake, random:seed=N, or a permutation file (no file of this name)');
  const content = readText(path, 'mapping');
  let values: unknown;
  if (content.trim().startsWith('[')) {
    try {
      values = JSON.parse(content);
    } catch (err) {
      throw new InputError('mapping', path, `a JSON array of ranks (${(err as Error).message.split('\n')[0]})`);
    }
  } else {
    // Integers, or host names as in an SMPI hostfile (one per line, `host:N` for N ranks): a SimGrid
    // platform's own names (hosts of zones), else node-12.simgrid.org is host 12 (a family spec such as
    // torus:4x4x4 beside a cluster's hostfile; a `simgrid:` cluster reads its hostfile at load, by its hosts' names).
    const named = topology.explicitRoutes ? new Map(topology.explicitRoutes.hostNames.map((name, i) => [name, topology.rankOfNode[i]])) : undefined;
    const entries = hostfileEntries(content, `file:${path}`);
    const hosts = entries.map((s) => named?.get(s) ?? (/^-?[0-9]+$/.test(s) ? Number(s) : /^[^0-9]*([0-9]+)[^0-9]*$/.test(s) ? Number(/([0-9]+)/.exec(s)![1]) : s));
    // A host listed twice runs several ranks, as under smpirun (it needs a route to itself).
    if (new Set(hosts).size < hosts.length) return applyHostList(topology, hosts as number[], `file:${path}`, entries, 'mapping');
    values = hosts;
  }
  if (!Array.isArray(values)) throw new InputError('mapping', path, 'a JSON array of ranks or integers separated by spaces, commas or newlines');
  return applyMapping(topology, values as number[], `file:${path}`, 'mapping');
}
