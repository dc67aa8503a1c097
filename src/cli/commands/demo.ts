import type { Command } from 'commander';

/** Placeholder: its owner registers the command here. */
export function register(_program: Command): void {}
