import type { Kysely, RawBuilder, SelectQueryBuilder } from 'kysely';
import type { TextKind, WorkspaceDatabase } from '../workspace.schema.js';

/** A workspace database or a transaction on it: repositories work on either. */
export type WorkspaceDb = Kysely<WorkspaceDatabase>;

/** A column of rows passed as JSON: its name and SQL type. */
export type BulkColumn = readonly [name: string, type: 'integer' | 'text' | 'json'];

/** Changing a product locks it against deletes and other changes; deleting it against everything. */
export type ProductLockPurpose = 'change' | 'delete';

export interface LockedProductRow {
  id: number;
  supplier_pid: string;
  master_id: number | null;
  group_id: number | null;
}

/** What a catalogue transaction's work returned, and for a change, its stamps (CatalogueSql.countChanges). */
export interface CountedWork<T> {
  result: T;
  /** Set when the work changed a row: the instant its rows were stamped with, and the one they hold now. */
  stamps?: { at: string; stamp: string };
}

/** A selection of products aliased `p` as rows (id, dto: ProductDto JSON text), ordered by id. */
export type ProductJsonRows = SelectQueryBuilder<
  WorkspaceDatabase & { p: WorkspaceDatabase['product'] },
  'p',
  { id: number; dto: string }
>;

/** A chunk of the product list as JSON: `json` holds the ProductDto objects joined by commas. */
export interface ProductJsonChunk {
  /** UTF-8 bytes: as a BLOB the text is never decoded into a JavaScript string and encoded again. */
  json: Buffer | null;
  lastId: number | null;
  count: number;
  /**
   * Whether the selection has no rows after this chunk: SQLite's chunk is all it selected, so
   * fewer than the limit is the end; PostgreSQL's may end at the budget, so only an empty one is.
   */
  ended: boolean;
}

/** A page of the product list as ProductDto JSON: the items joined by commas (UTF-8; null: none). */
export interface ProductJsonPage {
  json: Uint8Array | null;
  lastId: number | null;
  /** Whether more products of the selection follow the page. */
  more: boolean;
  /** PostgreSQL: the page would pass the budget (the page is then empty). */
  tooLarge?: boolean;
}

/** How the list reads its chunks and pages (product-list-sql.*.ts). */
export interface ProductListSql {
  /**
   * The rows of `rows` (its LIMIT `limit`, if any) joined as one JSON text; on PostgreSQL only
   * those that begin within `budget` bytes (at least one).
   */
  chunk(
    db: WorkspaceDb,
    rows: ProductJsonRows,
    limit: number | undefined,
    budget: number,
  ): Promise<ProductJsonChunk>;
  /**
   * A page of `limit` rows of the selection `select(n)` (its first n rows), read as its first
   * limit + 1 in one statement: the extra row tells whether more follow.
   */
  page(
    db: WorkspaceDb,
    select: (limit: number) => ProductJsonRows,
    limit: number,
    budget: number,
  ): Promise<ProductJsonPage>;
}

/** A feature and a language one of its first occurrences has a value in. */
export interface FeatureLanguageRow {
  ftidref: string;
  lang: string;
}

/** The languages a sheet is written in: names of products and variants, of groups, and the fallback. */
export interface SheetLanguages {
  /** Language of product and variant names (ProductDto.name's rules). */
  name: string;
  /** Language of the group name, then the workspace default (ProductGroupDto.name's rules). */
  group: string;
  fallback: string;
}

/** The parts of product queries the dialects write differently (product-sql.*.ts). */
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
  /**
   * `q` of the product aliased `p`: `text` is a substring of its supplierPid or of a short text,
   * ignoring the case of ASCII letters (`pattern`: likePattern(text)). Through the search index
   * (docs/catalogue-grid.md); the LIKE stays the check, so the index changes no answer.
   */
  matchesSearch(text: string, pattern: string): RawBuilder<boolean>;
}

/** The product grid's sort by name (product-grid-sql.*.ts, docs/catalogue-grid.md). */
export interface ProductGridSql {
  /**
   * The sort key of the short text aliased `alias` (a product_text row): its first
   * NAME_KEY_LENGTH characters, compared by code point. The very expression or column of the
   * index product_short_text_name, so that the index answers.
   */
  shortTextKey(alias: string): RawBuilder<string>;
  /**
   * Whether `languages` (product_fallback_key.langs: codes each between commas) lacks `lang`: a test
   * of the entry the sort's second arm walks (migration 0012).
   */
  lacksLanguage(languages: RawBuilder<unknown>, lang: string): RawBuilder<boolean>;
  /**
   * The sort's two arms (selects of `id` and `k`) as one compound select the caller orders and
   * limits, each arm read in the order from its index; `arm` is the ORDER BY and LIMIT an arm
   * needs at most.
   */
  mergeArms(
    named: RawBuilder<unknown>,
    fallback: RawBuilder<unknown>,
    arm: RawBuilder<unknown>,
  ): RawBuilder<unknown>;
  /**
   * Runs the unfiltered sort by name's statements so that they walk the indexes whatever the
   * planner estimates for the test of the languages (PostgreSQL: sorting discouraged).
   */
  walkingIndexes<T>(db: WorkspaceDb, work: (db: WorkspaceDb) => Promise<T>): Promise<T>;
}

/**
 * What the set-based bulk writes need written per dialect (bulk-sql.*.ts): a whole batch's rows as
 * ONE bound parameter (a JSON array of arrays), so that a statement is compiled once whatever the
 * batch size and never meets a limit on the number of parameters.
 */
