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
import { compareWithMeasured, parseMeasuredTable } from '../../src/sim/perf.js';

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

describe('measured allreduce tables, row by row', () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.topology}, ${c.algorithm}`, () => {
      const measured = parseMeasuredTable(readFileSync(fileURLToPath(new URL(`./hardware/${c.file}`, import.meta.url)), 'utf8'));
      expect(measured.length).toBe(31);
      const cmp = compareWithMeasured({ topology: buildTopology(c.topology), collective: 'allreduce', algorithm: c.algorithm }, measured);
      const lines = cmp.rows.map(
        (r) => `${String(r.measured.size_bytes).padStart(11)} ${(r.measured.time_s * 1e6).toFixed(1).padStart(9)} us ${(r.meshwork.time_s * 1e6).toFixed(1).padStart(9)} us ${(100 * r.error).toFixed(1).padStart(6)} %  ${r.meshwork.algorithm}`,
      );
      console.log(`${c.file}\n       size   measured    meshwork  error\n${lines.join('\n')}\ngeomean error below 1 MiB ${(100 * cmp.geomeanBelow1MiB!).toFixed(1)} %, 1 MiB-8 GiB ${(100 * cmp.geomeanFrom1MiB!).toFixed(1)} %`);
      // busbw errors are the time errors inverted (same size): the geomean is the same figure.
      expect(cmp.geomeanBelow1MiB!).toBeLessThan(c.small);
      expect(cmp.geomeanFrom1MiB!).toBeLessThan(c.large);
      // Every row, even the least matched, within a factor 1.8.
      for (const r of cmp.rows) expect(Math.abs(Math.log(1 + r.error))).toBeLessThan(Math.log(1.8));
    }, 120_000);
  }
});
