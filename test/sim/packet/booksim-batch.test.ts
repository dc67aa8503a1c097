/**
 * BookSim 2.0's batch mode (`sim_type = batch`, BatchTrafficManager) against BookSim itself
 * (booksim/booksim2 @ 28f43299; ./booksim/README.md, "Batch mode"): each CSV row is one BookSim run
 * of the file with batch_size, batch_count, max_outstanding_requests and seed overridden, its
 * overall batch durations (min, average, max) and statistics as BookSim printed them. Deterministic
 * patterns (transpose on a mesh, tornado on a torus: no random draw anywhere) must agree in every
 * printed digit; uniform traffic, drawn by each tool's own generator, as 5-seed means.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, simulateTraffic, type LoadPoint } from '../../../src/index.js';
import { cppNumber } from '../../../src/report/booksim-log.js';
import { loadBookSimCase, readCsvCells } from './booksim-csv.js';

interface BatchRun {
  /** batch_size/batch_count/max_outstanding_requests, the group a 5-seed mean is taken over. */
  key: string;
  seed: number;
  /** As BookSim printed them (6 significant digits). */
  printed: Record<string, string>;
}

const COLUMNS = ['batch_duration_min', 'batch_duration_avg', 'batch_duration_max', 'packet_latency', 'network_latency', 'flit_latency', 'accepted_flit_rate', 'hops', 'time_taken'] as const;

function bookSimRuns(name: string): BatchRun[] {
  return readCsvCells(`${name}.csv`).map((c) => ({
    key: c.slice(0, 3).join('/'),
    seed: Number(c[3]),
    printed: Object.fromEntries(COLUMNS.map((col, i) => [col, c[4 + i]])),
  }));
}

/** Meshwork's run of the file with the row's batch keys and seed, its figures printed as BookSim prints them. */
function meshworkRun(name: string, r: BatchRun): Record<string, string> {
  const { run, topology } = loadBookSimCase(name);
  const [size, count, maxOutstanding] = r.key.split('/').map(Number);
  const result = simulateTraffic({
    topology,
    pattern: run.pattern,
    patternOptions: run.patternOptions,
    rates: run.fileRates,
    rateUnit: run.rateUnit,
    preset: 'booksim',
    config: { ...run.config, seed: r.seed },
    routingName: run.routingName,
    vcsPerClass: run.vcsPerClass,
    measurement: 'batch',
    batch: { size, count, maxOutstanding },
    summary: true,
  });
  const p = result.points[0] as LoadPoint;
  const b = p.batch!;
  const s = p.summary!;
  const values = [b.minDuration, b.averageDuration, b.maxDuration, s.packetLatency.average, s.networkLatency.average, s.flitLatency.average, s.acceptedFlitRate.average, s.hops, s.timeTaken];
  return Object.fromEntries(COLUMNS.map((col, i) => [col, cppNumber(values[i])]));
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("BookSim 2.0's batch mode (sim_type = batch)", () => {
  for (const name of ['mesh88_batch_transpose_p4', 'torus88_batch_tornado_p4']) {
    it(`${name}: deterministic traffic, every printed figure as BookSim's (batch sizes 10-200, 3 batches, outstanding limits 1 and 4)`, () => {
      const runs = bookSimRuns(name);
      const differing = runs.flatMap((r) => {
        const ours = meshworkRun(name, r);
        return COLUMNS.filter((col) => ours[col] !== r.printed[col]).map((col) => `${r.key} seed ${r.seed} ${col}: ${ours[col]} (BookSim ${r.printed[col]})`);
      });
      expect(differing).toEqual([]);
      // The outstanding limit is honoured: one packet at a time takes longer than none.
      const avg = (key: string): number => Number(runs.find((r) => r.key === key)!.printed.batch_duration_avg);
      expect(avg('50/1/1')).toBeGreaterThan(avg('50/1/4'));
    });
  }

  // BookSim's own seeds spread widely where a duration is the last of many arrivals: fattree, 10
  // packets per node: 111-151 cycles over seeds 1-5 (a standard error of the mean of 7 %). The torus
  // file has seeds 1-20: its 50-packet batches spread 703-864 cycles, and 5 seeds (mean 751 against
  // 784 over 40) left the 6 % bound to chance.
  for (const name of ['mesh88_batch_uniform_p4', 'torus88_batch_uniform_p4', 'fattree_k4n3_batch_uniform_p4']) {
    it(`${name}: uniform traffic, batch duration within 6 % and packet latency within 4 % of BookSim's, means over the file's seeds`, () => {
      const runs = bookSimRuns(name);
      const keys = [...new Set(runs.map((r) => r.key))];
      const report = keys.map((key) => {
        const group = runs.filter((r) => r.key === key);
        expect(group.map((r) => r.seed)).toEqual(Array.from({ length: Math.max(5, group.length) }, (_, i) => i + 1));
        const ours = group.map((r) => meshworkRun(name, r));
        const ratio = (col: (typeof COLUMNS)[number]): number => mean(ours.map((o) => Number(o[col]))) / mean(group.map((r) => Number(r.printed[col])));
        return { key, duration: ratio('batch_duration_avg'), latency: ratio('packet_latency') };
      });
      for (const r of report) {
        expect(Math.abs(r.duration - 1), `${r.key} batch duration ratio ${r.duration.toFixed(3)}`).toBeLessThan(0.06);
        expect(Math.abs(r.latency - 1), `${r.key} packet latency ratio ${r.latency.toFixed(3)}`).toBeLessThan(0.04);
      }
    });
  }

  it('refuses, in one line naming the field, what batch mode cannot take, before building anything', () => {
    const topology = buildTopology('mesh:4x4');
    const batchRun = (extra: object): unknown => simulateTraffic({ topology, pattern: 'uniform', rates: [0.1], measurement: 'batch', ...extra });
    expect(() => batchRun({ rates: [0.1, 0.2] })).toThrow(/rates: got "0.1,0.2"; accepted: one rate with measurement batch/);
    expect(() => batchRun({ onOff: { alpha: 0.1, beta: 0.2, r1: -1 } })).toThrow(/injection: got "on_off"/);
    expect(() => batchRun({ batch: { size: 0 } })).toThrow(/batch.size: got 0/);
    expect(() => batchRun({ batch: { maxOutstanding: -1 } })).toThrow(/batch.maxOutstanding: got -1/);
    // 16 nodes × 10^6 packets × 10 batches: refused before a packet is made.
    expect(() => batchRun({ batch: { size: 1e6, count: 10 } })).toThrow(/at most 1e\+8 packets \(here 16 × 1000000 × 10\)/);
    // The rate is not read: any rate gives the same run, packet for packet.
    const a = simulateTraffic({ topology, pattern: 'uniform', rates: [0.01], measurement: 'batch', batch: { size: 8 } }).points[0] as LoadPoint;
    const b = simulateTraffic({ topology, pattern: 'uniform', rates: [1], measurement: 'batch', batch: { size: 8 } }).points[0] as LoadPoint;
    expect(a.packets).toBe(16 * 8);
    expect({ ...a, rate: 0 }).toEqual({ ...b, rate: 0 });
  });
});
