/**
 * The packet routing decision (docs/packet.md, "Escape routing"): a collective run at packet level,
 * and traffic whose packet preset chooses the routing, get the deadlock-free wrap (up*\/down* where
 * the routing is not deadlock free with one VC class); traffic with a named routing runs it as
 * named. Both results record the choice as `routing.packet_wrap`.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Result, type RunRequest } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';

const collective = (extra: Partial<RunRequest> = {}): RunRequest => ({ topology: 'ring:8', engine: 'packet', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 256 }, ...extra });
const traffic = (extra: Partial<RunRequest> = {}): RunRequest => ({ topology: 'ring:8', workload: { kind: 'traffic', pattern: 'uniform', rates: [0.05], measurement: 'horizon', horizon: 300 }, ...extra });
const routingOf = (r: Result) => r.routing;

describe('packet routing decision: wrap for collectives, as named for named traffic routings', () => {
  it('a collective packet run on shortest path (cyclic on a ring) is routed on up*/down*, recorded as wrapped', () => {
    const r = routingOf(simulate(collective({ routing: { name: 'shortest' } })));
    expect(r.name).toMatch(/^up\*\/down\*\(root=\d+\)$/);
    expect(r.params.replaces).toMatch(/^shortest-path/);
    expect(r.packet_wrap).toEqual({ policy: 'deadlock-free wrap', wrapped: true, reason: expect.stringMatching(/^shortest-path\(tie=lowest\) \(not deadlock free with one VC class\): replaced by up\*\/down\*\(root=\d+\), deadlock free with one VC class$/) });
  });

  it('the same routing named for traffic runs as named, recorded as not wrapped and why', () => {
    const r = routingOf(simulate(traffic({ routing: { name: 'shortest' } })));
    expect(r.name).toBe('shortest-path(tie=lowest)');
    expect(r.params.replaces).toBeUndefined();
    expect(r.packet_wrap).toEqual({ policy: 'as named', wrapped: false, reason: expect.stringMatching(/runs as named; shortest-path\(tie=lowest\) is not declared deadlock free, so a deadlock is possible and reported as such$/) });
  });

  it("traffic without a named routing takes the preset's choice, wrapped like a collective's", () => {
    // ring:8's own routing is shortest path, cyclic with one VC class.
    const r = routingOf(simulate(traffic()));
    expect(r.name).toMatch(/^up\*\/down\*\(root=\d+\)$/);
    expect(r.packet_wrap).toMatchObject({ policy: 'deadlock-free wrap', wrapped: true });
  });

  it('a deadlock-free routing is kept and recorded as such; a flow run records no wrap', () => {
    const packet = routingOf(simulate({ ...collective(), topology: 'torus:4x4' }));
    expect(packet.name).toMatch(/^dimension-order/);
    expect(packet.packet_wrap).toEqual({ policy: 'deadlock-free wrap', wrapped: false, reason: expect.stringMatching(/is deadlock free \(declared by the routing\)$/) });
    expect(routingOf(simulate({ ...collective(), engine: 'flow' })).packet_wrap).toBeUndefined();
  });

  it('meshwork traffic --json and run --json print the record', () => {
    const t = JSON.parse(runCli(['traffic', '--topology', 'ring:8', '--routing', 'shortest', '--pattern', 'uniform', '--rates', '0.05', '--horizon', '300', '--json']).stdout);
    expect(t.packetWrap).toMatchObject({ policy: 'as named', wrapped: false });
    const r = JSON.parse(runCli(['run', '--topology', 'ring:8', '--routing', 'shortest', '--engine', 'packet', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '256', '--json']).stdout);
    expect(r.routing.packet_wrap).toMatchObject({ policy: 'deadlock-free wrap', wrapped: true });
  });
});
