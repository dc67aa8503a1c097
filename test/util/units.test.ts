import { describe, expect, it } from 'vitest';
import { formatBandwidth, formatSize, formatTime, parseBandwidth, parseSize, parseTime } from '../../src/util/units.js';
import { InputError } from '../../src/util/errors.js';

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
  it('rejects malformed values naming the field', () => {
    expect(() => parseBandwidth('-3Gbps', 'bw')).toThrow(InputError);
    expect(() => parseTime('5', 'lat')).toThrow(/lat: got "5"/);
    expect(() => parseSize('lots')).toThrow(/size/);
  });
});
