import type Database from 'better-sqlite3';
import { sql, type RawBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { readerStatement } from '../../db/reader-statement.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import type { WorkspaceDb } from './product.repository.js';

/** Reads one part of product `id` as JSON text; undefined when there is no such product. */
export type ProductPartJsonReader = (
  db: WorkspaceDb,
  id: number,
  reader?: Database.Database,
) => Promise<string | undefined>;

/**
 * A part of the product sheet (its features, its texts of one kind) as the JSON text the
 * database writes, for REST's read of that part: one statement that also tells an unknown
 * product (no row), sent as it comes, with no row objects or serialiser in between. The parts
 * are the sheet's own SQL (product-sheet.*), aliased `p` for the product, so the two agree.
 * On SQLite's read-only connection as a prepared statement when `reader` is given (outside a
 * caller's transaction).
 */
export function productPartJson(
  sqlite: RawBuilder<string>,
  postgres: RawBuilder<unknown>,
): ProductPartJsonReader {
  const build = (db: WorkspaceDb, id: number) =>
    dialectOf(db) === 'postgres'
      ? sql<{ json: string }>`SELECT (${postgres})::text AS json FROM product p WHERE p.id = ${id}`
      : sql<{ json: string }>`SELECT ${sqlite} AS json FROM product p WHERE p.id = ${id}`;
  const statement = readerStatement<WorkspaceDatabase>((db) => build(db, -1).compile(db), [-1], 'pluck');
  return async (db, id, reader) => {
    if (reader) return statement(db, reader).get(id) as string | undefined;
    return (await build(db, id).execute(db)).rows[0]?.json;
  };
}
