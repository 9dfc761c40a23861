import type { ExportSheet } from '../../domain/catalogue/catalogue-export.service.js';
import { featureGroupAttributesPlace, featureGroupPlace, NO_LANGUAGE } from './bmecat-product.js';
import { fragmentName, inSchemaOrder, type Placed } from './bmecat-schema-order.js';
import { xmlElement, xmlLangElement, type ExportProblems } from './bmecat-xml-writer.js';

/**
 * One product of the model as a BMEcat 2005 PRODUCT: the modelled parts and the kept fragments
 * (bmecat-product.ts names their places) merged in the schema's order (bmecat-schema-order.ts).
 * What the 2005.1 schema requires and pim may lack is written as docs/bmecat.md says (ORDER_UNIT
 * C62, a price on request); values beyond the schema's lengths are reported, never cut.
 */

export interface ProductWriteOptions {
  /** Texts, keywords and values of these languages only (undefined: all). */
  languages: ReadonlySet<string> | undefined;
  /** The SUPPLIER_PID of a main product, for a variant's base_product reference. */
  mainSupplierPid: (id: number) => string | undefined;
}

/** A kept PRODUCT_PRICE_DETAILS stands for pim's missing price; the import drops exactly this one. */
export const PRICE_ON_REQUEST =
  '<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="on_request"/></PRODUCT_PRICE_DETAILS>';

/** BMEcat 2005.1's ORDER_UNIT where pim has none: C62, one piece (UN/ECE Recommendation 20). */
export const DEFAULT_ORDER_UNIT = 'C62';

const NONE: readonly Placed[] = [];

/** The kept fragments by place, each with its element's name: one pass over them per product. */
function keptByPlace(fragments: ExportSheet['fragments']): (place: string) => readonly Placed[] {
  if (fragments.length === 0) return () => NONE;
  const places = new Map<string, Placed[]>();
  for (const f of fragments) {
    const list = places.get(f.place);
    const placed = { name: fragmentName(f.xml), xml: f.xml };
    if (list) list.push(placed);
    else places.set(f.place, [placed]);
  }
  return (place) => places.get(place) ?? NONE;
}

/** An element's `lang`: none for language-neutral values (zxx). */
const langOf = (lang: string) => (lang === NO_LANGUAGE ? undefined : lang);

