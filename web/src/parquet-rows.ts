/**
 * A `meshwork sweep export --format parquet` file as the rows the JSON export holds, read with
 * hyparquet (pure JS, snappy included) and loaded only when a Parquet file is opened. DuckDB's
 * JSON columns (params, result) come back as objects already; timestamps and 64-bit integers are
 * turned into what the JSON export writes, so the same checks and plots apply to both.
 */
import { parquetReadObjects } from 'hyparquet';
import { InputError } from '../../src/util/errors.js';

/** DuckDB's JSON export writes a TIMESTAMP as `2026-11-24 04:37:09.115925`; Parquet keeps milliseconds here. */
function plainValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString().replace('T', ' ').replace('Z', '');
  return v;
}

export async function parquetRows(buffer: ArrayBuffer, name: string): Promise<Array<Record<string, unknown>>> {
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await parquetReadObjects({ file: buffer });
  } catch (err) {
    throw new InputError('sweep', name, `a Parquet file from meshwork sweep export --format parquet (${(err as Error).message.split('\n')[0]})`);
  }
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plainValue(v)])));
}
