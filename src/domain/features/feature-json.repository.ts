import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { readerStatement } from '../../db/reader-statement.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import { featuresJsonPostgres } from '../products/product-sheet.postgres.js';
import { featuresJsonSqlite } from '../products/product-sheet.repository.js';
import type { WorkspaceDb } from '../products/product.repository.js';

/** The statement: the features of product `id` as FeatureDto JSON text, no row when there is no such product. */
function featuresSql(db: WorkspaceDb, id: number) {
  return dialectOf(db) === 'postgres'
    ? sql<{
        features: string;
      }>`SELECT (${featuresJsonPostgres})::text AS features FROM product p WHERE p.id = ${id}`
    : sql<{ features: string }>`SELECT ${featuresJsonSqlite} AS features FROM product p WHERE p.id = ${id}`;
}

const featuresStatement = readerStatement<WorkspaceDatabase>(
  (db) => featuresSql(db, -1).compile(db),
  [-1],
  'pluck',
);

/**
 * A product's features as the JSON text of FeatureDto[] (the sheet's part, written by the
 * database), or undefined when there is no such product. On SQLite's read-only connection as a
 * prepared statement when `reader` is given (outside a caller's transaction).
 */
export async function findFeaturesJson(
  db: WorkspaceDb,
  id: number,
  reader?: Database.Database,
): Promise<string | undefined> {
  if (reader) return featuresStatement(db, reader).get(id) as string | undefined;
  return (await featuresSql(db, id).execute(db)).rows[0]?.features;
}
