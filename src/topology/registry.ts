/**
 * Topology families by name. Each generator file registers one family (and its aliases) with a
 * parameter description for help text; `buildTopology` is the single entry from a spec string,
 * a YAML/JSON object or the library API.
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import type { LinkAttributes } from './builder.js';
import type { Topology } from './graph.js';

export interface TopologyFamily {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** One line: the grammar, e.g. "torus:AxBx...[,bw=..,lat=..]". */
  readonly usage: string;
  readonly description: string;
  /** Builds from a parsed spec. Must validate every field and call spec.assertAllRead(). */
  build(spec: Spec, link: LinkAttributes): Topology;
}

const families = new Map<string, TopologyFamily>();

export function registerFamily(family: TopologyFamily): void {
  for (const name of [family.name, ...(family.aliases ?? [])]) families.set(name, family);
}

export function listFamilies(): TopologyFamily[] {
  return [...new Set(families.values())];
}

export function findFamily(name: string): TopologyFamily | undefined {
  return families.get(name);
}

/** Reads the link attributes every family accepts: bw (bandwidth) and lat (latency). */
export function linkAttributes(spec: Spec): LinkAttributes {
  return { bandwidth: spec.bandwidth('bw'), latency: spec.time('lat') };
}

/** Builds a topology from "torus:8x8,bw=25Gbps", a parsed YAML/JSON object, or a Spec. */
export function buildTopology(input: string | Spec | Record<string, unknown>, context = 'topology'): Topology {
  const spec = input instanceof Spec ? input : Spec.fromObject(input, context);
  const family = families.get(spec.family);
  if (!family) {
    const known = listFamilies()
      .flatMap((f) => [f.name, ...(f.aliases ?? [])])
      .sort();
    throw new InputError(context, spec.family, `a topology family: ${known.join(', ')}`);
  }
  const link = linkAttributes(spec);
  const topology = family.build(spec, link);
  spec.assertAllRead();
  return topology;
}
