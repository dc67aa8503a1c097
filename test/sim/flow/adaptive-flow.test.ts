/**
 * Adaptive routing at flow level (issue 14, item 2): the flow engine gives `adaptive`, `ugal-l`,
 * `ugal-g` and dragonfly `ugal` its channel loads (unfinished flows per channel, read at flow start;
 * src/sim/flow/channel-load.ts), so they leave the minimal path when it is loaded. Expected values
 * are max-min shares: k flows alone on one channel of bandwidth B finish at k·size/B.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, FlowProgramBuilder, resolveRouting, simulateFlow, type Topology } from '../../../src/index.js';

const SIZE = 1 << 20;

/** Every (src, dst) pair sends one message of SIZE bytes at time 0, each on its own stream. */
function pairs(t: Topology, list: ReadonlyArray<[number, number]>): ReturnType<FlowProgramBuilder['build']> {
  const b = new FlowProgramBuilder(t.numEndpoints);
  list.forEach(([s, d], i) => {
    b.beginStream(s).send(d, SIZE, i);
    b.beginStream(d).recv(s, SIZE, i);
  });
  return b.build();
}

const run = (t: Topology, routing: string, list: ReadonlyArray<[number, number]>) =>
  simulateFlow(t, resolveRouting(t, { routing, engine: 'flow' }), pairs(t, list), { alpha: 0, injectionBandwidth: null, ejectionBandwidth: null });

describe('flow-level adaptive routing reads the flow engine channel loads', () => {
  it('adaptive minimal spreads the flows of one router pair over both minimal paths of a HyperX', () => {
    // hyperx:4x4,p=8: router (0,0) = terminals 0-7, router (1,1) = router 5, terminals 40-47; two
    // minimal paths (via (1,0) or (0,1)). Eight flows: four per path, 4·size/B, where dimension order
    // puts all eight on one path (8·size/B) and the load-blind hash tie-break put seven on one.
    const t = buildTopology('hyperx:4x4,p=8,bw=100Gbps,lat=0');
    const B = t.chBandwidth[0];
    const list: Array<[number, number]> = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, 40 + i]);
    expect(run(t, 'default', list).makespan).toBeCloseTo((8 * SIZE) / B, 12);
    expect(run(t, 'adaptive', list).makespan).toBeCloseTo((4 * SIZE) / B, 12);
  });

  it('dragonfly ugal diverts adversarial group-to-group traffic off the one global link', () => {
    // dragonfly:h=2 (a = 4 routers of p = 2 terminals per group, 9 groups, one global link per group
    // pair): the 8 terminals of group 0 each send to one of group 1. Minimal: 4 of the 8 fewest-hop
    // routes share the one global link 0 -> 1 (the others are as short through a third group),
    // 4·size/B. UGAL at flow start sends flows through other groups once that link is loaded.
    const t = buildTopology('dragonfly:h=2,bw=100Gbps,lat=0');
    const B = t.chBandwidth[0];
    const list: Array<[number, number]> = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, 8 + i]);
    const minimal = run(t, 'minimal', list);
    expect(minimal.makespan).toBeCloseTo((4 * SIZE) / B, 12);
    const ugal = run(t, 'ugal', list);
    // Load-blind (every load 0) UGAL stays minimal: 4·size/B. Reading the loads, at most 3 flows share a link.
    expect(ugal.makespan).toBeLessThanOrEqual(0.75 * minimal.makespan * (1 + 1e-12));
    const directLink = (out: typeof minimal): number => Math.max(...Array.from(t.chClass, (k, c) => (t.classNames[k] === 'global' ? out.channelBytes[c] : 0)));
    expect(directLink(ugal)).toBeLessThan(directLink(minimal));
    // The same run again gives the same routes (loads are deterministic).
    expect(run(t, 'ugal', list).makespan).toBe(ugal.makespan);
  });

  it('ugal-l and ugal-g divert too, on the HyperX', () => {
    // hyperx:4x4,p=8: the 8 terminals of router 0 all send to router 1 (one link, 8·size/B when minimal).
    // Flow-level threshold 0: a flow goes Valiant once H_min·q_min > H_val·q_val. UGAL draws one
    // intermediate per flow, and one in column x = 1 or at router 0 starts on the direct link too
    // (then minimal wins), so not every flow leaves it: 5 of the 8 stay here (5·size/B).
    const t = buildTopology('hyperx:4x4,p=8,bw=100Gbps,lat=0');
    const B = t.chBandwidth[0];
    const list: Array<[number, number]> = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, 8 + i]);
    expect(run(t, 'default', list).makespan).toBeCloseTo((8 * SIZE) / B, 12);
    for (const name of ['ugal-l', 'ugal-g']) expect(run(t, name, list).makespan, name).toBeLessThanOrEqual(((5 * SIZE) / B) * (1 + 1e-12));
  });

  it('dal deroutes within the row once the direct link is loaded', () => {
    // The same eight flows from router 0 to router 1. DAL (flow threshold 0) deroutes when
    // q_min > 2·q_deroute, through router 2 or 3 of the row (dimension 1 is aligned: no hop there).
    // Flows in order: direct, via 2, via 3, direct, direct, via 2, via 3, direct: 4 on the direct
    // link (4·size/B), 2 on each two-hop path.
    const t = buildTopology('hyperx:4x4,p=8,bw=100Gbps,lat=0');
    const B = t.chBandwidth[0];
    const list: Array<[number, number]> = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, 8 + i]);
    expect(run(t, 'dal', list).makespan).toBeCloseTo((4 * SIZE) / B, 12);
  });
});
