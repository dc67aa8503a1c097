/**
 * Every SimGrid 3.32 example platform with a <cluster> (test/reference/simgrid/examples/, unmodified
 * copies, LGPL-2.1) loads as a Meshwork topology or is refused in one line naming the construct.
 * Since issue 23's zones: cluster_and_one_host.xml, griffon.xml and g5k.xml load as platforms of zones.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { FlowProgramBuilder, InputError, buildTopology, fatpipeChannels, simgridTopology, simulate, topologyToSimgrid } from '../../src/index.js';

const DIR = 'test/reference/simgrid/examples';

/** What each file gives: the topology's spec and host count, or the refused construct's words. */
const EXPECTED: Record<string, { loads: string; hosts: number } | { refused: RegExp }> = {
  'cluster_torus.xml': { loads: 'torus:3x2x2', hosts: 12 },
  'cluster_crossbar.xml': { loads: 'simgrid-flat:hosts=65536', hosts: 65536 },
  'cluster_backbone.xml': { loads: 'simgrid-flat:hosts=100,bb_bw=2250000000Bps', hosts: 100 },
  'energy_cluster.xml': { loads: 'simgrid-flat:hosts=2,bb_bw', hosts: 2 },
  'cluster_dragonfly.xml': { loads: 'simgrid-dragonfly:groups=3,chassis=4,routers=5,nodes=2,blue=4,black=3,green=1,limiter=150000000Bps', hosts: 120 },
  'cluster_fat_tree.xml': { loads: 'simgrid-fattree:levels=2,down=4x4,up=1x2,links=1x2', hosts: 16 },
  // Platforms of zones (src/interop/simgrid-platform.ts): FLAT clusters and zones joined by zoneRoutes.
  'cluster_and_one_host.xml': { loads: 'simgrid-zone:hosts=3,links=5', hosts: 3 },
  'griffon.xml': { loads: 'simgrid-zone:hosts=92,links=188', hosts: 92 },
  'prop.xml': { refused: /\.zone\(AS0\): got "no route from acme to AS4"; accepted: a <route> \(or <zoneRoute>\) for every pair of the Full zone AS0/ },
  'g5k.xml': { loads: 'simgrid-zone:hosts=1528,', hosts: 1528 },
  'bypassZoneRoute.xml': { refused: /\.bypassASroute: got "<bypassASroute>"; accepted: routes computed by the zones/ },
  'cloud.xml': { refused: /\.zone\(AS0\)\.routing: got "Vivaldi"; accepted: Full, Floyd, Dijkstra, DijkstraCache, None/ },
  // Three FLAT clusters joined by a FATPIPE internet link (zone-cases.json times it against smpirun).
  'cluster_multi.xml': { loads: 'simgrid-zone:hosts=24,', hosts: 24 },
  'data_center.xml': { refused: /\.zone\(AS0\)\.routing: got "Vivaldi"/ },
  // routing="Cluster" zones joined at routers (no <cluster> element).
  'routing_cluster.xml': { loads: 'simgrid-zone:hosts=6,', hosts: 6 },
  'meta_cluster.xml': { loads: 'simgrid-zone:hosts=60,', hosts: 60 },
  // SimGrid's small platform: a Full zone with self routes over a FATPIPE loopback.
  'small_platform.xml': { loads: 'simgrid-zone:hosts=7,links=24', hosts: 7 },
};

