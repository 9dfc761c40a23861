import { sql, type RawBuilder } from 'kysely';
import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { groupNameSql, variantCountSql } from '../../db/catalogue/shared-sql.js';

export type GridSortKey = 'supplierPid' | 'name' | 'updated' | 'id';

/** The grid's filters, checked and normalised (product-grid.service.ts); all combine with AND. */
export interface GridFilter {
  search?: { text: string; pattern: string };
  groupId?: number;
  subgroups: boolean;
  main: boolean;
  /** Variants only (an export writes them after their main products); not with `main`. */
  variantsOnly?: boolean;
  updatedSince?: string;
  text?: { lang: string; has: boolean };
  feature?: { ftidref: string; has: boolean };
}

export interface GridOrder {
  sort: GridSortKey;
  desc: boolean;
  /** The language of names (the sort by name sorts by the name in it). */
  lang: string;
}

/** A place in the order: the row's sort key (null for the sort by id) and its id. */
export interface GridPlace {
  key: string | null;
  id: number;
}

/** Where a page starts: after a place (a cursor), at a place (the anchor of `at`), or at the start. */
export type GridStart = { after: GridPlace } | { from: GridPlace } | undefined;

export interface GridRowRecord {
  id: number;
  supplier_pid: string;
  name: string;
  ean: string | null;
  manufacturer_pid: string | null;
  variant_count: number;
  master_id: number | null;
  group_id: number | null;
  group_name: string | null;
  updated_at: string;
}

const SHORT = sql.lit('DESCRIPTIONSHORT');

/** Whether any filter is set (filterSql is more than `1 = 1`). */
function filtered(f: GridFilter): boolean {
  return (
    f.main ||
    f.variantsOnly === true ||
    f.groupId !== undefined ||
    f.updatedSince !== undefined ||
    f.text !== undefined ||
    f.feature !== undefined ||
    f.search !== undefined
  );
}

/** The filters on the product aliased `p`, as one predicate (`1 = 1` when none is set). */
function filterSql(db: WorkspaceDb, f: GridFilter): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [];
  if (f.main) parts.push(sql`p.master_id IS NULL`);
  if (f.variantsOnly === true) parts.push(sql`p.master_id IS NOT NULL`);
  if (f.groupId !== undefined) {
    parts.push(
      f.subgroups
        ? // A subtree is a prefix of bmecat_id (docs/groups.md): the group and every id below it.
          sql`p.group_id IN (SELECT g.id FROM product_group r, product_group g WHERE r.id = ${f.groupId}
            AND (g.id = r.id OR g.bmecat_id LIKE r.bmecat_id || '.%'))`
        : sql`p.group_id = ${f.groupId}`,
    );
  }
  if (f.updatedSince !== undefined) parts.push(sql`p.updated_at >= ${f.updatedSince}`);
  if (f.text) {
    const exists = sql<boolean>`EXISTS (SELECT 1 FROM product_text x WHERE x.product_id = p.id
      AND x.kind = ${SHORT} AND x.lang = ${f.text.lang})`;
    parts.push(f.text.has ? exists : sql`NOT ${exists}`);
  }
  if (f.feature) {
    const exists = sql<boolean>`EXISTS (SELECT 1 FROM product_feature pf WHERE pf.product_id = p.id
      AND pf.feature_id = (SELECT fd.id FROM feature_def fd WHERE fd.ftidref = ${f.feature.ftidref}))`;
    parts.push(f.feature.has ? exists : sql`NOT ${exists}`);
  }
  if (f.search) parts.push(catalogueSql(db).product.matchesSearch(f.search.text, f.search.pattern));
  return parts.length === 0 ? sql`1 = 1` : sql`${sql.join(parts, sql` AND `)}`;
}

/** The column of a sort on the product aliased `p` (none for the id; names: see nameArms). */
function sortColumn(sort: Exclude<GridSortKey, 'name'>): RawBuilder<string> | undefined {
  if (sort === 'supplierPid') return sql`p.supplier_pid`;
  if (sort === 'updated') return sql`p.updated_at`;
  return undefined;
}

/** `(key, id)` compared with a place: after it (strictly) or from it on, in the order's direction. */
function placeSql(
  key: RawBuilder<unknown> | undefined,
  id: RawBuilder<unknown>,
  order: GridOrder,
  start: GridStart,
) {
  if (start === undefined) return sql<boolean>`1 = 1`;
  const [place, strict] = 'after' in start ? [start.after, true] : [start.from, false];
  const op = sql.raw(order.desc ? (strict ? '<' : '<=') : strict ? '>' : '>=');
  if (key === undefined) return sql<boolean>`${id} ${op} ${place.id}`;
  return sql<boolean>`(${key}, ${id}) ${op} (${place.key ?? ''}, ${place.id})`;
}

