/**
 * What a BookSim file means, not what Meshwork's flags mean (issue 30): `injection_rate_uses_flits =
 * 0` (BookSim's default) counts packets per node per cycle, and `vct` is ignored by BookSim's `iq`
 * router. References: ../../../../shared/reference/booksim/mesh88_uniform_p4.csv (BookSim 2.0 @
 * 28f43299, flit rates, 4-flit packets; BookSim divides a flit rate by the packet size,
 * trafficmanager.cpp, so 0.05 packets/node/cycle is its 0.20 flits/node/cycle row).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookSimRun, buildTopology, parseBookSimConfig, simulateTraffic, type LoadPoint } from '../../../src/index.js';
import { BOOKSIM_CSV_DIR, readCsvCells } from './booksim-csv.js';

const MESH88 = readFileSync(`${BOOKSIM_CSV_DIR}mesh88_uniform_p4.cfg`, 'utf8');
const sharedCurve = (): string[][] => readCsvCells('../../../../../shared/reference/booksim/mesh88_uniform_p4.csv');

function runFile(text: string, rates?: number[]): { point: LoadPoint; run: ReturnType<typeof bookSimRun> } {
  const run = bookSimRun(parseBookSimConfig(text));
  const result = simulateTraffic({
    topology: buildTopology(run.topologySpec),
    pattern: run.pattern,
    rates: rates ?? run.fileRates,
    rateUnit: run.rateUnit,
    preset: 'booksim',
    config: run.config,
    measurementOptions: run.measurementOptions,
  });
  expect(result.rateUnit).toBe(run.rateUnit);
  return { point: result.points[0] as LoadPoint, run };
}

describe('injection_rate_uses_flits = 0: rates are packets/node/cycle, as in BookSim', () => {
  it('0.05 packets of 4 flits runs at BookSim 0.20 flits/node/cycle: accepted 0.20 flits, latency within 5 % of BookSim', () => {
    const packets = MESH88.replace('injection_rate_uses_flits = 1;', 'injection_rate_uses_flits = 0;').replace(/injection_rate = [0-9.]+;/, 'injection_rate = 0.05;');
    const { point, run } = runFile(packets);
    expect(run.rateUnit).toBe('packets');
    expect(point.rate).toBe(0.05);
    const row = sharedCurve().find((c) => Number(c[0]) === 0.2)!;
    // Hand-computed offered load: 0.05 packets × 4 flits = 0.20 flits/node/cycle, all accepted below the knee.
    expect(Math.abs(point.accepted_flit_rate! / 0.2 - 1)).toBeLessThan(0.03);
    expect(Math.abs(point.accepted_flit_rate! / Number(row[3]) - 1)).toBeLessThan(0.03);
    expect(Math.abs(point.packet_latency! / Number(row[1]) - 1)).toBeLessThan(0.05);
    // The same load written in flits gives the very same run (the same Bernoulli draws).
    const flits = runFile(MESH88, [0.2]).point;
    expect(flits.packet_latency).toBe(point.packet_latency);
    expect(flits.accepted_flit_rate).toBe(point.accepted_flit_rate);
  }, 120_000);

  it('refuses a packet rate above one flit per node per cycle, in packets', () => {
    const packets = MESH88.replace('injection_rate_uses_flits = 1;', 'injection_rate_uses_flits = 0;').replace(/injection_rate = [0-9.]+;/, 'injection_rate = 0.05;');
    expect(() => runFile(packets, [0.3])).toThrow(/rates: got 0.3; accepted: injection rates in \(0, 1\/4\] packets\/node\/cycle/);
  });
});

describe('vct with router = iq changes nothing, as in BookSim', () => {
  it('vct = 1 and vct = 0 give the same run; vct = 1 carries the warning', () => {
    const rate = 'injection_rate = 0.2;';
    const base = MESH88.replace(/injection_rate = [0-9.]+;/, rate);
    const off = runFile(`${base}\nvct = 0;`);
    const on = runFile(`${base}\nvct = 1;`);
    expect(on.point).toEqual(off.point);
    expect(on.run.config.switching).toBe('wormhole');
    expect(on.run.warnings).toHaveLength(1);
    expect(off.run.warnings).toHaveLength(0);
  }, 120_000);
});
