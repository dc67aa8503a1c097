import { describe, expect, it } from 'vitest';
import { cppNumber } from '../../src/report/booksim-log.js';

describe("cppNumber prints doubles as BookSim's std::cout does (precision 6, %g)", () => {
  it('six significant digits, exponents below 1e-4 and from 1e6, two-digit exponents', () => {
    // Values as they appear in BookSim 2.0 logs (test/sim/packet/booksim/mesh44_p4_packets.log).
    expect(cppNumber(24.27471234)).toBe('24.2747');
    expect(cppNumber(0.0456666666)).toBe('0.0456667');
    expect(cppNumber(10)).toBe('10');
    expect(cppNumber(0)).toBe('0');
    expect(cppNumber(0.0000123)).toBe('1.23e-05');
    expect(cppNumber(1234567)).toBe('1.23457e+06');
    expect(cppNumber(999999.7)).toBe('1e+06');
    expect(cppNumber(0.0001)).toBe('0.0001');
    expect(cppNumber(NaN)).toBe('-nan');
  });
});
