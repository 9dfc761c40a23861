import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { Fragment } from '../products/product-model.schemas.js';
import { insertInSlices } from '../products/product-parts.repository.js';

/** The catalogue header's kept content, in order. */
export function selectCatalogFragments(db: WorkspaceDb): Promise<Fragment[]> {
  return db.selectFrom('catalog_fragment').select(['place', 'xml']).orderBy('position').execute();
}

/** Replaces the kept header content as a whole. */
export async function replaceCatalogFragments(
  db: WorkspaceDb,
  fragments: readonly Fragment[],
): Promise<void> {
  await db.deleteFrom('catalog_fragment').execute();
  await insertInSlices(
    db,
    'catalog_fragment',
    fragments.map((f, i) => ({ position: i + 1, ...f })),
  );
}
