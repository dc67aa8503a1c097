/**
 * The tables of allocators and arbiters (registry.ts re-exports them), apart from registry.ts because
 * the built-in files register themselves while registry.ts, which imports them, is still loading.
 * The lookup shape is the one of every registry: register, list, find, names.
 */
import type { AllocatorDef, ArbiterDef } from './registry.js';

const arbiters = new Map<string, ArbiterDef>();
const allocators = new Map<string, AllocatorDef>();

export function registerArbiter(def: ArbiterDef): void {
  arbiters.set(def.name, def);
}

export function registerAllocator(def: AllocatorDef): void {
  allocators.set(def.name, def);
}

export const listArbiters = (): ArbiterDef[] => [...arbiters.values()];
export const listAllocators = (): AllocatorDef[] => [...allocators.values()];
export const findArbiter = (name: string): ArbiterDef | undefined => arbiters.get(name);
export const findAllocator = (name: string): AllocatorDef | undefined => allocators.get(name);
export const arbiterNames = (): string[] => [...arbiters.keys()];
export const allocatorNames = (): string[] => [...allocators.keys()];
