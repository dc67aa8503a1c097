/**
 * SimGrid 3.32 platforms of zones with routes (src/interop/simgrid-platform.ts): a hand-written Full
 * zone timed against closed forms, Floyd and Dijkstra shortest paths, several clusters joined by
 * zoneRoutes, Meshwork's own zone export read back with identical makespans, and every refusal.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { gunzipSync } from 'node:zlib';
import {
  FlowProgramBuilder, InputError, buildSchedule, parseCollective, buildTopology, flowPreset, makeRouteBuffers, resolveRouting, runCollectiveFlow, simgridTopology, fatpipeChannels, simulate, topologyToSimgrid,
  MAX_SIMGRID_ROUTE_ENTRIES, type Topology, applyFailures, parseFailures,
} from '../../src/index.js';
import { loadGraphFormat, loadMapping, loadTopology } from '../../src/node/index.js';

await loadGraphFormat();

const platform = (body: string, routing = 'Full'): string => `<?xml version='1.0'?>\n<platform version="4.1"><zone id="z" routing="${routing}">${body}</zone></platform>`;
const hosts = (n: number): string => Array.from({ length: n }, (_, i) => `<host id="h${i}" speed="1Gf" core="2"/>`).join('');

/** The route's link names, as SimGrid names them (a SPLITDUPLEX half ends in _UP or _DOWN). */
function routeNames(t: Topology, a: number, b: number, names: (c: number) => string): string[] {
  const routing = resolveRouting(t, { engine: 'flow' });
  const buf = makeRouteBuffers(routing.maxHops);
  const hops = routing.route(t.endpoints[a], t.endpoints[b], 0, buf);
  return Array.from(buf.channels.subarray(0, hops), names);
}

/** Sends of S bytes, all posted at once, each on its own stream; makespan with no per-message overhead. */
function concurrent(t: Topology, pairs: Array<[number, number]>, S: number): number {
  const b = new FlowProgramBuilder(t.numEndpoints);
  pairs.forEach(([from, to], tag) => {
    b.beginStream(from).send(to, S, tag);
    b.beginStream(to).recv(from, S, tag);
  });
  return simulate({ topology: t, program: b.build(), model: { alpha: 0 } }).makespan_s;
}

// platforms/zones/four-full.xml: four hosts. nic_i: SPLITDUPLEX, 1 GB/s, 1 µs (host i's own link: UP
// leaves it, DOWN enters it). Between the pairs {h0, h1} and {h2, h3}: `fwd` (0.5 GB/s, 2 µs) one way,
// `back` (2 GB/s, 2 µs) the other, both SHARED: routes across are symmetrical="NO", so each direction
// names its own trunk; h0 <-> h1 and h2 <-> h3 are symmetrical (the default).
const FOUR = readFileSync('test/reference/simgrid/platforms/zones/four-full.xml', 'utf8');

