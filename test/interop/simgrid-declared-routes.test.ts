/**
 * Lower bounds and `topo` distances on a platform whose routes are declared (a SimGrid zone): the graph is inferred from
 * the routes, so a SHARED link used by several routes joins hubs and a host can have no in-channel.
 * The injection and ejection bounds and the distances come from the routes themselves; before, the
 * ejection bound divided by a capacity of 0 and every such run printed `bound Infinity`, efficiency 100 %.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { computeMetrics, simgridTopology, simulateCollective } from '../../src/index.js';

// Three hosts; la (10 GB/s) and lb (1 GB/s) SHARED, lc SPLITDUPLEX; routes symmetrical (SimGrid's default).
const PLATFORM = `<?xml version='1.0'?>
<platform version="4.1"><zone id="z" routing="Full">
  <host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
  <link id="la" bandwidth="10GBps" latency="1us"/>
  <link id="lb" bandwidth="1GBps" latency="1us"/>
  <link id="lc" bandwidth="10GBps" latency="5us" sharing_policy="SPLITDUPLEX"/>
  <route src="a" dst="b"><link_ctn id="la"/><link_ctn id="lb"/></route>
  <route src="a" dst="c"><link_ctn id="la"/><link_ctn id="lc" direction="UP"/></route>
  <route src="b" dst="c"><link_ctn id="lb"/><link_ctn id="lc" direction="UP"/></route>
</zone></platform>`;

describe('bounds on declared routes', () => {
  it('takes injection and ejection capacity from the routes\' first and last links', () => {
    const t = simgridTopology(PLATFORM, 'three.xml');
    const size = 65536;
    const r = simulateCollective({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size });
    // Host b starts both its routes on lb (1 GB/s) and must send 2 blocks: 131,072 B / 1e9 B/s.
    const injection = r.bounds.find((b) => b.name === 'injection');
    expect(injection?.seconds).toBeCloseTo((2 * size) / 1e9, 15);
    expect(r.bounds.every((b) => Number.isFinite(b.seconds))).toBe(true);
    expect(r.bound_s).toBeCloseTo((2 * size) / 1e9, 15);
    expect(r.makespan_s).toBeGreaterThan(r.bound_s);
  });

  it('is finite and below the makespan on the reference Floyd platform', () => {
    const t = simgridTopology(readFileSync('test/reference/simgrid/platforms/zones/square-floyd.xml', 'utf8'), 'square-floyd.xml');
    const r = simulateCollective({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size: 65536 });
    expect(Number.isFinite(r.bound_s)).toBe(true);
    expect(r.bound_s).toBeGreaterThan(0);
    expect(r.makespan_s).toBeGreaterThan(r.bound_s);
  });
});

describe('topo metrics on declared routes', () => {
  it('measures every pair along its route, not by BFS over the inferred hub graph', () => {
    const m = computeMetrics(simgridTopology(PLATFORM, 'three.xml'));
    // Every route is two links (one switch traversed); BFS over the hub graph found 6 of 9 pairs unreachable.
    expect(m.distances.unreachablePairs).toBe(0);
    expect(m.distances.histogram).toEqual([3, 6]);
    expect(m.distances.diameter).toBe(1);
  });

  it('counts a declared detour as the path the data takes', () => {
    // square-detour-floyd.xml: its two hosts' route is declared through the far side of the square (4 links).
    const t = simgridTopology(readFileSync('test/reference/simgrid/platforms/zones/square-detour-floyd.xml', 'utf8'), 'square-detour-floyd.xml');
    const h = t.explicitRoutes!.hosts;
    const a = t.endpoints[0];
    const b = t.endpoints[1];
    const links = t.explicitRoutes!.start[a * h + b + 1] - t.explicitRoutes!.start[a * h + b];
    const m = computeMetrics(t);
    expect(m.distances.diameter).toBe(links - 1);
  });
});
