/**
 * Meshwork against measured allreduce tables (issue 25): every row of each nccl-tests / rccl-tests
 * table in test/reference/hardware/ next to Meshwork's flow-level time for the same size, with the
 * library's own pick (`rccl` / `nccl`) and the machine's time preset. Each row's error is stated
 * (printed as a table) and the geometric-mean errors are held to what the presets achieve; the
 * issue's targets are 5 % from 1 MiB to 8 GiB and 15 % below 1 MiB (MI300X below 1 MiB misses it:
 * docs/validation.md, "What is not matched").
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/index.js';
import { perfSweep } from '../../src/sim/perf.js';

interface Case {
  readonly file: string;
  readonly topology: string;
  readonly algorithm: string;
  /** Geometric-mean error bounds the presets achieve: below 1 MiB, and 1 MiB to 8 GiB. */
  readonly small: number;
  readonly large: number;
}

const CASES: readonly Case[] = [
  { file: 'mi300x_1node_8gpu_allreduce.csv', topology: 'mi300x', algorithm: 'rccl', small: 0.22, large: 0.01 },
  { file: 'h100_a3mega_2node_16gpu_allreduce.csv', topology: 'hgx-h100:nodes=2,nicbw=200Gbps', algorithm: 'nccl:machine=h100-tcpxo', small: 0.05, large: 0.02 },
];

/** exp(mean |ln(sim / measured)|) − 1: the geometric mean of the time ratios' distance from 1. */
function geomeanError(pairs: ReadonlyArray<readonly [number, number]>): number {
  return Math.exp(pairs.reduce((a, [sim, meas]) => a + Math.abs(Math.log(sim / meas)), 0) / pairs.length) - 1;
}

function measured(file: string): Array<{ size: number; time_s: number; busbw: number }> {
  const text = readFileSync(fileURLToPath(new URL(`./hardware/${file}`, import.meta.url)), 'utf8');
  const [header, ...rows] = text.trim().split('\n');
  const cols = header.split(',');
  const at = (name: string): number => cols.indexOf(name);
  return rows.map((line) => {
    const v = line.split(',');
    return { size: Number(v[at('size_B')]), time_s: Number(v[at('oop_time_us')]) * 1e-6, busbw: Number(v[at('oop_busbw_GBps')]) * 1e9 };
  });
}

describe('measured allreduce tables, row by row', () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.topology}, ${c.algorithm}`, () => {
      const table = measured(c.file);
      const rows = perfSweep({ topology: buildTopology(c.topology), collective: 'allreduce', algorithm: c.algorithm, minBytes: 8, maxBytes: 8 * 2 ** 30, factor: 2 });
      expect(rows.map((r) => r.size_bytes)).toEqual(table.map((m) => m.size));
      const lines = table.map((m, i) => {
        const err = rows[i].time_s / m.time_s - 1;
        return `${String(m.size).padStart(11)} ${(m.time_s * 1e6).toFixed(1).padStart(9)} us ${(rows[i].time_s * 1e6).toFixed(1).padStart(9)} us ${(100 * err).toFixed(1).padStart(6)} %  ${rows[i].algorithm}`;
      });
      const pairs = table.map((m, i) => [rows[i].time_s, m.time_s] as const);
      const small = geomeanError(pairs.filter((_, i) => table[i].size < 2 ** 20));
      const large = geomeanError(pairs.filter((_, i) => table[i].size >= 2 ** 20));
      console.log(`${c.file}\n       size   measured    meshwork  error\n${lines.join('\n')}\ngeomean error below 1 MiB ${(100 * small).toFixed(1)} %, 1 MiB-8 GiB ${(100 * large).toFixed(1)} %`);
      // busbw errors are the time errors inverted (same size): the geomean is the same figure.
      expect(small).toBeLessThan(c.small);
      expect(large).toBeLessThan(c.large);
      // The row the model is least sure of still has the measured order of magnitude.
      for (const [sim, meas] of pairs) expect(Math.abs(Math.log(sim / meas))).toBeLessThan(Math.log(1.8));
    }, 120_000);
  }
});