export function productXml(
  sheet: ExportSheet,
  options: ProductWriteOptions,
  problems: ExportProblems,
): string {
  const pid = sheet.supplierPid;
  const report = (message: string) => problems.add(pid, message);
  const el = (name: string, value: string, lang?: string) => xmlLangElement(name, value, lang, report);
  const chosen = options.languages;
  const wanted = (lang: string) => chosen === undefined || lang === NO_LANGUAGE || chosen.has(lang);
  const inLanguages = <T extends { lang: string }>(list: T[]): T[] =>
    chosen === undefined ? list : list.filter((entry) => wanted(entry.lang));
  const kept = keptByPlace(sheet.fragments);

  // PRODUCT_DETAILS
  const details: Placed[] = [];
  const shortTexts = inLanguages(sheet.shortTexts);
  for (const t of shortTexts)
    details.push({ name: 'DESCRIPTION_SHORT', xml: el('DESCRIPTION_SHORT', t.value, langOf(t.lang)) });
  if (shortTexts.length === 0) {
    report(
      'has no short text (DESCRIPTION_SHORT), which BMEcat requires: its SUPPLIER_PID is written instead',
    );
    details.push({ name: 'DESCRIPTION_SHORT', xml: el('DESCRIPTION_SHORT', pid) });
  }
  for (const t of inLanguages(sheet.longTexts))
    details.push({ name: 'DESCRIPTION_LONG', xml: el('DESCRIPTION_LONG', t.value, langOf(t.lang)) });
  if (sheet.ean !== null)
    details.push({
      name: 'INTERNATIONAL_PID',
      xml: xmlElement('INTERNATIONAL_PID', sheet.ean, { type: 'gtin' }, report),
    });
  if (sheet.manufacturerPid !== null)
    details.push({
      name: 'MANUFACTURER_PID',
      xml: el('MANUFACTURER_PID', sheet.manufacturerPid),
    });
  if (sheet.manufacturerName !== null)
    details.push({
      name: 'MANUFACTURER_NAME',
      xml: el('MANUFACTURER_NAME', sheet.manufacturerName),
    });
  for (const k of inLanguages(sheet.keywords))
    details.push({ name: 'KEYWORD', xml: el('KEYWORD', k.value, langOf(k.lang)) });
  details.push(...kept('PRODUCT_DETAILS'));

  // PRODUCT_ORDER_DETAILS
  const order: Placed[] = [
    { name: 'ORDER_UNIT', xml: el('ORDER_UNIT', sheet.orderUnit ?? DEFAULT_ORDER_UNIT) },
    ...(sheet.contentUnit !== null
      ? [{ name: 'CONTENT_UNIT', xml: el('CONTENT_UNIT', sheet.contentUnit) }]
      : []),
    ...kept('PRODUCT_ORDER_DETAILS'),
  ];

  const top: Placed[] = [
    { name: 'SUPPLIER_PID', xml: el('SUPPLIER_PID', pid) },
    ...(sheet.supplierIdRef !== null
      ? [{ name: 'SUPPLIER_IDREF', xml: el('SUPPLIER_IDREF', sheet.supplierIdRef) }]
      : []),
    {
      name: 'PRODUCT_DETAILS',
      xml: `<PRODUCT_DETAILS>${inSchemaOrder('PRODUCT_DETAILS', details)}</PRODUCT_DETAILS>`,
    },
    ...featureBlocks(sheet, { wanted, kept, el, report, options }),
    {
      name: 'PRODUCT_ORDER_DETAILS',
      xml: `<PRODUCT_ORDER_DETAILS>${inSchemaOrder('PRODUCT_ORDER_DETAILS', order)}</PRODUCT_ORDER_DETAILS>`,
    },
  ];
  const keptTop = kept('PRODUCT');
  if (!keptTop.some((k) => k.name === 'PRODUCT_PRICE_DETAILS'))
    top.push({ name: 'PRODUCT_PRICE_DETAILS', xml: PRICE_ON_REQUEST });
  const media = mediaXml(sheet, wanted, kept('MIME_INFO'), el);
  if (media !== '') top.push({ name: 'MIME_INFO', xml: media });
  if (sheet.masterProductId !== null) {
    const main = options.mainSupplierPid(sheet.masterProductId);
    if (main === undefined)
      report('is a variant whose main product is not in the export: written without its base_product');
    else
      top.push({
        name: 'PRODUCT_REFERENCE',
        xml: `<PRODUCT_REFERENCE type="base_product">${el('PROD_ID_TO', main)}</PRODUCT_REFERENCE>`,
      });
  }
  top.push(...keptTop);
  return `<PRODUCT>${inSchemaOrder('PRODUCT', top)}</PRODUCT>\n`;
}

type El = (name: string, value: string, lang?: string) => string;
type Occurrence = ExportSheet['features'][number];

/**
 * The feature occurrences as PRODUCT_FEATURES blocks: one per run of occurrences of the same
 * reference system; within it, the occurrences of the block's feature group directly, the others
 * in a FEATURE_GROUP per run of one group (the schema wants a block's FEATUREs before its
 * FEATURE_GROUPs: a direct FEATURE after a FEATURE_GROUP starts a new block, so the order stays).
 */
interface FeatureContext {
  wanted: (lang: string) => boolean;
  kept: (place: string) => readonly Placed[];
  el: El;
  report: (message: string) => void;
  options: ProductWriteOptions;
}

