/**
 * The executor's `runs` option (what `collective verify` prints): a misplaced block is one mismatch
 * naming its byte range, not one line per byte, and an imported MSCCL file's mismatches name the gpu
 * and its output chunk, so a user who wrote a wrong schedule by hand sees which chunk of which rank.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECV, SEND, ScheduleBuilder, executeSchedule, mscclToSchedule, readMscclXml, verifyMscclSchedule } from '../../src/index.js';

/** A direct alltoall on n ranks of B-byte blocks; rank 2 stores rank 3's block in slot 1 (slot 3 stays empty). */
function misplacedAlltoall(n: number, B: number): ScheduleBuilder {
  const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: n, size: B });
  for (let r = 0; r < n; r++) {
    for (let j = 0; j < n; j++) {
      b.send(r, j, b.block(SEND, j));
      b.recv(j, r, b.block(RECV, j === 2 && r === 3 ? 1 : r));
    }
  }
  return b;
}

/** A hand-written MSCCL allgather on 3 gpus (one chunk each); `bad`: gpu 1 stores gpu 2's chunk at output chunk 0. */
function allgatherXml(bad: boolean): string {
  const lines = ['<algo name="hand_ag" proto="Simple" nchannels="1" nchunksperloop="3" ngpus="3" coll="allgather" inplace="0">'];
  for (let g = 0; g < 3; g++) {
    lines.push(`<gpu id="${g}" i_chunks="1" o_chunks="3" s_chunks="0">`);
    let tb = 0;
    for (let p = 0; p < 3; p++) {
      if (p === g) continue;
      const off = bad && g === 1 && p === 2 ? 0 : p;
      lines.push(`<tb id="${tb++}" send="${p}" recv="${p}" chan="0">`,
        `<step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="${g}" cnt="1" depid="-1" deps="-1" hasdep="0"/>`,
        `<step s="1" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="${off}" cnt="1" depid="-1" deps="-1" hasdep="0"/>`, '</tb>');
    }
    lines.push(`<tb id="${tb}" send="-1" recv="-1" chan="0">`,
      `<step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="${g}" cnt="1" depid="-1" deps="-1" hasdep="0"/>`, '</tb>', '</gpu>');
  }
  lines.push('</algo>');
  return lines.join('\n');
}

describe('executor runs', () => {
  it('reports a misplaced 8-byte block as one mismatch over its byte range; the count stays per slot', () => {
    const r = executeSchedule(misplacedAlltoall(4, 8).finish(), { runs: true });
    expect(r.mismatchCount).toBe(16);
    expect(r.mismatches.map((m) => [m.rank, m.byte, m.slots])).toEqual([[2, 8, 8], [2, 24, 8]]);
    expect(r.mismatches[0].text).toBe('rank 2 recv[8..15] should hold rank 1 block 2 bytes 0..7 but holds rank 3 block 2 bytes 0..7');
    expect(r.mismatches[1].text).toBe('rank 2 recv[24..31] should hold rank 3 block 2 bytes 0..7 but holds uninitialised data');
    // Without the option: one mismatch per byte, as before.
    expect(executeSchedule(misplacedAlltoall(4, 8).finish(), { maxDetails: 100 }).mismatches).toHaveLength(16);
  });

  it('keeps a run within one source block', () => {
    // Slots 1 and 2 of rank 2 swapped: two wrong blocks side by side, from different sources: two runs.
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 4, size: 4 });
    for (let r = 0; r < 4; r++) {
      for (let j = 0; j < 4; j++) {
        b.send(r, j, b.block(SEND, j));
        const slot = j === 2 && (r === 1 || r === 2) ? 3 - r : r;
        b.recv(j, r, b.block(RECV, slot));
      }
    }
    const r = executeSchedule(b.finish(), { runs: true });
    expect(r.mismatches.map((m) => [m.byte, m.slots])).toEqual([[4, 4], [8, 4]]);
  });

  it('names the MSCCL gpu and output chunk of a hand-written wrong file', () => {
    expect(verifyMscclSchedule(mscclToSchedule(readMscclXml(allgatherXml(false)), { size: 1024 }), { runs: true }).pass).toBe(true);
    const r = verifyMscclSchedule(mscclToSchedule(readMscclXml(allgatherXml(true)), { size: 1024 }), { runs: true });
    expect(r.pass).toBe(false);
    expect(r.mismatchCount).toBe(2048);
    expect(r.mismatches.map((m) => m.text)).toEqual([
      'rank 1 recv[0..1023] should hold rank 0 block 0 bytes 0..1023 but holds rank 2 block 0 bytes 0..1023 (MSCCL gpu 1 output chunk 0)',
      'rank 1 recv[2048..3071] should hold rank 2 block 0 bytes 0..1023 but holds uninitialised data (MSCCL gpu 1 output chunk 2)',
    ]);
  });

  it('reports a run of wrong reduced elements as one mismatch (the reference NDv2 file, chunks 4..7 and 12..15)', () => {
    const xml = readFileSync(new URL('../../../shared/reference/msccl/allreduce_ndv2_8gpu_simple.xml', import.meta.url), 'utf8');
    const r = verifyMscclSchedule(mscclToSchedule(readMscclXml(xml), { size: 1024 }), { runs: true, maxDetails: 100 });
    expect(r.mismatchCount).toBe(1024);
    // 8 gpus × two runs of 64 int32 elements (256 B = chunks 4..7 and 12..15 of 64 B).
    expect(r.mismatches).toHaveLength(16);
    expect(r.mismatches.every((m) => m.slots === 64)).toBe(true);
    expect(r.mismatches[0].text).toMatch(/^rank 0 recv\[256\.\.511\]: 64 elements wrong; the first should hold sum of element 64 over 8 ranks = -?\d+ but holds -?\d+ \(MSCCL gpu 0 output chunk 4\.\.7\)$/);
  });
});
