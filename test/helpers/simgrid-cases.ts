/**
 * The smpirun case files of test/reference/simgrid/ (generate.sh `write_case`): one format for every
 * case directory (cases/, smpi-model-cases/, cm02-wan-cases/, cfg-cases/, fatpipe-cases/, shared-host-cases/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { CollectiveKind } from '../../src/index.js';

export const SIMGRID_DIR = 'test/reference/simgrid';

export interface SimgridCase {
  /** The file's name without `.json`. */
  name: string;
  simgrid: string;
  platform: string;
  ranks: number;
  hostfile: string;
  config: string;
  collective: string;
  smpi_algorithm: string;
  meshwork: { collective: CollectiveKind; algorithm: string };
  rows: Array<{ size: number; makespan_s: number }>;
}

/** Every case of one directory under test/reference/simgrid/, in file-name order. */
export function simgridCases(dir: string): SimgridCase[] {
  return readdirSync(`${SIMGRID_DIR}/${dir}`)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), ...(JSON.parse(readFileSync(`${SIMGRID_DIR}/${dir}/${f}`, 'utf8')) as Omit<SimgridCase, 'name'>) }));
}