describe('a hand-written 4-host Full zone with asymmetric trunks, against closed forms', () => {
  const t = simgridTopology(FOUR, 'four.xml');
  // Channels in declaration order: nic_i_UP = 2i, nic_i_DOWN = 2i + 1, fwd = 8, back = 9.
  const names = (c: number): string => (c < 8 ? `nic${c >> 1}_${c & 1 ? 'DOWN' : 'UP'}` : c === 8 ? 'fwd' : 'back');
  const S = 1e6;

  it('loads as 4 hosts and 10 channels; routes as declared, a symmetrical route reversed with UP and DOWN swapped', () => {
    expect([t.family, t.numEndpoints, t.numChannels]).toEqual(['simgrid-zone', 4, 10]);
    expect(routeNames(t, 0, 2, names)).toEqual(['nic0_UP', 'fwd', 'nic2_DOWN']);
    expect(routeNames(t, 2, 0, names)).toEqual(['nic2_UP', 'back', 'nic0_DOWN']);
    // RoutedZone: the reverse of h0 -> h1 (nic0 UP, nic1 DOWN) is nic1's _UP half then nic0's _DOWN half.
    expect(routeNames(t, 1, 0, names)).toEqual(['nic1_UP', 'nic0_DOWN']);
  });

  it('h0->h2, h1->h3 share fwd (0.25 GB/s each) while h2->h0, h3->h1 run at their nics\' 1 GB/s over back: makespan = S / 0.25 GB/s + (1 + 2 + 1) µs', () => {
    // = 1e6 / 0.25e9 + 4e-6 = 4.004 ms. Had the reverse routes been the forward ones reversed, all four flows would share fwd (8.004 ms).
    expect(concurrent(t, [[0, 2], [1, 3], [2, 0], [3, 1]], S)).toBeCloseTo(S / 0.25e9 + 4e-6, 12);
  });

  it('h0<->h1 both ways and h2->h0: nic0_DOWN carries h1->h0 and h2->h0 at 0.5 GB/s each; nic0_UP is h0->h1\'s alone: makespan = S / 0.5 GB/s + 4 µs', () => {
    // = 2 ms + 4 µs (h2 -> h0's route latency: nic2 1 µs + back 2 µs + nic0 1 µs).
    expect(concurrent(t, [[0, 1], [1, 0], [2, 0]], S)).toBeCloseTo(S / 0.5e9 + 4e-6, 12);
  });

  it('a hostfile maps ranks to a subset of the hosts by name', () => {
    const file = join(tempDir('zone'), 'hosts.txt');
    writeFileSync(file, 'h2\nh0\n');
    const mapped = loadMapping(t, file);
    expect(Array.from(mapped.endpoints)).toEqual([2, 0]);
    // Rank 0 is h2: its route to rank 1 (h0) crosses back.
    expect(routeNames(mapped, 0, 1, names)).toEqual(['nic2_UP', 'back', 'nic0_DOWN']);
  });

  it('its graph, inferred from the routes, is the hosts, one switch per pair of hosts and the two trunks; the packet engine runs it (up*/down*, as for any routing not deadlock free)', () => {
    expect(t.numNodes).toBe(6);
    expect([t.chSrc[8], t.chDst[8]]).toEqual([t.chDst[9], t.chSrc[9]]);
    expect(t.explicitRoutes!.notPaths).toBeUndefined();
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size: 1024 });
    expect(simulate({ topology: t, schedule, engine: 'packet' }).makespan_s).toBeGreaterThan(0);
  });
});

describe('Floyd and Dijkstra zones: fewest links over the declared routes, with SimGrid\'s tie-breaks', () => {
  // platforms/zones/square-*.xml: routers r0-r1-r2-r3-r0 (one link a side), host a on r0, b on r2;
  // square-detour-* add a two-link route r0 -> r2 (d1, d2). Three ways from a to b cost 4 links.
  const load = (name: string): Topology => simgridTopology(readFileSync(`test/reference/simgrid/platforms/zones/${name}.xml`, 'utf8'), name);
  const names = (t: Topology) => (c: number) => t.explicitRoutes!.channelNames[c];
  it('Floyd (netpoints a, b, r0, r1, r2, r3, relaxed through each in turn, strictly shorter only): a -> r2 is first found through r0 (ha, d1, d2), so a -> b is ha, d1, d2, hb', () => {
    const t = load('square-detour-floyd');
    expect(routeNames(t, 0, 1, names(t))).toEqual(['ha', 'd1', 'd2', 'hb']);
    expect(routeNames(t, 1, 0, names(t))).toEqual(['hb', 'd2', 'd1', 'ha']);
  });
  it('Dijkstra: r0 reaches r2 at cost 3 by d1, d2 before r1 does (not strictly less); SimGrid writes each hop\'s links backwards: ha, d2, d1, hb', () => {
    for (const name of ['square-detour-dijkstra', 'square-detour-dijkstracache']) {
      const t = load(name);
      expect(routeNames(t, 0, 1, names(t)), name).toEqual(['ha', 'd2', 'd1', 'hb']);
      expect(routeNames(t, 1, 0, names(t)), name).toEqual(['hb', 'd1', 'd2', 'ha']);
    }
  });
  it('without the detour both go through r1, the lower netpoint (Floyd) and the first out-edge of r0 (Dijkstra)', () => {
    for (const name of ['square-floyd', 'square-dijkstra']) expect(routeNames(load(name), 0, 1, names(load(name))), name).toEqual(['ha', 'e01', 'e12', 'hb']);
  });
});

// Three FLAT clusters in a Full zone, as SimGrid 3.32's examples/platforms/cluster_multi.xml, with the
// internet link SHARED (FATPIPE is refused): 8 hosts each; `halfduplex` has SHARED private links.
const MULTI = readFileSync('test/reference/simgrid/platforms/zones/cluster-multi-shared.xml', 'utf8');

