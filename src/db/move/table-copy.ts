import type Database from 'better-sqlite3';
import type pg from 'pg';
import { normalValue, orderedSelect, RowDigest, type TableChecksum } from './table-checksum.js';
import { quoteName, type TablePlan } from './table-plan.js';

/**
 * Rows per INSERT. Each column travels as ONE parameter, so PostgreSQL's limit of 65,535 bind
 * parameters never applies; the batch is bounded to keep memory flat instead, also by
 * characters, as one long text may hold 1,000,000 of them.
 */
const BATCH_ROWS = 10_000;
const BATCH_CHARS = 8_000_000;

/** Replaces values of a source row on its way to the target (the registry's db_schema). */
export type RowTransform = (row: unknown[]) => unknown[];

/**
 * The INSERT of one batch: each column a JSON array, zipped into rows by ROWS FROM and cast to
 * the column's type from its text. JSON rather than PostgreSQL's array literal: JSON.stringify
 * is native code, while node-postgres escapes array elements one by one in JavaScript (a third
 * of the copy's time on 100,000 products).
 */
function insertStatement(table: TablePlan): string {
  const names = table.columns.map((c) => quoteName(c.name)).join(', ');
  const casts = table.columns.map((c, i) => `c${i}::${c.type}`).join(', ');
  const arrays = table.columns.map((_, i) => `json_array_elements_text($${i + 1}::json)`).join(', ');
  const aliases = table.columns.map((_, i) => `c${i}`).join(', ');
  return `INSERT INTO ${quoteName(table.name)} (${names}) SELECT ${casts} FROM ROWS FROM (${arrays}) AS r(${aliases})`;
}

/**
 * Copies a table from SQLite to PostgreSQL (the client's search_path is the target schema, and
 * the caller holds a transaction) and returns the checksum of exactly the rows it sent. Rows are
 * read in key order, the order the verification reads the target in, so the source is read only
 * once. While PostgreSQL inserts one batch, the next is read from SQLite.
 */
export async function copyTable(
  source: Database.Database,
  client: pg.ClientBase,
  table: TablePlan,
  transform?: RowTransform,
): Promise<TableChecksum> {
  const insert = insertStatement(table);
  const statement = source.prepare(orderedSelect(table, 'sqlite')).raw(true);
  const digest = new RowDigest();
  const emptyColumns = () => table.columns.map(() => [] as unknown[]);
  let columns = emptyColumns();
  let rows = 0;
  let chars = 0;
  let pending: Promise<unknown> | undefined;
  const send = async () => {
    const values = columns;
    columns = emptyColumns();
    rows = 0;
    chars = 0;
    if (pending) await pending;
    pending = client.query(
      insert,
      values.map((column) => JSON.stringify(column)),
    );
    // Observed at the next send or at the end; never an unhandled rejection meanwhile.
    pending.catch(() => undefined);
  };
  for (const read of statement.iterate() as IterableIterator<unknown[]>) {
    const row = transform ? transform(read) : read;
    digest.add(row);
    for (let i = 0; i < row.length; i++) {
      const value = typeof row[i] === 'number' || typeof row[i] === 'string' ? row[i] : normalValue(row[i]);
      columns[i]!.push(value);
      if (typeof value === 'string') chars += value.length;
    }
    rows += 1;
    if (rows >= BATCH_ROWS || chars >= BATCH_CHARS) await send();
  }
  if (rows > 0) await send();
  if (pending) await pending;
  return digest.result();
}

/** The highest id SQLite ever gave in a table (AUTOINCREMENT keeps it even when that row is gone). */
function sqliteSequence(source: Database.Database, table: string): number {
  const exists = source.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
  if (!exists) return 0;
  const seq = source.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table);
  return typeof seq === 'number' || typeof seq === 'bigint' ? Number(seq) : 0;
}

/**
 * Sets a table's identity sequences past every id used: the copied rows kept their ids, and the
 * sequences would otherwise start at 1 and collide. Past SQLite's own counter too, as ids are
 * never reused: a product deleted at the top of the range keeps its id in product_deletion, and
 * delta sync would confuse a new product with it.
 */
export async function resetSequences(
  source: Database.Database,
  client: pg.ClientBase,
  table: TablePlan,
): Promise<void> {
  for (const { column, sequence } of table.sequences) {
    await client.query(
      `SELECT setval($1::regclass,
         GREATEST($2::bigint, (SELECT COALESCE(max(${quoteName(column)}), 0) FROM ${quoteName(table.name)})) + 1,
         false)`,
      [sequence, sqliteSequence(source, table.name)],
    );
  }
}
