/**
 * Which reader a topology file needs, told from its content and name (no parser loaded: Studio's
 * page calls this before the worker reads the file).
 */
import { InputError } from '../util/errors.js';

/** What detectTopologyFile accepts, named in every refusal. */
const FILE_FORMATS_ACCEPTED = 'a JSON graph or spec ({"nodes", "links"} or {"family"}), YAML (.yaml/.yml), GraphML (<graphml>), a SimGrid platform (<platform>) or a BookSim anynet file (lines "router R node N ...")';

/**
 * The spec naming a topology file (`file:NAME`, `graphml:NAME`, `simgrid:NAME`, `anynet:NAME`),
 * the format told from the content first and the name second. Issue 28 item 17: Studio read
 * anything not starting with `{` as anynet; a file of none of the formats is now refused naming
 * each format tried and why it did not fit. Studio's file opener uses this.
 */
export function detectTopologyFile(name: string, text: string): string {
  const head = text.replace(/^\uFEFF/, '').trimStart().slice(0, 4000);
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1].toLowerCase() ?? '';
  if (head.startsWith('{') || head.startsWith('[') || head.startsWith('"')) return `file:${name}`;
  if (head.startsWith('<')) {
    if (/<platform[\s>]/.test(head)) return `simgrid:${name}`;
    if (/<graphml[\s>]/.test(head) || ext === 'graphml') return `graphml:${name}`;
    throw new InputError('topology file', name, `${FILE_FORMATS_ACCEPTED}; tried: XML, but it is neither <graphml> nor a SimGrid <platform>`);
  }
  if (ext === 'yaml' || ext === 'yml') return `file:${name}`;
  if (/^\s*router\s+\d+/m.test(head) || ext === 'anynet') return `anynet:${name}`;
  throw new InputError(
    'topology file',
    name,
    `${FILE_FORMATS_ACCEPTED}; tried: JSON (does not start with { or [), XML (does not start with <), YAML (not named .yaml or .yml), anynet (no line "router R ...")`,
  );
}
