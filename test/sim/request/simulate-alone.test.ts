/**
 * The library alone runs a RunRequest: this file imports `simulate` and nothing else from Meshwork,
 * so every registry it needs (families, routings, collectives, allocators, patterns) must register
 * its built-ins on load, and every refusal must come from the library (not a front end).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../src/sim/simulate.js';

describe('simulate(RunRequest), imported alone', () => {
  it('runs a collective: pairwise alltoall on torus:4x4 at flow level, and records the resolved request', () => {
    const r = simulate({ topology: 'torus:4x4', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 1024 } });
    expect(r.kind).toBe('meshwork-run-result');
    if (r.kind !== 'meshwork-run-result') return;
    // 15 sends of 1 KiB per rank; each rank's single injection link at 25 Gbps (the torus default)
    // carries 15 KiB at least, so the makespan is at least that serialisation time.
    expect(r.makespan_s).toBeGreaterThanOrEqual((15 * 1024) / (25e9 / 8));
    expect(r.stats.messages).toBe(16 * 15);
    expect(r.request).toMatchObject({ engine: 'flow', routing: { name: 'dor', seed: 1 }, workload: { kind: 'collective', collective: 'alltoall' } });
    // Re-running the recorded request gives the same number.
    const again = simulate(r.request);
    expect(again.kind === 'meshwork-run-result' && again.makespan_s).toBe(r.makespan_s);
  });

  it('runs a traffic point: uniform at 0.1 flits/node/cycle on torus:4x4, one spelling of latency and throughput', () => {
    const r = simulate({ topology: 'torus:4x4', workload: { kind: 'traffic', pattern: 'uniform', rates: [0.1], measurement: 'horizon', horizon: 2000 } });
    expect(r.kind).toBe('meshwork-traffic-result');
    if (r.kind !== 'meshwork-traffic-result') return;
    const [p] = r.points;
    // Below saturation the network accepts what is offered: 0.1 flits/node/cycle within 15 %.
    expect(p.accepted_flit_rate).toBeGreaterThan(0.085);
    expect(p.accepted_flit_rate).toBeLessThan(0.115);
    expect(p.packet_latency).toBeGreaterThan(0);
    expect(p).not.toHaveProperty('meanLatency');
    expect(r.request.engine).toBe('packet');
  });

  it('refuses --size 1TiB at packet level itself, in one line naming the flit limit', () => {
    const run = () => simulate({ topology: 'torus:4x4', engine: 'packet', workload: { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 2 ** 40 } });
    expect(run).toThrow(/^size: got "\d+ flits"; accepted: at most 67108864 flits \(2\^26/);
  });

  it('torus:512x512 at packet level (a collective and a traffic point) is refused in one line naming the memory limit', () => {
    const collective = () => simulate({ topology: 'torus:512x512', engine: 'packet', workload: { kind: 'collective', collective: 'broadcast', algorithm: 'binomial', size: 1024 } });
    const traffic = () => simulate({ topology: 'torus:512x512', workload: { kind: 'traffic', pattern: 'uniform', rates: [0.1] } });
    for (const run of [collective, traffic]) {
      expect(run).toThrow(/^topology: got "torus:512x512 \([\d.]+ GiB at packet level\)"; accepted: at most 2 GiB of packet-network state/);
      try {
        run();
      } catch (err) {
        expect((err as Error).message).not.toContain('\n');
      }
    }
  });

  it("refuses a malformed request in one line naming the field, in Meshwork's words (was the schema library's: 'Too small: expected number to be >=0')", () => {
    const collective = { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 4096 } as const;
    const cases: Array<[unknown, string]> = [
      [{ topology: 'torus:4x4', workload: { ...collective, size: -1 } }, 'request.workload.size: got -1; accepted: a number >= 0'],
      [{ topology: 'torus:4x4', workload: { ...collective, size: 1.5 } }, 'request.workload.size: got 1.5; accepted: a whole number'],
      [{ topology: 'torus:4x4', workload: { ...collective, size: '1KiB' } }, 'request.workload.size: got "1KiB"; accepted: a number'],
      [{ topology: 'torus:4x4', mapping: ['snake'], workload: collective }, 'request.mapping: got ["snake"]; accepted: a string'],
      [{ topology: '', workload: collective }, 'request.topology: got ""; accepted: a non-empty string'],
      [{ topology: 'torus:4x4', workload: { kind: 'x' } }, 'request.workload.kind: got "x"; accepted: one of collective, schedule, traffic, workload'],
      [{ topology: 'torus:4x4', workload: collective, engine: 'fluid' }, 'request.engine: got "fluid"; accepted: one of flow, packet'],
      [{ topology: 'torus:4x4', workload: { ...collective, colective: 'x' } }, 'request.workload.colective: got "x"; accepted: only the keys kind, collective, algorithm, size, sizes, root, peer'],
      [{ topology: 'torus:4x4', workload: { kind: 'traffic', pattern: 'uniform', rates: [] } }, 'request.workload.rates: got []; accepted: a list of at least 1 item'],
    ];
    for (const [request, line] of cases) {
      expect(() => simulate(request as never), line).toThrow(`${line} (see schemas/run-request.schema.json)`);
      try {
        simulate(request as never);
      } catch (err) {
        expect((err as Error).message).not.toMatch(/Invalid input|Too small|Too big|Invalid option|Unrecognized key|Invalid discriminator/);
      }
    }
  });

  it('refuses what is not a request in one line, naming it (simulate(undefined) and a topology that is no Topology were TypeErrors)', () => {
    const accepted = 'a RunRequest ({topology: "torus:8x8", workload: {...}}) or a built request ({topology, schedule or program})';
    expect(() => simulate(undefined as never)).toThrow(`request: got (nothing); accepted: ${accepted}`);
    expect(() => simulate(null as never)).toThrow(`request: got null; accepted: ${accepted}`);
    expect(() => simulate({ topology: {} as never, program: {} as never })).toThrow(
      'topology: got {}; accepted: a Topology built by buildTopology, or a spec string such as torus:8x8 in a RunRequest',
    );
  });

  it("refuses a built request's model key no option has, as a RunRequest's (a misspelt option was silently the default)", () => {
    expect(() => simulate({ topology: {} as never, program: {} as never, model: { injectionBandwith: 1e6 } as never })).toThrow(/^model\.injectionBandwith: got 1000000; accepted: only the keys alpha, routerLatency, /);
    expect(() => simulate({ topology: {} as never, program: {} as never, model: 5 as never })).toThrow(/^model: got 5; accepted: an object of model options/);
  });
});
