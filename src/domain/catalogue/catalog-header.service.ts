import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { FRAGMENTS_MAX } from '../products/product-model.rules.js';
import type { Fragment } from '../products/product-model.schemas.js';
import { checkFragments } from '../products/product-parts.rules.js';
import { replaceCatalogFragments, selectCatalogFragments } from './catalog-header.repository.js';

/**
 * The catalogue header's content pim does not model (BMEcat HEADER: CATALOG, SUPPLIER, BUYER, ...),
 * kept verbatim per workspace with its place, so that an export can write it back unchanged.
 */

export async function getCatalogHeader(context: RequestContext): Promise<Fragment[]> {
  return selectCatalogFragments(useWorkspace(context, RIGHTS.read).db);
}

/** Replaces the kept header content as a whole. */
export async function setCatalogHeader(
  context: RequestContext,
  fragments: readonly Fragment[],
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  if (fragments.length > FRAGMENTS_MAX) {
    throw new ValidationError(`fragments are at most ${FRAGMENTS_MAX}, these are ${fragments.length}`);
  }
  const checked = checkFragments(fragments);
  await ctx.transaction((trx) => replaceCatalogFragments(trx, checked));
}
