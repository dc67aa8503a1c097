/**
 * The results store: one embedded DuckDB file, one table `points`, one row per point key.
 *
 * Exactly once: the key is the primary key and every write is `INSERT ... ON CONFLICT (key)`, which
 * replaces a row only if it recorded a failure. A second result for a point already stored (a queue
 * job that stalled and re-ran, a resumed run) is dropped. Rows are written in transactions, so a
 * process killed at any moment leaves whole rows or none.
 */
import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { InputError } from '../util/errors.js';
import type { SweepKind } from './kinds.js';
import { FIGURE_NAMES, type PointOutcome } from './execute.js';
import type { Params } from './file.js';
import { MESHWORK_VERSION } from './version.js';

export interface StoredOutcome extends PointOutcome {
  readonly key: string;
  readonly kind: SweepKind;
  readonly sweep: string;
  readonly params: Params;
  /** Who ran it: `host:pid` of the pool or queue worker. */
  readonly worker: string;
}

/** Columns every row has; parameter and figure columns are added as sweeps name them. */
const FIXED_COLUMNS: ReadonlyArray<[string, string]> = [
  ['key', 'VARCHAR PRIMARY KEY'],
  ['sweep', 'VARCHAR'],
  ['kind', 'VARCHAR'],
  ['status', 'VARCHAR'],
  ['error', 'VARCHAR'],
  ['params', 'JSON'],
  ['result', 'JSON'],
  ['elapsed_s', 'DOUBLE'],
  ['finished_at', 'TIMESTAMP'],
  ['worker', 'VARCHAR'],
  ['meshwork_version', 'VARCHAR'],
];
/** Columns that vary between otherwise identical runs of the same point. */
export const TIMING_COLUMNS = ['elapsed_s', 'finished_at', 'worker'];
const ROWS_PER_STATEMENT = 256;
const FIXED_NAMES = new Set(FIXED_COLUMNS.map(([n]) => n));

/** A parameter's column: its CLI name with `_` for `-` (`packet-size` is `packet_size`). */
export function paramColumn(name: string): string {
  const column = name.replace(/-/g, '_');
  return FIXED_NAMES.has(column) || Object.values(FIGURE_NAMES).some((f) => f.includes(column)) ? `param_${column}` : column;
}