export interface BulkSql {
  /** A FROM item aliased `j` with the named columns, one row per inner array (values in column order). */
  rows(columns: readonly BulkColumn[], data: readonly (readonly unknown[])[]): RawBuilder<unknown>;
  /** A list of strings as one parameter, usable after IN. */
  textList(values: readonly string[]): RawBuilder<unknown>;
  /**
   * PostgreSQL: `count` new product ids, rising, drawn before the rows are inserted, so that rows
   * can be inserted in another order than the ids' (insertProducts); undefined on SQLite, whose one
   * writer inserts in the batch's order.
   */
  drawProductIds?(db: WorkspaceDb, count: number): Promise<number[]>;
}

/** The change counter with its watermark (null before the first change): what a delta sync stores. */
export interface ChangeState {
  value: number;
  stamp: string | null;
}

/** The JSON parts of the product sheet, each for the product aliased `p` (sheet-sql.*.ts). */
export interface SheetSql {
  /** The whole sheet of product `id` as one JSON text (column `sheet`). */
  sheet(languages: SheetLanguages, id: number): RawBuilder<{ sheet: string }>;
  /** What a catalogue export writes of the products `ids` (those that exist), one JSON text each in id order. */
  exportSheets(ids: readonly number[]): RawBuilder<{ sheet: string }>;
  /** FeatureDto[] of the first occurrences (GET /api/product/{id}/features). */
  features: RawBuilder<unknown>;
  /** TextEntryDto[] of one kind (GET /api/product/{id}/texts/{kind}). */
  texts(kind: TextKind): RawBuilder<unknown>;
  /** A part of product `id` as JSON text (column `json`); no row for no such product. */
  part(part: RawBuilder<unknown>, id: number): RawBuilder<{ json: string }>;
  /** The variants of product `id` as ProductDto[] JSON text (column `json`); no row for no such product. */
  variants(lang: string, id: number): RawBuilder<{ json: string }>;
}

/**
 * Everything the catalogue's SQL writes differently on SQLite and PostgreSQL, behind one interface
 * (docs/storage.md, "One seam"): one object per dialect (catalogue-sql.sqlite.ts,
 * catalogue-sql.postgres.ts), bound to a workspace's database when it opens (openCatalogueStore),
 * found from any connection of it by catalogueSql(db). The domain's repositories write the rest
 * once, with Kysely, and never ask which dialect they run on.
 */
export interface CatalogueSql {
  readonly product: ProductSql;
  readonly bulk: BulkSql;
  readonly sheet: SheetSql;
  readonly list: ProductListSql;
  readonly grid: ProductGridSql;
  /** A list of integer ids as ONE bound parameter, usable after IN, whatever their number. */
  idList(ids: readonly number[]): RawBuilder<unknown>;
  /** A list of texts as ONE bound parameter, usable after IN. */
  textList(values: readonly string[]): RawBuilder<unknown>;
  /** Row lock a read takes so that what it read cannot be deleted until the commit ('' on SQLite). */
  readonly keyShare: RawBuilder<unknown>;
  /** Row lock a read takes for a row it will write back ('' on SQLite: one writer at a time). */
  readonly forUpdate: RawBuilder<unknown>;
  /** Serialises changes of the tree's shape for the rest of the transaction (a no-op on SQLite). */
  lockTree(db: WorkspaceDb): Promise<void>;
  /** Locks rows of groups about to be deleted, in id order (a no-op on SQLite). */
  lockGroupRows(db: WorkspaceDb, ids: readonly number[]): Promise<void>;
  /** Product rows locked in id order with their related rows (product-lock-sql.ts). */
  lockProducts(
    ids: readonly number[],
    purpose: ProductLockPurpose,
    variants: boolean,
  ): RawBuilder<LockedProductRow>;
  /**
   * lockProducts([id], 'change', false) with the id as a plain parameter, `id` standing for it: the
   * single-product writes compile it once (db/compiled-once.ts).
   */
  lockProduct(id: unknown): RawBuilder<LockedProductRow>;
  /**
   * The committed counter and the watermark: every change committing after this read carries a
   * stamp at or after it (SQLite: its one row; PostgreSQL: change-counter-sql.postgres.ts).
   */
  changeState(db: WorkspaceDb): Promise<ChangeState>;
  /** Each feature with the languages its first occurrences have values in (feature-language-sql.ts). */
  featureLanguages(db: WorkspaceDb): Promise<FeatureLanguageRow[]>;
  /** The committed counter alone: rises by one with every committed change. */
  changeCounter(db: WorkspaceDb): Promise<number>;
  /**
   * Runs `work` in a write transaction of the workspace database `db`: on SQLite grouped with the
   * writes that arrive meanwhile, each in a savepoint, answered after the shared commit
   * (db/group-commit.ts); on PostgreSQL a transaction of its own.
   */
  writeTransaction<T>(db: WorkspaceDb, work: (trx: WorkspaceDb) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in `trx`; when it changed any row (a plugin on PostgreSQL, total_changes on SQLite),
   * raises the change counter as the transaction's last statement and puts its stamps in commit
   * order (change-counter-sql.*.ts), `at()` being the instant the work stamped its rows with.
   */
  countChanges<T>(
    trx: WorkspaceDb,
    work: (trx: WorkspaceDb) => Promise<T>,
    at: () => string,
  ): Promise<CountedWork<T>>;
}

const bound = new WeakMap<object, CatalogueSql>();

/** Binds the dialect's SQL to a workspace's database (openCatalogueStore): its transactions share the binding. */
export function bindCatalogueSql(db: WorkspaceDb, catalogue: CatalogueSql): void {
  bound.set(db.getExecutor().adapter, catalogue);
}

/** The catalogue SQL of the workspace database `db` (or a transaction on it) was opened with. */
export function catalogueSql(db: WorkspaceDb): CatalogueSql {
  const catalogue = bound.get(db.getExecutor().adapter);
  if (!catalogue) throw new Error('not a workspace database opened by openCatalogueStore');
  return catalogue;
}
