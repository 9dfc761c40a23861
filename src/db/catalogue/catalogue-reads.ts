import type { TextKind } from '../workspace.schema.js';
import {
  catalogueSql,
  type ChangeState,
  type ProductJsonChunk,
  type ProductJsonPage,
  type SheetLanguages,
  type WorkspaceDb,
} from './catalogue-sql.js';
import {
  readProductColumns,
  type ProductColumnsQuery,
  type ProductColumnsRows,
} from './product-columns-sql.js';
import {
  productListJsonQuery,
  productListRowsQuery,
  type ProductRow,
  type ProductRowQuery,
} from './product-list-query.js';

export type { ChangeState } from './catalogue-sql.js';

/**
 * The catalogue's hot reads, each one statement whose JSON the database writes. Which connection
 * answers is decided here, behind the seam (openCatalogueStore): outside a transaction SQLite's
 * read-only connection with prepared statements (it sees committed data only and never waits for
 * a writer), PostgreSQL's pool; inside one, the transaction, which sees its own writes.
 */
export interface CatalogueReads {
  /** The committed change counter: the check of If-None-Match on every catalogue read. */
  changeCounter(): Promise<number>;
  changeState(): Promise<ChangeState>;
  /** A product's revision and its ProductDto as JSON text; undefined for no such product. */
  productJson(id: number, lang: string): Promise<[revision: number, json: string] | undefined>;
  /** A product's revision: one lookup by primary key, the whole cost of a matching If-None-Match. */
  productRevision(id: number): Promise<number | undefined>;
  /** The product sheet as JSON text. */
  sheetJson(id: number, languages: SheetLanguages): Promise<string | undefined>;
  /** What a catalogue export writes of several products (SheetSql.exportSheets), JSON texts in id order. */
  exportSheetsJson(ids: readonly number[]): Promise<string[]>;
  /** FeatureDto[] (first occurrences) as JSON text. */
  featuresJson(id: number): Promise<string | undefined>;
  /** TextEntryDto[] of one kind as JSON text. */
  textsJson(id: number, kind: TextKind): Promise<string | undefined>;
  /** The variants as ProductDto[] JSON text. */
  variantsJson(id: number, lang: string): Promise<string | undefined>;
  /** Products in id order, filtered (its limit, if any), as rows. */
  productRows(q: ProductRowQuery): Promise<ProductRow[]>;
  /**
   * `limit` products as ProductDto JSON, and whether more follow, in one statement (limit + 1
   * rows); on PostgreSQL a page whose JSON passes `budget` bytes is refused (`tooLarge`).
   */
  productPage(q: ProductRowQuery & { limit: number }, budget: number): Promise<ProductJsonPage>;
  /**
   * A chunk of the streamed list (its limit, if any) as ProductDto JSON; on PostgreSQL only the
   * rows that begin within `budget` bytes (at least one).
   */
  productChunk(q: ProductRowQuery, budget: number): Promise<ProductJsonChunk>;
  /** A page of products as a spreadsheet's columns need them, its two reads agreeing (product-columns-sql.ts). */
  productColumns(q: ProductColumnsQuery): Promise<ProductColumnsRows>;
}

export const productJsonQuery = (db: WorkspaceDb, id: number, lang: string) =>
  db
    .selectFrom('product as p')
    .select(['p.revision', catalogueSql(db).product.json(lang).as('dto')])
    .where('p.id', '=', id);

export const revisionQuery = (db: WorkspaceDb, id: number) =>
  db.selectFrom('product').select('revision').where('id', '=', id);

/** SQLite's counter: its one row. */
export const changeStateQuery = (db: WorkspaceDb) =>
  db.selectFrom('change_counter').select(['value', 'stamp']).where('id', '=', 1);

export const changeCounterQuery = (db: WorkspaceDb) =>
  db.selectFrom('change_counter').select('value').where('id', '=', 1);

export const toChangeState = (row: { value: number; stamp: string } | undefined): ChangeState => ({
  value: Number(row?.value ?? 0),
  stamp: row?.stamp ? row.stamp : null,
});

/** The reads as Kysely queries on `db` (a transaction, or PostgreSQL's pool). */
export function kyselyReads(db: WorkspaceDb): CatalogueReads {
  const catalogue = catalogueSql(db);
  const sheet = catalogue.sheet;
  const part = async (query: ReturnType<typeof sheet.part>) => (await query.execute(db)).rows[0]?.json;
  return {
    changeCounter: () => catalogue.changeCounter(db),
    changeState: () => catalogue.changeState(db),
    async productJson(id, lang) {
      const row = await productJsonQuery(db, id, lang).executeTakeFirst();
      return row && [row.revision, row.dto];
    },
    async productRevision(id) {
      return (await revisionQuery(db, id).executeTakeFirst())?.revision;
    },
    async sheetJson(id, languages) {
      return (await sheet.sheet(languages, id).execute(db)).rows[0]?.sheet;
    },
    async exportSheetsJson(ids) {
      return (await sheet.exportSheets(ids).execute(db)).rows.map((r) => r.sheet);
    },
    featuresJson: (id) => part(sheet.part(sheet.features, id)),
    textsJson: (id, kind) => part(sheet.part(sheet.texts(kind), id)),
    variantsJson: async (id, lang) => (await sheet.variants(lang, id).execute(db)).rows[0]?.json,
    productRows: (q) => productListRowsQuery(db, q).execute(),
    productPage: (q, budget) =>
      catalogueSql(db).list.page(db, (limit) => productListJsonQuery(db, { ...q, limit }), q.limit, budget),
    productChunk: (q, budget) =>
      catalogueSql(db).list.chunk(db, productListJsonQuery(db, q), q.limit, budget),
    // Outside a transaction (PostgreSQL's pool) one snapshot for the page's two statements.
    productColumns: (q) =>
      db.isTransaction
        ? readProductColumns(db, q)
        : db
            .transaction()
            .setIsolationLevel('repeatable read')
            .setAccessMode('read only')
            .execute((trx) => readProductColumns(trx, q)),
  };
}
