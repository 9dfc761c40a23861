import { sql } from 'kysely';
import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { WorkspaceContext } from '../context.js';
import { entriesJson, mergeEntries, parseEntries } from '../features/entry-list.rules.js';
import { selectGroupRows } from '../groups/group.repository.js';
import { nameLanguages } from '../groups/group.service.js';
import type { MassEditPlan } from './mass-edit-plan.js';
import type { MassEditPreviewItemValue } from './mass-edit.schemas.js';

type Part = MassEditPreviewItemValue['before'];

interface ProductHead {
  id: number;
  supplier_pid: string;
  group_id: number | null;
  variant_count: number;
}

/**
 * The first products of a selection before and after the action, exactly the part it changes,
 * with the same rules as the chunks (mass-edit-actions.ts): whether it changes decides the same
 * way. A handful of products, so read one by one.
 */
export async function previewItems(
  ctx: WorkspaceContext,
  plan: MassEditPlan,
  ids: readonly number[],
): Promise<MassEditPreviewItemValue[]> {
  if (ids.length === 0) return [];
  const db = ctx.db;
  const heads = await db
    .selectFrom('product')
    .select(['id', 'supplier_pid', 'group_id', 'variant_count'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  const items: MassEditPreviewItemValue[] = [];
  for (const head of heads) items.push(await previewOne(ctx, plan, head));
  return items;
}

async function previewOne(
  ctx: WorkspaceContext,
  plan: MassEditPlan,
  head: ProductHead,
): Promise<MassEditPreviewItemValue> {
  const db = ctx.db;
  const item = (before: Part, after: Part, changes: boolean) => ({
    id: head.id,
    supplierPid: head.supplier_pid,
    before,
    after,
    changes,
  });
  switch (plan.name) {
    case 'setText': {
      const row = await db
        .selectFrom('product_text')
        .select('value')
        .where('product_id', '=', head.id)
        .where('kind', '=', plan.kind)
        .where('lang', '=', plan.lang)
        .executeTakeFirst();
      const before = row?.value ?? null;
      return item(before, plan.value, before !== plan.value);
    }
    case 'setFeature':
    case 'removeFeature': {
      const def = await db
        .selectFrom('feature_def')
        .select(['id', 'default_unit'])
        .where('ftidref', '=', plan.ftidref)
        .executeTakeFirst();
      const row = def
        ? await db
            .selectFrom('product_feature')
            .select(['funit', 'values_json'])
            .where('product_id', '=', head.id)
            .where('feature_id', '=', def.id)
            .where('occurrence', '=', 1)
            .executeTakeFirst()
        : undefined;
      const defaultUnit = def?.default_unit ?? null;
      const before = row ? { funit: row.funit ?? defaultUnit, values: parseEntries(row.values_json) } : null;
      if (plan.name === 'removeFeature') return item(before, null, before !== null);
      const funit = plan.funit !== undefined ? plan.funit : (row?.funit ?? null);
      const values = mergeEntries(before?.values ?? [], plan.values);
      const changes = !row || row.funit !== funit || entriesJson(before!.values) !== entriesJson(values);
      return item(before, { funit: funit ?? defaultUnit, values }, changes);
    }
    case 'assignGroup':
    case 'unassignGroup': {
      const target = plan.name === 'assignGroup' ? plan.groupId : null;
      const before = await groupPart(ctx, head.group_id);
      return item(before, await groupPart(ctx, target), head.group_id !== target);
    }
    case 'delete':
      return item(
        { deleted: false, variants: head.variant_count },
        { deleted: true, variants: head.variant_count },
        true,
      );
  }
}

async function groupPart(ctx: WorkspaceContext, id: number | null): Promise<Part> {
  if (id === null) return null;
  const [row] = await selectGroupRows(ctx.db, nameLanguages(ctx), id);
  return row ? { id: row.id, name: row.name } : null;
}

/** The variants a delete of `ids` takes with it that `ids` does not name. */
export async function variantsTakenAlong(db: WorkspaceDb, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = catalogueSql(db).idList(ids);
  const row = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM product
    WHERE master_id IN ${list} AND id NOT IN ${list}`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}
