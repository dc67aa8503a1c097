// Seed 000 (US 2014/0201475, Fujitsu): hop-grouped alltoall, its FIG. 9 comparative example and the
// classic dimension-ordered alltoall, executed and verified byte for byte by the executor.
// Spec: shared/spec/seed000_torus.md (sections named per test).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, executeSchedule, InputError, OpKind } from '../../src/index.js';
import { hopGroupedAreas } from '../../src/collectives/algorithms/alltoall/hop-grouped.js';
import { fig9Offsets } from '../../src/collectives/algorithms/alltoall/per-step-barrier.js';

const B = 2; // bytes per block

function run(shape: string, algorithm: string, size = B) {
  const t = buildTopology(`torus:${shape}`);
  const s = buildSchedule({ collective: 'alltoall', algorithm, topology: t, size });
  return { s, r: executeSchedule(s, { keepBuffers: true }) };
}

/** Decodes an executor slot id (patterns.ts: src * inputStride + slot + 1) into (src, block). */
function decode(v: number, ranks: number): { src: number; block: number } {
  const stride = ranks * B;
  return { src: Math.floor((v - 1) / stride), block: Math.floor(((v - 1) % stride) / B) };
}

describe('seed 000 Example 1 (2D)', () => {
  it('phase-X placement: block s→t sits at node (tx, sy) in area (sx, ty) (spec §3.4 invariant, §3.8 vector)', () => {
    for (const [X, Y] of [[3, 2], [4, 3], [5, 5]]) {
      const { s, r } = run(`${X}x${Y}`, 'hop-grouped');
      expect(r.pass).toBe(true);
      const tmp = s.buffers.findIndex((b) => b.name === 'tmp');
      expect(tmp).toBeGreaterThan(1); // phase X writes tmp, phase Y writes recv (spec §3.5: separate buffers)
      const n = X * Y;
      for (let node = 0; node < n; node++) {
        const buf = r.buffer!(node, tmp)!;
        for (let area = 0; area < n; area++) {
          const { src, block: dst } = decode(buf[area * B], n);
          // holder (tx, sy) and area (sx, ty)
          expect(node % X, `node ${node} area ${area}`).toBe(dst % X);
          expect(Math.floor(node / X)).toBe(Math.floor(src / X));
          expect(area % X).toBe(src % X);
          expect(Math.floor(area / X)).toBe(Math.floor(dst / X));
        }
      }
      if (X === 3 && Y === 2) {
        // §3.8: node (1,0) = rank 1 after phase X, area -> block src→dst (ranks: x + 3y).
        const buf = r.buffer!(1, tmp)!;
        const table = Array.from({ length: 6 }, (_, a) => decode(buf[a * B], 6));
        expect(table).toEqual([
          { src: 0, block: 1 }, // area (0,0): (0,0)→(1,0)
          { src: 1, block: 1 }, // area (1,0): (1,0)→(1,0)
          { src: 2, block: 1 }, // area (2,0): (2,0)→(1,0)
          { src: 0, block: 4 }, // area (0,1): (0,0)→(1,1)
          { src: 1, block: 4 }, // area (1,1): (1,0)→(1,1)
          { src: 2, block: 4 }, // area (2,1): (2,0)→(1,1)
        ]);
      }
    }
  });

  it('barrier count is X+Y−3 with the literal flowchart (spec §3.7: 2×2 → 1, 5×5 → 7, 8×4 → 9)', () => {
    for (const [shape, want] of [['2x2', 1], ['5x5', 7], ['8x4', 9]] as const) {
      const { r } = run(shape, 'hop-grouped');
      expect(r.pass).toBe(true);
      expect(r.stats.barriers[0], shape).toBe(want);
      // The other reading: a final completion barrier gives X+Y−2.
      expect(run(shape, 'hop-grouped:final-barrier=on').r.stats.barriers[0], shape).toBe(want + 1);
    }
  });

  it('paces each hop group with gap = hops − 1 (spec §1.6, S103/S112), both directions', () => {
    const pos = run('6x3', 'hop-grouped').s;
    expect([...pos.paceValues].sort()).toEqual([0, 1, 2, 3, 4]);
    const short = run('6x3', 'hop-grouped:dir=shortest').s;
    expect([...short.paceValues].sort()).toEqual([0, 1, 2]); // hops ≤ 3 on a ring of 6
    expect(run('6x3', 'hop-grouped:pacing=off').s.paceValues).toEqual([]);
  });

  it('the in-place variant is caught by the hazard check (spec §3.5)', () => {
    const { r } = run('4x3', 'hop-grouped:buffers=inplace');
    expect(r.pass).toBe(false);
    expect(r.problems.some((p) => p.kind === 'hazard' && /overwrote before it was sent/.test(p.message))).toBe(true);
  });
});

