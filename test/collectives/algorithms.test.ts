/**
 * Property: every classic algorithm delivers its collective's postcondition for every rank count it
 * accepts (odd and non-powers of two included), several sizes, roots, dtypes and both executor modes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COLLECTIVES, buildSchedule, buildTopology, generateAlltoallvSizes, executeSchedule, listAlgorithms, isReduction, OpKind } from '../../src/index.js';
import { isPowerOfTwo } from '../../src/collectives/registry.js';

const CLASSIC = COLLECTIVES.flatMap((c) => listAlgorithms(c).filter((a) => a.source.startsWith('classic')));

describe('classic algorithms satisfy their postconditions', () => {
  it('registers every algorithm of the issue table', () => {
    const names = CLASSIC.map((a) => `${a.collective}/${a.name}`).sort();
    for (const want of [
      'alltoall/linear', 'alltoall/pairwise', 'alltoall/ring', 'alltoall/bruck',
      'broadcast/binomial', 'broadcast/chain', 'broadcast/scatter-allgather',
      'reduce/ring', 'reduce/recursive-doubling', 'reduce/rabenseifner',
      'allreduce/ring', 'allreduce/recursive-doubling', 'allreduce/rabenseifner',
      'scatter/linear', 'scatter/binomial', 'gather/linear', 'gather/binomial',
      'allgather/ring', 'allgather/recursive-doubling', 'allgather/bruck',
      'reduce-scatter/ring', 'reduce-scatter/pairwise', 'one-to-one/direct', 'barrier/dissemination',
    ]) expect(names).toContain(want);
  });

  for (const alg of CLASSIC) {
    it(`${alg.collective}/${alg.name}`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 13 }),
          fc.integer({ min: 0, max: 9 }),
          fc.nat(),
          fc.constantFrom('int32', 'float32', 'float64'),
          fc.constantFrom('sum', 'max', 'prod', 'bxor'),
          fc.constantFrom('bytes', 'chunks'),
          (n, units, rootSeed, dtype, op, mode) => {
            if (alg.collective === 'one-to-one' && n < 2) return;
            if (alg.name === 'recursive-doubling' && alg.collective === 'allgather' && !isPowerOfTwo(n)) return;
            const reduction = isReduction(alg.collective);
            const d = reduction ? dtype : 'int32';
            const o = reduction && !(d !== 'int32' && op === 'bxor') ? op : 'sum';
            const elem = d === 'float64' ? 8 : 4;
            const size = alg.collective === 'reduce-scatter' ? units * n * elem : reduction ? units * elem : units * 3;
            const root = rootSeed % n;
            const topology = buildTopology(`torus:${n}`);
            // alltoallv: a random per-pair matrix of blocks up to `size` bytes.
            const sizes = alg.collective === 'alltoallv' ? generateAlltoallvSizes(`random:max=${size},seed=${rootSeed}`, n) : undefined;
            const s = buildSchedule({ collective: alg.collective, algorithm: alg.name, topology, size, root, peer: (root + 1) % n, dtype: d, op: o, sizes });
            const r = executeSchedule(s, { mode });
            expect(r.problems).toEqual([]);
            expect(r.mismatches.map((m) => m.text)).toEqual([]);
            expect(r.pass).toBe(true);
            // The check is not vacuous: every output byte was looked at.
            if (size > 0 && alg.collective !== 'barrier' && alg.collective !== 'alltoallv') expect(r.checkedSlots).toBeGreaterThan(0);
          },
        ),
        { numRuns: 30, seed: 42 },
      );
    });
  }

  it('refuses unsupported rank counts with the reason', () => {
    const topology = buildTopology('torus:6');
    expect(() => buildSchedule({ collective: 'allgather', algorithm: 'neighbor-exchange', topology: buildTopology('torus:7'), size: 8 })).toThrow(/7 ranks is odd/);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'pairwise:order=xor', topology, size: 8 })).toThrow(/power-of-two/);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'pairwise:colour=red', topology, size: 8 })).toThrow(/algorithm.colour/);
    expect(() => buildSchedule({ collective: 'reduce-scatter', algorithm: 'ring', topology, size: 20 })).toThrow(/multiple of 24/);
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'nope', topology, size: 8 })).toThrow(/binomial, knomial, chain/);
  });

  it('counts match the textbook formulas (messages, steps, bytes)', () => {
    // pairwise alltoall: n(n-1) messages, n-1 unit steps; each rank sends (n-1) blocks.
    const t8 = buildTopology('torus:8');
    const pw = executeSchedule(buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t8, size: 16 }), { steps: true });
    expect(pw.messages).toBe(8 * 7);
    expect(pw.steps!.steps).toBe(7);
    expect(pw.stats.sentBytes[3]).toBe(7 * 16);
    // bruck alltoall: ceil(log2 n) steps, each moving n/2 blocks per rank (n = 8: 3 steps, 4 blocks).
    const br = executeSchedule(buildSchedule({ collective: 'alltoall', algorithm: 'bruck', topology: t8, size: 16 }), { steps: true });
    expect(br.steps!.steps).toBe(3);
    expect(br.stats.sentBytes[0]).toBe(3 * 4 * 16);
    // chain broadcast: n-1+P-1 steps (n = 8, P = 4: 10).
    const ch = executeSchedule(buildSchedule({ collective: 'broadcast', algorithm: 'chain:segments=4', topology: t8, size: 64 }), { steps: true });
    expect(ch.steps!.steps).toBe(8 - 1 + 4 - 1);
    // binomial broadcast: ceil(log2 n) steps (n = 7: 3).
    const bi = executeSchedule(buildSchedule({ collective: 'broadcast', algorithm: 'binomial', topology: buildTopology('torus:7'), size: 64 }), { steps: true });
    expect(bi.steps!.steps).toBe(3);
    // ring allreduce: 2(n-1) steps and 2(n-1)/n of the buffer sent per rank.
    const ar = executeSchedule(buildSchedule({ collective: 'allreduce', algorithm: 'ring', topology: t8, size: 64 }), { steps: true });
    expect(ar.steps!.steps).toBe(14);
    expect(ar.stats.sentBytes[5]).toBe((2 * 7 * 64) / 8);
    // dissemination barrier: ceil(log2 n) rounds (n = 5: 3).
    const ba = executeSchedule(buildSchedule({ collective: 'barrier', algorithm: 'dissemination', topology: buildTopology('torus:5'), size: 0 }), { steps: true });
    expect(ba.steps!.steps).toBe(3);
    expect(ba.pass).toBe(true);
  });
});

describe('pairwise alltoall, order=coords: every step one translation of the torus', () => {
  /** Each rank's send peers and receive peers, each in program order. */
  function peers(topology: string, algorithm: string): { send: number[][]; recv: number[][] } {
    const s = buildSchedule({ collective: 'alltoall', algorithm, topology: buildTopology(topology), size: 8 });
    const send: number[][] = Array.from({ length: s.numRanks }, () => []);
    const recv: number[][] = Array.from({ length: s.numRanks }, () => []);
    for (let i = 0; i < s.numOps; i++) {
      if (s.opKind[i] === OpKind.Send) send[s.opRank[i]].push(s.opPeer[i]);
      if (s.opKind[i] === OpKind.Recv) recv[s.opRank[i]].push(s.opPeer[i]);
    }
    return { send, recv };
  }

  it('delivers every block byte for byte on tori and meshes of odd, even and mixed sizes', () => {
    for (const topology of ['torus:4x3x2', 'torus:5x3', 'mesh:3x5', 'torus:7']) {
      const r = executeSchedule(buildSchedule({ collective: 'alltoall', algorithm: 'pairwise:order=coords', topology: buildTopology(topology), size: 24 }), {});
      expect(r.pass, topology).toBe(true);
    }
  });

  it("step k sends to the rank k's coordinates away and receives from the one as far behind, axis 0 fastest", () => {
    const dims = [4, 3, 2];
    const coords = (r: number) => [r % 4, Math.floor(r / 4) % 3, Math.floor(r / 12)];
    const rank = (c: number[]) => c[0] + 4 * c[1] + 12 * c[2];
    const got = peers('torus:4x3x2', 'pairwise:order=coords');
    for (let r = 0; r < 24; r++) {
      for (let k = 1; k < 24; k++) {
        expect(got.send[r][k - 1]).toBe(rank(coords(r).map((c, a) => (c + coords(k)[a]) % dims[a])));
        expect(got.recv[r][k - 1]).toBe(rank(coords(r).map((c, a) => (c - coords(k)[a] + dims[a]) % dims[a])));
      }
    }
  });

  it('is the shift order on a ring and the XOR order on 2x2x2x2 (the same peers, step by step)', () => {
    expect(peers('torus:9', 'pairwise:order=coords')).toEqual(peers('torus:9', 'pairwise:order=shift'));
    expect(peers('torus:2x2x2x2', 'pairwise:order=coords')).toEqual(peers('torus:2x2x2x2', 'pairwise:order=xor'));
  });

  it('refuses a topology without coordinates, and in-place buffers', () => {
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'pairwise:order=coords', topology: buildTopology('fattree:k=4,levels=2'), size: 8 })).toThrow(/order=coords needs a torus or mesh topology, got fattree/);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'pairwise:order=coords,buffers=inplace', topology: buildTopology('torus:4x4'), size: 8 })).toThrow(/buffers=inplace needs XOR partners/);
  });
});

