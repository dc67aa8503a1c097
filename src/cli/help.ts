/**
 * Help formatting for every command. Loaded on every start, so it imports nothing but commander
 * (the families' help lives in families-help.ts, loaded by the commands that show it).
 */
import { Help, type Option } from 'commander';

/** Help of `--fail`, shared by topo, run, compare and traffic (here so that `topo` loads no timing code). */
export const FAIL_HELP = 'failed links/routers: links=5%,seed=3 | links=12 | routers=2% | cut=3-7/8-9 (node ids) | down=5/9 (docs/failures.md)';

/** Option descriptions with "(required)" on mandatory options, which commander's help does not mark. */
export function optionDescription(option: Option): string {
  const text = Help.prototype.optionDescription.call(new Help(), option);
  return option.mandatory ? `${text} (required)` : text;
}