describe('seed 000 grouping and pacing audit (spec §9.3, §9.4)', () => {
  /**
   * Splits rank programs at barriers; in every segment all ranks must send to the same relative
   * offset with gap = hops − 1, and with positive routing every directed link of the axis must carry
   * exactly `hops` flows (read from the send's path hint).
   */
  function audit(shape: string, algorithm: string) {
    const dims = shape.split('x').map(Number);
    const { s } = run(shape, algorithm);
    const { start, order } = s.programs();
    const n = s.numRanks;
    const segments: Array<Map<string, number>> = [];
    const linkUse: Array<Map<string, number>> = [];
    for (let r = 0; r < n; r++) {
      let seg = 0;
      let gap = -1;
      for (let i = start[r * s.streams]; i < start[r * s.streams + 1]; i++) {
        const op = order[i];
        if (s.opKind[op] === OpKind.Barrier) seg++;
        else if (s.opKind[op] === OpKind.Pace) gap = s.paceValues[s.opA[op]];
        else if (s.opKind[op] === OpKind.Send) {
          const to = s.sendDests(op)[0];
          let rest = r;
          let restTo = to;
          const off = dims.map((k) => {
            const d = (((restTo % k) - (rest % k)) % k + k) % k;
            rest = Math.floor(rest / k);
            restTo = Math.floor(restTo / k);
            return d;
          });
          const path = s.hint(s.opC[op])!.nodes;
          (segments[seg] ??= new Map()).set(`${off.join(',')} gap ${gap} hops ${path.length - 1}`, 0);
          const use = (linkUse[seg] ??= new Map());
          for (let h = 1; h < path.length; h++) use.set(`${path[h - 1]}>${path[h]}`, (use.get(`${path[h - 1]}>${path[h]}`) ?? 0) + 1);
        }
      }
    }
    return { segments: segments.map((m) => [...m.keys()]), linkUse: linkUse.map((m) => [...new Set(m.values())]) };
  }

  it('Example 1: one (direction, hop count) per barrier interval, every node the same offset, each link loaded d times', () => {
    const { segments, linkUse } = audit('5x4', 'hop-grouped');
    expect(segments.length).toBe(4 + 3); // X−1 + Y−1 hop groups, separated by X+Y−3 barriers
    for (const seg of segments) expect(seg.length).toBe(1);
    expect(segments.map((seg) => seg[0])).toEqual([
      '1,0 gap 0 hops 1', '2,0 gap 1 hops 2', '3,0 gap 2 hops 3', '4,0 gap 3 hops 4',
      '0,1 gap 0 hops 1', '0,2 gap 1 hops 2', '0,3 gap 2 hops 3',
    ]);
    expect(linkUse).toEqual([[1], [2], [3], [4], [1], [2], [3]]);
  });

  it('dir=shortest pairs +d and −d groups with the same hop count and gap', () => {
    const { segments } = audit('5x4', 'hop-grouped:dir=shortest');
    expect(segments.map((seg) => seg[0]).slice(0, 4)).toEqual(['1,0 gap 0 hops 1', '4,0 gap 0 hops 1', '2,0 gap 1 hops 2', '3,0 gap 1 hops 2']);
  });
});