function featureBlocks(sheet: ExportSheet, context: FeatureContext): Placed[] {
  const { kept, el } = context;
  const blocks: { system: string | null; group: string | null; items: BlockItem[]; hadGroup: boolean }[] = [];
  // A FEATURE_GROUP's kept names and descriptions go into the first one written for its id.
  const groupsWritten = new Set<string>();
  sheet.features.forEach((occurrence, index) => {
    const system = occurrence.details?.referenceSystem ?? null;
    const group = occurrence.details?.referenceGroupId ?? null;
    let block = blocks.at(-1);
    // A new block: another system; a direct feature after a FEATURE_GROUP; or an occurrence without a
    // feature group in a block that has one (a FEATURE_GROUP needs its REFERENCE_FEATURE_GROUP_ID).
    if (
      !block ||
      block.system !== system ||
      (block.group === group && block.hadGroup) ||
      (group === null && block.group !== null)
    ) {
      block = { system, group, items: [], hadGroup: false };
      blocks.push(block);
    }
    const feature = featureXml(occurrence, index, context);
    if (block.group === group) {
      block.items.push({ name: 'FEATURE', xml: feature });
      return;
    }
    // Here group is not null: a null group starts a block of its own (above).
    const inGroup = group!;
    block.hadGroup = true;
    const last = block.items.at(-1);
    if (last?.features && last.group === inGroup) {
      last.features.push(feature);
    } else {
      const first = !groupsWritten.has(inGroup);
      groupsWritten.add(inGroup);
      block.items.push({
        name: 'FEATURE_GROUP',
        xml: '',
        group: inGroup,
        features: [feature],
        kept: first ? kept(featureGroupPlace(inGroup)) : [],
        attributes: first ? keptAttributes(kept(featureGroupAttributesPlace(inGroup))) : '',
      });
    }
  });
  const keptBlock = kept('PRODUCT_FEATURES');
  return blocks.map((block, index) => {
    const items: Placed[] = block.items.map((item) =>
      item.group === undefined ? item : featureGroupXml(item, el),
    );
    if (block.system !== null)
      items.push({
        name: 'REFERENCE_FEATURE_SYSTEM_NAME',
        xml: el('REFERENCE_FEATURE_SYSTEM_NAME', block.system),
      });
    if (block.group !== null)
      items.push({
        name: 'REFERENCE_FEATURE_GROUP_ID',
        xml: el('REFERENCE_FEATURE_GROUP_ID', block.group),
      });
    // What the first block held beside its features (REFERENCE_FEATURE_GROUP_ID2...) goes back to it.
    if (index === 0) items.push(...keptBlock);
    return {
      name: 'PRODUCT_FEATURES',
      xml: `<PRODUCT_FEATURES>${inSchemaOrder('PRODUCT_FEATURES', items)}</PRODUCT_FEATURES>`,
    };
  });
}

/** A FEATURE or, while a block is built, a FEATURE_GROUP still taking features. */
interface BlockItem extends Placed {
  group?: string;
  features?: string[];
  kept?: readonly Placed[];
  /** The kept start tag's attributes, as written (` featureGroupType="..."`), or ''. */
  attributes?: string;
}

/** The attributes of a kept empty element (`<FEATURE_GROUP a="b"/>`, written by pim: well-formed). */
function keptAttributes(elements: readonly Placed[]): string {
  const xml = elements[0]?.xml ?? '';
  const match = /^<[^\s/>]+(\s[^>]*?)\s*\/>$/.exec(xml);
  return match ? match[1]! : '';
}

function featureGroupXml(item: BlockItem, el: El): Placed {
  const items: Placed[] = [
    { name: 'REFERENCE_FEATURE_GROUP_ID', xml: el('REFERENCE_FEATURE_GROUP_ID', item.group!) },
    ...item.features!.map((xml) => ({ name: 'FEATURE', xml })),
    ...item.kept!,
  ];
  return {
    name: 'FEATURE_GROUP',
    xml: `<FEATURE_GROUP${item.attributes!}>${inSchemaOrder('FEATURE_GROUP', items)}</FEATURE_GROUP>`,
  };
}

