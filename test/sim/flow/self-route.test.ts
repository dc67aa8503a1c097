/**
 * A message to oneself: delivered at once, crossing nothing, except where the network routes one.
 * SimGrid 3.32's FLAT cluster (StarZone::get_local_route without a loopback link) routes a host to
 * itself up its private link and down again, each link once (with a backbone: up, backbone, down),
 * and SMPI times MVAPICH2's scatter_dest alltoall, which sends each rank's own block to itself, over
 * it (test/reference/simgrid-smpi-cases.test.ts: `*-a2a-alltoall-mvapich2_scatter_dest`, within 2 %).
 * A loopback (SimGrid's cluster loopback_bw/lat, any family's spec keys of those names) replaces
 * either: the message crosses it alone, a FATPIPE link of its own host (sg_platf.cpp), checked
 * against smpirun in test/interop/simgrid-hostfile.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildTopology, familyOf, resolveRouting, simulateFlow } from '../../../src/index.js';
import { simulatePacketSchedule } from '../../../src/sim/packet/schedule-run.js';
import { applyFailures, parseFailures } from '../../../src/topology/failures.js';

const B = 10e9;
const L = 100e-9;
const S = 1 << 20;

/** Rank 0 sends S bytes to itself; the others idle. */
function toSelf(ranks: number): ReturnType<FlowProgramBuilder['build']> {
  const b = new FlowProgramBuilder(ranks);
  b.beginStream(0).send(0, S, 0).recv(0, S, 0);
  for (let r = 1; r < ranks; r++) b.beginStream(r);
  return b.build();
}

const run = (spec: string) => {
  const t = buildTopology(spec);
  return simulateFlow(t, resolveRouting(t, { engine: 'flow' }), toSelf(4), { alpha: 0, injectionOrder: 'shared' });
};

describe('a message to oneself', () => {
  it('on a SimGrid FLAT cluster crosses the private link up and down: S/B + 2 latencies', () => {
    const t = buildTopology('simgrid-flat:hosts=4,bw=10GBps,lat=100ns');
    const channels = new Int32Array(4);
    expect(familyOf(t)!.selfRoute!(t, 2, channels)).toBe(2);
    expect([t.className(channels[0]), t.chSrc[channels[0]]]).toEqual(['host-up', 2]);
    expect([t.className(channels[1]), t.chDst[channels[1]]]).toEqual(['host-down', 2]);
    const flat = run('simgrid-flat:hosts=4,bw=10GBps,lat=100ns');
    expect(flat.makespan / (S / B + 2 * L)).toBeCloseTo(1, 12);
    // Rank 0's message loads its own two channels, and no other.
    familyOf(t)!.selfRoute!(t, 0, channels);
    expect([flat.channelBytes[channels[0]], flat.channelBytes[channels[1]]]).toEqual([S, S]);
    expect(Array.from(flat.channelBytes).reduce((a, x) => a + x, 0)).toBe(2 * S);
  });

  it('a SHARED private link is one resource, crossed once (SimGrid adds each link to a route once); a backbone lies on the way', () => {
    const shared = run('simgrid-flat:hosts=4,sharing=shared,bw=10GBps,lat=100ns');
    expect(shared.makespan / (S / B + 2 * L)).toBeCloseTo(1, 12);
    const t = buildTopology('simgrid-flat:hosts=4,bb_bw=5GBps,bb_lat=1us,bw=10GBps,lat=100ns');
    const channels = new Int32Array(4);
    expect(familyOf(t)!.selfRoute!(t, 1, channels)).toBe(3);
    expect(t.className(channels[1])).toBe('backbone');
    expect(run('simgrid-flat:hosts=4,bb_bw=5GBps,bb_lat=1us,bw=10GBps,lat=100ns').makespan / (S / 5e9 + 2 * L + 1e-6)).toBeCloseTo(1, 12);
  });

  it('over a loopback: its latency, then S at its bandwidth, concurrent ones each at the whole bandwidth (FATPIPE), whatever the family', () => {
    const lb = 2e9;
    for (const spec of ['torus:2x2', 'simgrid-flat:hosts=4', 'fattree:k=4,levels=2']) {
      const t = buildTopology(`${spec},bw=10GBps,lat=100ns,loopback_bw=2GBps,loopback_lat=3us`);
      expect(t.params.loopback).toEqual({ bandwidth: lb, latency: 3e-6 });
      const one = simulateFlow(t, resolveRouting(t, { engine: 'flow' }), toSelf(t.numEndpoints), { alpha: 0, injectionOrder: 'shared' });
      expect(one.makespan / (S / lb + 3e-6), spec).toBeCloseTo(1, 12);
      // No channel carries it.
      expect(Array.from(one.channelBytes).every((x) => x === 0)).toBe(true);
    }
    // Two streams of rank 0 each send themselves S at once: each alone at the loopback's bandwidth.
    const t = buildTopology('torus:2x2,loopback_bw=2GBps');
    const b = new FlowProgramBuilder(4);
    b.beginStream(0).send(0, S, 0).recv(0, S, 0);
    b.beginStream(0).send(0, S, 1).recv(0, S, 1);
    for (let r = 1; r < 4; r++) b.beginStream(r);
    const two = simulateFlow(t, resolveRouting(t, { engine: 'flow' }), b.build(), { alpha: 0, injectionOrder: 'shared' });
    expect(two.makespan / (S / lb)).toBeCloseTo(1, 12);
    // Failed links keep the hosts' loopbacks.
    expect(applyFailures(t, parseFailures('links=1,seed=2')).params.loopback).toEqual({ bandwidth: lb, latency: 0 });
  });

  it('a loopback needs its bandwidth; the packet engine refuses a message over one, naming the rank', () => {
    expect(() => buildTopology('torus:2x2,loopback_lat=1us')).toThrow(/loopback_lat.*accepted: loopback_lat with loopback_bw/);
    const t = buildTopology('torus:2x2,loopback_bw=2GBps');
    expect(() => simulatePacketSchedule({ topology: t, program: toSelf(4) })).toThrow(/engine: got "packet"; accepted: the flow engine for .*: rank 0 sends itself a message over its host's loopback/);
    // Without one it runs, through the host's injection and ejection ports: α (1 µs, the default) and
    // S at the 25 Gb/s port rate, plus a few router cycles (a named difference: the flow engine
    // without NIC resources delivers it at once, docs/flow.md).
    const packet = simulatePacketSchedule({ topology: buildTopology('torus:2x2'), program: toSelf(4) }).makespan_s;
    expect(packet / (1e-6 + S / 3.125e9)).toBeGreaterThan(1);
    expect(packet / (1e-6 + S / 3.125e9)).toBeLessThan(1.001);
  });

  it('elsewhere it is delivered at once, crossing nothing', () => {
    expect(run('torus:2x2').makespan).toBe(0);
    expect(familyOf(buildTopology('torus:2x2'))?.selfRoute).toBeUndefined();
  });
});
