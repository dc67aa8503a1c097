import { describe, expect, it } from 'vitest';
import { formatBandwidth, formatSize, formatTime, parseBandwidth, parseSize, parseTime } from '../../src/util/units.js';
import { InputError } from '../../src/util/errors.js';
import { buildSchedule, buildTopology, simulate } from '../../src/index.js';

describe('units', () => {
  it('parses sizes with SI and IEC prefixes', () => {
    expect(parseSize('64KiB')).toBe(65536);
    expect(parseSize('1MB')).toBe(1e6);
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('80kbit')).toBe(10000);
    expect(formatSize(65536)).toBe('64KiB');
  });
  it('parses bandwidths into bytes per second', () => {
    expect(parseBandwidth('25Gbps')).toBe(25e9 / 8);
    // Physical bounds: a value outside them overflowed a run's times (reported as a deadlock).
    expect(parseBandwidth('1bps')).toBe(1 / 8);
    expect(() => parseBandwidth('1e-310bps', 'bw')).toThrow(/^bw: got "1e-310bps"; accepted: a bandwidth from 1bps to 1EB\/s/);
    expect(() => parseBandwidth('2EB/s', 'bw')).toThrow(/^bw: got "2EB\/s"; accepted: a bandwidth from 1bps to 1EB\/s/);
    expect(parseTime('1e9s')).toBe(1e9);
    expect(() => parseTime('1e308s', 'alpha')).toThrow(/^alpha: got "1e308s"; accepted: a time of at most 1e9s/);
    expect(parseBandwidth('12.5GB/s')).toBe(12.5e9);
    expect(parseBandwidth('1GiB/s')).toBe(1024 ** 3);
    expect(formatBandwidth(25e9 / 8)).toBe('25Gbps');
  });
  it('parses times into seconds', () => {
    expect(parseTime('100ns')).toBeCloseTo(1e-7, 15);
    expect(parseTime('2µs')).toBeCloseTo(2e-6, 15);
    expect(parseTime('2.1us')).toBeCloseTo(2.1e-6, 15);
    expect(formatTime(2.1e-6)).toBe('2.1us');
  });
  it('scales decimals exactly: a value is the double nearest to what was written (100ns was 1.0000000000000001e-7)', () => {
    // Each right-hand side is a JavaScript literal, read as the nearest double to that decimal.
    expect(parseTime('100ns')).toBe(1e-7);
    expect(parseTime('2.1us')).toBe(2.1e-6);
    expect(parseTime('936.25ns')).toBe(9.3625e-7);
    expect(parseTime('0.3ms')).toBe(3e-4);
    expect(parseTime('1.5e3ns')).toBe(1.5e-6);
    expect(parseTime('7ps')).toBe(7e-12);
    expect(parseSize('1.1GB')).toBe(1.1e9);
    expect(parseBandwidth('0.3Tbps')).toBe(0.3e12 / 8);
    // IEC prefixes and bits are powers of two: exact by multiplication, as before.
    expect(parseSize('1.5KiB')).toBe(1536);
    expect(parseBandwidth('100Gb/s')).toBe(12.5e9);
  });
  it('rejects malformed values naming the field', () => {
    expect(() => parseBandwidth('-3Gbps', 'bw')).toThrow(InputError);
    expect(() => parseTime('5', 'lat')).toThrow(/lat: got "5"/);
    expect(() => parseSize('lots')).toThrow(/size/);
    // E and Ei read as prefixes, so the refusal names the limit (it said only 'a size such as 4096, 64KiB').
    expect(() => parseSize('1EiB')).toThrow('size: got "1EiB"; accepted: at most 9007199254740991 bytes (2^53 − 1, about 8 PiB)');
    expect(() => parseSize('1EB')).toThrow('size: got "1EB"; accepted: at most 9007199254740991 bytes');
  });
});

describe('model durations in a request (seconds as numbers)', () => {
  it('are bounded like typed times: 1e308 s of α overflowed the run into a reported deadlock', () => {
    const t = buildTopology('torus:4x4');
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size: 1024 });
    expect(() => simulate({ topology: t, schedule, model: { alpha: 1e308 } })).toThrow(/^model\.alpha: got 1e\+308; accepted: a non-negative time in seconds, at most 1e9$/);
    expect(() => simulate({ topology: t, schedule, model: { turnaroundMemory: 2e9 } })).toThrow(/^model\.turnaroundMemory:/);
    expect(simulate({ topology: t, schedule, model: { alpha: 1 } }).makespan_s).toBeGreaterThan(15);
  });
});
