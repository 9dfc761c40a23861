import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { findGroupKey } from '../groups/group.repository.js';
import { groupNotFound } from '../groups/group.service.js';
import { existingIds, selectionIds } from './product-grid.repository.js';
import { gridFilter } from './product-grid.service.js';
import type { ProductSelectionValue } from './product-selection.schemas.js';

const FILTER_KEYS = [
  'q',
  'groupId',
  'includeSubgroups',
  'mainOnly',
  'updatedSince',
  'textLang',
  'text',
  'ftidref',
  'feature',
] as const;

/** How many unknown ids an error names (the rest are counted). */
const NAMED_IDS = 10;

/**
 * The ids of the products a selection names, in id order, resolved on the server in one read.
 * Ids that are not products answer 404 naming them: a mass edit or export of "these 40 products"
 * that silently did 39 would hide a mistake. Read right; the work that follows checks its own.
 */
export async function resolveSelection(
  context: RequestContext,
  select: ProductSelectionValue,
): Promise<number[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const withVariants = select.includeVariants ?? false;
  if (select.ids !== undefined) {
    const filter = FILTER_KEYS.find((key) => select[key] !== undefined);
    if (filter !== undefined) {
      throw Object.assign(
        new ValidationError(`ids cannot be combined with ${filter}: give the ids or the filters`),
        {
          field: filter,
        },
      );
    }
    const wanted = [...new Set(select.ids)];
    const found = await existingIds(ctx.db, wanted, withVariants);
    const known = new Set(found);
    const missing = wanted.filter((id) => !known.has(id));
    if (missing.length > 0) {
      const named = missing.slice(0, NAMED_IDS).join(', ');
      const more = missing.length > NAMED_IDS ? ` and ${missing.length - NAMED_IDS} more` : '';
      throw new NotFoundError(`No product with id ${named}${more}: nothing was done`, 'PRODUCT_NOT_FOUND');
    }
    return found;
  }
  if (select.includeSubgroups !== undefined && select.groupId === undefined) {
    throw Object.assign(new ValidationError('includeSubgroups needs groupId'), { field: 'groupId' });
  }
  if (select.groupId !== undefined && !(await findGroupKey(ctx.db, select.groupId))) {
    throw Object.assign(groupNotFound(select.groupId), { field: 'groupId' });
  }
  const filter = gridFilter({
    q: select.q,
    groupId: select.groupId,
    subgroups: select.includeSubgroups,
    main: select.mainOnly,
    updatedSince: select.updatedSince,
    textLang: select.textLang,
    text: select.text,
    ftidref: select.ftidref,
    feature: select.feature,
  });
  return selectionIds(ctx.db, filter, withVariants);
}
