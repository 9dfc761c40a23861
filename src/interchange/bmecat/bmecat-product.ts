import { isBmecatNamespace } from './bmecat-names.js';
import { childrenNamed, elementChildren, textOf, type XmlElement } from './xml-records.js';
import { serializeXml } from './xml-serialize.js';

/**
 * One BMEcat PRODUCT (or 1.2 ARTICLE) read into pim's product model (docs/products.md, "The product
 * sheet"), before anything is looked up in a workspace: groups are the file's GROUP_IDs, the main
 * product a SUPPLIER_PID. What the model does not hold is kept verbatim as fragments with the place
 * it stood, so that an export writes it back (docs/bmecat.md).
 */
export interface LangValue {
  lang: string;
  value: string;
}

export interface BmecatFeature {
  ftidref: string;
  funit: string | null;
  values: LangValue[];
  details: {
    valueIdrefs: string[];
    valueDetails: LangValue[];
    fid: string | null;
    fparentId: string | null;
    referenceSystem: string | null;
    referenceGroupId: string | null;
  } | null;
}

export interface BmecatMedia {
  type: string | null;
  source: string;
  descriptions: LangValue[];
  purpose: string | null;
  order: number | null;
}

export interface BmecatProduct {
  /** Where the PRODUCT element starts in the file. */
  line: number;
  column: number;
  /** T_UPDATE_PRODUCTS: the PRODUCT's `mode` (new, update, delete); absent elsewhere. */
  mode: string | undefined;
  supplierPid: string | undefined;
  supplierIdRef: string | null;
  ean: string | null;
  manufacturerPid: string | null;
  manufacturerName: string | null;
  orderUnit: string | null;
  contentUnit: string | null;
  shortTexts: LangValue[];
  longTexts: LangValue[];
  keywords: LangValue[];
  features: BmecatFeature[];
  /** Names the file gives features (FNAME, FT_NAME) per language: the definitions' names. */
  featureNames: { ftidref: string; names: LangValue[] }[];
  media: BmecatMedia[];
  /** PRODUCT_REFERENCE type="base_product": this product is a variant of that one. */
  masterSupplierPid: string | undefined;
  fragments: { place: string; xml: string }[];
}

/** The language of values without one: ISO 639-2 "no linguistic content" (decisions.md). */
export const NO_LANGUAGE = 'zxx';

/** Text of an identifier-like element: surrounding white space is layout, not content. */
function token(element: XmlElement | undefined): string | null {
  if (!element) return null;
  const value = textOf(element).trim();
  return value === '' ? null : value;
}

function first(element: XmlElement, name: string): XmlElement | undefined {
  return childrenNamed(element, name)[0];
}

/** Reads a PRODUCT element (names already normalised to 2005's, bmecat-names.ts). */
export function readProduct(product: XmlElement, defaultLanguage: string): BmecatProduct {
  const result: BmecatProduct = {
    line: product.line,
    column: product.column,
    mode: product.attributes.mode,
    supplierPid: token(first(product, 'SUPPLIER_PID')) ?? undefined,
    supplierIdRef: null,
    ean: null,
    manufacturerPid: null,
    manufacturerName: null,
    orderUnit: null,
    contentUnit: null,
    shortTexts: [],
    longTexts: [],
    keywords: [],
    features: [],
    featureNames: [],
    media: [],
    masterSupplierPid: undefined,
    fragments: [],
  };
  const lang = (element: XmlElement) => element.attributes.lang?.trim() || defaultLanguage;
  const keep = (place: string, element: XmlElement) =>
    result.fragments.push({ place, xml: serializeXml(element, isBmecatNamespace) });
  for (const child of elementChildren(product)) {
    if (!isBmecatNamespace(child.uri)) {
      keep('PRODUCT', child);
      continue;
    }
    switch (child.name) {
      case 'SUPPLIER_PID':
        break;
      case 'SUPPLIER_IDREF':
        result.supplierIdRef = token(child);
        break;
      case 'PRODUCT_DETAILS':
        readDetails(child, result, lang, keep);
        break;
      case 'PRODUCT_FEATURES':
        readFeatureBlock(child, result, defaultLanguage, keep);
        break;
      case 'PRODUCT_ORDER_DETAILS':
        for (const part of elementChildren(child)) {
          if (part.name === 'ORDER_UNIT' && result.orderUnit === null) result.orderUnit = token(part);
          else if (part.name === 'CONTENT_UNIT' && result.contentUnit === null)
            result.contentUnit = token(part);
          else keep('PRODUCT_ORDER_DETAILS', part);
        }
        break;
      case 'MIME_INFO':
        for (const mime of elementChildren(child)) {
          if (mime.name === 'MIME' && token(first(mime, 'MIME_SOURCE')) !== null)
            result.media.push(readMedia(mime, lang));
          else keep('MIME_INFO', mime);
        }
        break;
      case 'PRODUCT_REFERENCE':
        if (child.attributes.type === 'base_product' && result.masterSupplierPid === undefined)
          result.masterSupplierPid = token(first(child, 'PROD_ID_TO')) ?? undefined;
        else keep('PRODUCT', child);
        break;
      default:
        keep('PRODUCT', child);
    }
  }
  return result;
}

