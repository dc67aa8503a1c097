/**
 * astra-first-dimension: ASTRA-sim's congestion-unaware charge (astra-network-analytical,
 * congestion_unaware MultiDimTopology::send: the first dimension whose address digits differ, then
 * that dimension's block alone: Ring::compute_hops_count the shorter way round, FullyConnected 1
 * hop, Switch 2), checked against that rule written out here, and its refusals.
 */
import { describe, expect, it } from 'vitest';
import { RECV, SEND, ScheduleBuilder, buildTopology, flowPreset, makeRouteBuffers, resolveRouting, simulate } from '../../src/index.js';
import { topologyToSimgrid } from '../../src/interop/simgrid.js';
import { prepare } from '../../src/sim/prepare.js';

const GIB = 2 ** 30;

/** ASTRA-sim's translate_address: digit d of NPU id, dimension 0 fastest. */
const digits = (id: number, sizes: readonly number[]): number[] => sizes.map((_, d) => Math.floor(id / sizes.slice(0, d).reduce((a, b) => a * b, 1)) % sizes[d]);

/** ASTRA-sim's hops for a message, by the block of the first differing dimension (Ring.cpp, FullyConnected.cpp, Switch.cpp). */
function astraHops(blocks: readonly string[], sizes: readonly number[], src: number, dst: number): { dim: number; hops: number } {
  const a = digits(src, sizes);
  const b = digits(dst, sizes);
  const dim = a.findIndex((x, d) => x !== b[d]);
  if (blocks[dim] === 'FullyConnected') return { dim, hops: 1 };
  if (blocks[dim] === 'Switch') return { dim, hops: 2 };
  const clockwise = (b[dim] - a[dim] + sizes[dim]) % sizes[dim];
  return { dim, hops: Math.min(clockwise, sizes[dim] - clockwise) };
}

