/**
 * MSCCL-XML import against the four real files of ../shared/reference/msccl/ (msccl-tools, MIT;
 * see its README): parse, verify byte for byte, run, time; broken copies refused naming the step.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import {
  MscclReader,
  mscclToSchedule,
  readMscclXml,
  simulateMscclSchedule,
  verifyMscclSchedule,
  wireBytes,
} from '../../src/interop/msccl/index.js';

const dir = fileURLToPath(new URL('../../../shared/reference/msccl/', import.meta.url));
const RING = 'allreduce_ring_8gpu_ll128.xml';
const ALLPAIRS = 'allreduce_allpairs_8gpu_ll.xml';
const NDV2 = 'allreduce_ndv2_8gpu_simple.xml';
const CUSTOM = 'custom_alltonext_2in.xml';
const text = (f: string): string => readFileSync(dir + f, 'utf8');

function refusal(xml: string): string {
  try {
    readMscclXml(xml);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('the four reference files', () => {
  // Counts of <tb> and <step> elements in each file (grep -c), and its <algo> attributes.
  test.each([
    [RING, 8, 64, 960, 'allreduce', 'LL128'],
    [ALLPAIRS, 8, 512, 2240, 'allreduce', 'LL'],
    [NDV2, 8, 152, 252, 'allreduce', 'Simple'],
    [CUSTOM, 24, 260, 260, 'custom', 'Simple'],
  ])('%s parses: %i gpus, %i tbs, %i steps', (file, gpus, tbs, steps, coll, proto) => {
    const a = readMscclXml(text(file));
    expect([a.ngpus, a.numTbs, a.numSteps, a.collective, a.proto]).toEqual([gpus, tbs, steps, coll, proto]);
  });

  test('streaming in 7-character chunks reads the same columns as one string', () => {
    const whole = readMscclXml(text(NDV2));
    const r = new MscclReader();
    const t = text(NDV2);
    for (let i = 0; i < t.length; i += 7) r.write(t.slice(i, i + 7));
    const streamed = r.finish();
    expect(Array.from(streamed.stepDepTb)).toEqual(Array.from(whole.stepDepTb));
    expect(Array.from(streamed.stepSrcOff)).toEqual(Array.from(whole.stepSrcOff));
    expect(Array.from(streamed.tbFirstStep)).toEqual(Array.from(whole.tbFirstStep));
  });

  test.each([RING, ALLPAIRS])('%s verifies byte for byte as allreduce (64 KiB, int32 sum)', (file) => {
    const m = mscclToSchedule(readMscclXml(text(file)), { size: 64 * 1024 });
    const r = verifyMscclSchedule(m);
    expect(r.problems).toEqual([]);
    expect(r.mismatchCount).toBe(0);
    expect(r.checkedSlots).toBe(8 * (64 * 1024) / 4);
    expect(r.pass).toBe(true);
  });

  test('ring: one op per step, three for rrs and rrcs (recv, reduce, send), two for rcs', () => {
    // Step counts by type (grep): s 64, r 64, rcs 384, rrcs 64, rrs 384.
    const m = mscclToSchedule(readMscclXml(text(RING)), { size: 64 * 1024 });
    expect(m.schedule.numOps).toBe(64 + 64 + 2 * 384 + 3 * 64 + 3 * 384);
  });

  test('ndv2 fails under the MSCCL runtime\'s rrs (recvReduceSend: src + received is sent, nothing stored); the generator\'s intent verifies', () => {
    const m = mscclToSchedule(readMscclXml(text(NDV2)), { size: 16 * 64 });
    const r = verifyMscclSchedule(m, { maxDetails: 1000 });
    expect(r.pass).toBe(false);
    // The 8 rrs steps sit on gpus 2, 3, 6, 7 and carry chunks 4..7 and 12..15 (of 16): exactly those are wrong, on every rank.
    const chunk = 64;
    const wrongChunks = new Set(r.mismatches.map((x) => Math.floor(x.byte / chunk)));
    expect([...wrongChunks].sort((x, y) => x - y)).toEqual([4, 5, 6, 7, 12, 13, 14, 15]);
    expect(new Set(r.mismatches.map((x) => x.rank)).size).toBe(8);
    // allreduce_ndv2.py: gpu r < 4 reduces the odd chunk it receives and sends its even chunk
    // (rrc + s), gpu r + 4 reduces, keeps and returns it (rrcs); written that way, it verifies.
    const fixed = text(NDV2).replace(
      /<step s="0" type="rrs" srcbuf="i" srcoff="(\d+)" dstbuf="i" dstoff="(\d+)" cnt="1" depid="(\d+)" deps="0" hasdep="1"\/>/g,
      (all, src: string, dst: string, dep: string) =>
        src === dst
          ? all.replace('"rrs"', '"rrcs"')
          : `<step s="0" type="rrc" srcbuf="i" srcoff="${src}" dstbuf="i" dstoff="${src}" cnt="1" depid="${dep}" deps="0" hasdep="1"/>` +
            `<step s="1" type="s" srcbuf="i" srcoff="${dst}" dstbuf="i" dstoff="${dst}" cnt="1" depid="-1" deps="-1" hasdep="0"/>`,
    );
    expect(verifyMscclSchedule(mscclToSchedule(readMscclXml(fixed), { size: 16 * 64 })).pass).toBe(true);
  });

  test('custom 24-gpu pipeline runs without deadlock; bytes sent per gpu are its s steps\' chunks', () => {
    const xml = text(CUSTOM);
    const m = mscclToSchedule(readMscclXml(xml), { size: 16 * 1024 });
    const r = verifyMscclSchedule(m);
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
    // Independent count from the text: sum of cnt over type="s" steps per <gpu>, 1 KiB chunks (16 KiB / i_chunks 16).
    const expected = xml.split('<gpu ').slice(1).map((g) => [...g.matchAll(/type="s"[^>]*cnt="(\d+)"/g)].reduce((s, x) => s + Number(x[1]) * 1024, 0));
    expect(Array.from(r.stats.sentBytes)).toEqual(expected);
    const t = simulateMscclSchedule(m, { topology: buildTopology('fullmesh:24') });
    expect(t.makespan_s).toBeGreaterThan(0);
    expect(t.stats.bytes).toBe(expected.reduce((s, x) => s + x, 0));
  });
});

describe('protocols', () => {
  test('wire bytes: LL 16 per 8, LL128 128 per 120, Simple 1 per 1 (whole lines)', () => {
    expect(wireBytes(8, 'LL')).toBe(16);
    expect(wireBytes(9, 'LL')).toBe(32);
    expect(wireBytes(1200, 'LL128')).toBe(1280);
    expect(wireBytes(1000, 'Simple')).toBe(1000);
  });

  test('the same ring timed under each protocol: bytes on the wire follow the line format; LL wins small, Simple wins large', () => {
    const t = buildTopology('fullmesh:8,bw=100GB/s,lat=500ns');
    const run = (proto: string, size: number): { s: number; bytes: number } => {
      const xml = text(RING).replace('proto="LL128"', `proto="${proto}"`);
      const r = simulateMscclSchedule(mscclToSchedule(readMscclXml(xml), { size }), { topology: t });
      return { s: r.makespan_s, bytes: r.stats.bytes };
    };
    // 64 chunks of 1,920 B (a multiple of 120 and 8): 896 messages of one chunk each.
    const size = 64 * 1920;
    expect(run('Simple', size).bytes).toBe(896 * 1920);
    expect(run('LL', size).bytes).toBe(896 * 1920 * 2);
    expect(run('LL128', size).bytes).toBe(896 * 2048);
    const small = 64 * 120;
    expect(run('LL', small).s).toBeLessThan(run('Simple', small).s);
    const large = 64 * 120 * 1024;
    expect(run('Simple', large).s).toBeLessThan(run('LL', large).s);
  });
});

describe('broken copies are refused naming the element and attribute', () => {
  const ring = text(RING);
  test('a missing step in the middle of a tb', () => {
    const broken = ring.replace(/\n\s*<step s="3" [^\n]*/, '');
    expect(refusal(broken)).toBe('msccl.gpu[0].tb[0].step[3].s: got 4; accepted: 3 (steps of a tb numbered in order from 0)');
  });
  test('a missing last step (a receive): the connection is unbalanced, the unmatched send named', () => {
    const broken = ring.replace(/\n\s*<step s="14" type="r" [^\n]*/, '');
    expect(refusal(broken)).toMatch(/^msccl\.gpu\[7\]\.tb\[0\]\.step\[13\]\.type: got "rcs"; accepted: steps matching the connection gpu 7 -> gpu 0 channel 0: gpu 7 sends 14 message\(s\) of 14 chunk\(s\), gpu 0 receives 13/);
  });
  test('a wrong peer', () => {
    const broken = ring.replace('<tb id="0" send="1" recv="7" chan="0">', '<tb id="0" send="2" recv="7" chan="0">');
    expect(refusal(broken)).toMatch(/^msccl\.gpu\[0\]\.tb\[0\]\.step\[\d+\]\.type: got "\w+"; accepted: steps matching the connection gpu 0 -> gpu 2 channel 0: gpu 0 sends 14 message\(s\)/);
  });
  test('a dependency cycle (ndv2: gpu 0 tb 0 step 0 made to wait for tb 10 step 1, which waits for it)', () => {
    const ndv2 = text(NDV2);
    const broken = ndv2.replace(
      '<step s="0" type="rrc" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="2" depid="-1" deps="-1" hasdep="1"/>',
      '<step s="0" type="rrc" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="2" depid="10" deps="1" hasdep="1"/>',
    );
    expect(broken).not.toBe(ndv2);
    expect(refusal(broken)).toMatch(/^msccl\.gpu\[0\]\.tb\[\d+\]\.step\[\d+\]\.depid: got \d+; accepted: a dependency that does not wait on itself \(cycle: .*gpu\[0\]\.tb\[10\]\.step\[1\] -> gpu\[0\]\.tb\[0\]\.step\[0\]/);
  });
  test.each([
    ['malformed XML', '<algo name="x" coll="allreduce" ngpus="1" nchunksperloop="1"><gpu id="0"></algo>', /^msccl: got "malformed XML \(1:\d+: unexpected close tag\.\)"; accepted: well-formed XML$/],
    ['an unknown step type', ring.replace('type="rrs"', 'type="rrx"'), /^msccl\.gpu\[0\]\.tb\[0\]\.step\[1\]\.type: got "rrx"; accepted: a step type: s, r, re, rcs, rrs, rrc, rrcs, cpy, nop$/],
    ['a peer out of range', ring.replace('send="1" recv="7" chan="0"', 'send="8" recv="7" chan="0"'), /^msccl\.gpu\[0\]\.tb\[0\]\.send: got "8"; accepted: an integer from -1 to 7$/],
    ['a chunk offset beyond its buffer', ring.replace('srcoff="56" dstbuf="i" dstoff="56"', 'srcoff="64" dstbuf="i" dstoff="64"'), /^msccl\.gpu\[0\]\.tb\[0\]\.step\[1\]\.srcoff: got 64; accepted: chunks 64\.\.64 inside the 64-chunk i buffer of gpu 0/],
    ['a dependency on a step that does not exist', text(NDV2).replace('depid="10" deps="0"', 'depid="10" deps="7"'), /^msccl\.gpu\[0\]\.tb\[0\]\.step\[1\]\.deps: got 7; accepted: a step of gpu 0 tb 10 \(0 to 1\)$/],
    ['an unknown collective', ring.replace('coll="allreduce"', 'coll="allsum"'), /^msccl\.algo\.coll: got "allsum"; accepted: allreduce, allgather, reducescatter, reduce_scatter/],
  ])('%s', (_what, xml, message) => {
    expect(refusal(xml)).toMatch(message);
  });

  test('a size that does not split into whole chunks names the size', () => {
    const a = readMscclXml(ring);
    expect(() => mscclToSchedule(a, { size: 1000 })).toThrow('size: got 1000; accepted: a allreduce size that splits into 64 chunks of a whole number of 4-byte int32 elements (a multiple of 256 bytes of input)');
  });

  test('both reduce-scatter spellings and the <op> element form read alike', () => {
    const rs = (coll: string, el: string): string =>
      `<algo name="rs" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="${coll}" inplace="0">` +
      [0, 1]
        .map((g) => `<gpu id="${g}" i_chunks="2" o_chunks="1" s_chunks="1"><tb id="0" send="${1 - g}" recv="${1 - g}" chan="0">` +
          `<${el} s="0" type="s" srcbuf="i" srcoff="${1 - g}" dstbuf="s" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>` +
          `<${el} s="1" type="r" srcbuf="i" srcoff="0" dstbuf="s" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/></tb>` +
          `<tb id="1" send="-1" recv="-1" chan="0"><${el} s="0" type="cpy" srcbuf="i" srcoff="${g}" dstbuf="o" dstoff="0" cnt="1" depid="0" deps="1" hasdep="0"/>` +
          `<${el} s="1" type="re" srcbuf="s" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/></tb></gpu>`)
        .join('') +
      '</algo>';
    for (const [coll, el] of [['reduce_scatter', 'step'], ['reducescatter', 'op']]) {
      const m = mscclToSchedule(readMscclXml(rs(coll, el)), { size: 64 });
      expect(m.schedule.collective).toBe('reduce-scatter');
      expect(verifyMscclSchedule(m).pass).toBe(true);
    }
  });
});

