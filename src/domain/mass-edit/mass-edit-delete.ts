import { sql } from 'kysely';
import { catalogueSql, type BulkColumn, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { PRODUCT_FIELDS } from '../../db/catalogue/product-fields.js';
import { ensureDefinition } from '../features/feature.repository.js';
import { PART_COLUMNS } from '../products/product-bulk-parts.repository.js';
import { noteDeletions } from '../products/product-deletion.service.js';
import type { LockedProductRow } from '../products/product-lock.repository.js';
import { touchProducts } from '../products/product.repository.js';
import type { ChunkChange, ChunkOutcome, RestoreOutcome } from './mass-edit-chunk.types.js';

/**
 * Delete as a mass edit, and its undo: before a chunk's products go, every row of them and of
 * their variants is kept (the product, texts, features with their ftidref, keywords, media, other
 * groups, fragments), so that undo can insert them again under their old ids, which pim never
 * reuses. What undo cannot bring back as it was is said in its report (docs/mass-edits.md).
 */

type Row = Record<string, unknown>;

interface PartTable {
  table: string;
  columns: readonly BulkColumn[];
}

const PRODUCT_COLUMNS: BulkColumn[] = [
  ['id', 'integer'],
  ['supplier_pid', 'text'],
  ['master_id', 'integer'],
  ['group_id', 'integer'],
  ['created_at', 'text'],
  ['updated_at', 'text'],
  ['revision', 'integer'],
  ...PRODUCT_FIELDS.map((f): BulkColumn => [f.column, 'text']),
];

/** The product's own tables (product_feature apart: its definition is kept by ftidref). */
const PARTS: readonly PartTable[] = [
  {
    table: 'product_text',
    columns: [
      ['product_id', 'integer'],
      ['kind', 'text'],
      ['lang', 'text'],
      ['value', 'text'],
    ],
  },
  // The model's parts, with the bulk path's columns (one list, so a new column reaches both).
  ...(['product_keyword', 'product_media', 'product_extra_group', 'product_fragment'] as const).map(
    (table): PartTable => ({ table, columns: PART_COLUMNS[table] }),
  ),
];

const FEATURE_COLUMNS: readonly BulkColumn[] = PART_COLUMNS.product_feature;

/** A deleted product with its variants: each table's rows as arrays in its columns' order. */
interface DeletedBefore {
  d: {
    product: unknown[][];
    /** [product_id, ftidref, occurrence, funit, position, values_json, details_json] */
    feature: unknown[][];
    parts: Record<string, unknown[][]>;
  };
}

const cols = (columns: readonly BulkColumn[]) => sql.join(columns.map(([name]) => sql.ref(name)));
const asArray = (row: Row, columns: readonly BulkColumn[]) => columns.map(([name]) => row[name] ?? null);

export async function applyDelete(
  db: WorkspaceDb,
  rows: readonly LockedProductRow[],
  at: string,
): Promise<ChunkOutcome> {
  const selected = new Set(rows.map((r) => r.id));
  // A selected variant whose main product is deleted in the same chunk goes with it.
  const roots = rows.filter((r) => r.master_id === null || !selected.has(r.master_id));
  if (roots.length === 0) return { changes: [], unchanged: 0, variantsDeleted: 0, deletedAlong: [] };
  const { idList } = catalogueSql(db);
  const rootIds = roots.map((r) => r.id);
  const variants = await sql<{ id: number; master_id: number }>`SELECT id, master_id FROM product
    WHERE master_id IN ${idList(rootIds)} ORDER BY id`.execute(db);
  const rootOf = new Map<number, number>(rootIds.map((id) => [id, id]));
  for (const v of variants.rows) rootOf.set(v.id, v.master_id);
  const all = idList([...rootOf.keys()]);
  const befores = new Map<number, DeletedBefore>(
    rootIds.map((id) => [id, { d: { product: [], feature: [], parts: {} } }]),
  );
  const of = (productId: unknown) => befores.get(rootOf.get(productId as number)!)!.d;

  const products =
    await sql<Row>`SELECT ${cols(PRODUCT_COLUMNS)} FROM product WHERE id IN ${all} ORDER BY id`.execute(db);
  for (const row of products.rows) of(row.id).product.push(asArray(row, PRODUCT_COLUMNS));
  const features = await sql<Row>`SELECT pf.product_id, fd.ftidref, pf.occurrence, pf.funit, pf.position,
      pf.values_json, pf.details_json
    FROM product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id WHERE pf.product_id IN ${all}`.execute(
    db,
  );
  for (const row of features.rows)
    of(row.product_id).feature.push([
      row.product_id,
      row.ftidref,
      row.occurrence,
      row.funit,
      row.position,
      row.values_json,
      row.details_json,
    ]);
  for (const part of PARTS) {
    const found = await sql<Row>`SELECT ${cols(part.columns)} FROM ${sql.table(part.table)}
      WHERE product_id IN ${all}`.execute(db);
    for (const row of found.rows) {
      const parts = of(row.product_id).parts;
      (parts[part.table] ??= []).push(asArray(row, part.columns));
    }
  }

  await noteDeletions(db, rootIds, at);
  await sql`DELETE FROM product WHERE id IN ${idList(rootIds)}`.execute(db);
  // A deleted variant's main product lost a variant (deleted ones are simply not found).
  await touchProducts(
    db,
    roots.flatMap((r) => (r.master_id === null ? [] : [r.master_id])),
    at,
  );
  return {
    changes: rootIds.map((id) => ({ id, before: befores.get(id) })),
    unchanged: 0,
    variantsDeleted: variants.rows.length,
    deletedAlong: variants.rows.map((v) => v.id),
  };
}

/**
 * Inserts deleted products again under their old ids, with their variants and parts, stamped now
 * (revision one above the deleted one, so an old ETag does not match). A product whose id or
 * supplierPid (or a variant's) is taken by then is left alone; a group deleted meanwhile is left out.
 */
export async function restoreDeleted(
  db: WorkspaceDb,
  changes: readonly ChunkChange[],
  at: string,
): Promise<RestoreOutcome> {
  const { idList, bulk } = catalogueSql(db);
  const all = changes.map((c) => ({ root: c.id, d: (c.before as DeletedBefore).d }));
  const ids = all.flatMap((b) => b.d.product.map((p) => p[0] as number));
  const pids = all.flatMap((b) => b.d.product.map((p) => p[1] as string));
  const taken = await sql<{ id: number; supplier_pid: string }>`SELECT id, supplier_pid FROM product
    WHERE id IN ${idList(ids)} OR supplier_pid IN ${bulk.textList(pids)}`.execute(db);
  const takenIds = new Set(taken.rows.map((r) => r.id));
  const takenPids = new Set(taken.rows.map((r) => r.supplier_pid));
  const skipped: RestoreOutcome['skipped'] = [];
  const restoring = all.filter((b) => {
    const clash = b.d.product.find((p) => takenIds.has(p[0] as number) || takenPids.has(p[1] as string));
    if (clash)
      skipped.push({
        id: b.root,
        reason: takenIds.has(clash[0] as number)
          ? `product ${String(clash[0])} exists again`
          : `supplierPid ${String(clash[1])} is taken by another product since`,
      });
    return !clash;
  });
  if (restoring.length === 0) return { skipped, lost: [] };

  const groupOf = (p: unknown[]) => p[3] as number | null;
  const extraGroups = restoring.flatMap((b) =>
    (b.d.parts.product_extra_group ?? []).map((r) => r[2] as number),
  );
  const wanted = [
    ...new Set([...restoring.flatMap((b) => b.d.product.flatMap((p) => groupOf(p) ?? [])), ...extraGroups]),
  ];
  const groups =
    wanted.length === 0
      ? new Set<number>()
      : new Set(
          (
            await sql<{ id: number }>`SELECT id FROM product_group WHERE id IN ${idList(wanted)}`.execute(db)
          ).rows.map((r) => r.id),
        );
  const lost: string[] = [];
  const productRows = restoring
    .flatMap((b) => b.d.product)
    .sort((a, b) => (a[0] as number) - (b[0] as number))
    .map((p) => {
      const row = [...p];
      const group = groupOf(p);
      if (group !== null && !groups.has(group)) {
        lost.push(
          `Product ${String(p[0])} was in group ${group}, which has been deleted since: restored without group`,
        );
        row[3] = null;
      }
      row[5] = at;
      row[6] = (p[6] as number) + 1;
      return row;
    });
  await insertRows(db, 'product', PRODUCT_COLUMNS, productRows);

  const ftidrefs = [...new Set(restoring.flatMap((b) => b.d.feature.map((f) => f[1] as string)))];
  const featureIds = new Map<string, number>();
  for (const ftidref of ftidrefs) featureIds.set(ftidref, await ensureDefinition(db, ftidref));
  await insertRows(
    db,
    'product_feature',
    FEATURE_COLUMNS,
    restoring.flatMap((b) =>
      b.d.feature.map(([pid, ftidref, ...rest]) => [pid, featureIds.get(ftidref as string), ...rest]),
    ),
  );
  for (const part of PARTS) {
    let rows = restoring.flatMap((b) => b.d.parts[part.table] ?? []);
    if (part.table === 'product_extra_group') {
      rows = rows.filter((r) => {
        if (groups.has(r[2] as number)) return true;
        lost.push(`Product ${String(r[0])}'s other group ${String(r[2])} has been deleted since: left out`);
        return false;
      });
    }
    await insertRows(db, part.table, part.columns, rows);
  }
  // Back again: delta sync must not apply the old deletion after the product's new updatedAt.
  await sql`DELETE FROM product_deletion WHERE id IN ${idList(productRows.map((p) => p[0] as number))}`.execute(
    db,
  );
  await touchProducts(
    db,
    restoring.map((b) => b.root),
    at,
  );
  return { skipped, lost };
}

async function insertRows(
  db: WorkspaceDb,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const picked = sql.join(columns.map(([name]) => sql.ref(`j.${name}`)));
  await sql`INSERT INTO ${sql.table(table)} (${cols(columns)})
    SELECT ${picked} FROM ${catalogueSql(db).bulk.rows(columns, rows)}`.execute(db);
}
