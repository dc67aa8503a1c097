/**
 * Which topology arguments name files: `file:...`, a path ending in .json, .yaml or .yml, or
 * `anynet:`/`graphml:`/`simgrid:` followed by a path.
 * Kept apart from load-topology.ts so the CLI can ask before loading anything.
 */
const FILE_SUFFIX = /\.(json|ya?ml)$/i;

/** The path a topology argument names, or undefined for a spec string. */
export function filePathOf(text: string): string | undefined {
  return text.toLowerCase().startsWith('file:') ? text.slice(5) : FILE_SUFFIX.test(text) ? text : undefined;
}

/** Another simulator's topology file: `anynet:PATH`, `graphml:PATH` or `simgrid:PATH`. */
const FOREIGN_PREFIX = /^(anynet|graphml|simgrid):/i;

/** True when an argument may name a file holding a graph document (ours or another simulator's). */
export function mayNameGraphFile(text: string): boolean {
  const t = text.trim();
  return filePathOf(t) !== undefined || FOREIGN_PREFIX.test(t);
}