describe('a broken copy of each reference file is refused naming the step', () => {
  interface TbBlock { gpu: number; id: number; send: number; start: number; end: number; text: string; steps: number }
  function threadBlocks(xml: string): TbBlock[] {
    const blocks: TbBlock[] = [];
    for (const m of xml.matchAll(/<tb id="(\d+)" send="(-?\d+)" recv="(-?\d+)"[^>]*>[\s\S]*?<\/tb>/g)) {
      const gpu = Number([...xml.slice(0, m.index).matchAll(/<gpu id="(\d+)"/g)].pop()?.[1]);
      blocks.push({ gpu, id: Number(m[1]), send: Number(m[2]), start: m.index, end: m.index + m[0].length, text: m[0], steps: m[0].match(/<step /g)?.length ?? 0 });
    }
    return blocks;
  }
  const replaceBlock = (xml: string, b: TbBlock, text: string): string => xml.slice(0, b.start) + text + xml.slice(b.end);
  const FIRST_STEP_DEPENDENCY = /<step s="0" ([^>]*?)depid="-?\d+" deps="-?\d+" hasdep="\d"/;

  test.each([RING, ALLPAIRS, NDV2, CUSTOM])('%s: a missing first step', (file) => {
    const xml = text(file);
    const tb = threadBlocks(xml).find((b) => b.steps >= 2);
    if (tb) {
      const broken = replaceBlock(xml, tb, tb.text.replace(/\n?\s*<step s="0" [^\n]*/, ''));
      expect(refusal(broken)).toBe(`msccl.gpu[${tb.gpu}].tb[${tb.id}].step[0].s: got 1; accepted: 0 (steps of a tb numbered in order from 0)`);
      return;
    }
    // The custom pipeline's thread blocks hold one step each: drop a send, and the receive it fed is named.
    const sender = threadBlocks(xml).find((b) => b.send >= 0);
    if (!sender) throw new Error(`${file}: no sending tb`);
    const broken = replaceBlock(xml, sender, sender.text.replace(/\n?\s*<step s="0" [^\n]*/, ''));
    expect(refusal(broken)).toMatch(new RegExp(`^msccl\\.gpu\\[\\d+\\]\\.tb\\[\\d+\\]\\.step\\[\\d+\\]\\.type: got "\\w+"; accepted: steps matching the connection gpu ${sender.gpu} -> gpu ${sender.send} `));
  });

  test.each([RING, ALLPAIRS, NDV2, CUSTOM])('%s: a wrong send peer', (file) => {
    const xml = text(file);
    const tb = threadBlocks(xml).find((b) => b.send >= 0);
    if (!tb) throw new Error(`${file}: no sending tb`);
    const ngpus = Number(/<algo [^>]*ngpus="(\d+)"/.exec(xml)?.[1]);
    const peer = (tb.send + 1) % ngpus === tb.gpu ? (tb.send + 2) % ngpus : (tb.send + 1) % ngpus;
    const broken = replaceBlock(xml, tb, tb.text.replace(`send="${tb.send}"`, `send="${peer}"`));
    expect(refusal(broken)).toMatch(new RegExp(`^msccl\\.gpu\\[${tb.gpu}\\]\\.tb\\[\\d+\\]\\.step\\[\\d+\\]\\.type: got "\\w+"; accepted: steps matching the connection gpu ${tb.gpu} -> gpu ${peer} channel \\d+`));
  });

  test.each([RING, ALLPAIRS, NDV2, CUSTOM])('%s: two thread blocks made to wait on each other', (file) => {
    const xml = text(file);
    const [a, b] = threadBlocks(xml).filter((t) => t.gpu === 0);
    if (!a || !b) throw new Error(`${file}: gpu 0 has fewer than two tbs`);
    const waitOn = (t: TbBlock, other: TbBlock): string => t.text.replace(FIRST_STEP_DEPENDENCY, `<step s="0" $1depid="${other.id}" deps="0" hasdep="1"`);
    const broken = replaceBlock(replaceBlock(xml, b, waitOn(b, a)), a, waitOn(a, b));
    expect(broken).not.toBe(xml);
    expect(refusal(broken)).toMatch(/^msccl\.gpu\[0\]\.tb\[\d+\]\.step\[0\]\.depid: got \d+; accepted: a dependency that does not wait on itself \(cycle: /);
  });
});
