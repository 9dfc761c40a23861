import type { CatalogueOutline, OutlineGroup } from '../../domain/catalogue/catalogue-export.service.js';
import { bmecatElementName, isBmecatNamespace } from './bmecat-names.js';
import { fragmentName, inSchemaOrder, type Placed } from './bmecat-schema-order.js';
import { xmlElement, type ExportProblems } from './bmecat-xml-writer.js';
import { childrenNamed, elementChildren, readXmlRecords, textOf, type XmlElement } from './xml-records.js';
import { escapeText, serializeXml } from './xml-serialize.js';

/**
 * The parts of a BMEcat document around the products: the root, the HEADER, the feature
 * definitions and the group system, from the catalogue's outline and its kept content.
 */

export type BmecatFormat = '2005' | '2005.1';

export const FORMAT_NAMESPACES: Record<BmecatFormat, string> = {
  '2005': 'http://www.bmecat.org/bmecat/2005',
  '2005.1': 'http://www.bmecat.org/bmecat/2005.1',
};

/** The name of the classification system pim writes its feature definitions in (2005.1 forbids FEATURE_SYSTEM). */
export const PIM_FEATURE_SYSTEM = 'PIM-1.0';

/** The GROUP_ID of the root an export writes when the catalogue kept none. */
const ROOT_GROUP_ID = 'pim-root';

