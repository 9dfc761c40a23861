import { sql } from 'kysely';
import type { ProductGridSql } from './catalogue-sql.js';
import { NAME_KEY_LENGTH } from './name-key.js';

const KEY = sql.raw(String(NAME_KEY_LENGTH));

/** COLLATE "C": by code point, as on SQLite, whatever the database's collation. */
export const productGridPostgres: ProductGridSql = {
  nameKey(value) {
    return sql<string>`(left(${value}, ${KEY}) COLLATE "C")`;
  },
};
