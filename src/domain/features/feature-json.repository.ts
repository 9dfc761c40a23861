import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
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

const prepared = new WeakMap<Database.Database, Database.Statement>();

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
  if (!reader) return (await featuresSql(db, id).execute(db)).rows[0]?.features;
  let statement = prepared.get(reader);
  if (!statement) {
    const compiled = featuresSql(db, -1).compile(db);
    if (compiled.parameters.length !== 1 || compiled.parameters[0] !== -1) {
      throw new Error('findFeaturesJson: unexpected parameters');
    }
    statement = reader.prepare(compiled.sql).pluck();
    prepared.set(reader, statement);
  }
  return statement.get(id) as string | undefined;
}
