/**
 * SimGrid's FAT_TREE and DRAGONFLY zones of any shape (topology/simgrid-zones.ts, routing/simgrid-zones.ts)
 * against SimGrid 3.32 itself: test/reference/simgrid/routes/NAME.txt.gz holds, for every ordered pair
 * of hosts of platforms/NAME.xml, the links of SimGrid's route (`Host::route_to`, dumped by
 * routes/routes.cpp), each written as the Meshwork channel it names: SimGrid numbers a zone's links
 * in creation order (the last number of the link name), and link u's _UP and _DOWN halves are
 * Meshwork's channels 2u and 2u + 1 when both build the links in the same order. Equal lists mean
 * the same graph, the same link order and the same routes.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { FlowProgramBuilder, buildSchedule, buildTopology, findFamily, makeRouteBuffers, resolveRouting, simgridTopology, simulate, topologyToSimgrid } from '../../src/index.js';
import { loadTopology } from '../../src/node/index.js';

const DIR = 'test/reference/simgrid';
const PLATFORMS = ['fattree-2-16-8', 'fattree-2-4-4-par2', 'fattree-3-4-2-4', 'fattree-2-8-8-taper', 'dragonfly-3x4x5x2', 'dragonfly-2x2x4x4', 'dragonfly-4x2x4x2'];

function simgridRoutes(name: string): string[] {
  return gunzipSync(readFileSync(`${DIR}/routes/${name}.txt.gz`)).toString('utf8').trim().split('\n');
}

function meshworkRoutes(name: string, engine: 'flow' | 'packet'): string[] {
  const t = loadTopology(`simgrid:${DIR}/platforms/${name}.xml`);
  const routing = resolveRouting(t, { engine });
  const buf = makeRouteBuffers(routing.maxHops);
  const lines: string[] = [];
  for (let a = 0; a < t.numEndpoints; a++) {
    for (let b = 0; b < t.numEndpoints; b++) {
      if (a === b) continue;
      const hops = routing.route(t.endpoints[a], t.endpoints[b], 0, buf);
      lines.push(`${a} ${b} ${Array.from(buf.channels.subarray(0, hops)).join('.')}`);
    }
  }
  return lines;
}

describe('SimGrid fat trees and dragonflies of any shape: the same links and routes as SimGrid 3.32', () => {
  for (const name of PLATFORMS) {
    it(`${name}: every pair's route is SimGrid's, link for link`, () => {
      const expected = simgridRoutes(name);
      const got = meshworkRoutes(name, 'flow');
      expect(got.length).toBe(expected.length);
      const differing = got.filter((line, i) => line !== expected[i]);
      expect(differing.slice(0, 5), `${differing.length} of ${got.length} routes differ`).toEqual([]);
    });
  }
});

describe("the packet engine's dragonfly routes: paths, SimGrid's except where SimGrid's list is not one", () => {
  it('dragonfly-3x4x5x2: every packet route is a path; it differs from the flow list only from chassis c > 0 to another router of the group', () => {
    const t = loadTopology(`simgrid:${DIR}/platforms/dragonfly-3x4x5x2.xml`);
    const flow = meshworkRoutes('dragonfly-3x4x5x2', 'flow');
    const packet = meshworkRoutes('dragonfly-3x4x5x2', 'packet');
    let differ = 0;
    for (let i = 0; i < packet.length; i++) {
      const [a, b, list] = packet[i].split(' ');
      const channels = list.split('.').map(Number);
      let at = Number(a);
      for (const c of channels) {
        expect(t.chSrc[c], `${packet[i]}: channel ${c} leaves ${t.chSrc[c]}, not ${at}`).toBe(at);
        at = t.chDst[c];
      }
      expect(at).toBe(Number(b));
      if (packet[i] === flow[i]) continue;
      differ++;
      // 120 hosts: host h on router floor(h/2) = (group·4 + chassis)·5 + blade.
      const [ra, rb] = [Math.floor(Number(a) / 2), Math.floor(Number(b) / 2)];
      expect(Math.floor(ra / 20)).toBe(Math.floor(rb / 20));
      expect(Math.floor(ra / 5) % 4).toBeGreaterThan(0);
      expect(ra % 5).not.toBe(rb % 5);
    }
    // Same group (40 hosts), source chassis 1..3 (30 hosts), target on another blade (32 of 40 hosts): 3 × 30 × 32.
    expect(differ).toBe(3 * 30 * 32);
  });
});

describe('SimGrid fat trees and dragonflies export as the cluster they were read from', () => {
  for (const spec of ['simgrid-fattree:levels=3,down=4x2x4,up=1x2x2,links=1x2x1,bw=10GBps,lat=100ns', 'simgrid-dragonfly:groups=3,chassis=4,routers=5,nodes=2,blue=4,black=3,bw=10GBps,lat=100ns']) {
    it(spec, () => {
      const t = buildTopology(spec);
      const xml = topologyToSimgrid(t);
      expect(xml).toMatch(/topology="(FAT_TREE|DRAGONFLY)" topo_parameters="(3;4,2,4;1,2,2;1,2,1|3,4;4,3;5,1;2)"/);
      const back = simgridTopology(xml);
      expect(back.family).toBe(t.family);
      expect(Array.from(back.chSrc)).toEqual(Array.from(t.chSrc));
      expect(Array.from(back.chDst)).toEqual(Array.from(t.chDst));
      expect(Array.from(back.chBandwidth)).toEqual(Array.from(t.chBandwidth));
      expect(Array.from(back.chLatency)).toEqual(Array.from(t.chLatency));
    });
  }
});

describe('SHARED links and limiter links: every route draws on the capacities SimGrid\'s does', () => {
  // routes/NAME.txt.gz here writes SimGrid's links as resources: cN a split-duplex channel, sU the
  // SHARED link U (both directions), nV the limiter of node V (SimGrid names host h's limiter h and
  // the switch or router of creation index i, 2n − 1 − i: our node n + i).
  for (const name of ['fattree-2-4-4-par2-shared', 'dragonfly-2x2x4x4-limiter', 'dragonfly-4x2x4x2-shared-limiter']) {
    it(`${name}: the same resources for every pair`, () => {
      const t = loadTopology(`simgrid:${DIR}/platforms/${name}.xml`);
      const shared = findFamily(t.family)!.sharedCapacities!(t)!;
      const links = (t.params as { sharing: string }).sharing === 'SHARED' ? t.numChannels / 2 : 0;
      const routing = resolveRouting(t, { engine: 'flow' });
      const buf = makeRouteBuffers(routing.maxHops);
      const expected = simgridRoutes(name);
      let i = 0;
      for (let a = 0; a < t.numEndpoints; a++) {
        for (let b = 0; b < t.numEndpoints; b++) {
          if (a === b) continue;
          const hops = routing.route(t.endpoints[a], t.endpoints[b], 0, buf);
          const mine: string[] = [];
          for (const c of buf.channels.subarray(0, hops)) {
            if (links === 0) mine.push(`c${c}`);
            for (let k = shared.start[c]; k < shared.start[c + 1]; k++) mine.push(shared.res[k] < links ? `s${shared.res[k]}` : `n${shared.res[k] - links}`);
          }
          const [, , theirs] = expected[i++].split(' ');
          expect(mine.sort(), `${a} -> ${b}`).toEqual(theirs.split('.').sort());
        }
      }
    });
  }
});

describe('shared capacities in the flow engine, against closed forms', () => {
  // Two hosts under one switch (FAT_TREE 1;2;1;1), 1 GB/s links, 1 µs each: an exchange of S bytes each way.
  const S = 1e6;
  const exchange = (spec: string, bothWays = true): number => {
    const t = buildTopology(spec);
    // Each rank sends on one stream and receives on another, so the two directions overlap.
    const b = new FlowProgramBuilder(2);
    b.beginStream(0).send(1, S, 0);
    b.beginStream(1).recv(0, S, 0);
    if (bothWays) b.beginStream(1).send(0, S, 1).beginStream(0).recv(1, S, 1);
    return simulate({ topology: t, program: b.build(), model: { alpha: 0 } }).makespan_s;
  };
  const base = 'simgrid-fattree:levels=1,down=2,up=1,links=1,bw=1GBps,lat=1us';
  it('split duplex: both directions at full rate, S/B + 2 latencies', () => expect(exchange(base)).toBeCloseTo(S / 1e9 + 2e-6, 12));
  it('SHARED: the two directions share each link, 2S/B + 2 latencies', () => expect(exchange(`${base},sharing=shared`)).toBeCloseTo((2 * S) / 1e9 + 2e-6, 12));
  it('a limiter of B/2 caps one flow at B/2: 2S/B + 2 latencies (limiter links have no latency)', () => expect(exchange(`${base},limiter=0.5GBps`, false)).toBeCloseTo((2 * S) / 1e9 + 2e-6, 12));
  it('the packet engine refuses them by name; a bad sharing value is refused', () => {
    const t = buildTopology(`${base},sharing=shared`);
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size: 1024 });
    expect(() => simulate({ topology: t, schedule, engine: 'packet' })).toThrow(/^engine: got "packet"; accepted: the flow engine for .*SHARED links/);
    expect(() => buildTopology(`${base},sharing=fatpipe`)).toThrow(/sharing: got "fatpipe"; accepted: splitduplex/);
  });
});