/** Rows `offset` to `offset + limit` of a selection in the order (LIMIT and OFFSET). */
interface Window {
  limit: number;
  offset: number;
}

function orderBy(order: GridOrder) {
  const dir = sql.raw(order.desc ? 'DESC' : 'ASC');
  return order.sort === 'id' ? sql`ORDER BY id ${dir}` : sql`ORDER BY k ${dir}, id ${dir}`;
}

function windowSql(order: GridOrder, w: Window) {
  const offset = w.offset === 0 ? sql`` : sql` OFFSET ${sql.lit(w.offset)}`;
  return sql`${orderBy(order)} LIMIT ${sql.lit(w.limit)}${offset}`;
}

/**
 * The selection's (id, k) rows in the order, from `start`, rows `w` of them. By name, two arms
 * merged, each read in order from an index: products with a short text in the language walk
 * product_short_text_name (lang, key, id); the others (a fallback name or none) walk
 * product_fallback_key (key, id, languages), the key of their first short text by language code
 * (migration 0011), testing the languages in the entry itself (0012). The second arm is left out
 * when no product lacks the language (`fallbacks` false): its walk would find nothing after
 * reading every product.
 *
 * The dialect merges the arms (ProductGridSql.mergeArms): PostgreSQL needs each as a subquery of
 * its own to walk its index in order.
 */
function orderedKeys(
  db: WorkspaceDb,
  f: GridFilter,
  order: GridOrder,
  start: GridStart,
  fallbacks: boolean,
  w: Window,
): RawBuilder<unknown> {
  const where = filterSql(db, f);
  if (order.sort !== 'name') {
    const column = sortColumn(order.sort);
    return sql`SELECT p.id AS id, ${column ?? sql`NULL`} AS k FROM product p
      WHERE ${where} AND ${placeSql(column, sql`p.id`, order, start)} ${windowSql(order, w)}`;
  }
  const grid = catalogueSql(db).grid;
  const key = grid.shortTextKey('t');
  // Without a filter, the index entries are the answer: reading each product's row (a join) to
  // test `1 = 1` made a jump to row 50,000 cost 20 times more.
  const product = (id: RawBuilder<unknown>) => (filtered(f) ? sql`JOIN product p ON p.id = ${id}` : sql``);
  const named = sql`SELECT t.product_id AS id, ${key} AS k FROM product_text t ${product(sql`t.product_id`)}
      WHERE t.kind = ${SHORT} AND t.lang = ${order.lang} AND ${where}
        AND ${placeSql(key, sql`t.product_id`, order, start)}`;
  if (!fallbacks) return sql`${named} ${windowSql(order, w)}`;
  const fallback = sql`SELECT fk.product_id AS id, fk.name_key AS k
      FROM product_fallback_key fk ${product(sql`fk.product_id`)}
      WHERE ${grid.lacksLanguage(sql`fk.langs`, order.lang)} AND ${where}
        AND ${placeSql(sql`fk.name_key`, sql`fk.product_id`, order, start)}`;
  // An arm gives at most the rows up to the window's end.
  const arms = grid.mergeArms(named, fallback, windowSql(order, { limit: w.offset + w.limit, offset: 0 }));
  return sql`${arms} ${windowSql(order, w)}`;
}

/**
 * Whether some product lacks a short text in `lang` (the sort by name's second arm has rows),
 * from the distinct sets of languages products have (product_fallback_key_langs, migration 0012):
 * a loose index scan, one index probe per distinct set (a handful in a catalogue) instead of
 * counting the products and the language's texts. A product without any short text has the set ''.
 */
async function someLackName(db: WorkspaceDb, order: GridOrder): Promise<boolean> {
  if (order.sort !== 'name') return false;
  const { rows } = await sql<{ lacking: number | boolean }>`WITH RECURSIVE sets (langs) AS (
      SELECT min(langs) FROM product_fallback_key
      UNION ALL
      SELECT (SELECT min(fk.langs) FROM product_fallback_key fk WHERE fk.langs > s.langs)
        FROM sets s WHERE s.langs IS NOT NULL)
    SELECT EXISTS (SELECT 1 FROM sets s WHERE s.langs IS NOT NULL
      AND ${catalogueSql(db).grid.lacksLanguage(sql`s.langs`, order.lang)}) AS lacking`.execute(db);
  return Boolean(rows[0]!.lacking);
}

/** Runs the statements of a sort by name without a filter as index walks (ProductGridSql.walkingIndexes). */
function walk<T>(db: WorkspaceDb, f: GridFilter, order: GridOrder, work: (db: WorkspaceDb) => Promise<T>) {
  return order.sort === 'name' && !filtered(f) ? catalogueSql(db).grid.walkingIndexes(db, work) : work(db);
}

