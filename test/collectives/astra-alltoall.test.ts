/**
 * ASTRA-sim's native all-to-all as Meshwork alltoall algorithms (astra-sim @ 518bd513,
 * system/astraccl/native_collectives/collective_algorithm): `ring-relay` (its `ring`
 * implementation, Ring.cc: one-block messages to the ring successor, each sent after one was
 * received) and `direct:window=W` (its `directW`, AllToAll.cc). The data they move is verified byte
 * for byte; their shape and flow time are held to ASTRA-sim's rules, so a relay that became a direct
 * exchange (or a window that stopped holding sends back) fails here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, buildTopology, executeSchedule, OpKind, simulate, type Schedule } from '../../src/index.js';
import { estimateSchedule } from '../../src/collectives/registry.js';
import { compareAlgorithms } from '../../src/sim/compare.js';
import { expectDeclaredIsLowered, expectRepresentativesExact, runCollective, symmetryOf } from '../sim/flow/representatives-helpers.js';

const alltoall = (topology: string, algorithm: string, size: number): Schedule =>
  buildSchedule({ collective: 'alltoall', algorithm, topology: buildTopology(topology), size });

/** Per rank, in program order: the peer of every send (blocking or not). */
/** Each rank's sends to other ranks (the zero-byte signals a rank sends itself left out), every stream, in build order. */
function sendsOf(s: Schedule): number[][] {
  const out: number[][] = Array.from({ length: s.numRanks }, () => []);
  for (let o = 0; o < s.numOps; o++) {
    if (s.opKind[o] === OpKind.Send) out[s.opRank[o]].push(...s.sendDests(o).filter((d) => d !== s.opRank[o]));
  }
  return out;
}

describe('data: every block reaches its destination, byte for byte', () => {
  for (const algorithm of ['ring-relay', 'direct', 'direct:window=1', 'direct:window=2', 'direct:window=5']) {
    it(`${algorithm}, 1 to 13 ranks (odd counts included), both executor modes`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 0, max: 9 }), fc.constantFrom('bytes', 'chunks'), (n, units, mode) => {
          const r = executeSchedule(alltoall(`torus:${n}`, algorithm, units * 3), { mode });
          expect(r.problems).toEqual([]);
          expect(r.mismatches.map((m) => m.text)).toEqual([]);
          expect(r.pass).toBe(true);
          if (units > 0) expect(r.checkedSlots).toBeGreaterThan(0);
        }),
        { numRuns: 30, seed: 7 },
      );
    });
  }

  it('the built CLI verifies ring-relay on 7 ranks', async () => {
    const { runCli } = await import('../helpers/cli.js');
    expect(runCli(['collective', 'verify', '--topology', 'ring:7', '--collective', 'alltoall', '--algorithm', 'ring-relay', '--size', '12']).stdout).toMatch(/^PASS alltoall ring-relay on ring:7/);
  });
});

describe('ring-relay is a relay, not a direct exchange', () => {
  it('every rank sends P(P−1)/2 one-block messages, all to its ring successor (a block for r + d is forwarded d times)', () => {
    for (const n of [2, 5, 8]) {
      const s = alltoall(`ring:${n}`, 'ring-relay', 64);
      const sends = sendsOf(s);
      for (let r = 0; r < n; r++) expect(sends[r]).toEqual(Array((n * (n - 1)) / 2).fill((r + 1) % n));
      for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) expect(s.regionBytes(s.dataRegion(o))).toBe(64);
    }
  });

  it('flow time: P(P−1)/2 steps of α + L + block/B on a ring (each send waits for the receive before it)', () => {
    for (const n of [4, 7, 8]) {
      const t = buildTopology(`ring:${n},bw=50GiBps,lat=500ns`);
      const block = 65536;
      const r = simulate({ topology: t, schedule: buildSchedule({ collective: 'alltoall', algorithm: 'ring-relay', topology: t, size: block }), model: { alpha: 10e-9 } });
      const step = 10e-9 + 500e-9 + block / (50 * 2 ** 30);
      expect(r.makespan_s / (((n * (n - 1)) / 2) * step)).toBeCloseTo(1, 9);
    }
  });

  it('declares its size and its rank rotation: the estimate and the declared ops are the built, lowered schedule\'s', () => {
    for (const topology of ['ring:7', 'ring:12', 'torus:3x4']) {
      const build = { topology: buildTopology(topology), collective: 'alltoall' as const, algorithm: 'ring-relay', size: 48 };
      const s = buildSchedule(build);
      let messages = 0;
      for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) messages += s.sendDests(o).length;
      expect(estimateSchedule(build)).toEqual({ ops: s.numOps, messages });
      expect(expectDeclaredIsLowered(build).decl.streams.action ?? 'rotation').toBe('rotation');
    }
  });

  it('on ring:9 its representatives alone give the full engine\'s time', () => {
    const rep = runCollective('ring:9', 'alltoall', 'ring-relay', 4096, { symmetry: 'representatives' });
    expect(symmetryOf(rep)).toMatchObject({ used: true, representatives_only: true });
    expectRepresentativesExact(rep, runCollective('ring:9', 'alltoall', 'ring-relay', 4096), runCollective('ring:9', 'alltoall', 'ring-relay', 4096, { symmetry: 'off' }));
  });
});

