import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { readerStatement } from '../../db/reader-statement.js';
import { jsonArray } from '../../db/sqlite-json-text.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import { productJsonSql, type WorkspaceDb } from './product.repository.js';

/** The statement: the variants of product `id` as ProductDto JSON text in id order; no row for no such product. */
function variantsJsonSql(db: WorkspaceDb, lang: string, id: number) {
  const dto = productJsonSql(db, lang);
  return dialectOf(db) === 'postgres'
    ? sql<{ json: string }>`SELECT '[' || COALESCE((SELECT string_agg(${dto}, ',' ORDER BY p.id)
        FROM product p WHERE p.master_id = m.id), '') || ']' AS json FROM product m WHERE m.id = ${id}`
    : sql<{ json: string }>`SELECT ${jsonArray(
        'v',
        sql`v.dto`,
        sql`SELECT ${dto} AS dto FROM product p WHERE p.master_id = m.id ORDER BY p.id`,
      )} AS json FROM product m WHERE m.id = ${id}`;
}

const LANG = '\u0000lang';

const variantsStatement = readerStatement<WorkspaceDatabase>(
  (db) => variantsJsonSql(db, LANG, -1).compile(db),
  [LANG, -1],
  'pluck',
);

/**
 * The variants of product `id` as the JSON text of ProductDto[] (names in `lang`, REST's rules),
 * or undefined when there is no such product. On SQLite's read-only connection as a prepared
 * statement when `reader` is given (outside a caller's transaction).
 */
export async function findVariantsJson(
  db: WorkspaceDb,
  id: number,
  lang: string,
  reader?: Database.Database,
): Promise<string | undefined> {
  if (reader) return variantsStatement(db, reader).get(lang, id) as string | undefined;
  return (await variantsJsonSql(db, lang, id).execute(db)).rows[0]?.json;
}
