import type { RawBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { WorkspaceDb } from './product.repository.js';
import { bulkSqlPostgres } from './product-bulk-sql.postgres.js';
import { bulkSqlSqlite } from './product-bulk-sql.sqlite.js';

/** A column of rows passed as JSON: its name and SQL type. */
export type BulkColumn = readonly [name: string, type: 'integer' | 'text' | 'json'];

/**
 * What the set-based bulk writes (product-bulk-write.repository.ts) need written per dialect:
 * a whole batch's rows as ONE bound parameter (a JSON array of arrays), so that a statement is
 * compiled once whatever the batch size and never meets a limit on the number of parameters.
 * The statements around it are the same text on both backends.
 */
export interface BulkSql {
  /** A FROM item aliased `j` with the named columns, one row per inner array (values in column order). */
  rows(columns: readonly BulkColumn[], data: readonly (readonly unknown[])[]): RawBuilder<unknown>;
  /** A list of strings as one parameter, usable after IN. */
  textList(values: readonly string[]): RawBuilder<unknown>;
  /** Row lock a reader takes so that what it read cannot be deleted until the commit ('' on SQLite). */
  keyShare: RawBuilder<unknown>;
  /**
   * PostgreSQL: `count` new product ids, rising, drawn before the rows are inserted, so that rows
   * can be inserted in another order than the ids' (insertProducts); undefined on SQLite, whose one
   * writer inserts in the batch's order.
   */
  drawProductIds?(db: WorkspaceDb, count: number): Promise<number[]>;
}

export function bulkSql(db: WorkspaceDb): BulkSql {
  return dialectOf(db) === 'postgres' ? bulkSqlPostgres : bulkSqlSqlite;
}
