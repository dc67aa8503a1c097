/**
 * The static region bounds check (collectives/schedule-bounds.ts): timing reads only how many bytes
 * an op moves, so `run --schedule` refuses a file whose op reaches past its buffer, which only the
 * data check (`collective verify`) saw before.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECTIVES, RECV, SEND, ScheduleBuilder, algorithmNames, buildSchedule, buildTopology, executeSchedule, regionPastBuffer, scheduleFromJson, scheduleToJson } from '../../src/index.js';
import { NotApplicableError } from '../../src/util/errors.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('regionPastBuffer', () => {
  it('passes the schedule of every algorithm that runs on 6 and 8 ranks (rooted ones at root 4; alltoallv with uneven sizes), in place or not', () => {
    let built = 0;
    let inPlace = 0;
    for (const [spec, collective] of ['torus:2x3', 'torus:2x4'].flatMap((t) => COLLECTIVES.map((c) => [t, c] as const))) {
      const topology = buildTopology(spec);
      const n = topology.numEndpoints;
      for (const algorithm of algorithmNames(collective)) {
        let s;
        try {
          const sizes = collective === 'alltoallv' ? Array.from({ length: n * n }, (_, k) => ((7 * k) % 5) * 4) : undefined;
          s = buildSchedule({ collective, algorithm, topology, size: collective === 'barrier' ? 0 : 4 * n * 3, root: 4, peer: 2, sizes });
        } catch (err) {
          if (err instanceof NotApplicableError) continue;
          throw err;
        }
        built++;
        if (s.inPlace) inPlace++;
        expect(regionPastBuffer(s), `${spec} ${collective} ${algorithm}`).toBeUndefined();
      }
    }
    expect(built).toBeGreaterThan(150);
    expect(inPlace).toBeGreaterThan(0);
  });

  it('flags an extent one byte past its buffer, and only then (the executor agrees)', () => {
    const s = buildSchedule({ collective: 'allgather', algorithm: 'ring', topology: buildTopology('torus:2x2'), size: 16 });
    const json = JSON.parse(scheduleToJson(s));
    const last = json.regions.findIndex((r: number[][]) => r[0][0] === RECV && r[0][1] === 48);
    expect(last).toBeGreaterThan(0);
    // The last block ends at the recv buffer's 64th byte: still inside.
    expect(regionPastBuffer(scheduleFromJson(json))).toBeUndefined();
    json.regions[last] = [[RECV, 49, 16]];
    const bad = scheduleFromJson(json);
    const found = regionPastBuffer(bad);
    expect(found).toMatch(/^rank \d+ stream 0 op #\d+ \((recv|copy|send)[^)]*recv\[49\.\.64\][^)]*\) reaches byte 64 of recv, which holds 64 bytes on rank \d+$/);
    const report = executeSchedule(bad);
    expect(report.pass).toBe(false);
  });

  it("finds a strided region's last block in closed form", () => {
    // alltoall over 1 rank: 8-byte send and recv buffers. Blocks of 2 bytes, 3 apart: from 0 they
    // end at byte 7 (inside); from 1 the last one reaches byte 8.
    const fits = new ScheduleBuilder({ collective: 'alltoall', numRanks: 1, size: 8 });
    fits.copy(0, fits.strided(SEND, 0, 2, 3, 3), fits.strided(RECV, 0, 2, 3, 3));
    expect(regionPastBuffer(fits.finish())).toBeUndefined();
    const past = new ScheduleBuilder({ collective: 'alltoall', numRanks: 1, size: 8 });
    past.copy(0, past.strided(SEND, 0, 2, 3, 3), past.strided(RECV, 1, 2, 3, 3));
    expect(regionPastBuffer(past.finish())).toBe('rank 0 stream 0 op #0 (copy send[0..1,3..4,6..7] -> recv[1..2,4..5,7..8]) reaches byte 8 of recv, which holds 8 bytes on rank 0');
  });

  it("holds a gather's non-root to its empty recv buffer", () => {
    const b = new ScheduleBuilder({ collective: 'gather', numRanks: 2, size: 4, root: 0 });
    const block = b.extents([[RECV, 0, 4]]);
    b.copy(1, b.extents([[SEND, 0, 4]]), block);
    expect(regionPastBuffer(b.finish())).toMatch(/reaches byte 3 of recv, which holds 0 bytes on rank 1$/);
  });
});

describe('run --schedule with a region past its buffer', () => {
  it('is refused in one line naming the op, exit 2; collective verify still reports it as a FAIL', () => {
    const dir = tempDir('bounds');
    const s = buildSchedule({ collective: 'allgather', algorithm: 'ring', topology: buildTopology('torus:2x2'), size: 1024 });
    const json = JSON.parse(scheduleToJson(s));
    const last = json.regions.findIndex((r: number[][]) => r[0][0] === RECV && r[0][1] === 3072);
    json.regions[last] = [[RECV, 3072, 2048]];
    const file = join(dir, 'past.json');
    writeFileSync(file, JSON.stringify(json));
    const run = runCli(['run', '--schedule', file]);
        expect(expectOneLineError(run)).toMatch(/^meshwork: error: schedule: got ".*past\.json"; accepted: a schedule whose regions lie within their buffers \(rank \d+ stream 0 op #\d+ .* reaches byte 5119 of recv, which holds 4096 bytes on rank \d+;/);
    const verify = runCli(['collective', 'verify', '--schedule', file]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/^FAIL allgather ring/);
  });
});