describe('several clusters joined by zoneRoutes', () => {
  const t = simgridTopology(MULTI, 'cluster_multi.xml');
  const names = (t.explicitRoutes!.hostNames);
  const route = (a: string, b: string): number[] => {
    const routing = resolveRouting(t, { engine: 'flow' });
    const buf = makeRouteBuffers(routing.maxHops);
    return Array.from(buf.channels.subarray(0, routing.route(names.indexOf(a), names.indexOf(b), 0, buf)));
  };
  it('loads 24 hosts; a route between clusters is: private link up (and backbone) to the gateway router, the zoneRoute links, (backbone and) private link down', () => {
    expect([t.family, t.numEndpoints]).toEqual(['simgrid-zone', 24]);
    // simple: 8 SPLITDUPLEX private links (channels 0..15); backboned: backbone 16, links 17..32; halfduplex: backbone 33, SHARED links 34..41; internet 42.
    expect(route('node-0.1core.org', 'node-1.1core.org')).toEqual([0, 3]);
    expect(route('node-0.1core.org', 'node-3.2cores.org')).toEqual([0, 42, 16, 17 + 2 * 3 + 1]);
    expect(route('node-3.2cores.org', 'node-0.1core.org')).toEqual([17 + 2 * 3, 16, 42, 1]);
    expect(route('node-2.4cores.org', 'node-5.4cores.org')).toEqual([34 + 2, 33, 34 + 5]);
  });
  it('one transfer from simple to backboned: S / 125 MB/s + 50 + 500 + 500 + 50 µs; two at once share the 1.25 GB/s internet link only when it binds (it does not)', () => {
    const S = 1e6;
    const a = t.explicitRoutes!.hostNames.indexOf('node-0.1core.org');
    const b = t.explicitRoutes!.hostNames.indexOf('node-3.2cores.org');
    expect(concurrent(t, [[a, b]], S)).toBeCloseTo(S / 125e6 + 1.1e-3, 12);
    // halfduplex's SHARED private links: node-0 sending to and receiving from node-1 at once share one 125 MB/s link each: 2S / 125 MB/s + 0.6 ms.
    const [h0, h1] = ['node-0.4cores.org', 'node-1.4cores.org'].map((n) => names.indexOf(n));
    expect(concurrent(t, [[h0, h1], [h1, h0]], S)).toBeCloseTo((2 * S) / 125e6 + 0.6e-3, 12);
  });
  it('the packet engine refuses it in one line: a SHARED private link is crossed both ways, so routes are link lists, not paths', () => {
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size: 1024 });
    expect(() => simulate({ topology: t, schedule, engine: 'packet' })).toThrow(/^engine: got "packet"; accepted: the flow engine on this SimGrid platform \(its routes are link lists, not paths: /);
  });
});

describe("Meshwork's own zone export read back: the same makespans as the original", () => {
  const preset = flowPreset('simgrid');
  const cases = [
    ['alltoall', 'pairwise', 64 * 1024],
    ['allreduce', 'rabenseifner', 1 << 20],
    ['allgather', 'ring', 16 * 1024],
    ['broadcast', 'binomial', 1 << 20],
  ] as const;
  for (const spec of ['torus:4x4,bw=10GBps,lat=100ns', 'fattree:k=2,levels=3,bw=10GBps,lat=100ns']) {
    it(`${spec}: export (zone, the preset's routing) -> import gives identical makespans under --preset simgrid`, () => {
      const original = buildTopology(spec);
      const back = simgridTopology(topologyToSimgrid(original, { zone: true, routing: preset.routing }), 'export.xml');
      expect([back.family, back.numEndpoints, back.numChannels]).toEqual(['simgrid-zone', original.numEndpoints, original.numChannels]);
      for (const [collective, algorithm, size] of cases) {
        const run = (topology: Topology, routingOptions: object) => runCollectiveFlow({ topology, collective, algorithm, size, routingOptions, model: preset.model }).makespan_s;
        const want = run(original, preset.routing);
        expect(run(back, {}), `${collective} ${algorithm} ${size}`).toBe(want);
      }
    });
  }
});

