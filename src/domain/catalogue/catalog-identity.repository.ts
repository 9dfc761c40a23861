import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { CATALOG_IDENTITY_FIELDS, type CatalogIdentity } from './catalog-identity.schemas.js';

/** Kept in the workspace's meta table, one row per field that is set. */
const KEY_PREFIX = 'identity.';

export async function selectCatalogIdentity(db: WorkspaceDb): Promise<CatalogIdentity> {
  const rows = await db
    .selectFrom('meta')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      CATALOG_IDENTITY_FIELDS.map((f) => KEY_PREFIX + f),
    )
    .execute();
  const stored = new Map(rows.map((r) => [r.key.slice(KEY_PREFIX.length), r.value]));
  return Object.fromEntries(
    CATALOG_IDENTITY_FIELDS.map((f) => [f, stored.get(f) ?? null]),
  ) as CatalogIdentity;
}

export async function writeCatalogIdentityField(
  db: WorkspaceDb,
  field: keyof CatalogIdentity,
  value: string | null,
): Promise<void> {
  const key = KEY_PREFIX + field;
  if (value === null) {
    await db.deleteFrom('meta').where('key', '=', key).execute();
    return;
  }
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
