import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FlowProgramBuilder, InputError, runFlow, simulateFlow, resolveRouting, torus, TopologyBuilder, NodeKind } from '../../../src/index.js';
import type { FlowProgram } from '../../../src/index.js';

/** Linear alltoall: every rank posts all its sends, then all its receives. */
function linearAlltoall(n: number, m: number): FlowProgram {
  const b = new FlowProgramBuilder(n);
  for (let r = 0; r < n; r++) {
    b.beginStream(r);
    for (let j = 1; j < n; j++) b.send((r + j) % n, m);
    for (let j = 1; j < n; j++) b.recv((r - j + n) % n, m);
  }
  return b.build();
}

describe('flow engine on a k-ary n-cube', () => {
  it('linear alltoall with balanced (split) ties: every channel carries exactly the hop-bytes share', () => {
    // Hop-bytes formula: a k-ring (k even) has mean distance k/4 over all N destinations, so the
    // total is m · N · N · n · k/4 hop-bytes, spread over N · 2n channels: m · N · k / 8 each.
    for (const dims of [[4, 4], [6, 6], [4, 4, 4]]) {
      const topo = torus(dims);
      const n = topo.numEndpoints;
      const m = 1000;
      const k = dims[0];
      const res = runFlow({ topology: topo, program: linearAlltoall(n, m), routingOptions: { tie: 'split' }, model: { alpha: 0 } });
      const perChannel = (m * n * k) / 8;
      const bytes = res.channels.bytes!;
      for (const b of bytes) expect(b).toBeCloseTo(perChannel, 9);
      expect(res.channels.jain_fairness).toBeCloseTo(1, 12);
    }
  });

  it('positive ties are not balanced: the + channels carry more', () => {
    const topo = torus([4, 4]);
    const res = runFlow({ topology: topo, program: linearAlltoall(16, 1000), routingOptions: { tie: 'positive' }, model: { alpha: 0 } });
    expect(res.channels.jain_fairness).toBeLessThan(0.99);
  });

  it('is deterministic: the same inputs give byte-identical JSON', () => {
    const topo = torus([4, 4]);
    const a = JSON.stringify(runFlow({ topology: topo, program: linearAlltoall(16, 4096), routingOptions: { tie: 'split' } }));
    const b = JSON.stringify(runFlow({ topology: topo, program: linearAlltoall(16, 4096), routingOptions: { tie: 'split' } }));
    expect(a).toBe(b);
  });

  it('the result carries every required field of schemas/result.schema.json', () => {
    const schema = JSON.parse(readFileSync(new URL('../../../schemas/result.schema.json', import.meta.url), 'utf8'));
    const res = JSON.parse(JSON.stringify(runFlow({ topology: torus([4]), program: linearAlltoall(4, 100) })));
    for (const key of schema.required) expect(res).toHaveProperty(key);
    for (const key of schema.properties.channels.required) expect(res.channels).toHaveProperty(key);
    expect(res.version).toBe(schema.properties.version.const);
    expect(res.efficiency).toBeLessThanOrEqual(1);
  });

  it('the critical path ends at the makespan and chains backwards in time', () => {
    const res = runFlow({ topology: torus([4, 4]), program: linearAlltoall(16, 65536) });
    const ops = res.critical_path.ops;
    expect(ops[ops.length - 1].end_s).toBeCloseTo(res.makespan_s, 15);
    for (let i = 1; i < ops.length; i++) expect(ops[i].end_s).toBeGreaterThanOrEqual(ops[i - 1].end_s);
  });

  it('bad input: more ranks than endpoints, zero bandwidth, deadlock', () => {
    const topo = torus([4]);
    const r = resolveRouting(topo);
    expect(() => simulateFlow(topo, r, linearAlltoall(5, 10))).toThrow(/at most 4 ranks/);
    // A zero-bandwidth link is refused where it is made (the flow engine could never finish a flow on it).
    const b = new TopologyBuilder(0);
    b.addNode(NodeKind.Terminal);
    b.addNode(NodeKind.Terminal);
    expect(() => b.addLink(0, 1, 'direct', 'direct', { bandwidth: 0 })).toThrow(InputError);
    const p = new FlowProgramBuilder(2);
    p.beginStream(0).recv(1, 10);
    p.beginStream(1).recv(0, 10);
    expect(() => simulateFlow(topo, r, p.build())).toThrow(/deadlock/);
  });
});

describe('local rate updates', () => {
  it('give the exact result when every flow shares the changed channels (k flows on one channel)', () => {
    const topo = torus([4]);
    const b = new FlowProgramBuilder(4);
    for (let i = 0; i < 3; i++) b.beginStream(0).send(1, (i + 1) * 1e6, i);
    const rcv = b.beginStream(1);
    for (let i = 0; i < 3; i++) rcv.recv(0, (i + 1) * 1e6, i);
    const exact = simulateFlow(topo, resolveRouting(topo), b.build(), { alpha: 0 });
    const local = simulateFlow(topo, resolveRouting(topo), b.build(), { alpha: 0, rateUpdate: 'local' });
    // Shares B/3 until the first ends (3 MB at B/3 each), then B/2, then B: total 6 MB / B, plus
    // the 100 ns latency of the one hop.
    expect(exact.makespan).toBeCloseTo(6e6 / (25e9 / 8) + 100e-9, 15);
    expect(local.makespan).toBeCloseTo(exact.makespan, 15);
  });

  it('never exceed a channel capacity and never beat the bounds (linear alltoall)', () => {
    const topo = torus([4, 4]);
    const res = runFlow({ topology: topo, program: linearAlltoall(16, 65536), model: { rateUpdate: 'local' } });
    expect(res.model.rateUpdate).toBe('local');
    expect(res.channels.max_utilisation).toBeLessThanOrEqual(1 + 1e-9);
    expect(res.makespan_s).toBeGreaterThanOrEqual(res.schedule_bound_s!);
  });
});
