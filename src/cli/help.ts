/** Help text shared by commands. */
import { Help, type Option } from 'commander';
import { listFamilies } from '../topology/index.js';

/** The topology families with their grammar, for `topo --help` and `export --help`. */
export function familiesHelp(): string {
  return `\nTopology families:\n${listFamilies().map((f) => `  ${f.usage}\n      ${f.description}`).join('\n')}\n\nReference: docs/topology.md`;
}

/** Option descriptions with "(required)" on mandatory options, which commander's help does not mark. */
export function optionDescription(option: Option): string {
  const text = Help.prototype.optionDescription.call(new Help(), option);
  return option.mandatory ? `${text} (required)` : text;
}
