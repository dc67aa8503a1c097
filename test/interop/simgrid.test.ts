/** SimGrid platform XML: cluster forms out and back, explicit zones with Meshwork's routes. */
import { describe, expect, test } from 'vitest';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import { parseXml } from '../../src/interop/xml.js';
import { simgridClusterSpec, topologyToSimgrid } from '../../src/interop/simgrid.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { resolveRouting } from '../../src/routing/registry.js';
import { loadTopology } from '../../src/node/index.js';

describe('simgrid', () => {
  test.each([
    ['torus:4x4x2,bw=10GBps,lat=100ns', 'TORUS', '4,4,2'],
    ['fattree:k=4,levels=3,bw=25Gbps,lat=50ns', 'FAT_TREE', '3;4,4,4;1,4,4;1,1,1'],
    ['dragonfly:a=4,p=4,h=1,g=4,wiring=simgrid,bw=10GBps,lat=100ns', 'DRAGONFLY', '4,1;1,1;4,1;4'],
    ['dragonfly:a=5,p=2,h=1,g=3,wiring=simgrid,bw=1GBps,lat=1us', 'DRAGONFLY', '3,1;1,1;5,1;2'],
  ])('%s exports as a %s cluster and imports back to the same topology', (spec, kind, params) => {
    const t = buildTopology(spec);
    const xml = topologyToSimgrid(t);
    expect(xml).toContain(`topology="${kind}" topo_parameters="${params}"`);
    const back = buildTopology(simgridClusterSpec(xml));
    expect([back.family, back.numNodes, back.numChannels]).toEqual([t.family, t.numNodes, t.numChannels]);
    expect(Array.from(back.chBandwidth)).toEqual(Array.from(t.chBandwidth));
    expect(Array.from(back.chLatency)).toEqual(Array.from(t.chLatency));
  });

  test("a loopback exports as the cluster's loopback_bw/loopback_lat and imports back; an explicit zone refuses it", () => {
    const t = buildTopology('torus:2x4,bw=1GBps,lat=10us,loopback_bw=100MBps,loopback_lat=5us');
    const xml = topologyToSimgrid(t);
    expect(xml).toContain('loopback_bw="100000000Bps" loopback_lat="0.000005s"');
    expect(buildTopology(simgridClusterSpec(xml)).params.loopback).toEqual({ bandwidth: 1e8, latency: 5e-6 });
    expect(() => topologyToSimgrid(t, { zone: true })).toThrow(/format: got "simgrid"; accepted: a topology without loopbacks as an explicit zone/);
  });

  test('another family is an explicit zone: a host per endpoint, a link per channel, one route per ordered pair along the default routing', () => {
    const t = buildTopology('dragonfly:h=1');
    const xml = topologyToSimgrid(t);
    const hosts: string[] = [];
    const links: string[] = [];
    const routes = new Map<string, string[]>();
    let route: string[] | undefined;
    parseXml(xml, {
      open: (name, a) => {
        if (name === 'host') hosts.push(a.id);
        if (name === 'link') links.push(a.id);
        if (name === 'route') routes.set(`${a.src}>${a.dst}`, (route = []));
        if (name === 'link_ctn') route!.push(a.id);
      },
    }, 'test');
    const n = t.numEndpoints;
    expect([hosts.length, links.length, routes.size]).toEqual([n, t.numChannels, n * (n - 1)]);
    const routing = resolveRouting(t, { engine: 'flow' });
    const buf = makeRouteBuffers(routing.maxHops);
    const hops = routing.route(t.endpoints[0], t.endpoints[n - 1], 0, buf);
    expect(routes.get(`host0>host${n - 1}`)).toEqual(Array.from(buf.channels.subarray(0, hops), (c) => `c${c}`));
  });

  test("a zone names the routing of its routes; a random tie's seed is the caller's and named too", () => {
    const t = buildTopology('torus:4x4');
    const routesOf = (xml: string): string => xml.split('\n').filter((l) => l.includes('<route ')).join('\n');
    const one = topologyToSimgrid(t, { zone: true, routing: { tie: 'random' } });
    const two = topologyToSimgrid(t, { zone: true, routing: { tie: 'random', seed: 2 } });
    expect(one).toContain('<!-- meshwork: routes of dimension-order(tie=random,order=0,1), seed 0 -->');
    expect(two).toContain('<!-- meshwork: routes of dimension-order(tie=random,order=0,1), seed 2 -->');
    expect(routesOf(two)).not.toBe(routesOf(one));
    expect(topologyToSimgrid(t, { zone: true, routing: { tie: 'random', seed: 0 } })).toBe(one);
    expect(topologyToSimgrid(t, { zone: true })).toContain('<!-- meshwork: routes of dimension-order(tie=positive,order=0,1) -->');
  });

  test('wiring=simgrid is the graph of SimGrid DRAGONFLY "4,1;1,1;4,1;4" that the SMPI reference cases were run on', () => {
    // test/reference/simgrid/platforms/dragonfly-4x4x4.json was written from SimGrid's DragonflyZone
    // (router y of group x holds the link to group y); the family must give the same links.
    const edges = (t: ReturnType<typeof buildTopology>): string[] => Array.from({ length: t.numChannels }, (_, c) => `${t.chSrc[c]}>${t.chDst[c]}`).sort();
    const family = buildTopology('dragonfly:a=4,p=4,h=1,g=4,wiring=simgrid,bw=10GBps,lat=100ns');
    const file = loadTopology('file:test/reference/simgrid/platforms/dragonfly-4x4x4.json');
    expect(family.numChannels).toBe(2 * 64 + 16 * 3 + 4 * 3);
    expect(edges(family)).toEqual(edges(file));
  });

  test('multi-chassis DRAGONFLY and non-k-ary FAT_TREE clusters become SimGrid\'s own families; more groups than routers and a bad radical are refused in one line', () => {
    const platform = (topo: string, params: string, hosts = 16): string => `<platform version="4.1"><zone id="z" routing="Full"><cluster id="c" prefix="h" suffix="" radical="0-${hosts - 1}" speed="1Gf" bw="1GBps" lat="1us" topology="${topo}" topo_parameters="${params}"/></zone></platform>`;
    expect(simgridClusterSpec(platform('DRAGONFLY', '3,1;4,1;4,1;2', 96))).toBe('simgrid-dragonfly:groups=3,chassis=4,routers=4,nodes=2,blue=1,black=1,green=1,bw=1000000000Bps,lat=0.000001s');
    expect(simgridClusterSpec(platform('DRAGONFLY', '4,1;1,1;4,1;1'))).toMatch(/^dragonfly:a=4,p=1,h=1,g=4,wiring=simgrid/);
    expect(() => simgridClusterSpec(platform('DRAGONFLY', '5,1;1,1;4,1;2', 40))).toThrow(/^simgrid\.cluster\.topo_parameters: got "5,1;1,1;4,1;2"; accepted: at most as many groups as routers per chassis \(4\)/);
    expect(() => simgridClusterSpec(platform('DRAGONFLY', '3,1;4,1;4,1;2'))).toThrow(/^simgrid\.cluster\.radical: got "16 hosts"; accepted: 96 hosts/);
    expect(() => simgridClusterSpec(platform('FLAT', ''))).toThrow('simgrid.cluster.topology: got "FLAT"; accepted: TORUS, FAT_TREE or DRAGONFLY');
    expect(simgridClusterSpec(platform('FAT_TREE', '2;4,4;1,2;1,2'))).toMatch(/^simgrid-fattree:levels=2,down=4x4,up=1x2,links=1x2,/);
    expect(simgridClusterSpec(platform('FAT_TREE', '2;4,4;1,4;1,1'))).toMatch(/^fattree:k=4,levels=2,/);
    expect(() => simgridClusterSpec(platform('FAT_TREE', '2;4,4;1,0;1,2'))).toThrow(/^simgrid\.cluster\.topo_parameters: got "2;4,4;1,0;1,2"; accepted: "L;D1,..,DL;U1,..,UL;P1,..,PL"/);
    expect(() => simgridClusterSpec(platform('FAT_TREE', '3;4,4;1,2;1,2'))).toThrow(/topo_parameters: got "3;4,4;1,2;1,2"/);
    expect(() => buildTopology('dragonfly:a=4,p=4,h=2,g=4,wiring=simgrid')).toThrow(/h: got 2; accepted: 1 with wiring=simgrid/);
    expect(() => buildTopology('dragonfly:a=4,p=4,h=1,g=5,wiring=simgrid')).toThrow(/g: got 5; accepted: 2 to a = 4 groups/);
  });
});
