import { createHash, type Hash } from 'node:crypto';
import type pg from 'pg';
import { quoteName, type TablePlan } from './table-plan.js';

/** What a checksum covers: the number of rows and a SHA-256 over all of them, in key order. */
export interface TableChecksum {
  rows: number;
  sha256: string;
}

/**
 * A value as both drivers should have returned it. They differ only where pim does not care:
 * an integer may come as a bigint (int8, or SQLite with safeIntegers), a boolean is 0/1 in
 * SQLite, a timestamp may come as a Date. A string "1" and a number 1 stay apart: a copy that
 * turned one into the other has changed the data.
 */
export function normalValue(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
        return { bigint: value.toString() };
      return Number(value);
    case 'boolean':
      return value ? 1 : 0;
    case 'object':
      if (value === null) return null;
      if (Buffer.isBuffer(value)) return { bytes: value.toString('base64') };
      if (value instanceof Date) return value.toISOString();
  }
  if (typeof value === 'number' || typeof value === 'string' || value === undefined) return value ?? null;
  throw new Error(`a value of type ${typeof value} cannot be compared`);
}

/** Rows per group: the unit the checksum is taken over (see RowDigest). */
export const GROUP_ROWS = 1000;

/**
 * The canonical text of a group of rows: the JSON array of its columns (column-major), each
 * the JSON array of the column's values. JSON keeps numbers, strings and null apart and needs no
 * escaping rules of our own; column-major, one JSON.stringify covers a thousand rows (hashing
 * row by row cost more than the copy itself on a catalogue of 100,000 products).
 */
export function canonicalGroup(columns: readonly unknown[][]): string {
  return `${JSON.stringify(columns)}\n`;
}

/**
 * A running checksum of rows in the order they are added: SHA-256 over the canonical text of
 * consecutive groups of GROUP_ROWS rows (the last one shorter). The grouping depends only on
 * the order and number of rows, so both sides arrive at the same text whatever their batches.
 */
export class RowDigest {
  private readonly hash: Hash = createHash('sha256');
  private columns: unknown[][] = [];
  private inGroup = 0;
  rows = 0;

  add(row: readonly unknown[]): void {
    if (this.inGroup === 0) this.columns = row.map(() => []);
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      this.columns[i]!.push(
        typeof value === 'number' || typeof value === 'string' ? value : normalValue(value),
      );
    }
    this.rows += 1;
    this.inGroup += 1;
    if (this.inGroup === GROUP_ROWS) this.flush();
  }

  result(): TableChecksum {
    this.flush();
    return { rows: this.rows, sha256: this.hash.digest('hex') };
  }

  private flush(): void {
    if (this.inGroup === 0) return;
    this.hash.update(canonicalGroup(this.columns), 'utf8');
    this.inGroup = 0;
  }
}

/** Whether a target column holds text, whose order must be byte order on both sides. */
export function isTextType(type: string): boolean {
  return /^(text|character|varchar|char)/.test(type);
}

/**
 * The ORDER BY of a table on either side: its primary key, text compared as bytes (SQLite's
 * BINARY, PostgreSQL's "C"), so that both databases list the rows in the same order whatever
 * the columns' own collations.
 */
export function keyOrder(table: TablePlan, dialect: 'sqlite' | 'postgres'): string {
  const types = new Map(table.columns.map((c) => [c.name, c.type]));
  return table.primaryKey
    .map((column) => {
      const text = isTextType(types.get(column) ?? '');
      const collation = dialect === 'sqlite' ? ' COLLATE BINARY' : ' COLLATE "C"';
      return `${quoteName(column)}${text ? collation : ''}`;
    })
    .join(', ');
}

/** The SELECT both sides read a table with: every column in the plan's order, in key order. */
export function orderedSelect(table: TablePlan, dialect: 'sqlite' | 'postgres'): string {
  const columns = table.columns.map((c) => quoteName(c.name)).join(', ');
  return `SELECT ${columns} FROM ${quoteName(table.name)} ORDER BY ${keyOrder(table, dialect)}`;
}

const FETCH_ROWS = 20_000;

/**
 * The checksum of a PostgreSQL table, read through a cursor (the client must be in a
 * transaction): a few thousand rows in memory at a time, whatever the table's size. The next
 * batch is asked for before the current one is hashed, so the server reads while Node hashes.
 */
export async function postgresChecksum(client: pg.ClientBase, table: TablePlan): Promise<TableChecksum> {
  const cursor = `pim_move_${table.name}`;
  await client.query(`DECLARE ${quoteName(cursor)} NO SCROLL CURSOR FOR ${orderedSelect(table, 'postgres')}`);
  const digest = new RowDigest();
  const fetch = () =>
    client.query<unknown[]>({ text: `FETCH ${FETCH_ROWS} FROM ${quoteName(cursor)}`, rowMode: 'array' });
  let next = fetch();
  for (;;) {
    const { rows } = await next;
    if (rows.length === FETCH_ROWS) next = fetch();
    for (const row of rows) digest.add(row);
    if (rows.length < FETCH_ROWS) break;
  }
  await client.query(`CLOSE ${quoteName(cursor)}`);
  return digest.result();
}

/** Why two checksums of a table differ, or undefined when they match. */
export function checksumMismatch(
  table: string,
  source: TableChecksum,
  target: TableChecksum,
): string | undefined {
  if (source.rows !== target.rows) {
    return `table ${table} has ${source.rows} rows in SQLite but ${target.rows} in PostgreSQL`;
  }
  if (source.sha256 !== target.sha256) {
    return `table ${table} differs between SQLite and PostgreSQL (same ${source.rows} rows, different checksum)`;
  }
  return undefined;
}
