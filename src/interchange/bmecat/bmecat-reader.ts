import { bmecatElementName, isBmecatNamespace } from './bmecat-names.js';
import { readProduct, type BmecatProduct, type LangValue } from './bmecat-product.js';
import { decodeXml } from './xml-decoding.js';
import { childrenNamed, elementChildren, readXmlRecords, textOf, type XmlElement } from './xml-records.js';
import { schemaOrdered } from './bmecat-schema-order.js';
import { serializeXml } from './xml-serialize.js';

/**
 * A BMEcat file read as a stream of what pim models (docs/bmecat.md): the header, the transaction,
 * groups of the CATALOG_GROUP_SYSTEM, feature definitions, products and their group mappings, in
 * file order, one record in memory at a time. BMEcat 2005 (any of its namespaces or none) and 1.2
 * (read under 2005's names). Looks nothing up in a workspace: the importer does that.
 */
export type BmecatEvent =
  | ({ kind: 'header' } & BmecatHeader)
  | { kind: 'transaction'; name: string; line: number; column: number }
  | ({ kind: 'group' } & BmecatGroup)
  | { kind: 'featureDefinition'; ftidref: string; names: LangValue[]; unit: string | null }
  | { kind: 'product'; product: BmecatProduct }
  | {
      kind: 'mapping';
      supplierPid: string | null;
      groupId: string | null;
      mode: string | undefined;
      line: number;
      column: number;
    }
  | { kind: 'fragment'; place: string; xml: string };

export interface BmecatHeader {
  /** The root's `version` attribute (2005, 2005.1, 1.2, ...). */
  version: string | null;
  /** The catalogue's LANGUAGEs, the default first. */
  languages: string[];
  defaultLanguage: string;
  catalogId: string | null;
  catalogVersion: string | null;
  catalogName: string | null;
  supplierName: string | null;
  /** The whole HEADER, verbatim (written back on export). */
  xml: string;
}

export interface BmecatGroup {
  line: number;
  column: number;
  /** GROUP_ID: the file's id of the group. */
  groupId: string | null;
  parentId: string | null;
  /** CATALOG_STRUCTURE's type: root, node or leaf. */
  type: string | null;
  names: LangValue[];
  /**
   * Its children beyond the model (GROUP_DESCRIPTION, GROUP_ORDER, MIME_INFO...), each verbatim,
   * in the schema's order (so that a file and its export keep the same list).
   */
  kept: string[];
  /** The CATALOG_STRUCTURE verbatim (a root is kept so, not made a group: docs/bmecat.md). */
  xml: string;
}

/** A problem of the file: a sentence, and where in the file. */
export class BmecatError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

const TRANSACTIONS = new Set(['T_NEW_CATALOG', 'T_UPDATE_PRODUCTS', 'T_UPDATE_PRICES']);

/** Whether the element at `path` (names as bmecatElementName gives them, the root first) is read whole. */
function isRecord(names: readonly string[]): boolean {
  if (names.length === 2) return names[1] === 'HEADER' || !TRANSACTIONS.has(names[1]!);
  // Inside a transaction: each child is a record, but the group system's structures come one by one.
  if (names.length === 3) return names[2] !== 'CATALOG_GROUP_SYSTEM';
  return names.length === 4;
}

