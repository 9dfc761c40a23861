import { sql, type RawBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { WorkspaceDb } from './product.repository.js';
import { productSqlPostgres } from './product-sql.postgres.js';
import { productSqlSqlite } from './product-sql.sqlite.js';

/**
 * The parts of product queries that the dialects write differently: JSON built by the database
 * (lists and the product sheet stream it without turning every field into a JavaScript value),
 * index hints and case-insensitive matching. Everything else is written once, with Kysely.
 */
export interface ProductSql {
  /** ProductDto.name of the product aliased `alias`: the short text in `lang`, else the first by code, else "". */
  name(lang: string, alias: string): RawBuilder<string>;
  /** The ProductDto of the product aliased `p` as JSON text (the fields, order and rules of toDto). */
  json(lang: string): RawBuilder<string>;
  /**
   * The `dto` texts of a selection ordered by id (aliased `c`, columns id and dto), joined by
   * commas in that order, as UTF-8.
   */
  joinedJson(): RawBuilder<Buffer | null>;
  /** `column` LIKE `pattern` (escaped with backslash), ignoring the case of ASCII letters. */
  likeIgnoringCase(column: RawBuilder<unknown>, pattern: string): RawBuilder<boolean>;
}

export function productSql(db: WorkspaceDb): ProductSql {
  return dialectOf(db) === 'postgres' ? productSqlPostgres : productSqlSqlite;
}

export const variantCountSql = sql<number>`CASE WHEN p.master_id IS NULL
  THEN (SELECT COUNT(*) FROM product v WHERE v.master_id = p.id) ELSE 0 END`;
