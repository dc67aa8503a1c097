/**
 * Reader of the BookSim reference CSVs made for issue 15 (./booksim/README.md): columns rate, seed,
 * packet_latency ("saturated" when BookSim declared the run unstable), network_latency,
 * accepted_flit_rate, hops, cycles.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bookSimRun, buildTopology, parseBookSimConfig, type Topology } from '../../../src/index.js';
import { topologyFromFileSpec } from '../../../src/interop/topology-file.js';

export const BOOKSIM_CSV_DIR = fileURLToPath(new URL('./booksim/', import.meta.url));

export interface BookSimRow {
  rate: number;
  seed: number;
  latency: number | null;
  hops: number | null;
}

/** The cells of a reference CSV (`NAME.csv` in ./booksim/), header left out. */
export function readCsvCells(fileName: string): string[][] {
  return readFileSync(`${BOOKSIM_CSV_DIR}${fileName}`, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','));
}

/** A reference case's BookSim configuration, translated as `--booksim-config` does, and its network. */
export function loadBookSimCase(name: string): { run: ReturnType<typeof bookSimRun>; topology: Topology } {
  const run = bookSimRun(parseBookSimConfig(readFileSync(`${BOOKSIM_CSV_DIR}${name}.cfg`, 'utf8')));
  // An anynet file's network_file is relative to the working directory (the repository's root), as BookSim reads it.
  const fromFile = topologyFromFileSpec(run.topologySpec, 'topology', (path) => readFileSync(path, 'utf8'));
  return { run, topology: fromFile ?? buildTopology(run.topologySpec) };
}

export function readBookSimRows(name: string): BookSimRow[] {
  return readCsvCells(`${name}.csv`).map((c) => {
      return { rate: Number(c[0]), seed: Number(c[1]), latency: c[2] === 'saturated' ? null : Number(c[2]), hops: c[5] === '' ? null : Number(c[5]) };
  });
}

export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
