import type Database from 'better-sqlite3';
import { readerStatement } from '../reader-statement.js';
import type { TextKind, WorkspaceDatabase } from '../workspace.schema.js';
import {
  changeCounterQuery,
  changeStateQuery,
  productJsonQuery,
  revisionQuery,
  toChangeState,
  type CatalogueReads,
} from './catalogue-reads.js';
import type { SheetLanguages, WorkspaceDb } from './catalogue-sql.js';
import {
  productColumnsFeatures,
  productColumnsProducts,
  type ProductColumnsRows,
} from './product-columns-sql.js';
import { productListJsonQuery, productListRowsQuery, type ProductRow } from './product-list-query.js';
import { shapedStatement } from './product-list-statements.sqlite.js';
import { chunkQuery, cutPage, toChunk, type ChunkRow } from './product-list-sql.sqlite.js';
import { sheetSqlSqlite as sheet } from './sheet-sql.sqlite.js';

/**
 * SQLite's reads outside a transaction: statements prepared once on the workspace's read-only
 * connection, from the SQL Kysely compiles for the same queries (so the two cannot drift; the
 * sentinels say which compiled parameter is which).
 */

const LANG = '\u0000lang';
const NAME = '\u0000name';
const GROUP = '\u0000group';
const FALLBACK = '\u0000fallback';

const productJsonStatement = readerStatement<WorkspaceDatabase>(
  (db) => productJsonQuery(db, -1, LANG).compile(),
  [LANG, -1],
  'raw',
);
const revisionStatement = readerStatement<WorkspaceDatabase>(
  (db) => revisionQuery(db, -1).compile(),
  [-1],
  'pluck',
);
const counterStatement = readerStatement<WorkspaceDatabase>(
  (db) => changeCounterQuery(db).compile(),
  [1],
  'pluck',
);
const changeStateStatement = readerStatement<WorkspaceDatabase>((db) => changeStateQuery(db).compile(), [1]);
/**
 * The sheet's compiled parameters in order: the product's name, the group's languages, the groups'
 * (the first, then the others, twice: once for a product without a first group), the variants' names.
 */
const SHEET_PARAMETERS = [NAME, GROUP, FALLBACK, GROUP, FALLBACK, GROUP, FALLBACK, GROUP, FALLBACK, NAME, -1];
const sheetStatement = readerStatement<WorkspaceDatabase>(
  (db) => sheet.sheet({ name: NAME, group: GROUP, fallback: FALLBACK }, -1).compile(db),
  SHEET_PARAMETERS,
  'pluck',
);
const sheetArguments = (id: number | string, { name, group, fallback }: SheetLanguages) =>
  SHEET_PARAMETERS.map((p) => (p === NAME ? name : p === GROUP ? group : p === FALLBACK ? fallback : id));
/** A list of ids as one JSON array parameter (id-list.ts). */
const IDS = '[-1]';
/** A catalogue export's page of products. */
const exportSheetsStatement = readerStatement<WorkspaceDatabase>(
  (db) => sheet.exportSheets([-1]).compile(db),
  [IDS],
  'pluck',
);
const featuresStatement = readerStatement<WorkspaceDatabase>(
  (db) => sheet.part(sheet.features, -1).compile(db),
  [-1],
  'pluck',
);
const textStatements = {
  DESCRIPTIONSHORT: readerStatement<WorkspaceDatabase>(
    (db) => sheet.part(sheet.texts('DESCRIPTIONSHORT'), -1).compile(db),
    [-1],
    'pluck',
  ),
  DESCRIPTIONLONG: readerStatement<WorkspaceDatabase>(
    (db) => sheet.part(sheet.texts('DESCRIPTIONLONG'), -1).compile(db),
    [-1],
    'pluck',
  ),
};
const variantsStatement = readerStatement<WorkspaceDatabase>(
  (db) => sheet.variants(LANG, -1).compile(db),
  [LANG, -1],
  'pluck',
);

