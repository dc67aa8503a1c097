/**
 * Two-level strided regions (ScheduleBuilder.strided2): O(1) storage for a slab of inner × outer
 * blocks, the form the axis-phase alltoalls use for a middle axis (docs/collectives.md, Regions).
 */
import { describe, expect, it } from 'vitest';
import { RECV, SEND, ScheduleBuilder, buildSchedule, buildTopology, executeSchedule, scheduleFromJson, scheduleToJson } from '../../src/index.js';

describe('two-level strided regions', () => {
  it('expands block (o, i) at offset + o·outer stride + i·inner stride, i fastest', () => {
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 1, size: 64 });
    const r = b.strided2(RECV, 3, 2, 8, 3, 30, 2);
    // Same vector asked again: the same id; inner blocks that touch merge into one longer block.
    expect(b.strided2(RECV, 3, 2, 8, 3, 30, 2)).toBe(r);
    const merged = b.strided2(RECV, 0, 4, 4, 2, 16, 2);
    const s = b.finish();
    const ext: number[][] = [];
    s.forEachExtent(r, (buf, off, len) => ext.push([buf, off, len]));
    expect(ext).toEqual([[1, 3, 2], [1, 11, 2], [1, 19, 2], [1, 33, 2], [1, 41, 2], [1, 49, 2]]);
    expect(s.regionBytes(r)).toBe(12);
    expect(s.regionExtents(r)).toBe(6);
    expect(s.regionExtents(merged)).toBe(2);
    expect(s.regionBytes(merged)).toBe(16);
    expect(s.describeRegion(r)).toBe('recv[3..4,11..12,19..20,33..34,41..42,49..50]');
  });

  it('refuses a bad count or stride naming the field', () => {
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 1, size: 64 });
    expect(() => b.strided2(RECV, 0, 2, 8, 0, 30, 2)).toThrow(/region\.inner/);
    expect(() => b.strided2(RECV, 0, 2, 8, 2, -1, 2)).toThrow(/region\.outer/);
  });

  it('round-trips through JSON as a 7-entry strided array; a bad entry names its field', () => {
    const b2 = new ScheduleBuilder({ collective: 'alltoall', numRanks: 2, size: 8 });
    const v = b2.strided2(SEND, 1, 1, 4, 2, 8, 2);
    const w = b2.strided2(RECV, 1, 1, 4, 2, 8, 2);
    for (let r = 0; r < 2; r++) b2.copy(r, v, w);
    const s2 = b2.finish();
    const text = scheduleToJson(s2);
    expect(JSON.parse(text).regions).toEqual([{ strided: [0, 1, 1, 4, 2, 8, 2] }, { strided: [1, 1, 1, 4, 2, 8, 2] }]);
    const back = scheduleFromJson(JSON.parse(text));
    expect(scheduleToJson(back)).toBe(text);
    expect(back.regInner[0]).toBe(2);
    expect(back.describeRegion(0)).toBe('send[1..1,5..5,9..9,13..13]');
    const json = JSON.parse(text);
    json.regions[0] = { strided: [0, 1, 1, 4, 0, 8, 2] };
    expect(() => scheduleFromJson(json)).toThrow(/schedule\.regions\[0\]\.strided\[4\]/);
    json.regions[0] = { strided: [0, 1, 1, 4, 2, 8] };
    expect(() => scheduleFromJson(json)).toThrow(/schedule\.regions\[0\]\.strided/);
  });

  it('hop-grouped on 3-axis tori stores middle-axis slabs as vectors and verifies byte for byte', () => {
    // Seed 000 Example 2 (areas = n = 3): pieces of blocks cross the middle axis (inner and outer > 1).
    for (const [shape, size] of [['4x4x4', 7], ['3x4x5', 12]] as const) {
      const s = buildSchedule({ collective: 'alltoall', algorithm: 'hop-grouped', topology: buildTopology(`torus:${shape}`), size });
      let vectors = 0;
      for (let r = 0; r < s.numRegions; r++) {
        expect(s.regCount[r] * s.regInner[r] * s.regRepeat[r]).toBe(s.regionExtents(r));
        if (s.regInner[r] > 1 && s.regRepeat[r] > 1) vectors++;
      }
      expect(vectors, shape).toBeGreaterThan(0);
      // One stored extent per region: no per-block lists.
      expect(s.extOff.length, shape).toBe(s.numRegions);
      for (const mode of ['bytes', 'chunks'] as const) {
        const r = executeSchedule(s, { mode });
        expect(r.pass, `${shape} ${mode}`).toBe(true);
        expect(r.mismatchCount).toBe(0);
      }
    }
  });
});
