import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { FRAGMENTS_MAX, MODEL_FIELD_MAX } from '../products/product-model.rules.js';
import { atField, ValidationError } from '../errors.js';
import { checkLength, TEXT_VALUE_MAX } from '../texts/text.rules.js';
import * as repo from './group.repository.js';
import { groupNotFound } from './group.service.js';

/**
 * The GROUP_ID a catalogue gave a group (BMEcat's CATALOG_STRUCTURE), kept beside pim's own
 * hierarchical id so that an export can write the supplier's ids back; null removes it. The
 * product sheet shows it in `groups`.
 */
export async function setCatalogGroupId(
  context: RequestContext,
  id: number,
  catalogGroupId: string | null,
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  if (catalogGroupId !== null) checkLength(catalogGroupId, 'catalogGroupId', MODEL_FIELD_MAX, 1);
  await ctx.transaction(async (trx) => {
    if (!(await repo.lockGroupRow(trx, id))) throw groupNotFound(id);
    await repo.setCatalogGroupId(trx, id, catalogGroupId);
    await repo.touchGroup(trx, id, ctx.clock.now().toISOString());
  });
}

/** The group a catalogue gave this GROUP_ID (the first by id, should several carry it), or undefined. */
export async function findGroupByCatalogId(
  context: RequestContext,
  catalogGroupId: string,
): Promise<number | undefined> {
  return repo.findGroupIdByCatalogId(useWorkspace(context, RIGHTS.read).db, catalogGroupId);
}

/**
 * What a catalogue's CATALOG_STRUCTURE held beyond the model (GROUP_DESCRIPTION, GROUP_ORDER,
 * MIME_INFO, extensions...), each element's XML verbatim in the schema's order, for an export to
 * write back; an empty list removes it. Checked for size only: the importer's reader wrote them.
 */
export async function setCatalogGroupContent(
  context: RequestContext,
  id: number,
  kept: readonly string[],
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  if (kept.length > FRAGMENTS_MAX)
    throw atField(new ValidationError(`kept must hold at most ${FRAGMENTS_MAX} elements`), 'kept');
  kept.forEach((xml, i) => checkLength(xml, `kept[${i}]`, TEXT_VALUE_MAX, 1));
  await ctx.transaction(async (trx) => {
    if (!(await repo.lockGroupRow(trx, id))) throw groupNotFound(id);
    await repo.setKeptContent(trx, id, kept);
    await repo.touchGroup(trx, id, ctx.clock.now().toISOString());
  });
}
