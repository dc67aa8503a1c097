/** compareAlgorithms (sim/compare.ts): the one compare behind `meshwork compare` and the Studio's Compare view. */
import { describe, expect, it } from 'vitest';
import { compareAlgorithms } from '../../../src/sim/compare.js';
import { simulate } from '../../../src/sim/simulate.js';
import { listAlgorithms } from '../../../src/collectives/registry.js';
import { runCli } from '../../helpers/cli.js';
import { InputError, NotApplicableError } from '../../../src/util/errors.js';
import { buildTopology } from '../../../src/topology/registry.js';

const base = { topology: 'torus:4x4', workload: { kind: 'collective' as const, collective: 'alltoall' as const, algorithm: 'compared', size: 4096 } };

describe('compareAlgorithms', () => {
  it('runs every registered alltoall that fits, sorted, each equal to its own simulate(request); the rest skipped with the reason', () => {
    const r = compareAlgorithms(base);
    expect(r.runs.length + r.skipped.length).toBe(listAlgorithms('alltoall').length);
    const times = r.runs.map((x) => x.makespan_s);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const best = simulate({ ...base, workload: { ...base.workload, algorithm: r.best! } });
    expect(best.kind === 'meshwork-run-result' && best.makespan_s).toBe(r.runs[0].makespan_s);
    for (const s of r.skipped) expect(s.reason.length).toBeGreaterThan(0);
  });

  it('runs an included algorithm that is compared anyway once; a variant of it beside it', () => {
    const plain = compareAlgorithms(base);
    const r = compareAlgorithms(base, { include: ['pairwise', 'pairwise:order=shift'] });
    const specs = r.runs.map((x) => String(x.workload?.algorithm_spec));
    expect(specs.filter((a) => a === 'pairwise')).toHaveLength(1);
    expect(specs).toContain('pairwise:order=shift');
    expect(r.runs.length).toBe(plain.runs.length + 1);
  });

  it('is what meshwork compare prints: the same best and the same makespans', () => {
    const cli = JSON.parse(runCli(['compare', '--topology', 'torus:4x4', '--size', '4KiB', '--json']).stdout);
    const lib = compareAlgorithms(base);
    expect(cli.best).toBe(lib.best);
    expect(cli.runs.map((x: { makespan_s: number }) => x.makespan_s)).toEqual(lib.runs.map((x) => x.makespan_s));
    expect(cli.skipped).toEqual(lib.skipped);
  });

  it('refuses the whole comparison on a size limit, naming it', () => {
    expect(() => compareAlgorithms({ topology: 'torus:32x32x32', workload: { ...base.workload, size: 1 << 20 } })).toThrow(/2\^27/);
  });

  it('builds the topology once for every algorithm (the CLI header reads the same one)', () => {
    const specs: string[] = [];
    const r = compareAlgorithms(base, { io: { loadTopology: (spec) => (specs.push(spec), buildTopology(spec)) } });
    expect(r.runs.length).toBeGreaterThan(1);
    expect(specs).toEqual(['torus:4x4']);
  });

  it("refuses a root, peer or sizes matrix the topology does not take, rather than skipping every algorithm", () => {
    expect(() => compareAlgorithms({ ...base, workload: { ...base.workload, collective: 'broadcast', root: 16 } })).toThrow(/root: got "16"; accepted: an integer from 0 to 15/);
    expect(() => compareAlgorithms({ ...base, workload: { kind: 'collective', collective: 'alltoallv', algorithm: 'compared', sizes: 'bogus' } })).toThrow(/sizes/);
  });

  // Before: each of these reached every algorithm alike and was listed as its reason to be skipped
  // (a reduce-scatter of 100 B skipped all 4 algorithms with "a multiple of 64 bytes", exit 0).
  const refusals: ReadonlyArray<readonly [string, Parameters<typeof compareAlgorithms>[0], RegExp]> = [
    ['a reduce-scatter size the ranks cannot cut', { ...base, workload: { ...base.workload, collective: 'reduce-scatter', size: 100 } }, /^size: got 100; accepted: a multiple of 64 bytes \(16 ranks x 4-byte int32\) for reduce-scatter$/],
    ['a reduction size of part elements', { ...base, workload: { ...base.workload, collective: 'allreduce', size: 6 } }, /^size: got 6; accepted: a multiple of 4 bytes \(whole int32 elements\)$/],
    ['a routing the topology refuses', { ...base, topology: 'fattree:k=4,levels=2', routing: { name: 'dor' } }, /^routing: got "dimension-order on fattree"; accepted: a mesh or torus topology$/],
    ['a time model the engine refuses', { ...base, model: { latencyRule: 'before-transfer' } }, /^model\.latencyRule: got "before-transfer"; accepted: on-delivery unless injectionOrder is shared/],
    ['a field the request schema refuses', { ...base, engine: 'fluid' as never }, /^request\.engine: got "fluid"/],
    // These two were TypeErrors ("Cannot read properties of undefined (reading 'workload')").
    ['no request at all', undefined as never, /^request: got \(nothing\)/],
    ['a request without a workload', { topology: 'torus:4x4' } as never, /^request\.workload: got \(nothing\)/],
  ];
  for (const [what, request, message] of refusals) {
    it(`refuses the whole comparison on the request's own error, not skipping every algorithm: ${what}`, () => {
      let caught: unknown;
      try {
        compareAlgorithms(request);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect(caught).not.toBeInstanceOf(NotApplicableError);
      expect((caught as Error).message).toMatch(message);
    });
  }

  it('still skips an algorithm that does not apply to the topology, with its own reason (NotApplicableError)', () => {
    const r = compareAlgorithms({ ...base, topology: 'fattree:k=4,levels=2' });
    expect(r.runs.length).toBeGreaterThan(0);
    const hop = r.skipped.find((x) => x.algorithm === 'hop-grouped');
    expect(hop?.reason).toMatch(/^hop-grouped for alltoall supports torus .*; here: a torus or mesh topology, got fattree$/);
  });

  it('meshwork compare names the topology it built in its header', () => {
    const out = runCli(['compare', '--collective', 'allreduce', '--topology', 'torus:4x4', '--size', '4KiB']).stdout;
    expect(out.split('\n')[0]).toBe('topology   torus:4x4 (16 endpoints, 64 channels)');
  });
});