describe('direct:window=W', () => {
  it('sends to r+1, r+2, …, r+P−1 in that order; the estimate is the built schedule', () => {
    // With a window each arrival also signals stream 0, and stream 0 each exchange past the window
    // (zero-byte messages to itself): 5 blocks, 5 arrival and 3 go signals per rank.
    for (const [spec, messages] of [['direct', 30], ['direct:window=2', 78]] as const) {
      const build = { topology: buildTopology('ring:6'), collective: 'alltoall' as const, algorithm: spec, size: 8 };
      const s = buildSchedule(build);
      sendsOf(s).forEach((peers, r) => expect(peers).toEqual([1, 2, 3, 4, 5].map((k) => (r + k) % 6)));
      expect(estimateSchedule(build)).toEqual({ ops: s.numOps, messages });
    }
  });

  it('on a full mesh (one link per pair): ⌈(P−1)/W⌉ rounds of α + L + block/B; all at once one round, every exchange paying its α on a stream of its own', () => {
    const n = 8;
    const t = buildTopology(`fullmesh:${n},bw=50GiBps,lat=500ns`);
    const block = 131072;
    const alpha = 10e-9;
    const message = 500e-9 + block / (50 * 2 ** 30);
    const time = (spec: string) => simulate({ topology: t, schedule: buildSchedule({ collective: 'alltoall', algorithm: spec, topology: t, size: block }), model: { alpha } }).makespan_s;
    // A window of W: each receive starts the next send, so the 7 sends go in ⌈7 / W⌉ waves.
    expect(time('direct:window=1') / (7 * (alpha + message))).toBeCloseTo(1, 9);
    expect(time('direct:window=2') / (4 * (alpha + message))).toBeCloseTo(1, 9);
    expect(time('direct:window=3') / (3 * (alpha + message))).toBeCloseTo(1, 9);
    // Window P − 1 (0 = ASTRA-sim's plain `direct`): one wave, the 7 sends' α side by side (ASTRA-sim's endpoint delays overlap).
    expect(time('direct') / (alpha + message)).toBeCloseTo(1, 9);
    expect(time('direct:window=99')).toBe(time('direct'));
  });

  it('refuses a negative window, naming it', () => {
    expect(() => alltoall('ring:4', 'direct:window=-1', 8)).toThrow(/window/);
  });
});

describe('compare runs them only when named', () => {
  it('skipped with the reason by default, timed with --include', () => {
    const base = { topology: 'ring:6', workload: { kind: 'collective' as const, collective: 'alltoall' as const, algorithm: 'compared', size: 4096 } };
    const plain = compareAlgorithms(base);
    for (const name of ['ring-relay', 'direct']) expect(plain.skipped.find((s) => s.algorithm === name)?.reason).toMatch(/ASTRA-sim.*compared when named/);
    const named = compareAlgorithms(base, { include: ['ring-relay', 'direct:window=2'] });
    expect(named.runs.map((r) => String(r.workload?.algorithm_spec))).toEqual(expect.arrayContaining(['ring-relay', 'direct:window=2']));
    expect(named.skipped.map((s) => s.algorithm)).not.toContain('ring-relay');
    expect(named.skipped.map((s) => s.algorithm)).not.toContain('direct');
  });
});

describe('astra alltoall (ASTRA-sim on several dimensions)', () => {
  it('verifies byte for byte on one, two and three dimensions, with chunks and active queues', () => {
    for (const topology of ['astra:topology=Ring,npus=5,bandwidth=50,latency=500', 'astra:topology=Ring_Switch,npus=4x3,bandwidth=50x50,latency=500x500', 'astra:topology=Ring_Ring_FullyConnected,npus=2x3x2,bandwidth=50x50x50,latency=500x500x500', 'torus:3x4']) {
      for (const spec of ['astra', 'astra:splits=3', 'astra:splits=4,active=2', 'astra:dims=1', 'astra:dims=1,splits=3,active=2', 'astra:splits=5', 'astra:splits=5,remainder=exact']) {
        for (const mode of ['bytes', 'chunks'] as const) {
          const r = executeSchedule(alltoall(topology, spec, 12), { mode });
          expect(r.mismatches.map((m) => m.text), `${topology} ${spec}`).toEqual([]);
          expect(r.pass).toBe(true);
        }
      }
    }
  });

  it('along each dimension a relay: on 4 × 3 every send goes to the next rank of its ring in dimension 0 or 1', () => {
    const s = alltoall('astra:topology=Ring_Switch,npus=4x3,bandwidth=50x50,latency=500x500', 'astra', 8);
    sendsOf(s).forEach((peers, r) => {
      const x = r % 4;
      const y = Math.floor(r / 4);
      expect(peers).toEqual([...Array(6).fill(y * 4 + ((x + 1) % 4)), ...Array(3).fill(((y + 1) % 3) * 4 + x)]);
    });
  });
});
