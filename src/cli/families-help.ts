/** The topology families with their grammar, for `topo --help` and `export --help`. */
import { listFamilies } from '../topology/registry.js';

export function familiesHelp(): string {
  return `\nTopology families:\n${listFamilies().map((f) => `  ${f.usage}\n      ${f.description}`).join('\n')}\n\nReference: docs/topology.md`;
}