describe('seed 000 Example 2 (3D, areas a/b/c)', () => {
  it('area orders are a X→Z→Y, b Y→X→Z, c Z→Y→X, one area per axis per stage (spec §4.3, §9.6)', () => {
    const areas = hopGroupedAreas(3, 'auto', 'positive', true);
    expect(areas.map((a) => a.order)).toEqual([[0, 2, 1], [1, 0, 2], [2, 1, 0]]);
    for (let stage = 0; stage < 3; stage++) expect(new Set(areas.map((a) => a.order[stage])).size).toBe(3);
    expect(areas.map((a) => a.stream)).toEqual([0, 1, 2]);
  });

  it('the three-area result is a correct alltoall, concurrent and sequential; also 4 axes (spec §4.4)', () => {
    for (const shape of ['2x2x2', '3x4x2', '5x3x2', '2x3x2x3']) {
      for (const alg of ['hop-grouped', 'hop-grouped:streams=sequential', 'hop-grouped:dir=shortest', 'hop-grouped:areas=2n']) {
        const { s, r } = run(shape, alg, 8);
        expect(r.problems, `${shape} ${alg}`).toEqual([]);
        expect(r.pass, `${shape} ${alg}`).toBe(true);
        const axes = shape.split('x').length;
        if (alg === 'hop-grouped') expect(s.streams).toBe(axes);
        if (alg === 'hop-grouped:areas=2n') expect(s.streams).toBe(2 * axes);
      }
    }
  });

  it('barrier counts: sequential 3(H_X+H_Y+H_Z)−1, stage 1 alone H_X+H_Y+H_Z−1 (spec §4.5: 11 and 35 for hops 1..4)', () => {
    const seq = run('5x5x5', 'hop-grouped:streams=sequential,pacing=off', 3).r;
    expect(seq.pass).toBe(true);
    expect(seq.stats.barriers[0]).toBe(35);
    const seqOdd = run('3x4x2', 'hop-grouped:streams=sequential', 3).r;
    expect(seqOdd.stats.barriers[0]).toBe(3 * (2 + 3 + 1) - 1);
    // Concurrent: each of the 3 streams keeps its own hop-group barriers (H_k − 1 = 3 per phase,
    // 3 phases) and joins the 2 whole-rank stage barriers; the executor counts barrier ops per rank.
    const conc = run('5x5x5', 'hop-grouped:pacing=off', 3).r;
    expect(conc.stats.barriers[0]).toBe(3 * (3 * 3 + 2));
  });

  it('FIG. 9 comparative example: one step per offset, a barrier at every step (spec §1.8, §4.5)', () => {
    expect(fig9Offsets([5, 5, 5]).slice(0, 5)).toEqual([[4, 4, 4], [4, 4, 3], [4, 4, 2], [4, 4, 1], [4, 4, 0]]);
    const { r } = run('5x5x5', 'per-step-barrier:pacing=off', 1);
    expect(r.pass).toBe(true);
    expect(r.stats.barriers[0]).toBe(125 - 2); // 124 offsets, a barrier between consecutive steps
  });

  it('FIG. 9 pacing: gap = max(d) − 1 by real link sharing, (dx+dy+dz) − 1 under gap=hops (spec §1.6, FIG. 7; issue 10)', () => {
    // Rank 0's pace gaps in step order; FIG. 9 order on 5x5x5 starts (4,4,4), (4,4,3), ..., (4,4,0), (4,3,4).
    const gaps = (algorithm: string) => {
      const { s } = run('5x5x5', algorithm, 1);
      const out: number[] = [];
      for (let op = 0; op < s.numOps; op++) if (s.opRank[op] === 0 && s.opKind[op] === OpKind.Pace) out.push(s.paceValues[s.opA[op]]);
      return out;
    };
    // Every rank sends offset d along +axis, dimension order: an axis-k link carries exactly d_k flows.
    expect(gaps('per-step-barrier').slice(0, 6)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(gaps('per-step-barrier').slice(-4)).toEqual([3, 2, 1, 0]); // offsets (0,0,4) .. (0,0,1)
    expect(gaps('per-step-barrier:gap=hops').slice(0, 6)).toEqual([11, 10, 9, 8, 7, 10]);
    expect(gaps('per-step-barrier:dir=shortest').slice(0, 2)).toEqual([0, 1]); // on a 5-ring offset 4 is 1 hop back, 3 is 2 back
    expect(gaps('per-step-barrier:pacing=off')).toEqual([]);
  });
});

describe('seed 000 property: the alltoall postcondition holds on any torus shape', () => {
  it('2D and 3D, odd and unequal sizes, every variant', () => {
    const shape = fc.oneof(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 5 })), fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 2, max: 4 })));
    const alg = fc.constantFrom('hop-grouped', 'hop-grouped:dir=shortest', 'hop-grouped:streams=sequential', 'hop-grouped:areas=2n', 'hop-grouped:areas=1', 'hop-grouped:areas=n,streams=sequential', 'per-step-barrier', 'dimension-ordered');
    fc.assert(
      fc.property(shape, alg, fc.integer({ min: 6, max: 13 }), (dims, a, size) => {
        const { r } = run(dims.join('x'), a, size);
        return r.pass && r.problems.length === 0;
      }),
      { numRuns: 60, seed: 20260 },
    );
  });

  it('mesh: dir=shortest and dimension-ordered work; dir=positive and areas=2n are refused with one line', () => {
    const t = buildTopology('mesh:3x4');
    for (const a of ['hop-grouped:dir=shortest', 'dimension-ordered']) {
      expect(executeSchedule(buildSchedule({ collective: 'alltoall', algorithm: a, topology: t, size: 3 })).pass).toBe(true);
    }
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'hop-grouped', topology: t, size: 3 })).toThrow(/dir=shortest/);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'hop-grouped:areas=2n', topology: buildTopology('torus:4x4'), size: 2 })).toThrow(InputError);
    expect(() => buildSchedule({ collective: 'alltoall', algorithm: 'hop-grouped:bogus=1', topology: t, size: 3 })).toThrow(InputError);
  });
});