function readDetails(
  details: XmlElement,
  result: BmecatProduct,
  lang: (element: XmlElement) => string,
  keep: (place: string, element: XmlElement) => void,
): void {
  for (const child of elementChildren(details)) {
    const name = child.name;
    if (name === 'DESCRIPTION_SHORT') result.shortTexts.push({ lang: lang(child), value: textOf(child) });
    else if (name === 'DESCRIPTION_LONG') result.longTexts.push({ lang: lang(child), value: textOf(child) });
    else if (name === 'KEYWORD') result.keywords.push({ lang: lang(child), value: textOf(child) });
    else if (name === 'MANUFACTURER_PID' && result.manufacturerPid === null)
      result.manufacturerPid = token(child);
    else if (name === 'MANUFACTURER_NAME' && result.manufacturerName === null)
      result.manufacturerName = token(child);
    else if (
      name === 'INTERNATIONAL_PID' &&
      result.ean === null &&
      /^(gtin|ean)$/i.test(child.attributes.type?.trim() ?? '')
    )
      result.ean = token(child);
    // BMEcat 1.2's EAN, which some 2005 files still carry.
    else if (name === 'EAN' && result.ean === null) result.ean = token(child);
    else keep('PRODUCT_DETAILS', child);
  }
}

function readFeatureBlock(
  block: XmlElement,
  result: BmecatProduct,
  defaultLanguage: string,
  keep: (place: string, element: XmlElement) => void,
): void {
  const system = token(first(block, 'REFERENCE_FEATURE_SYSTEM_NAME'));
  const group = token(first(block, 'REFERENCE_FEATURE_GROUP_ID'));
  const read = (container: XmlElement, groupId: string | null, place: string) => {
    for (const child of elementChildren(container)) {
      const name = child.name;
      if (name === 'FEATURE') readFeature(child, result, defaultLanguage, system, groupId, keep);
      else if (name === 'FEATURE_GROUP') {
        const inGroup = token(first(child, 'REFERENCE_FEATURE_GROUP_ID')) ?? groupId;
        // Its names and descriptions are kept under the group's id, which the writer knows when it
        // writes the FEATURE_GROUP of that id again (featureGroupPlace); its attributes
        // (featureGroupType) as the bare start tag, whose attributes the writer copies.
        if (inGroup !== null && hasAttributes(child))
          keep(featureGroupAttributesPlace(inGroup), { ...child, children: [] });
        read(
          child,
          inGroup,
          inGroup === null ? 'PRODUCT_FEATURES/FEATURE_GROUP' : featureGroupPlace(inGroup),
        );
      } else if (name === 'REFERENCE_FEATURE_SYSTEM_NAME' || name === 'REFERENCE_FEATURE_GROUP_ID') continue;
      else keep(place, child);
    }
  };
  read(block, group, 'PRODUCT_FEATURES');
}