describe('buildSchedule refuses what is not a request in one line (a JavaScript caller may pass anything)', () => {
  it('no request, an unknown collective, a topology that is no Topology', () => {
    const ring = buildTopology('ring:4');
    expect(() => buildSchedule(undefined as never)).toThrow('request: got (nothing); accepted: an object {topology, collective, algorithm, size}');
    // It named the algorithm ('algorithm: got "ring"; accepted: no algorithms registered for x').
    expect(() => buildSchedule({ topology: ring, collective: 'x' as never, algorithm: 'ring', size: 4 })).toThrow(`collective: got "x"; accepted: one of ${COLLECTIVES.join(', ')}`);
    expect(() => buildSchedule({ topology: 'ring:4' as never, collective: 'allreduce', algorithm: 'ring', size: 4 })).toThrow('topology: got "ring:4"; accepted: a Topology built by buildTopology');
  });

  it("an algorithm spec's refusal gives an algorithm as its example, not a topology", () => {
    // (A name may start with a digit, as SMPI's 2dmesh does, but not with "#".)
    expect(() => buildSchedule({ topology: buildTopology('ring:4'), collective: 'allreduce', algorithm: '#0', size: 4 })).toThrow(
      'algorithm: got "#0"; accepted: an algorithm name of letters, digits, "-" or "_", then optionally ":" and arguments (e.g. ring or hop-grouped:dir=shortest)',
    );
  });
});
