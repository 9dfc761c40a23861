import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { entriesJson } from '../features/entry-list.rules.js';
import { assignProducts, reserveGroup, ungroupProduct } from '../groups/group.service.js';
import type { TextEntry } from '../texts/text.repository.js';
import { lockProduct } from './product.guards.js';
import { touchProducts } from './product.repository.js';
import { ensureDefinitions } from './product-bulk-write.repository.js';
import {
  replaceExtraGroups,
  replaceFeatureOccurrences,
  replaceFragments,
  replaceKeywords,
  replaceMedia,
} from './product-parts.repository.js';
import {
  checkFragments,
  checkGroupIds,
  checkKeywords,
  checkMedia,
  checkOccurrences,
  type CheckedOccurrence,
} from './product-parts.rules.js';
import type { FeatureOccurrenceValue, Fragment, Media } from './product-model.schemas.js';

/**
 * The product model's parts of a sheet write (product-model.schemas.ts): each part sent
 * replaces the product's part as a whole. Checked before anything is written (checkParts),
 * then written in the caller's transaction (writeParts).
 */
export interface ModelParts {
  keywords?: TextEntry[];
  media?: Media[];
  groupIds?: number[];
  fragments?: Fragment[];
  allFeatures?: FeatureOccurrenceValue[];
}

export interface CheckedParts {
  keywords?: TextEntry[];
  media?: ReturnType<typeof checkMedia>;
  groupIds?: number[];
  fragments?: Fragment[];
  allFeatures?: CheckedOccurrence[];
}

/** Whether a write carries any of the model's parts. */
export function hasParts(parts: ModelParts | CheckedParts): boolean {
  return (
    parts.keywords !== undefined ||
    parts.media !== undefined ||
    parts.groupIds !== undefined ||
    parts.fragments !== undefined ||
    parts.allFeatures !== undefined
  );
}

/** The values the parts hold, counted against a call's bound as texts and feature values are. */
export function partRows(parts: ModelParts): number {
  let rows = parts.keywords?.length ?? 0;
  for (const occurrence of parts.allFeatures ?? []) rows += Math.max(1, occurrence.values.length);
  return rows;
}

export function checkParts(parts: ModelParts): CheckedParts {
  return {
    keywords: parts.keywords && checkKeywords(parts.keywords),
    media: parts.media && checkMedia(parts.media),
    groupIds: parts.groupIds && checkGroupIds(parts.groupIds),
    fragments: parts.fragments && checkFragments(parts.fragments),
    allFeatures: parts.allFeatures && checkOccurrences(parts.allFeatures),
  };
}

/** Refuses a write that sends a part both ways (features and allFeatures, groupId and groupIds). */
export function checkExclusive(input: { features?: unknown; groupId?: unknown } & ModelParts): void {
  if (input.features !== undefined && input.allFeatures !== undefined) {
    throw new ValidationError('Send features (set some) or allFeatures (replace all), not both');
  }
  if (input.groupId !== undefined && input.groupIds !== undefined) {
    throw new ValidationError('Send groupId (the first group) or groupIds (every group), not both');
  }
}

/** Locks the groups a write names against deletion, first (the order of an assignment). */
export async function reserveGroups(context: RequestContext, parts: CheckedParts): Promise<void> {
  for (const groupId of parts.groupIds ?? []) await reserveGroup(context, groupId);
}

/** Writes the parts sent of product `id` in the caller's transaction (reserveGroups before). */
export async function writeParts(context: RequestContext, id: number, parts: CheckedParts): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  if (!hasParts(parts)) return;
  await ctx.transaction(async (trx) => {
    await lockProduct(trx, id);
    if (parts.keywords) await replaceKeywords(trx, id, parts.keywords);
    if (parts.media) await replaceMedia(trx, id, parts.media);
    if (parts.fragments) await replaceFragments(trx, id, parts.fragments);
    if (parts.allFeatures) {
      const { byFtidref: definitions } = await ensureDefinitions(trx, [
        ...new Set(parts.allFeatures.map((o) => o.ftidref)),
      ]);
      await replaceFeatureOccurrences(
        trx,
        id,
        parts.allFeatures.map((o) => ({
          featureId: definitions.get(o.ftidref)!,
          funit: o.funit,
          valuesJson: entriesJson(o.values),
          detailsJson: o.detailsJson,
        })),
      );
    }
    if (parts.groupIds) {
      const [first, ...others] = parts.groupIds;
      if (first === undefined) await ungroupProduct({ ...ctx, trx }, id);
      else await assignProducts({ ...ctx, trx }, first, [id]);
      await replaceExtraGroups(trx, id, others);
    }
    await touchProducts(trx, [id], ctx.clock.now().toISOString());
  });
}