function readFeature(
  feature: XmlElement,
  result: BmecatProduct,
  defaultLanguage: string,
  system: string | null,
  groupId: string | null,
  keep: (place: string, element: XmlElement) => void,
): void {
  const lang = (element: XmlElement, fallback: string) => element.attributes.lang?.trim() || fallback;
  const template = first(feature, 'FTEMPLATE');
  const names: LangValue[] = [
    ...childrenNamed(feature, 'FNAME'),
    ...(template ? childrenNamed(template, 'FT_NAME') : []),
  ].map((n) => ({ lang: lang(n, defaultLanguage), value: textOf(n).trim() }));
  const ftidref =
    token(first(feature, 'FT_IDREF')) ??
    (template ? token(first(template, 'FT_ID')) : null) ??
    names.find((n) => n.lang === defaultLanguage)?.value ??
    names[0]?.value ??
    '';
  const occurrence = result.features.length;
  const values: LangValue[] = [];
  const valueIdrefs: string[] = [];
  const valueDetails: LangValue[] = [];
  let funit: string | null = null;
  let fid: string | null = null;
  let fparentId: string | null = null;
  for (const child of elementChildren(feature)) {
    const name = child.name;
    if (name === 'FVALUE') values.push({ lang: lang(child, NO_LANGUAGE), value: textOf(child) });
    else if (name === 'FUNIT' && funit === null) funit = token(child);
    else if (name === 'VALUE_IDREF') valueIdrefs.push(textOf(child).trim());
    else if (name === 'FVALUE_DETAILS')
      valueDetails.push({ lang: lang(child, NO_LANGUAGE), value: textOf(child) });
    else if (name === 'FID' && fid === null) fid = token(child);
    else if (name === 'FPARENT_ID' && fparentId === null) fparentId = token(child);
    else if (name === 'FT_IDREF' || name === 'FNAME') continue;
    else if (name === 'FTEMPLATE') {
      for (const part of elementChildren(child)) {
        if (part.name !== 'FT_ID' && part.name !== 'FT_NAME')
          keep(`PRODUCT_FEATURES/FEATURE#${occurrence}/FTEMPLATE`, part);
      }
    } else keep(`PRODUCT_FEATURES/FEATURE#${occurrence}`, child);
  }
  const hasDetails =
    valueIdrefs.length > 0 ||
    valueDetails.length > 0 ||
    fid !== null ||
    fparentId !== null ||
    system !== null ||
    groupId !== null;
  result.features.push({
    ftidref,
    funit,
    values,
    details: hasDetails
      ? { valueIdrefs, valueDetails, fid, fparentId, referenceSystem: system, referenceGroupId: groupId }
      : null,
  });
  if (names.length > 0 && ftidref !== '') result.featureNames.push({ ftidref, names });
}

function readMedia(mime: XmlElement, lang: (element: XmlElement) => string): BmecatMedia {
  const order = token(first(mime, 'MIME_ORDER'));
  const parsed = order === null ? null : Number(order);
  return {
    type: token(first(mime, 'MIME_TYPE')),
    source: token(first(mime, 'MIME_SOURCE'))!,
    descriptions: childrenNamed(mime, 'MIME_DESCR').map((d) => ({ lang: lang(d), value: textOf(d) })),
    purpose: token(first(mime, 'MIME_PURPOSE')),
    order: parsed !== null && Number.isInteger(parsed) ? parsed : null,
  };
}

/** Where a FEATURE_GROUP's content beyond its features is kept: its REFERENCE_FEATURE_GROUP_ID. */
export function featureGroupPlace(groupId: string): string {
  return `PRODUCT_FEATURES/FEATURE_GROUP#${groupId}`;
}

/** Where a FEATURE_GROUP's attributes are kept: an empty FEATURE_GROUP element that carries them. */
export function featureGroupAttributesPlace(groupId: string): string {
  return `${featureGroupPlace(groupId)}/@`;
}

/** Whether an element has attributes other than namespace declarations. */
function hasAttributes(element: XmlElement): boolean {
  return Object.keys(element.attributes).some((key) => key !== 'xmlns' && !key.startsWith('xmlns:'));
}