function featureXml(occurrence: Occurrence, index: number, context: FeatureContext): string {
  const { wanted, kept, el, report, options } = context;
  const items: Placed[] = [];
  const template = kept(`PRODUCT_FEATURES/FEATURE#${index}/FTEMPLATE`);
  // FTEMPLATE only where the file had more in it than FT_ID and FT_NAME; names otherwise go to the
  // catalogue's feature definitions (CLASSIFICATION_SYSTEM), so both forms read back alike.
  if (template.length > 0) {
    // The names are read wherever the product kept an FTEMPLATE (ExportFeature).
    const names = (occurrence.names ?? []).map((n) => ({
      name: 'FT_NAME',
      xml: el('FT_NAME', n.value, langOf(n.lang)),
    }));
    items.push({
      name: 'FTEMPLATE',
      xml: `<FTEMPLATE>${inSchemaOrder('FTEMPLATE', [
        { name: 'FT_ID', xml: el('FT_ID', occurrence.ftidref) },
        ...names,
        ...template,
      ])}</FTEMPLATE>`,
    });
  } else {
    items.push({ name: 'FT_IDREF', xml: el('FT_IDREF', occurrence.ftidref) });
  }
  const values =
    options.languages === undefined ? occurrence.values : occurrence.values.filter((v) => wanted(v.lang));
  for (const v of values) items.push({ name: 'FVALUE', xml: el('FVALUE', v.value, langOf(v.lang)) });
  const details = occurrence.details;
  const refs = details?.valueIdrefs ?? [];
  // The schema allows FVALUEs or VALUE_IDREFs, not both, and one of them.
  if (values.length === 0)
    for (const ref of refs) items.push({ name: 'VALUE_IDREF', xml: el('VALUE_IDREF', ref) });
  else if (refs.length > 0)
    report(
      `feature ${occurrence.ftidref}: has values and VALUE_IDREFs; BMEcat takes one kind, the VALUE_IDREFs are left out`,
    );
  if (values.length === 0 && refs.length === 0)
    report(
      `feature ${occurrence.ftidref}: has no value${options.languages ? ' in the languages exported' : ''}, which BMEcat requires`,
    );
  if (occurrence.funit !== null) items.push({ name: 'FUNIT', xml: el('FUNIT', occurrence.funit) });
  for (const d of details?.valueDetails ?? [])
    if (wanted(d.lang))
      items.push({
        name: 'FVALUE_DETAILS',
        xml: el('FVALUE_DETAILS', d.value, langOf(d.lang)),
      });
  if (details?.fid) items.push({ name: 'FID', xml: el('FID', details.fid) });
  if (details?.fparentId) items.push({ name: 'FPARENT_ID', xml: el('FPARENT_ID', details.fparentId) });
  items.push(...kept(`PRODUCT_FEATURES/FEATURE#${index}`));
  return `<FEATURE>${inSchemaOrder('FEATURE', items)}</FEATURE>`;
}

function mediaXml(
  sheet: ExportSheet,
  wanted: (lang: string) => boolean,
  keptMedia: readonly Placed[],
  el: El,
): string {
  const entries: Placed[] = sheet.media.map((m) => {
    const parts = [
      m.type === null ? '' : el('MIME_TYPE', m.type),
      el('MIME_SOURCE', m.source),
      ...m.descriptions.filter((d) => wanted(d.lang)).map((d) => el('MIME_DESCR', d.value, langOf(d.lang))),
      m.purpose === null ? '' : el('MIME_PURPOSE', m.purpose),
      m.order === null ? '' : el('MIME_ORDER', String(m.order)),
    ];
    return { name: 'MIME', xml: `<MIME>${parts.join('')}</MIME>` };
  });
  entries.push(...keptMedia);
  return entries.length === 0 ? '' : `<MIME_INFO>${inSchemaOrder('MIME_INFO', entries)}</MIME_INFO>`;
}