/** The places of up to `limit` rows of the selection in the order, from `start`. */
export async function gridPlaces(
  db: WorkspaceDb,
  f: GridFilter,
  order: GridOrder,
  start: GridStart,
  limit: number,
): Promise<GridPlace[]> {
  const fallbacks = await someLackName(db, order);
  const { rows } = await walk(db, f, order, (db) =>
    sql<{ id: number; k: string | null }>`${orderedKeys(db, f, order, start, fallbacks, {
      limit,
      offset: 0,
    })}`.execute(db),
  );
  return rows.map((r) => ({ id: Number(r.id), key: r.k }));
}

/**
 * The place of row `index` of the selection in the order (the anchor of `at`): one OFFSET probe
 * over the keys, which the indexes deliver in order; the page is then read by keyset from it.
 */
export async function gridPlaceAt(
  db: WorkspaceDb,
  f: GridFilter,
  order: GridOrder,
  index: number,
): Promise<GridPlace | undefined> {
  const fallbacks = await someLackName(db, order);
  const { rows } = await walk(db, f, order, (db) =>
    sql<{
      id: number;
      k: string | null;
    }>`${orderedKeys(db, f, order, undefined, fallbacks, { limit: 1, offset: index })}`.execute(db),
  );
  const row = rows[0];
  return row === undefined ? undefined : { id: Number(row.id), key: row.k };
}

export async function countGrid(db: WorkspaceDb, f: GridFilter): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM product p
    WHERE ${filterSql(db, f)}`.execute(db);
  return Number(rows[0]!.n);
}

/** The grid's columns of the given products (in no order). */
export async function gridRows(
  db: WorkspaceDb,
  ids: readonly number[],
  lang: string,
  fallback: string,
): Promise<GridRowRecord[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<GridRowRecord>`SELECT p.id, p.supplier_pid,
      ${catalogueSql(db).product.name(lang, 'p')} AS name, p.ean, p.manufacturer_pid,
      ${variantCountSql} AS variant_count, p.master_id, p.group_id,
      (SELECT ${groupNameSql(lang, fallback)} FROM product_group g WHERE g.id = p.group_id) AS group_name,
      p.updated_at
    FROM product p WHERE p.id IN ${catalogueSql(db).idList(ids)}`.execute(db);
  return rows;
}

/**
 * The ids of every product the filters select, in id order; with `withVariants`, also the
 * variants of the selected main products (whether the filters select them or not). One statement:
 * a selection of 100,000 is 100,000 integers, resolved on the server (never sent by a browser).
 */
export async function selectionIds(db: WorkspaceDb, f: GridFilter, withVariants: boolean): Promise<number[]> {
  const where = filterSql(db, f);
  const query = withVariants
    ? sql<{ id: number }>`SELECT p.id AS id FROM product p WHERE ${where}
        UNION SELECT v.id AS id FROM product v WHERE v.master_id IN (SELECT p.id FROM product p WHERE ${where})
        ORDER BY id`
    : sql<{ id: number }>`SELECT p.id AS id FROM product p WHERE ${where} ORDER BY p.id`;
  const { rows } = await query.execute(db);
  return rows.map((r) => Number(r.id));
}

/** Of `ids`, those that are products, with the variants of those that are main products if asked, in id order. */
export async function existingIds(
  db: WorkspaceDb,
  ids: readonly number[],
  withVariants: boolean,
): Promise<number[]> {
  if (ids.length === 0) return [];
  let low = Infinity;
  let high = -Infinity;
  for (const id of ids) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  // A dense list (the grid's Shift range, the first half of a catalogue) is read as one range of
  // the primary key: PostgreSQL probes an IN list id by id, in hash order (50,000 ids took 1 s of
  // a mass edit's request on the bench catalogue), a range it reads in one pass.
  if (!withVariants && high - low < 2 * ids.length) {
    const wanted = new Set(ids);
    const range = await db
      .selectFrom('product')
      .select('id')
      .where('id', '>=', low)
      .where('id', '<=', high)
      .orderBy('id')
      .execute();
    return range.map((r) => Number(r.id)).filter((id) => wanted.has(id));
  }
  const list = catalogueSql(db).idList(ids);
  const query = withVariants
    ? sql<{ id: number }>`SELECT p.id AS id FROM product p WHERE p.id IN ${list}
        UNION SELECT v.id AS id FROM product v WHERE v.master_id IN ${list} ORDER BY id`
    : sql<{ id: number }>`SELECT p.id AS id FROM product p WHERE p.id IN ${list} ORDER BY p.id`;
  const { rows } = await query.execute(db);
  return rows.map((r) => Number(r.id));
}
