/**
 * k-ary n-fly (butterfly) `fly:k=K,n=N`, BookSim 2.0's `fly` network (fly.cpp KNFly @ 28f43299):
 * K^N terminals, N stages of K^(N−1) routers of K inputs and K outputs, one way from stage 0 to
 * stage N−1. Terminal t = a·K + p injects at port p of stage-0 router a and ejects at port p of
 * stage-(N−1) router a. Output port p of router a in stage s leads to the stage-(s+1) router whose
 * address is a with base-K digit N−s−2 replaced by p (BookSim's _InChannel swaps that digit with
 * the port). So digit N−1−s of the destination picks the output at stage s (BookSim's
 * `dest_tag_fly`, routing/fly.ts): each terminal pair has exactly one path, a terminal's path to
 * itself included.
 *
 * Model: as `omega`, each terminal is one node holding its input and output line. Node ids: terminals 0..K^N−1, then stage s router a at K^N + s·K^(N−1) + a (coords
 * [a, s]). Classes "inject", "stage", "eject". N = 1 is one K×K crossbar (BookSim's
 * examples/singleconfig).
 */
import { InputError } from '../util/errors.js';
import type { Spec } from '../util/spec.js';
import { checkSize, type LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, type Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';

/**
 * The stage-(s+1) router that output `port` of router `addr` in stage s leads to: `addr` with base-K
 * digit N−s−2 replaced by the port (BookSim's _InChannel swaps that digit with the port).
 */
export function flyNextRouter(k: number, n: number, stage: number, addr: number, port: number): number {
  const shift = k ** (n - stage - 2);
  return addr + (port - (Math.floor(addr / shift) % k)) * shift;
}

export function kAryNFly(k: number, n: number, link?: LinkAttributes, specText?: string): Topology {
  if (!Number.isInteger(k) || k < 2) throw new InputError('fly.k', k, 'an integer >= 2 (router radix)');
  if (!Number.isInteger(n) || n < 1) throw new InputError('fly.n', n, 'an integer >= 1 (stages)');
  const terminals = k ** n;
  const perStage = k ** (n - 1);
  const nodes = terminals + n * perStage;
  const channels = 2 * terminals + (n - 1) * terminals;
  checkSize('fly', nodes, channels);
  const b = new TopologyBuilder(2, { nodes, channels }, link);
  for (let t = 0; t < terminals; t++) b.addNode(NodeKind.Terminal, [t, -1]);
  const router = (stage: number, addr: number): number => terminals + stage * perStage + addr;
  for (let s = 0; s < n; s++) for (let a = 0; a < perStage; a++) b.addNode(NodeKind.Switch, [a, s]);
  for (let t = 0; t < terminals; t++) b.addChannel(t, router(0, Math.floor(t / k)), 'inject');
  for (let s = 0; s + 1 < n; s++) {
    for (let a = 0; a < perStage; a++) for (let p = 0; p < k; p++) b.addChannel(router(s, a), router(s + 1, flyNextRouter(k, n, s, a, p)), 'stage');
  }
  for (let t = 0; t < terminals; t++) b.addChannel(router(n - 1, Math.floor(t / k)), t, 'eject');
  return b.build({
    family: 'fly',
    spec: specText ?? `fly:k=${k},n=${n}`,
    params: { k, n, stages: n, routersPerStage: perStage, terminalModel: 'one node per terminal: input line t and output line t', bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'switches-traversed',
  });
}

export const flyFamily: TopologyFamily = {
  name: 'fly',
  aliases: ['butterfly'],
  usage: 'fly:k=K,n=N[,bw=25Gbps,lat=100ns]',
  description: 'k-ary n-fly butterfly (BookSim fly): K^N terminals, N stages of K^(N-1) K×K routers, one way',
  build(spec: Spec, link: LinkAttributes): Topology {
    return kAryNFly(spec.int('k', { min: 2, max: 1 << 12 }), spec.int('n', { min: 1, max: 24 }), link, spec.text);
  },
  defaultRouting: 'fly-dest-tag',
  terminalsAcrossStages: true,
};
