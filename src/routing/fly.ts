/**
 * `fly-dest-tag`: BookSim 2.0's `dest_tag_fly` (routefunc.cpp @ 28f43299) on `fly:k=K,n=N`
 * (topology/fly.ts): at stage s the output port is digit N−1−s (base K) of the destination, the one
 * path of a butterfly. A packet to its own terminal crosses every stage too, as in BookSim, where a
 * terminal's only way back to itself is through the network. Routes only go forward a stage, so no
 * channel dependency cycle: deadlock free with one VC class.
 */
import { InputError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { flyNextRouter } from '../topology/fly.js';
import type { RoutingEntry } from './registry.js';
import type { RouteBuffers, RoutingFunction } from './types.js';

export function flyDestTagRouting(topology: Topology): RoutingFunction {
  const t = topology;
  if (t.family !== 'fly') throw new InputError('routing', `fly-dest-tag on ${t.family}`, 'a fly:k=K,n=N topology (BookSim defines dest_tag on its butterfly)');
  const { k, n } = t.params as { k: number; n: number };
  const terminals = k ** n;
  const perStage = k ** (n - 1);
  const router = (stage: number, addr: number): number => terminals + stage * perStage + addr;
  return {
    name: 'fly-dest-tag',
    params: { k, n },
    vcClasses: 1,
    deadlockFree: true,
    maxHops: n + 1,
    route(src: number, dst: number, _salt: number, out: RouteBuffers): number {
      let addr = Math.floor(src / k);
      out.channels[0] = t.channelBetween(src, router(0, addr));
      out.vcClass[0] = 0;
      for (let s = 0; s + 1 < n; s++) {
        // Stage s leaves by the destination's digit N−1−s.
        const next = flyNextRouter(k, n, s, addr, Math.floor(dst / k ** (n - 1 - s)) % k);
        out.channels[s + 1] = t.channelBetween(router(s, addr), router(s + 1, next));
        out.vcClass[s + 1] = 0;
        addr = next;
      }
      out.channels[n] = t.channelBetween(router(n - 1, addr), dst);
      out.vcClass[n] = 0;
      return n + 1;
    },
  };
}

export const flyDestTagEntry: RoutingEntry = {
  name: 'fly-dest-tag',
  description: "BookSim's dest_tag on a k-ary n-fly: stage s takes the destination's digit N−1−s; a packet to itself crosses every stage",
  create: (topology) => flyDestTagRouting(topology),
};