export function documentStart(format: BmecatFormat): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="${format}" xmlns="${FORMAT_NAMESPACES[format]}">\n`;
}

export const DOCUMENT_END = '</BMECAT>\n';

/** Parses a kept fragment (well-formed by construction: pim wrote it from a parsed element). */
export async function parseFragment(xml: string): Promise<XmlElement> {
  async function* once() {
    yield xml;
  }
  for await (const event of readXmlRecords(once(), bmecatElementName, (path) => path.length === 1)) {
    if (event.type === 'record') return event.element;
  }
  throw new Error('A kept fragment holds no element');
}

function el(problems: ExportProblems, name: string, value: string, attributes?: Record<string, string>) {
  return xmlElement(name, value, attributes, (message) => problems.add(null, message));
}

/**
 * The HEADER: the one the catalogue was imported with (kept whole), with the exported languages,
 * today's GENERATION_DATE and the ids and names set in pim (outline.identity) in place of the
 * file's; without one, a HEADER of those, the workspace's name standing in for what is not set.
 */
export async function headerXml(
  outline: CatalogueOutline,
  languages: readonly string[],
  now: Date,
  problems: ExportProblems,
): Promise<string> {
  const date = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const languageXml = languages
    .map((lang, index) =>
      index === 0 ? el(problems, 'LANGUAGE', lang, { default: 'true' }) : el(problems, 'LANGUAGE', lang),
    )
    .join('');
  const id = outline.identity;
  const supplierIdXml =
    id.supplierId === null
      ? ''
      : el(
          problems,
          'SUPPLIER_ID',
          id.supplierId,
          id.supplierIdType ? { type: id.supplierIdType } : undefined,
        );
  const kept = outline.fragments.find((f) => f.place === 'HEADER');
  if (!kept) {
    const name = outline.workspaceName;
    return (
      `<HEADER>${el(problems, 'GENERATOR_INFO', 'pim')}<CATALOG>${languageXml}` +
      `${el(problems, 'CATALOG_ID', id.catalogId ?? name.slice(0, 20))}` +
      `${el(problems, 'CATALOG_VERSION', id.catalogVersion ?? '1.0')}` +
      `${el(problems, 'CATALOG_NAME', id.catalogName ?? name)}${el(problems, 'GENERATION_DATE', date)}</CATALOG>` +
      `<SUPPLIER>${supplierIdXml}${el(problems, 'SUPPLIER_NAME', id.supplierName ?? name.slice(0, 50))}` +
      `</SUPPLIER></HEADER>\n`
    );
  }
  const header = await parseFragment(kept.xml);
  const set: Record<string, string | null> = {
    CATALOG_ID: id.catalogId,
    CATALOG_VERSION: id.catalogVersion,
    CATALOG_NAME: id.catalogName,
  };
  const children = elementChildren(header);
  const parts = children.map((child) => {
    if (child.name === 'SUPPLIER') return supplierXml(child, supplierIdXml, id.supplierName, problems);
    if (child.name !== 'CATALOG') return serializeXml(child, isBmecatNamespace);
    const catalog: Placed[] = [{ name: 'LANGUAGE', xml: languageXml }];
    for (const part of elementChildren(child)) {
      if (part.name === 'LANGUAGE' || part.name === 'GENERATION_DATE') continue;
      if (part.name === 'DATETIME' && part.attributes.type === 'generation_date') continue;
      if ((set[part.name] ?? null) !== null) continue;
      catalog.push({ name: part.name, xml: serializeXml(part, isBmecatNamespace) });
    }
    for (const [name, value] of Object.entries(set)) {
      if (value !== null) catalog.push({ name, xml: el(problems, name, value) });
    }
    catalog.push({ name: 'GENERATION_DATE', xml: el(problems, 'GENERATION_DATE', date) });
    return `<CATALOG>${inCatalogOrder(catalog)}</CATALOG>`;
  });
  if ((id.supplierId !== null || id.supplierName !== null) && !children.some((c) => c.name === 'SUPPLIER')) {
    problems.add(
      null,
      "the kept HEADER names its supplier by SUPPLIER_IDREF: the supplier's id and name set in pim are not written",
    );
  }
  return `<HEADER>${parts.join('')}</HEADER>\n`;
}

/** A kept SUPPLIER with the id and the name set in pim in place of its own (SUPPLIER_ID*, SUPPLIER_NAME first). */
function supplierXml(
  supplier: XmlElement,
  supplierIdXml: string,
  name: string | null,
  problems: ExportProblems,
): string {
  const parts = elementChildren(supplier)
    .filter((part) => !(supplierIdXml !== '' && part.name === 'SUPPLIER_ID'))
    .map((part) =>
      part.name === 'SUPPLIER_NAME' && name !== null
        ? el(problems, 'SUPPLIER_NAME', name)
        : serializeXml(part, isBmecatNamespace),
    );
  return `<SUPPLIER>${supplierIdXml}${parts.join('')}</SUPPLIER>`;
}

const CATALOG_ORDER = [
  'LANGUAGE',
  'LOCALE',
  'CATALOG_ID',
  'CATALOG_VERSION',
  'CATALOG_NAME',
  'GENERATION_DATE',
  'DATETIME',
];

function inCatalogOrder(items: Placed[]): string {
  const rank = (name: string) => {
    const index = CATALOG_ORDER.indexOf(name);
    return index < 0 ? CATALOG_ORDER.length : index;
  };
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item.name) - rank(b.item.name) || a.index - b.index)
    .map(({ item }) => item.xml)
    .join('');
}

/**
 * The transaction's content before the products: the kept classification systems, pim's own with
 * every feature definition that has a name, and the group system.
 */
export async function catalogueStartXml(
  outline: CatalogueOutline,
  wanted: (lang: string) => boolean,
  groupIds: Map<number, string>,
  problems: ExportProblems,
): Promise<string> {
  const items: Placed[] = [];
  for (const f of outline.fragments.filter((f) => f.place === 'T_NEW_CATALOG')) {
    const name = fragmentName(f.xml);
    // 2005.1 forbids FEATURE_SYSTEM: its definitions are pim's (below); products and mappings are not kept here.
    if (name === 'FEATURE_SYSTEM' || name === 'PRODUCT' || name === 'PRODUCT_TO_CATALOGGROUP_MAP') continue;
    items.push({ name, xml: f.xml });
  }
  const templates = outline.features
    .filter((f) => f.names.some((n) => wanted(n.lang)))
    .map(
      (f) =>
        `<CLASSIFICATION_SYSTEM_FEATURE_TEMPLATE>${el(problems, 'FT_ID', f.ftidref)}${f.names
          .filter((n) => wanted(n.lang))
          .map((n) => el(problems, 'FT_NAME', n.value, n.lang === 'zxx' ? undefined : { lang: n.lang }))
          .join('')}</CLASSIFICATION_SYSTEM_FEATURE_TEMPLATE>`,
    );
  if (templates.length > 0)
    items.push({
      name: 'CLASSIFICATION_SYSTEM',
      xml:
        `<CLASSIFICATION_SYSTEM>${el(problems, 'CLASSIFICATION_SYSTEM_NAME', PIM_FEATURE_SYSTEM)}` +
        `<CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES>${templates.join('\n')}</CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES>` +
        `</CLASSIFICATION_SYSTEM>`,
    });
  const groups = await groupSystemXml(outline, wanted, groupIds, problems);
  if (groups !== '') items.push({ name: 'CATALOG_GROUP_SYSTEM', xml: groups });
  return items.length === 0 ? '' : `${inSchemaOrder('T_NEW_CATALOG', items)}\n`;
}

/**
 * The CATALOG_GROUP_SYSTEM: the root (the kept one, or pim's), then every group parents first
 * with its GROUP_ID (the catalogue's, else pim's id; `groupIds` receives each group's), its names
 * and its parent. Empty when the workspace has no group and kept no group system.
 */
async function groupSystemXml(
  outline: CatalogueOutline,
  wanted: (lang: string) => boolean,
  groupIds: Map<number, string>,
  problems: ExportProblems,
): Promise<string> {
  const kept = outline.fragments.filter((f) => f.place === 'T_NEW_CATALOG/CATALOG_GROUP_SYSTEM');
  const keptRoot = kept.find((f) => fragmentName(f.xml) === 'CATALOG_STRUCTURE');
  if (outline.groups.length === 0 && kept.length === 0) return '';
  const items: Placed[] = kept
    .filter((f) => f !== keptRoot)
    .map((f) => ({ name: fragmentName(f.xml), xml: f.xml }));
  let rootId = ROOT_GROUP_ID;
  if (keptRoot) {
    const root = await parseFragment(keptRoot.xml);
    rootId = textOf(childrenNamed(root, 'GROUP_ID')[0] ?? root).trim() || ROOT_GROUP_ID;
    items.push({ name: 'CATALOG_STRUCTURE', xml: keptRoot.xml });
  }
  const taken = new Set([
    rootId,
    ...outline.groups.flatMap((g) => (g.catalogGroupId === null ? [] : [g.catalogGroupId])),
  ]);
  for (const g of outline.groups) {
    let id = g.catalogGroupId;
    if (id === null) {
      id = taken.has(g.groupId) ? `pim-${g.groupId}` : g.groupId;
      taken.add(id);
    }
    groupIds.set(g.id, id);
  }
  if (!keptRoot)
    items.push({
      name: 'CATALOG_STRUCTURE',
      xml:
        `<CATALOG_STRUCTURE type="root">${el(problems, 'GROUP_ID', rootId)}` +
        `${el(problems, 'GROUP_NAME', outline.workspaceName.slice(0, 50), { lang: outline.defaultLanguage })}` +
        `${el(problems, 'PARENT_ID', '0')}</CATALOG_STRUCTURE>`,
    });
  const parents = new Set(outline.groups.map((g) => g.parentId));
  for (const g of outline.groups)
    items.push({
      name: 'CATALOG_STRUCTURE',
      xml: structureXml(g, parents.has(g.id), rootId, wanted, groupIds, problems),
    });
  return `<CATALOG_GROUP_SYSTEM>${inSchemaOrder('CATALOG_GROUP_SYSTEM', items)}</CATALOG_GROUP_SYSTEM>`;
}

function structureXml(
  g: OutlineGroup,
  hasChildren: boolean,
  rootId: string,
  wanted: (lang: string) => boolean,
  groupIds: Map<number, string>,
  problems: ExportProblems,
): string {
  const names = g.names.filter((n) => wanted(n.lang));
  const written = names.length > 0 ? names : g.names.slice(0, 1);
  const parent = (g.parentId === null ? undefined : groupIds.get(g.parentId)) ?? rootId;
  const items: Placed[] = [
    { name: 'GROUP_ID', xml: el(problems, 'GROUP_ID', groupIds.get(g.id)!) },
    ...written.map((n) => ({
      name: 'GROUP_NAME',
      xml: el(problems, 'GROUP_NAME', n.value, { lang: n.lang }),
    })),
    { name: 'PARENT_ID', xml: el(problems, 'PARENT_ID', parent) },
    // What the catalogue's structure held beyond the model (GROUP_ORDER, GROUP_DESCRIPTION...).
    ...g.kept.map((xml) => ({ name: fragmentName(xml), xml })),
  ];
  return `<CATALOG_STRUCTURE type="${hasChildren ? 'node' : 'leaf'}">${inSchemaOrder('CATALOG_STRUCTURE', items)}</CATALOG_STRUCTURE>\n`;
}

export function mappingXml(supplierPid: string, groupId: string): string {
  return `<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>${escapeText(supplierPid)}</PROD_ID><CATALOG_GROUP_ID>${escapeText(groupId)}</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>\n`;
}
