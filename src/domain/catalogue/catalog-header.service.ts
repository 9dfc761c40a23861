import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { FRAGMENTS_MAX } from '../products/product-model.rules.js';
import type { Fragment } from '../products/product-model.schemas.js';
import { checkFragments } from '../products/product-parts.rules.js';

/**
 * The catalogue header's content pim does not model (BMEcat HEADER: CATALOG, SUPPLIER, BUYER, ...),
 * kept verbatim per workspace with its place, so that an export can write it back unchanged.
 */

export async function getCatalogHeader(context: RequestContext): Promise<Fragment[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return ctx.db.selectFrom('catalog_fragment').select(['place', 'xml']).orderBy('position').execute();
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
  await ctx.transaction(async (trx) => {
    await trx.deleteFrom('catalog_fragment').execute();
    for (let start = 0; start < checked.length; start += 500) {
      await trx
        .insertInto('catalog_fragment')
        .values(checked.slice(start, start + 500).map((f, i) => ({ position: start + i + 1, ...f })))
        .execute();
    }
  });
}
