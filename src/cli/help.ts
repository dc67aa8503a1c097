/**
 * Help formatting for every command. Loaded on every start, so it imports nothing but commander
 * (the families' help lives in families-help.ts, loaded by the commands that show it).
 */
import { Help, type Option } from 'commander';

/** Option descriptions with "(required)" on mandatory options, which commander's help does not mark. */
export function optionDescription(option: Option): string {
  const text = Help.prototype.optionDescription.call(new Help(), option);
  return option.mandatory ? `${text} (required)` : text;
}
