import { sql } from 'kysely';
import type { ProductGridSql } from './catalogue-sql.js';
import { NAME_KEY_LENGTH } from './name-key.js';

const KEY = sql.raw(String(NAME_KEY_LENGTH));

/** SQLite compares text by its UTF-8 bytes: code point order. */
export const productGridSqlite: ProductGridSql = {
  nameKey(value) {
    return sql<string>`substr(${value}, 1, ${KEY})`;
  },
};