describe('SimGrid 3.32 example platforms', () => {
  it('has every example with a <cluster> and an expectation for each', () => {
    expect(readdirSync(DIR).filter((f) => f.endsWith('.xml')).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, want] of Object.entries(EXPECTED)) {
    it(`${file}: ${'loads' in want ? `loads as ${want.loads}` : 'refused in one line'}`, () => {
      const text = readFileSync(`${DIR}/${file}`, 'utf8');
      if ('loads' in want) {
        const t = simgridTopology(text, file);
        expect(t.spec.startsWith(want.loads)).toBe(true);
        expect(t.numEndpoints).toBe(want.hosts);
        return;
      }
      let error: unknown;
      try {
        simgridTopology(text, file);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(want.refused);
    });
  }

  it('griffon.xml: three FLAT cabinets joined by one SHARED link; griffon-1 to griffon-30 is private link up, backbone, the shared link, backbone, private link down: S / 125 MB/s + 3 × 24 µs', () => {
    const t = simgridTopology(readFileSync(`${DIR}/griffon.xml`, 'utf8'), 'griffon.xml');
    const names = t.explicitRoutes!.hostNames;
    const [a, b] = ['griffon-1.nancy.grid5000.fr', 'griffon-30.nancy.grid5000.fr'].map((n) => names.indexOf(n));
    const p = new FlowProgramBuilder(t.numEndpoints);
    p.beginStream(a).send(b, 1e6, 0);
    p.beginStream(b).recv(a, 1e6, 0);
    // Backbones have bb_lat="0"; each private link and the inter-cabinet link 24 µs.
    expect(simulate({ topology: t, program: p.build(), model: { alpha: 0 } }).makespan_s).toBeCloseTo(1e6 / 125e6 + 3 * 24e-6, 12);
  });

  it('a FLAT cluster with a backbone routes every pair through the one shared backbone channel; without one, through its crossbar', () => {
    const bb = simgridTopology(readFileSync('test/reference/simgrid/platforms/flat-16-backbone.xml', 'utf8'));
    expect(bb.numChannels).toBe(2 * 16 + 1);
    expect(bb.classNames).toContain('backbone');
    const flat = simgridTopology(readFileSync('test/reference/simgrid/platforms/flat-16.xml', 'utf8'));
    expect(flat.numChannels).toBe(2 * 16);
  });

  it('cluster_dragonfly.xml without its limiter_link loads as SimGrid\'s own 3-group, 4-chassis dragonfly', () => {
    const text = readFileSync(`${DIR}/cluster_dragonfly.xml`, 'utf8').replace(/limiter_link="[^"]*"/, '');
    const t = simgridTopology(text, 'cluster_dragonfly.xml');
    expect(t.spec).toMatch(/^simgrid-dragonfly:groups=3,chassis=4,routers=5,nodes=2,blue=4,black=3,green=1,/);
    expect(t.numEndpoints).toBe(120);
    // 120 host links, 12 chassis of 10 green pairs, 3 groups × 5 blades × 6 black pairs, 3 blue pairs; two channels each.
    expect(t.numChannels).toBe(2 * (120 + 12 * 10 + 3 * 5 * 6 + 3));
  });

  it('FLAT clusters: SHARED and FATPIPE private links and limiters load as shared capacities, a FATPIPE backbone as a FATPIPE resource; a SHARED torus is refused by name', () => {
    const cluster = (attrs: string) => `<platform version="4.1"><zone id="w" routing="Full"><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us" ${attrs}/></zone></platform>`;
    expect(simgridTopology(cluster('sharing_policy="SHARED"')).spec).toMatch(/^simgrid-flat:hosts=4,sharing=shared,/);
    // SimGrid 3.32 builds a FATPIPE cluster's private links as SHARED ones.
    expect(simgridTopology(cluster('sharing_policy="FATPIPE" limiter_link="2GBps"')).spec).toMatch(/^simgrid-flat:hosts=4,sharing=shared,limiter=2000000000Bps,/);
    expect(() => simgridTopology(cluster('sharing_policy="BOGUS"'))).toThrow(/cluster\.sharing_policy: got "BOGUS"; accepted: SPLITDUPLEX, SHARED or FATPIPE/);
    expect(() => simgridTopology(cluster('topology="TORUS" topo_parameters="2,2" sharing_policy="SHARED"'))).toThrow(/sharing_policy: got "SHARED"; accepted: SPLITDUPLEX on a TORUS cluster/);
    expect(() => simgridTopology(cluster('topology="TORUS" topo_parameters="2,2" limiter_link="1GBps"'))).toThrow(/limiter_link: got "1GBps"; accepted: no limiter_link on a TORUS cluster/);
    // A FATPIPE backbone is SimGrid's (it passes bb_sharing_policy on): the family marks its channel as a FATPIPE resource.
    const fat = simgridTopology(cluster('bb_bw="1GBps" bb_lat="1us" bb_sharing_policy="FATPIPE"'));
    expect(fat.spec).toMatch(/^simgrid-flat:hosts=4,bb_bw=1000000000Bps,bb_lat=0\.000001s,bb_sharing=fatpipe,/);
    expect(Array.from(fatpipeChannels(fat)!).filter((x) => x === 1).length).toBe(1);
    expect(fatpipeChannels(simgridTopology(cluster('bb_bw="1GBps" bb_lat="1us"')))).toBeUndefined();
    expect(() => buildTopology('simgrid-flat:hosts=4,bb_sharing=fatpipe')).toThrow(/bb_sharing: got "fatpipe"; accepted: nothing without a backbone \(bb_bw\)/);
    expect(() => buildTopology('simgrid-flat:hosts=4,bb_bw=1GBps,bb_sharing=wifi')).toThrow(/bb_sharing: got "wifi"; accepted: one of shared, fatpipe/);
    // Exported as a zone of SHARED links it would lose its sharing: refused.
    expect(() => topologyToSimgrid(fat, { zone: true })).toThrow(/format: got "simgrid"; accepted: a platform without self routes or FATPIPE links/);
    expect(() => simgridTopology(cluster('bb_bw="1GBps" bb_sharing_policy="WIFI"'))).toThrow(/bb_sharing_policy: got "WIFI"; accepted: SHARED \(the default\) or FATPIPE/);
    expect(() => simgridTopology(cluster('topology="TORUS" topo_parameters="2,2" bb_bw="1GBps"'))).toThrow(/no backbone on a TORUS cluster/);
    expect(() => simgridTopology(cluster('topology="TORUS" topo_parameters="2,3"'))).toThrow(/radical: got "4 hosts"; accepted: 6 hosts/);
  });
});