describe('astra-first-dimension routing', () => {
  const blocks = ['Ring', 'Switch', 'FullyConnected', 'Ring'];
  const sizes = [5, 3, 3, 2];
  const latency = [100, 300, 700, 1100];
  const bandwidth = [400, 200, 100, 50];
  const t = buildTopology(`astra:topology=${blocks.join('_')},npus=${sizes.join('x')},bandwidth=${bandwidth.join('x')},latency=${latency.join('x')}`);

  it("every pair of NPUs (90 of a Ring 5 × Switch 3 × FullyConnected 3 × Ring 2): a path within the first dimension that differs, to the NPU with the destination's digit there, ASTRA-sim's hops, latency and bandwidth", () => {
    const routing = resolveRouting(t, { routing: 'astra-first-dimension', engine: 'flow' });
    expect(routing.partialRoutes).toBe(true);
    expect(routing.maxHops).toBe(2);
    const buf = makeRouteBuffers(routing.maxHops);
    const npus = t.numEndpoints;
    expect(npus).toBe(90);
    for (let s = 0; s < npus; s++) {
      for (let d = 0; d < npus; d++) {
        if (s === d) continue;
        const hops = routing.route(s, d, 0, buf);
        const expected = astraHops(blocks, sizes, s, d);
        expect(hops, `${s} -> ${d}`).toBe(expected.hops);
        let at = s;
        for (let i = 0; i < hops; i++) {
          const c = buf.channels[i];
          expect(t.chSrc[c]).toBe(at);
          expect(t.className(c).startsWith(`d${expected.dim}`), `${s} -> ${d} hop ${i}`).toBe(true);
          expect(t.chLatency[c]).toBeCloseTo(latency[expected.dim] * 1e-9, 15);
          expect(t.chBandwidth[c]).toBe(bandwidth[expected.dim] * GIB);
          at = t.chDst[c];
        }
        const want = digits(s, sizes);
        want[expected.dim] = digits(d, sizes)[expected.dim];
        expect(digits(at, sizes), `${s} -> ${d} ends`).toEqual(want);
      }
    }
  });

  it('a ring tie (k/2) goes the anticlockwise (−) way, as Ring::compute_hops_count picks it when the distances are equal', () => {
    const ring = buildTopology('astra:topology=Ring,npus=4,bandwidth=50,latency=500');
    const routing = resolveRouting(ring, { routing: 'astra-first-dimension', engine: 'flow' });
    const buf = makeRouteBuffers(routing.maxHops);
    expect(routing.route(0, 2, 0, buf)).toBe(2);
    expect(ring.chDst[buf.channels[0]]).toBe(3);
    // A switch has no address in ASTRA-sim: a route to one (a hint through it) is refused, not guessed.
    const star = buildTopology('astra:topology=Switch,npus=4,bandwidth=50,latency=500');
    expect(() => resolveRouting(star, { routing: 'astra-first-dimension' }).route(0, 4, 0, buf)).toThrow(/routes between NPUs only/);
  });

  it("one message 0 → 5 on Ring 4 × Ring 2 under --preset astra: α + dimension 0's latency + bytes at its bandwidth; across both dimensions with the default routing", () => {
    const net = buildTopology('astra:topology=Ring_Ring,npus=4x2,bandwidth=50x25,latency=500x700');
    const bytes = 1 << 20;
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 8, size: bytes });
    b.send(0, 5, b.block(SEND, 5));
    b.recv(5, 0, b.block(RECV, 0));
    const schedule = b.finish();
    const model = flowPreset('astra').model;
    const first = simulate({ topology: net, schedule, model, routingOptions: { routing: 'astra-first-dimension' } });
    expect(first.makespan_s).toBeCloseTo(10e-9 + 500e-9 + bytes / (50 * GIB), 15);
    expect(first.bounds.map((x) => x.name)).toEqual(['schedule']);
    const everyDimension = simulate({ topology: net, schedule, model });
    expect(everyDimension.makespan_s).toBeCloseTo(10e-9 + 1200e-9 + bytes / (25 * GIB), 15);
  });

  it('--preset astra records the choice and its reason in the routing params; on a torus the preset keeps the default routing; a routing named wins', () => {
    const request = (topology: string, routing?: string) => ({ topology, workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 4096 }, preset: 'astra', ...(routing ? { routing: { name: routing } } : {}) });
    const astra = prepare(request('astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700'));
    expect(astra.routing.name).toBe('astra-first-dimension');
    expect(astra.request.routing?.name).toBe('astra-first-dimension');
    expect(astra.routing.params.chosen_by).toMatch(/first dimension its NPUs differ in/);
    expect(prepare(request('torus:4x4')).routing.name).toMatch(/^dimension-order/);
    expect(prepare(request('astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700', 'shortest')).routing.name).not.toMatch(/astra/);
    // Named explicitly (as a saved request names it), it records the same reason: the re-run's result is the same.
    expect(prepare(request('astra:topology=Ring_Switch,npus=4x2,bandwidth=50x25,latency=500x700', 'astra-first-dimension')).routing.params).toEqual(astra.routing.params);
  });

  it('refused where its routes cannot serve, in one line: another family, the packet engine, shared links, a SimGrid platform', () => {
    const net = buildTopology('astra:topology=Ring_Ring,npus=4x2,bandwidth=50x25,latency=500x700');
    expect(() => resolveRouting(buildTopology('torus:4x4'), { routing: 'astra-first-dimension' })).toThrow(/an astra network/);
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 8, size: 64 });
    b.send(0, 5, b.block(SEND, 5));
    b.recv(5, 0, b.block(RECV, 0));
    const schedule = b.finish();
    const routingOptions = { routing: 'astra-first-dimension' };
    expect(() => simulate({ topology: net, schedule, routingOptions })).toThrow(/sharing none with this routing/);
    expect(() => simulate({ topology: net, schedule, engine: 'packet', routingOptions })).toThrow(/on the packet engine/);
    expect(() => prepare({ topology: 'astra:topology=Ring_Ring,npus=4x2,bandwidth=50x25,latency=500x700', workload: { kind: 'collective', collective: 'allreduce', algorithm: 'ring', size: 4096 }, engine: 'packet', routing: { name: 'astra-first-dimension' } })).toThrow(/on the packet engine/);
    expect(() => topologyToSimgrid(net, { routing: routingOptions })).toThrow(/sharing none with this routing/);
  });
});