export async function* readBmecat(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<BmecatEvent> {
  let version: string | null = null;
  let defaultLanguage: string | undefined;
  let transaction: string | undefined;
  for await (const event of readXmlRecords(decodeXml(bytes), bmecatElementName, isRecord)) {
    if (event.type === 'end') continue;
    const { element, path } = event;
    const at = (message: string) => new BmecatError(message, element.line, element.column);
    if (path.length === 1) {
      if (element.name !== 'BMECAT' || !isBmecatNamespace(element.uri))
        throw at(`The file's root element is ${element.qname}, not BMECAT: this is not a BMEcat catalogue`);
      version = element.attributes.version ?? null;
      continue;
    }
    if (event.type === 'start') {
      // A transaction (T_NEW_CATALOG, ...) or the group system inside it.
      const name = element.name;
      if (path.length === 2) {
        if (defaultLanguage === undefined)
          throw at(`${name} comes before the HEADER: the HEADER must come first`);
        if (transaction !== undefined) throw at(`A second transaction (${name}): a BMEcat file holds one`);
        transaction = name;
        yield { kind: 'transaction', name, line: element.line, column: element.column };
      }
      continue;
    }
    if (path.length === 2) {
      if (element.name === 'HEADER') {
        const header = readHeader(element, version);
        defaultLanguage = header.defaultLanguage;
        yield { kind: 'header', ...header };
      } else {
        yield { kind: 'fragment', place: 'BMECAT', xml: serializeXml(element, isBmecatNamespace) };
      }
      continue;
    }
    const lang = defaultLanguage!;
    if (path.length === 4) {
      if (element.name === 'CATALOG_STRUCTURE') yield { kind: 'group', ...readGroup(element, lang) };
      else
        yield {
          kind: 'fragment',
          place: `${transaction}/CATALOG_GROUP_SYSTEM`,
          xml: serializeXml(element, isBmecatNamespace),
        };
      continue;
    }
    switch (element.name) {
      case 'PRODUCT':
        yield { kind: 'product', product: readProduct(element, lang) };
        break;
      case 'PRODUCT_TO_CATALOGGROUP_MAP':
        yield {
          kind: 'mapping',
          supplierPid: tokenOf(element, 'PROD_ID'),
          groupId: tokenOf(element, 'CATALOG_GROUP_ID'),
          mode: element.attributes.mode,
          line: element.line,
          column: element.column,
        };
        break;
      case 'FEATURE_SYSTEM':
      case 'CLASSIFICATION_SYSTEM':
        yield* featureDefinitions(element, lang);
        yield { kind: 'fragment', place: transaction!, xml: serializeXml(element, isBmecatNamespace) };
        break;
      default:
        yield { kind: 'fragment', place: transaction!, xml: serializeXml(element, isBmecatNamespace) };
    }
  }
  if (defaultLanguage === undefined) throw new BmecatError('The file has no HEADER', 1, 1);
  if (transaction === undefined)
    throw new BmecatError(
      'The file has no transaction (T_NEW_CATALOG, T_UPDATE_PRODUCTS or T_UPDATE_PRICES)',
      1,
      1,
    );
}

function tokenOf(element: XmlElement, name: string): string | null {
  const child = childrenNamed(element, name)[0];
  const value = child ? textOf(child).trim() : '';
  return value === '' ? null : value;
}

function readHeader(header: XmlElement, version: string | null): BmecatHeader {
  const catalog = childrenNamed(header, 'CATALOG')[0];
  const languages = catalog ? childrenNamed(catalog, 'LANGUAGE') : [];
  const codes = languages.map((l) => textOf(l).trim()).filter((code) => code !== '');
  const marked = languages.find((l) => /^(true|1)$/i.test(l.attributes.default?.trim() ?? ''));
  const defaultLanguage = (marked ? textOf(marked).trim() : codes[0]) ?? '';
  if (defaultLanguage === '')
    throw new BmecatError('The HEADER names no LANGUAGE of the catalogue', header.line, header.column);
  const supplier = childrenNamed(header, 'SUPPLIER')[0];
  return {
    version,
    languages: [defaultLanguage, ...codes.filter((c) => c !== defaultLanguage)],
    defaultLanguage,
    catalogId: catalog ? tokenOf(catalog, 'CATALOG_ID') : null,
    catalogVersion: catalog ? tokenOf(catalog, 'CATALOG_VERSION') : null,
    catalogName: catalog ? tokenOf(catalog, 'CATALOG_NAME') : null,
    supplierName: supplier ? tokenOf(supplier, 'SUPPLIER_NAME') : null,
    xml: serializeXml(header, isBmecatNamespace),
  };
}

/** The children of a CATALOG_STRUCTURE that pim models: the rest is kept verbatim. */
const MODELLED_STRUCTURE = new Set(['GROUP_ID', 'GROUP_NAME', 'PARENT_ID']);

function readGroup(structure: XmlElement, defaultLanguage: string): BmecatGroup {
  return {
    line: structure.line,
    column: structure.column,
    groupId: tokenOf(structure, 'GROUP_ID'),
    parentId: tokenOf(structure, 'PARENT_ID'),
    type: structure.attributes.type?.trim() ?? null,
    names: childrenNamed(structure, 'GROUP_NAME').map((n) => ({
      lang: n.attributes.lang?.trim() || defaultLanguage,
      value: textOf(n).trim(),
    })),
    kept: schemaOrdered(
      'CATALOG_STRUCTURE',
      elementChildren(structure)
        .filter((child) => !MODELLED_STRUCTURE.has(child.name))
        .map((child) => ({ name: child.name, xml: serializeXml(child, isBmecatNamespace) })),
    ).map((child) => child.xml),
    xml: serializeXml(structure, isBmecatNamespace),
  };
}

/** FEATURE_TEMPLATEs of a FEATURE_SYSTEM, CLASSIFICATION_SYSTEM_FEATURE_TEMPLATEs of a classification system. */
function* featureDefinitions(system: XmlElement, defaultLanguage: string): Generator<BmecatEvent> {
  for (const child of elementChildren(system)) {
    if (child.name === 'FEATURE_TEMPLATE' || child.name === 'CLASSIFICATION_SYSTEM_FEATURE_TEMPLATE') {
      const ftidref = tokenOf(child, 'FT_ID');
      if (ftidref === null) continue;
      const names = childrenNamed(child, 'FT_NAME').map((n) => ({
        lang: n.attributes.lang?.trim() || defaultLanguage,
        value: textOf(n).trim(),
      }));
      yield { kind: 'featureDefinition', ftidref, names, unit: tokenOf(child, 'FT_UNIT') };
    } else {
      yield* featureDefinitions(child, defaultLanguage);
    }
  }
}
