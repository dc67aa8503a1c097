/**
 * Which topology arguments name files: `file:...`, or a path ending in .json, .yaml or .yml.
 * Kept apart from load-topology.ts so the CLI can ask before loading anything.
 */
const FILE_SUFFIX = /\.(json|ya?ml)$/i;

/** The path a topology argument names, or undefined for a spec string. */
export function filePathOf(text: string): string | undefined {
  return text.toLowerCase().startsWith('file:') ? text.slice(5) : FILE_SUFFIX.test(text) ? text : undefined;
}

/** True when an argument may name a file holding a graph document. */
export function mayNameGraphFile(text: string): boolean {
  return filePathOf(text.trim()) !== undefined;
}
