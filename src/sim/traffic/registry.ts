/**
 * Traffic patterns by name. The built-ins (BUILTIN_PATTERNS, patterns.ts) are registered when this
 * module loads; adding a pattern is its file (exporting a PatternEntry), its test, and one entry in
 * BUILTIN_PATTERNS — or, from the library, one registerPattern call.
 */
import { checkRegistryEntry, InputError } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';
import { BUILTIN_PATTERNS, type PatternEntry, type PatternOptions, type TrafficPattern } from './patterns.js';

/** Closed-loop mesh emulation: driven by the traffic runner itself, not a destination function. */
export const CLOSED_LOOP_PATTERN = 'meshemu';

const patterns = new Map<string, PatternEntry>();

export function registerPattern(entry: PatternEntry): void {
  checkRegistryEntry('pattern', entry, ['create']);
  if (entry.name === CLOSED_LOOP_PATTERN) throw new InputError('pattern.name', entry.name, `another name ("${CLOSED_LOOP_PATTERN}" is the closed-loop mesh emulation, driven by the traffic runner)`);
  patterns.set(entry.name, entry);
}

for (const entry of BUILTIN_PATTERNS) registerPattern(entry);

export function findPattern(name: string): PatternEntry | undefined {
  return patterns.get(name);
}

export function listPatterns(): PatternEntry[] {
  return [...patterns.values()];
}

/** Every name `--pattern` accepts, the closed-loop one last. */
export function patternNames(): string[] {
  return [...patterns.keys(), CLOSED_LOOP_PATTERN];
}

export function makePattern(name: string, topology: Topology, opts: PatternOptions = {}): TrafficPattern {
  if (name === CLOSED_LOOP_PATTERN) throw new InputError('pattern', name, 'meshemu through the closed-loop driver (meshwork traffic handles it)');
  const entry = patterns.get(name);
  if (!entry) throw new InputError('pattern', name, patternNames().join(' | '));
  return entry.create(topology, opts);
}
