/**
 * The table of collective algorithms (registry.ts re-exports it). Kept apart from registry.ts
 * because the built-in algorithm files call `registerAlgorithm` while they load, and registry.ts
 * imports them: this module has no imports to wait on, so its table exists before any of them runs.
 * The lookup shape is the one of every registry: register, list, find, names.
 */
import type { Algorithm } from './registry.js';
import { COLLECTIVES, type CollectiveKind } from './types.js';
import { checkRegistryEntry, InputError } from '../util/errors.js';

const algorithms = new Map<string, Algorithm>();

const key = (collective: CollectiveKind, name: string): string => `${collective}/${name}`;

export function registerAlgorithm(alg: Algorithm): void {
  checkRegistryEntry('algorithm', alg, ['build', 'supports']);
  if (!(COLLECTIVES as readonly unknown[]).includes(alg.collective)) throw new InputError('algorithm.collective', alg.collective, `one of ${COLLECTIVES.join(', ')}`);
  algorithms.set(key(alg.collective, alg.name), alg);
}

export function listAlgorithms(collective?: CollectiveKind): Algorithm[] {
  return [...algorithms.values()].filter((a) => collective === undefined || a.collective === collective);
}

export function findAlgorithm(collective: CollectiveKind, name: string): Algorithm | undefined {
  return algorithms.get(key(collective, name));
}

/** The names of the registered algorithms of a collective. */
export function algorithmNames(collective: CollectiveKind): string[] {
  return listAlgorithms(collective).map((a) => a.name);
}