/** The spreadsheet page's statements, rows as arrays: every list is one JSON array parameter (id-list.ts). */
const FTIDREFS = JSON.stringify(['\u0000ftidrefs']);
type ReaderStatement = ReturnType<typeof readerStatement<WorkspaceDatabase>>;
/** The products' statement by its number of text columns (an export's columns fix it for every page). */
const columnProductsStatements = new Map<number, ReaderStatement>();
function columnProductsStatement(textCount: number): ReaderStatement {
  let statement = columnProductsStatements.get(textCount);
  if (!statement) {
    const texts = Array.from({ length: textCount }, (_, i) => ({
      kind: `\u0000kind${i}` as TextKind,
      lang: `\u0000lang${i}`,
    }));
    statement = readerStatement<WorkspaceDatabase>(
      (db) => productColumnsProducts(db, [-1], texts).compile(db),
      [...texts.flatMap((t) => [t.kind, t.lang]), IDS],
      'raw',
    );
    columnProductsStatements.set(textCount, statement);
  }
  return statement;
}
const columnFeaturesStatement = readerStatement<WorkspaceDatabase>(
  (db) => productColumnsFeatures(db, [-1], ['\u0000ftidrefs']).compile(db),
  [IDS, FTIDREFS],
  'raw',
);

const rowsStatement = shapedStatement((db, q) => productListRowsQuery(db, q).compile());
const chunkStatement = shapedStatement((db, q) => chunkQuery(db, productListJsonQuery(db, q)).compile());

/** The reads on `reader`, the workspace's read-only connection; `db` compiles their SQL once. */
export function sqliteReaderReads(db: WorkspaceDb, reader: Database.Database): CatalogueReads {
  const text = (value: unknown) => value as string | undefined;
  return {
    changeCounter: async () => Number(counterStatement(db, reader).get(1) ?? 0),
    changeState: async () =>
      toChangeState(changeStateStatement(db, reader).get(1) as { value: number; stamp: string } | undefined),
    productJson: async (id, lang) =>
      productJsonStatement(db, reader).get(lang, id) as [number, string] | undefined,
    productRevision: async (id) => revisionStatement(db, reader).get(id) as number | undefined,
    sheetJson: async (id, languages) =>
      text(sheetStatement(db, reader).get(...sheetArguments(id, languages))),
    exportSheetsJson: async (ids) => exportSheetsStatement(db, reader).all(JSON.stringify(ids)) as string[],
    featuresJson: async (id) => text(featuresStatement(db, reader).get(id)),
    textsJson: async (id, kind: TextKind) => text(textStatements[kind](db, reader).get(id)),
    variantsJson: async (id, lang) => text(variantsStatement(db, reader).get(lang, id)),
    async productRows(q) {
      const { statement, args } = rowsStatement(db, reader, q);
      return statement.all(...args) as ProductRow[];
    },
    async productPage(q) {
      const { statement, args } = chunkStatement(db, reader, { ...q, limit: q.limit + 1 });
      return cutPage(statement.get(...args) as ChunkRow, q.limit);
    },
    async productChunk(q) {
      const { statement, args } = chunkStatement(db, reader, q);
      return toChunk(statement.get(...args) as ChunkRow, q.limit);
    },
    async productColumns({ ids, texts, ftidrefs }) {
      if (ids.length === 0) return { products: [], features: [] };
      const list = JSON.stringify(ids);
      const products = columnProductsStatement(texts.length)(db, reader);
      const features = columnFeaturesStatement(db, reader);
      // One read transaction: the two statements see one state of the file.
      return reader.transaction((): ProductColumnsRows => ({
        products: products.all(
          ...texts.flatMap((t) => [t.kind, t.lang]),
          list,
        ) as ProductColumnsRows['products'],
        features:
          ftidrefs.length === 0
            ? []
            : (features.all(list, JSON.stringify(ftidrefs)) as ProductColumnsRows['features']),
      }))();
    },
  };
}
