/**
 * lowerSchedule visits a schedule's ops rank by rank while algorithms list them step by step: each
 * lowered op must be its schedule op, read through the schedule's own accessors, in rank order
 * (schedules of over 65,536 ops, with waits, hints and empty streams).
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, lowerSchedule, OpKind } from '../../../src/index.js';

describe('lowerSchedule keeps every op in rank order', () => {
  for (const [topology, collective, algorithm] of [
    ['torus:16x16', 'alltoall', 'pairwise'],
    ['torus:16x16', 'reduce-scatter', 'ompi_ring'],
    ['torus:8x8x8', 'alltoall', 'hop-grouped'],
    ['torus:16x16', 'allreduce', 'ring'],
  ] as const) {
    it(`${collective} ${algorithm} on ${topology}`, () => {
      const t = buildTopology(topology);
      const s = buildSchedule({ topology: t, collective, algorithm, size: 1 << 16 });
      const p = lowerSchedule(s, t);
      expect(s.numOps).toBeGreaterThan(2 * 32768);
      expect(p.numOps).toBe(s.numOps);
      const { start, order } = s.programs();
      const programOp = new Int32Array(s.numOps);
      for (let k = 0; k < order.length; k++) programOp[order[k]] = k;
      let stream = 0;
      let waits = 0;
      // Per-op checks are counted, not asserted one by one (hundreds of thousands of ops).
      const wrong: string[] = [];
      const check = (ok: boolean, what: string): void => {
        if (!ok && wrong.length < 5) wrong.push(what);
      };
      for (let q = 0; q < s.numRanks * s.streams; q++) {
        if (start[q] === start[q + 1]) continue;
        check(p.streamRank[stream] === Math.floor(q / s.streams) && p.streamLocal[stream] === q % s.streams && p.opStart[stream] === start[q], `stream ${stream}`);
        stream++;
        for (let i = start[q]; i < start[q + 1]; i++) {
          const op = order[i];
          const kind = s.opKind[op];
          check(p.opKind[i] === kind, `kind of op ${i}`);
          if (kind === OpKind.Send) {
            check(p.dsts[p.opPeer[i]] === s.opPeer[op] && p.opBytes[i] === s.regionBytes(s.dataRegion(op)) && p.opTag[i] === s.opTag[op], `send ${i}`);
            check(p.opHint[i] >= 0 === s.sendHint(op) >= 0, `hint of send ${i}`);
          } else if (kind === OpKind.Recv) {
            check(p.opPeer[i] === s.opPeer[op] && p.opBytes[i] === s.regionBytes(s.dataRegion(op)) && p.opTag[i] === s.opTag[op], `recv ${i}`);
          } else if (kind === OpKind.Wait && s.waitTarget(op) >= 0) {
            waits++;
            check(p.opPeer[i] === programOp[s.waitTarget(op)], `wait ${i}`);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(stream).toBe(p.numStreams);
      if (algorithm === 'ompi_ring') expect(waits).toBeGreaterThan(0);
    });
  }
});