describe('refused in one line naming the element or attribute, the value and what is accepted', () => {
  const two = `${hosts(2)}<link id="l" bandwidth="1GBps" latency="1us"/>`;
  const ok = `${two}<route src="h0" dst="h1"><link_ctn id="l"/></route>`;
  const cases: Array<[string, string, RegExp]> = [
    ['a trace', `${ok}<trace id="t" periodicity="1"/>`, /\.trace: got "<trace>"; accepted: constant bandwidths/],
    ['a disk', `<host id="d" speed="1Gf"><disk id="x" read_bw="1GBps" write_bw="1GBps"/></host>${ok}`, /\.disk: got "<disk>"; accepted: hosts without disks/],
    ['an actor', `${ok}<actor host="h0" function="f"/>`, /\.actor: got "<actor>"/],
    ['NS3 routing', ok, /routing: got "NS3"; accepted: Full, Floyd, Dijkstra, DijkstraCache, None, Cluster/],
    ['a bypass route', `${ok}<bypassRoute src="h0" dst="h1"><link_ctn id="l"/></bypassRoute>`, /\.bypassRoute: got "<bypassRoute>"; accepted: routes computed by the zones/],
    ['a backbone in a Full zone', `<backbone id="bb" bandwidth="1GBps" latency="1us"/>${ok}`, /backbone\(bb\): got "<backbone> in the Full zone z"; accepted: <backbone> in a routing="Cluster" zone only/],
    ['a route in a Cluster zone', ok, /route\(h0->h1\): got "a route in the routing=\\"Cluster\\" zone z"; accepted: routes in Full, Floyd or Dijkstra zones/],
    ['a Cluster zone host without a host link', `${two}<host_link id="h0" up="l" down="l"/>`, /got "no link down to h1"; accepted: a <host_link> for every host of a Cluster zone/],
    ['a SPLITDUPLEX host link', `${hosts(2)}<link id="s" bandwidth="1GBps" latency="1us" sharing_policy="SPLITDUPLEX"/><host_link id="h0" up="s" down="s"/>`, /host_link\(h0\)\.up: got "s"; accepted: a SHARED link/],
    ['a route naming an unknown host', `${two}<route src="h0" dst="h9"><link_ctn id="l"/></route>`, /route\(h0->h9\)\.dst: got "h9"; accepted: the name of a host, router or zone declared before the route/],
    ['a route naming an unknown link', `${two}<route src="h0" dst="h1"><link_ctn id="nope"/></route>`, /link_ctn\(nope\)\.id: got "nope"; accepted: the id of a <link> declared before the route/],
    ['a Full zone missing a pair', `${hosts(3)}<link id="l" bandwidth="1GBps" latency="1us"/><route src="h0" dst="h1"><link_ctn id="l"/></route>`, /got "no route from h0 to h2"; accepted: a <route> \(or <zoneRoute>\) for every pair of the Full zone z/],
    ['a link with a bandwidth trace', `${hosts(2)}<link id="l" bandwidth="1GBps" latency="1us" bandwidth_file="bw.txt"/>`, /link\(l\)\.bandwidth_file: got "bw.txt"; accepted: the attributes id, bandwidth, latency, sharing_policy/],
    ['a SPLITDUPLEX link without a direction', `${hosts(2)}<link id="s" bandwidth="1GBps" latency="1us" sharing_policy="SPLITDUPLEX"/><route src="h0" dst="h1"><link_ctn id="s"/></route>`, /link_ctn\(s\)\.direction: got "\(none\)"; accepted: UP or DOWN for the SPLITDUPLEX link s/],
    ['an unknown attribute of link_ctn', `${two}<route src="h0" dst="h1"><link_ctn id="l" weight="2"/></route>`, /link_ctn\(l\)\.weight: got "2"; accepted: the attributes id, direction/],
    ['a zone beside hosts', `${ok.replace('<route', '<zone id="c" routing="Full"><host id="x" speed="1Gf"/></zone><route')}`, /zone\(c\): got "<zone> in the zone z, which holds hosts or routers"; accepted: a zone of zones and clusters joined by <zoneRoute>, or of hosts and routers joined by <route>/],
    ['a host after a route', `${ok}<host id="late" speed="1Gf"/>`, /host\(late\): got "<host> after a route in the zone z"; accepted: routes after the hosts/],
    ['a zone inside a Dijkstra zone', `<zone id="c" routing="Full"><host id="x" speed="1Gf"/></zone>`, /zone\(c\): got "a zone inside the Dijkstra zone z"; accepted: child zones and clusters inside Full or Floyd zones/],
    ['a config property that changes the model', `<config id="c"><prop id="tracing" value="yes"/><prop id="network/model" value="LV08"/></config>${ok}`, /\.config: got "network\/model:LV08"; accepted: <config> properties that change no timing here \(tracing, precision, paths\); give this one as --simgrid-cfg network\/model:LV08/],
    ['a direction on a SHARED link', `${two}<route src="h0" dst="h1"><link_ctn id="l" direction="UP"/></route>`, /link_ctn\(l\)\.direction: got "UP"; accepted: no direction/],
    ['a duplicate (symmetrical) route', `${ok}<route src="h1" dst="h0"><link_ctn id="l"/></route>`, /got "a second route from h1 to h0"; accepted: one route per ordered pair/],
    ['a bad bandwidth unit', `${hosts(2)}<link id="l" bandwidth="1GB" latency="1us"/>`, /link\(l\)\.bandwidth: got "1GB"; accepted: a positive bandwidth/],
    ['a host speed without unit', `<host id="h0" speed="1000"/>`, /host\(h0\)\.speed: got "1000"; accepted: speeds such as 1Gf/],
    ['a TORUS cluster beside another cluster', `<cluster id="f" prefix="f" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us"/><cluster id="c" prefix="c" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us" topology="TORUS" topo_parameters="2,2"/>`, /cluster\(c\)\.topology: got "TORUS"; accepted: FLAT beside other clusters/],
  ];
  for (const [what, body, message] of cases) {
    it(what, () => {
      const routing = what === 'NS3 routing' ? 'NS3' : /Cluster zone/.test(what) || what === 'a SPLITDUPLEX host link' ? 'Cluster' : what === 'a zone inside a Dijkstra zone' ? 'Dijkstra' : 'Full';
      let error: unknown;
      try {
        simgridTopology(platform(body, routing), 'p.xml');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).toMatch(message);
    });
  }
  it(`a platform whose route table would exceed ${MAX_SIMGRID_ROUTE_ENTRIES} link ids is refused before it is built, naming the limit`, () => {
    // 5,793 hosts in one cluster and one in another: 5,794 × 5,793 = 33,564,642 ordered pairs, each at least one link.
    const big = `<cluster id="c" prefix="n" suffix="" radical="0-5792" speed="1Gf" bw="1GBps" lat="1us"/><cluster id="d" prefix="x" suffix="" radical="0" speed="1Gf" bw="1GBps" lat="1us"/>`;
    expect(() => simgridTopology(platform(big), 'big.xml')).toThrow(/^big\.xml: got "5794 hosts \(33564642 routes\)"; accepted: at most 33554432 link ids in the route table \(MAX_SIMGRID_ROUTE_ENTRIES/);
  });
  it('cluster_multi.xml as SimGrid ships it: its FATPIPE internet link is one FATPIPE channel (timed against smpirun in zone-cases.json)', () => {
    const t = simgridTopology(readFileSync('test/reference/simgrid/examples/cluster_multi.xml', 'utf8'), 'cluster_multi.xml');
    const fat = fatpipeChannels(t)!;
    expect(t.explicitRoutes!.channelNames.filter((_, c) => fat[c] === 1)).toEqual(['backbone']);
  });
});

describe("every host pair's route is SimGrid 3.32's, link for link (test/reference/simgrid/routes/zones/, dumped by routes/zone-routes.cpp)", () => {
  // Platforms: platforms/zones/*.xml (four-full: the hand-written zone above; square-*: the Floyd and
  // Dijkstra squares above; cluster-multi-shared: cluster_multi.xml with a SHARED internet link) and
  // two SimGrid examples that load.
  const files: Record<string, string> = {
    'four-full': 'platforms/zones/four-full.xml',
    'square-floyd': 'platforms/zones/square-floyd.xml',
    'square-dijkstra': 'platforms/zones/square-dijkstra.xml',
    'square-dijkstracache': 'platforms/zones/square-dijkstracache.xml',
    'square-detour-floyd': 'platforms/zones/square-detour-floyd.xml',
    // SimGrid's Dijkstra writes each hop's links backwards (insert_link_latency): d2, d1 from a to b.
    'square-detour-dijkstra': 'platforms/zones/square-detour-dijkstra.xml',
    'square-detour-dijkstracache': 'platforms/zones/square-detour-dijkstracache.xml',
    'cluster-multi-shared': 'platforms/zones/cluster-multi-shared.xml',
    // A routing="Cluster" zone (host links, a cabinet, a <backbone>) beside a Full zone.
    'cluster-zone': 'platforms/zones/cluster-zone.xml',
    cluster_and_one_host: 'examples/cluster_and_one_host.xml',
    // Cluster zones joined through routers (their gateways: no host link, the backbone alone); host links
    // that name a SPLITDUPLEX link's halves (l2_UP, l2_DOWN) beside SHARED ones.
    routing_cluster: 'examples/routing_cluster.xml',
    meta_cluster: 'examples/meta_cluster.xml',
    griffon: 'examples/griffon.xml',
    // g5k.xml: 1,528 hosts in zones of zones under a Floyd zone; SimGrid's routes for every 16th host in name order (9,120 pairs).
    'g5k-stride16': 'examples/g5k.xml',
  };
  for (const [name, file] of Object.entries(files)) {
    it(`${name}: the same routes as SimGrid`, () => {
      const ref = `test/reference/simgrid/routes/zones/${name}.txt`;
      const text = name === 'griffon' || name.startsWith('g5k') ? gunzipSync(readFileSync(`${ref}.gz`)).toString('utf8') : readFileSync(ref, 'utf8');
      const t = simgridTopology(readFileSync(`test/reference/simgrid/${file}`, 'utf8'), file);
      const { hostNames, channelNames } = t.explicitRoutes!;
      const lines = text.trim().split('\n');
      const sampled = Math.ceil(t.numEndpoints / (name.startsWith('g5k') ? 16 : 1));
      expect(lines.length).toBe(sampled * (sampled - 1));
      const differ = lines.filter((line) => {
        const [a, b, links] = line.split(' ');
        return routeNames(t, hostNames.indexOf(a), hostNames.indexOf(b), (c) => channelNames[c]).join() !== links;
      });
      expect(differ.slice(0, 3), `${differ.length} of ${lines.length} routes differ`).toEqual([]);
    });
  }
});

describe("a platform's <config> (SimGrid applies its properties as smpirun's --cfg)", () => {
  it('loads with properties that change no timing (tracing, precision), in a platform of zones and beside one cluster; any other is refused, naming --simgrid-cfg', () => {
    const config = (props: string): string => `<config id="c">${props}</config>`;
    const quiet = config('<prop id="tracing" value="yes"/><prop id="tracing/filename" value="t.trace"/><prop id="precision/work-amount" value="1e-5"/>');
    const zone = `<?xml version='1.0'?><platform version="4.1">${quiet}<zone id="z" routing="Full"><host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><link id="l" bandwidth="1GBps" latency="1us"/><route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>`;
    expect(simgridTopology(zone, 'p').numEndpoints).toBe(2);
    const cluster = (props: string): string => `<?xml version='1.0'?><platform version="4.1">${config(props)}<zone id="w" routing="Full"><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us"/></zone></platform>`;
    expect(simgridTopology(cluster('<prop id="tracing" value="yes"/>'), 'p').family).toBe('simgrid-flat');
    // Beside one cluster a model property was ignored before: now refused, as in a platform of zones.
    expect(() => simgridTopology(cluster('<prop id="network/crosstraffic" value="1"/>'), 'p')).toThrow(/p\.config: got "network\/crosstraffic:1"; accepted: .*give this one as --simgrid-cfg network\/crosstraffic:1/);
    expect(() => simgridTopology(cluster('<prop id="no/such-item" value="1"/>'), 'p')).toThrow(/p\.config: got "no\/such-item:1"; accepted: a SimGrid 3\.32 configuration item Meshwork reads/);
  });
});

describe("self routes and FATPIPE links (SimGrid's small_platform.xml: a loopback of 498 MBps and 15 µs)", () => {
  const small = (): Topology => simgridTopology(readFileSync('test/reference/simgrid/examples/small_platform.xml', 'utf8'), 'small_platform.xml');
  /** Rank 0 (Tremblay) sends itself k messages of 1 MB at once. */
  const selfSends = (t: Topology, k: number, preset: 'simgrid' | 'simgrid-smpi'): number => {
    const b = new FlowProgramBuilder(t.numEndpoints);
    const s = b.beginStream(0);
    for (let i = 0; i < k; i++) s.isend(0, 1e6, i);
    for (let i = 0; i < k; i++) s.irecv(0, 1e6, i);
    s.waitall();
    const p = flowPreset(preset);
    return simulate({ topology: t, program: b.build(), model: p.model, routingOptions: p.routing }).makespan_s;
  };

  it("a message to oneself takes the declared self route; on a FATPIPE link each flow runs alone at its bandwidth: smpirun's figures to 10 ns", () => {
    const t = small();
    expect(t.explicitRoutes!.fatpipe![t.explicitRoutes!.channelNames.indexOf('loopback')]).toBe(1);
    // smpirun (SimGrid 3.32, `coll`'s MPI_Isend/MPI_Irecv to rank 0 itself, timed by MPI_Wtime, which adds
    // 10 ns): under CM02 2.023074 ms for one message and for three at once (a SHARED loopback would triple it):
    // 15 µs + 1 MB / 498 MB/s, plus SMPI's 16-byte envelope.
    for (const k of [1, 3]) expect(Math.abs(selfSends(t, k, 'simgrid') + 10e-9 - 2.023074e-3)).toBeLessThan(2e-9);
    // Under SMPI's default model (cross-traffic on): 2.309327 ms, 15 µs × 11.6436 + 1 MB / (498 MB/s × 0.940694).
    for (const k of [1, 3]) expect(Math.abs(selfSends(t, k, 'simgrid-smpi') + 10e-9 - 2.309327e-3)).toBeLessThan(2e-9);
    // Tremblay … Bourassa route to themselves over the loopback; Jacquelin and Boivin declare no self route (nothing crossed).
    const self = t.explicitRoutes!.self!;
    expect(Array.from(self.start)).toEqual([0, 1, 2, 3, 4, 5, 5, 5]);
    expect(Array.from(self.channels, (c) => t.explicitRoutes!.channelNames[c])).toEqual(Array(5).fill('loopback'));
  });

  it('a FATPIPE link between hosts and self routes of other links across one load; store-and-forward sharing, a rate update other than full, the packet engine and a zone export are refused, each in one line', () => {
    const twoHosts = (routes: string): string =>
      platform(`<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><link id="l" bandwidth="1GBps" latency="1us"/><link id="f" bandwidth="1GBps" latency="1us" sharing_policy="FATPIPE"/>${routes}`);
    const between = simgridTopology(twoHosts('<route src="a" dst="b"><link_ctn id="f"/></route>'), 'p');
    expect(Array.from(fatpipeChannels(between)!)).toEqual([0, 1]);
    // Each message of a 1 GB exchange crosses the FATPIPE link alone: 1 s + 1 µs, not 2 s (the NIC
    // queues aside: both hosts' routes start on f, so FIFO injection would send one after the other).
    const exchange = new FlowProgramBuilder(2).beginStream(0).isend(1, 1e9).irecv(1, 1e9).waitall().beginStream(1).isend(0, 1e9).irecv(0, 1e9).waitall().build();
    expect(simulate({ topology: between, program: exchange, model: { alpha: 0, injectionOrder: 'shared' } }).makespan_s).toBeCloseTo(1 + 1e-6, 9);
    const uneven = twoHosts('<route src="a" dst="b"><link_ctn id="l"/></route><route src="a" dst="a"><link_ctn id="f"/></route><route src="b" dst="b"><link_ctn id="f"/><link_ctn id="l"/></route>');
    expect(simgridTopology(uneven, 'p').explicitRoutes!.self!.channels.length).toBe(3);
    expect(() => simulate({ topology: between, program: exchange, model: { rateUpdate: 'exact' } })).toThrow(/model\.rateUpdate: got "exact"; accepted: full with FATPIPE links/);
    expect(() => simulate({ topology: between, program: exchange, engine: 'packet' })).toThrow(/engine: got "packet"; accepted: the flow engine/);
    // Exported as a zone, its self routes and FATPIPE loopback would be lost.
    expect(() => topologyToSimgrid(small(), { zone: true })).toThrow(/format: got "simgrid"; accepted: a platform without self routes or FATPIPE links/);
    const program = new FlowProgramBuilder(7).beginStream(0).send(1, 8, 0).beginStream(1).recv(0, 8, 0).build();
    expect(() => simulate({ topology: small(), program, model: { sharing: 'store-forward' } })).toThrow(/model\.sharing: got "store-forward"; accepted: maxmin, cm02 or none on a platform with FATPIPE links/);
  });
});

describe('the simgrid preset on zone platforms against SimGrid 3.32 SMPI (test/reference/simgrid/zone-cases.json)', () => {
  // smpirun of src/coll.c on four-full.xml (4 ranks), cluster-multi-shared.xml (16 of 24 hosts),
  // cluster_multi.xml itself (the same 16: its FATPIPE internet link between the clusters),
  // griffon.xml (64 of 92), g5k.xml (64 of 1,528, on 9 sites), cluster-zone.xml (4 of 7),
  // meta_cluster.xml (16 of 60, 8 in each Cluster zone) and small_platform.xml (4 of 7: self routes
  // over its FATPIPE loopback), each hostfile naming its hosts; the commands are in the file.
  const doc = JSON.parse(readFileSync('test/reference/simgrid/zone-cases.json', 'utf8')) as {
    simgrid: string;
    cases: Array<{ platform: string; hostfile: string; ranks: number; meshwork: { collective: string; algorithm: string }; rows: Array<{ size: number; makespan_s: number }> }>;
  };
  const preset = flowPreset('simgrid');
  const loaded = new Map<string, Topology>();
  /**
   * Outside 2 %, pinned (per cent, why): none. (griffon's NTSLR at 1 KiB, −4.1 %, and the Cluster
   * zone's rab_rdb at 64 KiB, +4.2 %, are within 0.5 % since a sendrecv's send below 64 KiB is
   * detached, as in SMPI.)
   */
  const PINNED: Record<string, number> = {};
  it('records SimGrid 3.32 and 96 rows', () => {
    expect(doc.simgrid).toBe('SimGrid version 3.32');
    expect(doc.cases.flatMap((c) => c.rows).length).toBe(96);
  });
  for (const c of doc.cases) {
    it(`${c.platform} (${c.ranks} ranks) ${c.meshwork.collective}:${c.meshwork.algorithm}: within 2 % of SMPI`, () => {
      const key = `${c.platform} ${c.hostfile}`;
      if (!loaded.has(key)) loaded.set(key, loadMapping(simgridTopology(readFileSync(`test/reference/simgrid/${c.platform}`, 'utf8'), c.platform), `test/reference/simgrid/${c.hostfile}`));
      const topology = loaded.get(key)!;
      expect(topology.numEndpoints).toBe(c.ranks);
      for (const row of c.rows) {
        const schedule = buildSchedule({ collective: parseCollective(c.meshwork.collective), algorithm: c.meshwork.algorithm, topology, size: row.size });
        const error = (simulate({ topology, schedule, routingOptions: preset.routing, model: preset.model }).makespan_s / row.makespan_s - 1) * 100;
        const key = `${c.platform} ${c.meshwork.collective}:${c.meshwork.algorithm} ${row.size}`;
        if (PINNED[key] === undefined) expect(Math.abs(error), key).toBeLessThanOrEqual(2);
        else expect(Math.abs(error - PINNED[key]), key).toBeLessThanOrEqual(0.5);
      }
    });
  }
});

describe('failures on a platform of zones', () => {
  it('are refused in one line (its declared routes would name failed links; they are not rerouted)', () => {
    const t = simgridTopology(readFileSync('test/reference/simgrid/platforms/zones/four-full.xml', 'utf8'));
    expect(() => applyFailures(t, parseFailures('links=1'))).toThrow(/^fail: got "failures on a SimGrid platform of zones"; accepted: a topology whose routes are computed/);
  });
});

describe('a hostfile given at load: routes among its hosts alone', () => {
  it('g5k.xml with 64 host names: 64 × 63 routes instead of 1,528 × 1,527, the same routes and makespans as the whole platform remapped', () => {
    const file = 'test/reference/simgrid/platforms/zones/hosts-g5k-64.txt';
    const subset = loadTopology('simgrid:test/reference/simgrid/examples/g5k.xml', { mapping: file });
    const whole = loadMapping(simgridTopology(readFileSync('test/reference/simgrid/examples/g5k.xml', 'utf8'), 'g5k.xml'), file);
    expect([subset.numEndpoints, subset.explicitRoutes!.hosts, subset.explicitRoutes!.hostfile]).toEqual([64, 64, `file:${file}`]);
    expect(whole.explicitRoutes!.hosts).toBe(1528);
    const names = (t: Topology) => (c: number) => t.explicitRoutes!.channelNames[c];
    for (const [a, b] of [[0, 63], [63, 0], [5, 40], [17, 18]]) expect(routeNames(subset, a, b, names(subset)), `${a} -> ${b}`).toEqual(routeNames(whole, a, b, names(whole)));
    const preset = flowPreset('simgrid');
    const time = (topology: Topology) => simulate({ topology, schedule: buildSchedule({ collective: 'alltoall', algorithm: 'pair', topology, size: 65536 }), routingOptions: preset.routing, model: preset.model }).makespan_s;
    expect(time(subset)).toBe(time(whole));
  });
  it('an entry naming no host, or a host twice where it has no route to itself, is refused in one line', () => {
    const dir = join(tempDir('zone'), 'h');
    writeFileSync(`${dir}-bad.txt`, 'h0\nh7\n');
    writeFileSync(`${dir}-twice.txt`, 'h0\n1\nh1\n');
    const platform = 'simgrid:test/reference/simgrid/platforms/zones/four-full.xml';
    expect(() => loadTopology(platform, { mapping: `${dir}-bad.txt` })).toThrow(/^hostfile\(file:.*-bad\.txt\)\[1\]: got "h7"; accepted: the name of one of the platform's 4 hosts, or its number \(0 to 3\) in declaration order$/);
    expect(() => loadTopology(platform, { mapping: `${dir}-twice.txt` })).toThrow(/^hostfile\(file:.*-twice\.txt\)\[2\]: got "h1"; accepted: a host with a route to itself for its second rank \(smpirun aborts/);
  });
});