/** Statement kinds that only read (DuckDB's StatementType). */
const READING_STATEMENTS = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN, StatementType.PRAGMA, StatementType.CALL]);

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export class SweepStore {
  private columns = new Set<string>();

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  static async open(path: string, options: { readOnly?: boolean } = {}): Promise<SweepStore> {
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, options.readOnly ? { access_mode: 'READ_ONLY' } : {});
    } catch (err) {
      const message = (err as Error).message.split('\n')[0];
      const accepted = /lock/i.test(message) ? 'a store no other process is writing (one sweep per store at a time)' : `a DuckDB file (${message})`;
      throw new InputError('store', path, accepted);
    }
    const store = new SweepStore(path, instance, await instance.connect());
    // DuckDB opens an existing file it reads some other way (a .json of any content) as an
    // in-memory database: a sweep would then report its rows stored and keep none.
    const [current] = (await store.connection.runAndReadAll('SELECT path FROM duckdb_databases() WHERE database_name = current_database()')).getRowObjectsJS();
    if (current?.path === null || current?.path === undefined) {
      store.close();
      throw new InputError('store', path, 'a DuckDB file, or a path where none exists yet (DuckDB opens this file as a database in memory, which would keep no row)');
    }
    if (!options.readOnly) {
      await store.connection.run(`CREATE TABLE IF NOT EXISTS points (${FIXED_COLUMNS.map(([n, t]) => `${quote(n)} ${t}`).join(', ')})`);
    }
    await store.loadColumns();
    return store;
  }

  private async loadColumns(): Promise<void> {
    const rows = (await this.connection.runAndReadAll(`SELECT column_name FROM information_schema.columns WHERE table_name = 'points'`)).getRowObjectsJS();
    this.columns = new Set(rows.map((r) => String(r.column_name)));
  }

  hasTable(): boolean {
    return this.columns.has('key');
  }

  /** Adds the parameter and figure columns of a sweep (once, before its first row). */
  async prepare(kind: SweepKind, paramNames: readonly string[]): Promise<void> {
    const wanted: Array<[string, string]> = [...paramNames.map((n): [string, string] => [paramColumn(n), 'VARCHAR']), ...FIGURE_NAMES[kind].map((n): [string, string] => [n, n === 'saturated' || n === 'pass' ? 'BOOLEAN' : 'DOUBLE'])];
    for (const [name, type] of wanted) {
      if (this.columns.has(name)) continue;
      await this.connection.run(`ALTER TABLE points ADD COLUMN IF NOT EXISTS ${quote(name)} ${type}`);
      this.columns.add(name);
    }
  }

  /** Keys already stored with a result; failed points are not among them and run again. */
  async doneKeys(): Promise<Set<string>> {
    if (!this.hasTable()) return new Set();
    const rows = (await this.connection.runAndReadAll(`SELECT key FROM points WHERE status = 'ok'`)).getRowObjectsJS();
    return new Set(rows.map((r) => String(r.key)));
  }

  async statusOf(keys: readonly string[]): Promise<Map<string, string>> {
    const status = new Map<string, string>();
    if (!this.hasTable()) return status;
    const rows = (await this.connection.runAndReadAll(`SELECT key, status FROM points`)).getRowObjectsJS();
    const wanted = new Set(keys);
    for (const r of rows) if (wanted.has(String(r.key))) status.set(String(r.key), String(r.status));
    return status;
  }

  /** Writes outcomes in one transaction; a point stored with a result keeps it. */
  async write(outcomes: readonly StoredOutcome[]): Promise<void> {
    // One row per key per statement (DuckDB refuses to update a row twice in one statement); a result beats a failure.
    const byKey = new Map<string, StoredOutcome>();
    for (const o of outcomes) if (!byKey.has(o.key) || o.status === 'ok') byKey.set(o.key, o);
    const unique = [...byKey.values()];
    if (unique.length <= ROWS_PER_STATEMENT) return this.insert(unique);
    await this.connection.run('BEGIN TRANSACTION');
    try {
      for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) await this.insert(unique.slice(i, i + ROWS_PER_STATEMENT));
      await this.connection.run('COMMIT');
    } catch (err) {
      await this.connection.run('ROLLBACK');
      throw err;
    }
  }

  /** One multi-row statement: per-row statements cost about 25 times more (docs/sweeps.md). */
  private async insert(outcomes: readonly StoredOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const rows = outcomes.map((o) => {
      const values: Record<string, DuckDBValue> = {
        key: o.key,
        sweep: o.sweep,
        kind: o.kind,
        status: o.status,
        error: o.error,
        params: JSON.stringify(o.params),
        result: o.result,
        elapsed_s: o.elapsed_s,
        worker: o.worker,
        meshwork_version: MESHWORK_VERSION,
      };
      for (const [name, value] of Object.entries(o.params)) values[paramColumn(name)] = typeof value === 'boolean' ? String(value) : value;
      for (const [name, value] of Object.entries(o.figures)) values[name] = value;
      return values;
    });
    const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const width = names.length;
    const tuples = rows.map((_, r) => `(${names.map((_n, c) => `$${r * width + c + 1}`).join(', ')}, now()::TIMESTAMP)`);
    const update = [...names.filter((n) => n !== 'key'), 'finished_at'].map((n) => `${quote(n)} = excluded.${quote(n)}`);
    // A statement is atomic: a kill mid-write leaves all of these rows or none.
    await this.connection.run(
      `INSERT INTO points (${names.map(quote).join(', ')}, finished_at) VALUES ${tuples.join(', ')} ` +
        `ON CONFLICT (key) DO UPDATE SET ${update.join(', ')} WHERE points.status = 'failed'`,
      rows.flatMap((r) => names.map((n) => r[n] ?? null)),
    );
  }

  async query(sql: string): Promise<Array<Record<string, unknown>>> {
    return (await this.connection.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
  }

  /**
   * A user's SQL, one statement that only reads (SELECT, a VALUES or WITH query, EXPLAIN, PRAGMA, CALL, or
   * SHOW / DESCRIBE / SUMMARIZE, which DuckDB plans as SELECTs) on the store alone: a read-only
   * store still lets COPY ... TO, EXPORT DATABASE or ATTACH write files elsewhere. Throws with the
   * statement's kind, or DuckDB's refusal of a file outside the store.
   */
  async readOnlyQuery(sql: string): Promise<Array<Record<string, unknown>>> {
    // No file outside the store from here on: preparing EXPORT DATABASE alone creates its directory.
    await this.connection.run('SET enable_external_access = false');
    const extracted = await this.connection.extractStatements(sql);
    if (extracted.count !== 1) throw new Error(`${extracted.count} statements; one is run`);
    const prepared = await extracted.prepare(0);
    const type = prepared.statementType;
    if (!READING_STATEMENTS.has(type)) throw new Error(`a ${StatementType[type] ?? type} statement, which is not a query`);
    return (await prepared.runAndReadAll()).getRowObjectsJS() as Array<Record<string, unknown>>;
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

// pendingPoints lives in order.ts: the pool and the queue import it without loading DuckDB.
export { pendingPoints } from './order.js';
