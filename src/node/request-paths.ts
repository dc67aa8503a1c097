/**
 * The file paths a RunRequest names, and the one rule for where they point (docs/architecture.md,
 * "One run request"): the CLI makes the paths it is given absolute against the working directory,
 * so the request it prints (`--print-request`) or records in a result runs from any directory; a
 * relative path in a request FILE is read from that file's directory, wherever the run starts (from
 * the working directory when the request comes through a pipe: `--request /dev/stdin`).
 * File-valued fields: `topology` (`file:PATH`, a .json or .yaml spec file,
 * `anynet:`/`graphml:`/`simgrid:PATH`), `mapping` (a permutation file or hostfile), `workload.sizes`
 * (a size-matrix file), `workload.file` (a schedule file), `workload.trace` and `workload.commGroups`
 * (Chakra). `fail` and traffic take no files (a BookSim configuration is folded into the request).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isNamedMapping } from '../topology/mapping.js';
import { isAlltoallvGenerator } from '../collectives/alltoallv-sizes.js';
import { parseRunRequest, type RunRequest } from '../sim/request.js';
import { FILE_SPEC_FORMAT } from '../interop/topology-file.js';
import { filePathOf } from './file-path.js';
import { readStructured } from './load-topology.js';

type PathMap = (path: string) => string;

/** `file:PATH`, `PATH.yaml`, `anynet:PATH,bw=..`: the path mapped, its prefix and options kept. */
function topologyPath(spec: string, map: PathMap): string {
  const text = spec.trim();
  const foreign = FILE_SPEC_FORMAT.exec(text)?.[0];
  if (foreign !== undefined) {
    const [path, ...options] = text.slice(foreign.length).split(',');
    return [`${foreign}${map(path)}`, ...options].join(',');
  }
  const path = filePathOf(text);
  if (path === undefined) return spec;
  return text.toLowerCase().startsWith('file:') ? `${text.slice(0, 5)}${map(path)}` : map(path);
}

/**
 * A value that is either a name or a file (a mapping, alltoallv's sizes): mapped only when the
 * mapped path exists, so a mistyped name (`revrse`) is refused as typed, not as a path.
 */
function existingPath(value: string, map: PathMap): string {
  const mapped = map(value);
  return existsSync(mapped) ? mapped : value;
}

/** A permutation file (`file:` optional); a named order as it is. */
function mappingPath(mapping: string, map: PathMap): string {
  const text = mapping.trim();
  if (isNamedMapping(text)) return mapping;
  return text.toLowerCase().startsWith('file:') ? `${text.slice(0, 5)}${map(text.slice(5))}` : existingPath(text, map);
}

/** The request with every file path it names passed through `map`; every other field as it was. */
export function mapRequestPaths(request: RunRequest, map: PathMap): RunRequest {
  const w = request.workload;
  let workload = w;
  if (w.kind === 'schedule') workload = { ...w, file: map(w.file) };
  else if (w.kind === 'collective' && typeof w.sizes === 'string' && !isAlltoallvGenerator(w.sizes)) workload = { ...w, sizes: existingPath(w.sizes, map) };
  else if (w.kind === 'workload') {
    workload = { ...w, ...(w.trace !== undefined ? { trace: w.trace.map(map) } : {}), ...(w.commGroups !== undefined ? { commGroups: map(w.commGroups) } : {}) };
  }
  return {
    ...request,
    topology: topologyPath(request.topology, map),
    ...(request.mapping !== undefined ? { mapping: mappingPath(request.mapping, map) } : {}),
    workload,
  };
}

/** A topology argument naming a file with its path made absolute against `base`; a spec string as it is. */
export function absoluteTopologyPath(spec: string, base: string): string {
  return topologyPath(spec, (path) => resolve(base, path));
}

/** The request with every relative file path made absolute against `base` (default: the working directory). */
export function absoluteRequestPaths(request: RunRequest, base = process.cwd()): RunRequest {
  return mapRequestPaths(request, (path) => resolve(base, path));
}

/** A saved RunRequest (JSON or YAML), checked, its relative paths read from the file's own directory (a pipe's: the working directory). */
export function readRequestFile(path: string, field = 'request'): RunRequest {
  const request = parseRunRequest(readStructured(path, field), field);
  return absoluteRequestPaths(request, statSync(path).isFile() ? dirname(resolve(path)) : process.cwd());
}
