import { sql } from 'kysely';
import type {
  ProductJsonChunk,
  ProductJsonPage,
  ProductJsonRows,
  ProductListSql,
  WorkspaceDb,
} from './catalogue-sql.js';
import { productSqlSqlite } from './product-sql.sqlite.js';

/**
 * SQLite's list: a chunk is one BLOB (never decoded into a JavaScript string); one over SQLite's
 * limit (about 1 GB) is refused (SQLITE_TOOBIG) before anything reaches JavaScript, and the caller
 * reads it again in halves. A page is the chunk of limit + 1 rows, the last cut off in process:
 * one statement, where a probe after the page's last id was a second one.
 */

/** The chunk's statement: the rows of `rows` joined as one BLOB, with the last id and the count. */
export function chunkQuery(db: WorkspaceDb, rows: ProductJsonRows) {
  return db
    .selectFrom(rows.as('c'))
    .select([
      productSqlSqlite.joinedJson().as('json'),
      sql<number | null>`max(c.id)`.as('lastId'),
      sql<number>`count(*)`.as('count'),
    ]);
}

export type ChunkRow = Pick<ProductJsonChunk, 'json' | 'lastId' | 'count'>;

/** What the chunk's statement read, for a selection of at most `limit` rows (none: all). */
export const toChunk = (row: ChunkRow, limit: number | undefined): ProductJsonChunk => ({
  ...row,
  ended: limit === undefined || row.count < limit,
});

/** Where each ProductDto of a chunk begins: `{"id":` cannot occur inside a JSON string, whose quotes are escaped. */
const ITEM_START = Buffer.from('{"id":');

/**
 * A page of `limit` products from the chunk of its selection's first limit + 1 rows. With the
 * extra row the JSON is cut before it (each ProductDto is flat and begins with its id:
 * product-dto-entries.ts, a test compares the bytes), and the page's last id is read from the
 * start of the item that then ends it.
 */
export function cutPage(chunk: ChunkRow, limit: number): ProductJsonPage {
  const { json, count } = chunk;
  if (count <= limit || json === null) return { json, lastId: chunk.lastId, more: false };
  const extra = json.lastIndexOf(ITEM_START);
  const last = extra > 1 ? json.lastIndexOf(ITEM_START, extra - 2) : -1;
  const digits = last + ITEM_START.length;
  const lastId = last < 0 ? NaN : Number.parseInt(json.toString('latin1', digits, digits + 20), 10);
  if (json[extra - 1] !== 0x2c || !Number.isSafeInteger(lastId)) {
    throw new Error('a page of products is not a list of ProductDto JSON');
  }
  return { json: json.subarray(0, extra - 1), lastId, more: true };
}

export const productListSqlite: ProductListSql = {
  async chunk(db, rows, limit) {
    return toChunk(await chunkQuery(db, rows).executeTakeFirstOrThrow(), limit);
  },
  async page(db, select, limit) {
    return cutPage(await chunkQuery(db, select(limit + 1)).executeTakeFirstOrThrow(), limit);
  },
};
