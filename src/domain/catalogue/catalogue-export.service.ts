import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { parseEntries } from '../features/entry-list.rules.js';
import { groupNotFound } from '../groups/group.service.js';
import { normalizeLanguage } from '../languages/language.js';
import { gridPlaces } from '../products/product-grid.repository.js';
import type { FeatureDetailsValue, Fragment, Media } from '../products/product-model.schemas.js';
import type { ProductFieldKey } from '../../db/catalogue/product-fields.js';
import type { TextEntry } from '../texts/text.repository.js';
import { selectCatalogFragments } from './catalog-header.repository.js';
import { selectCatalogIdentity } from './catalog-identity.repository.js';
import type { CatalogIdentity } from './catalog-identity.schemas.js';
import * as repo from './catalogue-export.repository.js';

/**
 * What a writer of a whole catalogue (the BMEcat export, src/interchange/) reads besides the
 * products: the kept header and catalogue content, the group tree with every name, the feature
 * definitions and the languages in use. Read rights only.
 */

export interface OutlineGroup {
  id: number;
  parentId: number | null;
  /** pim's hierarchical id (ProductGroupDto.groupId). */
  groupId: string;
  /** The GROUP_ID a catalogue gave the group, if any. */
  catalogGroupId: string | null;
  names: TextEntry[];
  /** Its CATALOG_STRUCTURE's elements beyond the model, verbatim, in the schema's order. */
  kept: string[];
}

export interface OutlineFeature {
  ftidref: string;
  defaultUnit: string | null;
  names: TextEntry[];
}

export interface CatalogueOutline {
  workspaceName: string;
  defaultLanguage: string;
  /** The languages of the catalogue's texts, the default first. */
  languages: string[];
  /** Kept catalogue content (the HEADER, the transaction's other elements), with its place. */
  fragments: Fragment[];
  /** The HEADER's ids and names as set in pim (null: as the kept HEADER says, else the workspace's name). */
  identity: CatalogIdentity;
  /** Groups parents first (by id within a parent's children). */
  groups: OutlineGroup[];
  features: OutlineFeature[];
}

export async function getCatalogueOutline(
  context: RequestContext,
  options: { groupId?: number } = {},
): Promise<CatalogueOutline> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return ctx.snapshot(async (db) => {
    const [rows, names, features, languages, fragments, identity] = [
      await repo.selectOutlineGroups(db),
      await repo.selectGroupNames(db),
      await repo.selectFeatureDefinitions(db),
      await repo.selectTextLanguages(db),
      await selectCatalogFragments(db),
      await selectCatalogIdentity(db),
    ];
    const namesOf = new Map<number, TextEntry[]>();
    for (const n of names) {
      const list = namesOf.get(n.group_id) ?? [];
      list.push({ lang: n.lang, value: n.value });
      namesOf.set(n.group_id, list);
    }
    let groups: OutlineGroup[] = rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      groupId: r.bmecat_id,
      catalogGroupId: r.catalog_group_id,
      names: namesOf.get(r.id) ?? [],
      kept: r.kept_xml === null ? [] : (JSON.parse(r.kept_xml) as string[]),
    }));
    if (options.groupId !== undefined) {
      const top = groups.find((g) => g.id === options.groupId);
      if (!top) throw groupNotFound(options.groupId);
      groups = groups.filter((g) => g.id === top.id || g.groupId.startsWith(`${top.groupId}.`));
    }
    const fallback = ctx.workspace.defaultLanguage;
    return {
      workspaceName: ctx.workspace.name,
      defaultLanguage: fallback,
      languages: [fallback, ...languages.filter((l) => l !== fallback)],
      fragments,
      identity,
      groups: parentsFirst(groups),
      features: features.map((f) => ({
        ftidref: f.ftidref,
        defaultUnit: f.default_unit,
        names: parseEntries(f.names_json),
      })),
    };
  });
}

/** Groups ordered so that each comes after its parent (a group whose parent is not listed is a top). */
function parentsFirst(groups: readonly OutlineGroup[]): OutlineGroup[] {
  const listed = new Set(groups.map((g) => g.id));
  const children = new Map<number | null, OutlineGroup[]>();
  for (const g of groups) {
    const parent = g.parentId !== null && listed.has(g.parentId) ? g.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(g);
    children.set(parent, list);
  }
  const ordered: OutlineGroup[] = [];
  const visit = (parent: number | null) => {
    for (const g of children.get(parent) ?? []) {
      ordered.push(g);
      visit(g.id);
    }
  };
  visit(null);
  return ordered;
}

export interface ExportPageQuery {
  /** Products of this group and its subgroups only. */
  groupId?: number;
  /** `main`: main products only; `variants`: variants only. */
  kind: 'main' | 'variants';
  /** Products after this id (keyset). */
  afterId?: number;
  limit: number;
}

/**
 * What a catalogue's writer needs of a product: the sheet's parts it writes (ProductSheetDto's
 * shapes), without the names and the variants a reader's sheet adds. Read in one statement per page.
 */
export type ExportSheet = { [K in ProductFieldKey]: string | null } & {
  id: number;
  supplierPid: string;
  masterProductId: number | null;
  shortTexts: TextEntry[];
  longTexts: TextEntry[];
  features: ExportFeature[];
  /** The product's first group (the sheet's group), if any. */
  groupId: number | null;
  /** The other groups a catalogue gave it, in order. */
  otherGroupIds: number[];
  keywords: TextEntry[];
  media: Media[];
  fragments: Fragment[];
};

export interface ExportFeature {
  ftidref: string;
  funit: string | null;
  /** The definition's names, where the product kept an FTEMPLATE (which writes them); else null. */
  names: TextEntry[] | null;
  values: TextEntry[];
  details: FeatureDetailsValue | null;
}

/** A page of products in id order, for a writer that goes through the whole catalogue. */
export async function getExportPage(
  context: RequestContext,
  query: ExportPageQuery,
): Promise<{ sheets: ExportSheet[]; lastId: number | undefined }> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const places = await gridPlaces(
    ctx.db,
    {
      groupId: query.groupId,
      subgroups: query.groupId !== undefined,
      main: query.kind === 'main',
      variantsOnly: query.kind === 'variants',
    },
    { sort: 'id', desc: false, lang: ctx.workspace.defaultLanguage },
    query.afterId === undefined ? undefined : { after: { key: null, id: query.afterId } },
    query.limit,
  );
  const ids = places.map((p) => p.id);
  // A product deleted since its id was read is left out.
  const texts = ids.length === 0 ? [] : await ctx.reads.exportSheetsJson(ids);
  return { sheets: texts.map((json) => JSON.parse(json) as ExportSheet), lastId: ids.at(-1) };
}

/** Checks a list of languages (ISO 639-2) for an export, normalised. */
export function exportLanguages(codes: readonly string[]): string[] {
  return codes.map((code) => normalizeLanguage(code, 'languages'));
}
