import type Database from 'better-sqlite3';
import { FILL_PRODUCT_SEARCH_STRING } from '../migrations/0022-product-search.js';
import type pg from 'pg';

/** A table to copy: its columns with the target's types, and what the copy and the checksum need. */
export interface TablePlan {
  name: string;
  /** In the target's column order; the same names exist on both sides. */
  columns: Array<{ name: string; type: string }>;
  /** The target's primary key: both checksums read the rows in this order. */
  primaryKey: string[];
  /** Columns that draw from a sequence (identity): reset after the copy. */
  sequences: Array<{ column: string; sequence: string }>;
  /** Tables this one references (foreign keys to other tables). */
  references: string[];
}

/**
 * Tables of PostgreSQL's workspaces that SQLite has no counterpart of, each with the statement that
 * fills it: derived from other tables (product_search_string, migration 0022), they are filled from
 * the copied rows, not copied.
 */
export const POSTGRES_ONLY_TABLES: ReadonlyMap<string, string> = new Map([
  ['product_search_string', FILL_PRODUCT_SEARCH_STRING],
]);

/** Kysely's bookkeeping and SQLite's own tables are no catalogue data: each side keeps its own. */
const INTERNAL = /^(sqlite_|kysely_migration)/;

/** Quotes a table or column name; pim's names are plain, anything else is refused rather than escaped. */
export function quoteName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`unexpected table or column name ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** The data tables of a SQLite database, read from the database itself (not from a list in code). */
export function sqliteTables(raw: Database.Database): Map<string, string[]> {
  // Ordinary tables only: a virtual table (the FTS5 search index) and its shadow tables are derived
  // from the data; the target keeps its own index of it (PostgreSQL: pg_trgm over the tables).
  const names = raw
    .prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  const tables = new Map<string, string[]>();
  for (const name of names.filter((n) => !INTERNAL.test(n))) {
    const columns = raw.prepare(`PRAGMA table_info(${quoteName(name)})`).all() as Array<{ name: string }>;
    tables.set(
      name,
      columns.map((c) => c.name),
    );
  }
  return tables;
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  type: string;
  sequence: string | null;
  primary_key_position: number | null;
}

/**
 * The tables of a PostgreSQL schema with their columns, keys, sequences and foreign keys. Generated
 * columns are left out: PostgreSQL computes them from the copied columns (product_text.name_key,
 * migration 0012) and refuses a value for them.
 */
export async function postgresTables(client: pg.ClientBase, schema: string): Promise<Map<string, TablePlan>> {
  const columns = await client.query<ColumnRow>(
    `SELECT c.relname AS table_name, a.attname AS column_name,
            format_type(a.atttypid, a.atttypmod) AS type,
            pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS sequence,
            array_position(pk.conkey, a.attnum) AS primary_key_position
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                         AND a.attgenerated = ''
       LEFT JOIN pg_constraint pk ON pk.conrelid = c.oid AND pk.contype = 'p'
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')
      ORDER BY c.relname, a.attnum`,
    [schema],
  );
  const tables = new Map<string, TablePlan>();
  for (const row of columns.rows) {
    if (INTERNAL.test(row.table_name)) continue;
    let table = tables.get(row.table_name);
    if (!table) {
      table = {
        name: row.table_name,
        columns: [],
        primaryKey: [],
        sequences: [],
        references: [],
      };
      tables.set(row.table_name, table);
    }
    table.columns.push({ name: row.column_name, type: row.type });
    if (row.sequence) table.sequences.push({ column: row.column_name, sequence: row.sequence });
    if (row.primary_key_position !== null) table.primaryKey[row.primary_key_position - 1] = row.column_name;
  }
  const foreignKeys = await client.query<{ table_name: string; referenced: string }>(
    `SELECT c.relname AS table_name, r.relname AS referenced
       FROM pg_constraint fk
       JOIN pg_class c ON c.oid = fk.conrelid
       JOIN pg_class r ON r.oid = fk.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND fk.contype = 'f'`,
    [schema],
  );
  for (const { table_name, referenced } of foreignKeys.rows) {
    const table = tables.get(table_name);
    if (!table) continue;
    // A reference into the table itself (groups' parents) says nothing about the table order.
    if (referenced !== table_name && !table.references.includes(referenced))
      table.references.push(referenced);
  }
  for (const table of tables.values()) {
    // Without a key the checksum would have no order both sides agree on: every column then.
    if (table.primaryKey.length === 0) table.primaryKey = table.columns.map((c) => c.name);
  }
  return tables;
}

/**
 * Matches the source's tables with the target's and orders them so that a table comes after
 * those it references. Any difference in tables or columns is an error naming it: a table the
 * target lacks would be left behind silently, one the source lacks means the two schemas have
 * drifted apart.
 */
export function planTables(
  what: string,
  source: Map<string, string[]>,
  target: Map<string, TablePlan>,
): TablePlan[] {
  for (const [name, columns] of source) {
    const table = target.get(name);
    if (!table) throw new Error(`${what}: table ${name} has no counterpart in PostgreSQL`);
    const targetColumns = new Set(table.columns.map((c) => c.name));
    for (const column of columns) {
      if (!targetColumns.has(column))
        throw new Error(`${what}: column ${name}.${column} has no counterpart in PostgreSQL`);
    }
    for (const column of targetColumns) {
      if (!columns.includes(column))
        throw new Error(`${what}: column ${name}.${column} is missing in SQLite`);
    }
  }
  for (const name of target.keys()) {
    if (!source.has(name) && !POSTGRES_ONLY_TABLES.has(name))
      throw new Error(`${what}: table ${name} is missing in SQLite`);
  }
  return dependencyOrder([...target.values()].filter((t) => source.has(t.name)));
}

/** Referenced tables first (a topological order); ties in name order, so every run copies alike. */
export function dependencyOrder(tables: TablePlan[]): TablePlan[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TablePlan[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TablePlan) => {
    if (state.get(table.name) === 'done') return;
    if (state.get(table.name) === 'visiting')
      throw new Error(`foreign keys form a cycle at table ${table.name}`);
    state.set(table.name, 'visiting');
    for (const name of [...table.references].sort()) {
      const referenced = byName.get(name);
      if (referenced) visit(referenced);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table);
  return ordered;
}
