import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { entriesJson } from '../features/entry-list.rules.js';
import type { PartsPlan, PlannedDocument } from './product-bulk-plan.js';
import { deletePartRows, insertPartRows, type PartTable } from './product-bulk-parts.repository.js';

/**
 * The model's parts of a batch on the bulk upsert's fast path: the rows writeParts
 * (product-parts.service.ts) writes for one product, positions and occurrences numbered as
 * product-parts.repository.ts numbers them, for every document at once. The products are
 * locked (product-bulk-fast.ts) and the groups they name too.
 */

type Row = readonly unknown[];

/** How each part becomes a table's rows for product `id`; `definitions`: feature ids by ftidref. */
const PARTS: readonly {
  table: PartTable;
  sent: (parts: PartsPlan) => boolean;
  rows: (id: number, parts: PartsPlan, definitions: ReadonlyMap<string, number>) => Row[];
}[] = [
  {
    table: 'product_keyword',
    sent: (parts) => parts.keywords !== undefined,
    rows: (id, { keywords = [] }) => keywords.map(({ lang, value }, i) => [id, lang, i + 1, value]),
  },
  {
    table: 'product_media',
    sent: (parts) => parts.media !== undefined,
    rows: (id, { media = [] }) =>
      media.map((m, i) => [id, i + 1, m.type, m.source, m.descriptionsJson, m.purpose, m.order]),
  },
  {
    table: 'product_fragment',
    sent: (parts) => parts.fragments !== undefined,
    rows: (id, { fragments = [] }) => fragments.map(({ place, xml }, i) => [id, i + 1, place, xml]),
  },
  {
    table: 'product_extra_group',
    sent: (parts) => parts.extraGroups !== undefined,
    rows: (id, { extraGroups = [] }) => extraGroups.map((groupId, i) => [id, i + 1, groupId]),
  },
  {
    table: 'product_feature',
    sent: (parts) => parts.allFeatures !== undefined,
    rows: (id, { allFeatures = [] }, definitions) => {
      // The nth occurrence of a feature id in the product (product-parts.repository.ts).
      const counts = new Map<number, number>();
      return allFeatures.map((o, i) => {
        const featureId = definitions.get(o.ftidref)!;
        const occurrence = (counts.get(featureId) ?? 0) + 1;
        counts.set(featureId, occurrence);
        return [id, featureId, occurrence, o.funit, i + 1, entriesJson(o.values), o.detailsJson];
      });
    },
  },
];

/** Replaces the parts each document sends: the stored products' rows go, the new rows come in. */
export async function writeBatchParts(
  db: WorkspaceDb,
  planned: readonly PlannedDocument[],
  definitions: ReadonlyMap<string, number>,
): Promise<void> {
  for (const part of PARTS) {
    const sending = planned.filter((p) => part.sent(p.parts));
    if (sending.length === 0) continue;
    await deletePartRows(
      db,
      part.table,
      sending.filter((p) => !p.created).map((p) => p.ref.id!),
    );
    await insertPartRows(
      db,
      part.table,
      sending.flatMap((p) => part.rows(p.ref.id!, p.parts, definitions)),
    );
  }
}
