import { describe, expect, it } from 'vitest';
import { applyFailures, assertRanksConnected, buildTopology, distanceSummary, parseFailures } from '../../src/topology/index.js';
import { resolveRouting } from '../../src/routing/index.js';
import { packetDeadlockFreeRouting } from '../../src/routing/up-star-down-star.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { assertConsistent } from './graph-checks.js';

const fail = (spec: string, text: string) => applyFailures(buildTopology(spec), parseFailures(text));

describe('failed links and routers', () => {
  it('links=10% fails round(10% of the network links) links, both channels each, the same ones for the same seed', () => {
    // torus:8x8 has 128 links; 10% is 13 links, 26 channels.
    const a = fail('torus:8x8', 'links=10%,seed=3');
    assertConsistent(a);
    expect(a.numChannels).toBe(256 - 26);
    expect(a.params).toMatchObject({ baseFamily: 'torus', failures: { failedLinks: 13, networkLinks: 128 } });
    expect(Buffer.from(fail('torus:8x8', 'links=10%,seed=3').chDst.buffer)).toEqual(Buffer.from(a.chDst.buffer));
    expect(Buffer.from(fail('torus:8x8', 'links=10%,seed=4').chDst.buffer)).not.toEqual(Buffer.from(a.chDst.buffer));
    // Every surviving channel still has its reverse: links fail whole.
    for (let c = 0; c < a.numChannels; c++) expect(a.channelBetween(a.chDst[c], a.chSrc[c])).toBeGreaterThanOrEqual(0);
  });
  it('fails only network links, never a terminal link', () => {
    const t = fail('slimfly:q=5', 'links=100%');
    // 175 router links gone; the 200 terminal links (400 channels) stay.
    expect(t.numChannels).toBe(400);
    expect(t.params).toMatchObject({ failures: { failedLinks: 175 } });
  });
  it('cut= removes exactly the links named, and distances grow as BFS says', () => {
    const t = fail('torus:4x4', 'cut=0-1');
    expect(t.numChannels).toBe(64 - 2);
    // Rank 0 to rank 1 now goes round: 0 -> 4 -> 5 -> 1 (3 hops), or the ring the other way (3 hops).
    const s = distanceSummary(t);
    expect(s.method).toBe('all-pairs');
    expect(s.histogram[1]).toBe(64 - 2);
    const routing = resolveRouting(t);
    const out = makeRouteBuffers(routing.maxHops);
    expect(routing.route(0, 1, 0, out)).toBe(3);
  });
  it('a failed router takes its terminals: ranks renumber and the lost ones are recorded', () => {
    // dragonfly:h=1 → a=2, p=1, g=3: routers are nodes 6..11; router 6 carries rank 0.
    const t = fail('dragonfly:h=1', 'down=6');
    expect(t.numEndpoints).toBe(5);
    expect(t.params).toMatchObject({ failures: { failedRouters: 1, lostRanks: [0] } });
    expect(() => fail('dragonfly:h=1', 'down=0')).toThrow(/fail\.down: got 0; accepted: a router node id/);
  });
  it('says clearly when the failures disconnect the ranks in use', () => {
    expect(() => assertRanksConnected(fail('torus:4x4', 'cut=0-1/0-4/0-3/0-12'))).toThrow(
      /fail: got "cut=0-1\/0-4\/0-3\/0-12"; accepted: failures that leave every rank in use connected \(15 of 16 ranks/,
    );
    expect(() => assertRanksConnected(fail('torus:4x4', 'cut=0-1/0-4/0-3'))).not.toThrow();
  });
  it('the packet engine routes the survivors on up*/down* (deadlock free, one class)', () => {
    const t = fail('hyperx:4x4', 'links=20%,seed=1');
    const r = packetDeadlockFreeRouting(t, resolveRouting(t, { engine: 'packet' }));
    expect(r.name).toMatch(/^up\*\/down\*/);
    expect(r.deadlockFree).toBe(true);
  });
  it('refuses malformed failure specs in one line', () => {
    expect(() => parseFailures('links=5')).not.toThrow();
    expect(() => parseFailures('links=five')).toThrow(/fail\.links: got "five"/);
    expect(() => parseFailures('seed=3')).toThrow(/at least one of links=/);
    expect(() => parseFailures('cut=1-2-3')).toThrow(/fail\.cut/);
    expect(() => fail('torus:4x4', 'cut=0-5')).toThrow(/fail\.cut: got "0-5"; accepted: a working network link/);
  });
  it('CLI: run refuses a disconnected network with exit code 2; topo reports it', () => {
    expect(expectOneLineError(runCli(['run', '--topology', 'torus:4x4', '--fail', 'cut=0-1/0-4/0-3/0-12', '--algorithm', 'pairwise', '--size', '1KiB']))).toMatch(
      /^meshwork: error: fail: got "cut=0-1\/0-4\/0-3\/0-12"; accepted: failures that leave every rank in use connected/,
    );
    const topo = JSON.parse(runCli(['topo', 'torus:4x4', '--fail', 'cut=0-1/0-4/0-3/0-12', '--json']).stdout);
    expect(topo.unreachable_pairs).toBe(30);
  });
});
