import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { DomainError } from '../../domain/errors.js';
import { checkFunit } from '../../domain/features/feature.rules.js';
import { entryPairs } from '../../domain/features/entry-list.rules.js';
import type { FeatureState, ProductState } from '../../domain/products/product-state.service.js';
import { SUPPLIER_PID_MAX } from '../../domain/products/product.rules.js';
import { checkLength, checkTextValue } from '../../domain/texts/text.rules.js';
import type { FeatureColumns, HeaderPlan } from './spreadsheet-header.js';

/** A bad cell of a row: its column (1-based) and why. */
export class RowProblem extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

/** What an existing product loses: done after its bulk document is written. */
export interface Removals {
  texts: [TextKind, string][];
  featureValues: [string, string][];
  features: string[];
}

export type RowPlan =
  | { kind: 'unchanged'; supplierPid: string }
  | {
      kind: 'create' | 'change';
      supplierPid: string;
      /** The bulk document (the parts that change only), or undefined when only removals change it. */
      document: Record<string, unknown> | undefined;
      removals: Removals;
    };

const MAX_LENGTH = new Map<ProductFieldKey, number>(PRODUCT_FIELDS.map((f) => [f.key, f.maxLength]));

/** A cell's value: formula guard undone; the domain's own rules checked, named by the cell. */
function cellValue(
  header: HeaderPlan,
  cells: readonly string[],
  index: number,
  check?: (value: string) => void,
): string {
  const value = header.valueOf(cells[index] ?? '');
  if (value.includes('\u0000')) throw new RowProblem(index + 1, 'the cell holds the character U+0000');
  if (check && value !== '') {
    try {
      check(value);
    } catch (error) {
      if (error instanceof DomainError) throw new RowProblem(index + 1, error.message);
      throw error;
    }
  }
  return value;
}

/** Removals of a row, made on its first: an unchanged row (most of a round trip) makes none. */
const NO_REMOVALS: Removals = Object.freeze({
  texts: [] as [TextKind, string][],
  featureValues: [] as [string, string][],
  features: [] as string[],
}) as Removals;

type TextChange = { lang: string; value: string };
type FeatureChange = { ftidref: string; funit?: string | null; values: TextChange[] };

/**
 * Compares one row with the stored product (undefined: none has its supplierPid) and says what to
 * write: nothing for an unchanged product (it is not touched: revision and updated_at stay), else
 * the parts that differ. Empty cells are no value: a field cleared, a text or a feature value
 * removed, a feature whose cells are all empty removed. Columns the file lacks change nothing.
 * The parts of a plan (the document, its lists, the removals) are made only once something
 * differs: an import of an unchanged file makes none of them.
 */
export function planRow(
  header: HeaderPlan,
  cells: readonly string[],
  stored: ProductState | undefined,
  groups: ReadonlySet<number>,
): RowPlan {
  const supplierPid = cellValue(header, cells, header.supplierPid, (v) =>
    checkLength(v, 'supplierPid', SUPPLIER_PID_MAX),
  );
  if (supplierPid.trim() === '')
    throw new RowProblem(header.supplierPid + 1, 'supplierPid is empty: every row needs one');
  let document: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => ((document ??= { supplierPid })[key] = value);
  let removals = NO_REMOVALS;
  const remove = () =>
    removals === NO_REMOVALS ? (removals = { texts: [], featureValues: [], features: [] }) : removals;

  for (const { index, key } of header.fields) {
    const value = cellValue(header, cells, index, (v) => checkLength(v, key, MAX_LENGTH.get(key)!)) || null;
    if (stored ? stored.fields[key] !== value : value !== null) set(key, value);
  }
  if (header.groupId !== undefined) {
    const groupId = groupOf(cellValue(header, cells, header.groupId), header.groupId, groups);
    if (stored ? stored.groupId !== groupId : groupId !== null) set('groupId', groupId);
  }
  if (header.masterSupplierPid !== undefined) {
    const master = cellValue(header, cells, header.masterSupplierPid) || null;
    if (stored && stored.masterSupplierPid !== master)
      throw new RowProblem(
        header.masterSupplierPid + 1,
        `masterSupplierPid '${master ?? ''}' differs from the stored one ('${stored.masterSupplierPid ?? ''}': ` +
          `${stored.masterSupplierPid === null ? 'a main product' : 'a variant'}): it cannot be changed`,
      );
    if (!stored && master !== null) set('masterSupplierPid', master);
  }

  let shortTexts: TextChange[] | undefined;
  let longTexts: TextChange[] | undefined;
  for (const { index, kind, lang } of header.texts) {
    const value = cellValue(header, cells, index, (v) => checkTextValue(v, `${kind}[${lang}]`));
    const current = (kind === 'short' ? stored?.shortTexts : stored?.longTexts)?.get(lang);
    if (value === '') {
      if (current !== undefined)
        remove().texts.push([kind === 'short' ? 'DESCRIPTIONSHORT' : 'DESCRIPTIONLONG', lang]);
    } else if (value !== current) {
      if (kind === 'short') (shortTexts ??= []).push({ lang, value });
      else (longTexts ??= []).push({ lang, value });
    }
  }
  if (shortTexts) set('shortTexts', shortTexts);
  if (longTexts) set('longTexts', longTexts);

  let features: FeatureChange[] | undefined;
  for (const feature of header.features) {
    const change = featureChange(header, cells, feature, stored?.features.get(feature.ftidref), remove);
    if (change) (features ??= []).push(change);
  }
  if (features) set('features', features);

  if (stored && document === undefined && removals === NO_REMOVALS) return { kind: 'unchanged', supplierPid };
  return {
    kind: stored ? 'change' : 'create',
    supplierPid,
    document: stored ? document : (document ?? { supplierPid }),
    removals: removals === NO_REMOVALS ? { texts: [], featureValues: [], features: [] } : removals,
  };
}

/**
 * One feature's columns against its stored first occurrence: what the bulk document sets (undefined:
 * nothing), the removals pushed through `remove`. The stored values are first compared as the text
 * the row's values would be stored as; only where that differs are they read entry by entry.
 */
function featureChange(
  header: HeaderPlan,
  cells: readonly string[],
  feature: FeatureColumns,
  current: FeatureState | undefined,
  remove: () => Removals,
): FeatureChange | undefined {
  // A feature whose cells are all empty is settled from the raw cells (an empty cell reads as empty
  // in either format): most of an exported file's features are, for any one product (the
  // benchmark's: 290 of 300), and reading each of their cells was most of such an import's work.
  if (emptyCells(cells, feature)) {
    if (current) remove().features.push(feature.ftidref);
    return undefined;
  }
  const unit =
    feature.unit === undefined
      ? undefined
      : cellValue(header, cells, feature.unit, (v) => checkFunit(v)) || null;
  const values = feature.values.map(({ index, lang }) =>
    cellValue(header, cells, index, (v) => checkTextValue(v, `feature[${feature.ftidref}][${lang}]`)),
  );
  if (!unit && values.every((v) => v === '')) {
    if (current) remove().features.push(feature.ftidref);
    return undefined;
  }
  const unitChanged =
    unit !== undefined &&
    (current ? (unit === null ? current.ownUnit !== null : unit !== current.unit) : unit !== null);
  const funit = unitChanged ? { funit: unit } : {};
  if (current && current.valuesJson === storedForm(feature, values))
    return unitChanged ? { ftidref: feature.ftidref, ...funit, values: [] } : undefined;
  const stored = current ? valuesByLang(current.valuesJson) : undefined;
  const set: TextChange[] = [];
  feature.values.forEach(({ lang }, i) => {
    const value = values[i]!;
    if (value !== '' && stored?.get(lang) !== value) set.push({ lang, value });
    else if (value === '' && stored?.has(lang)) remove().featureValues.push([feature.ftidref, lang]);
  });
  return set.length > 0 || unitChanged || !current
    ? { ftidref: feature.ftidref, ...funit, values: set }
    : undefined;
}

function emptyCells(cells: readonly string[], feature: FeatureColumns): boolean {
  if (feature.unit !== undefined && (cells[feature.unit] ?? '') !== '') return false;
  for (const { index } of feature.values) if ((cells[index] ?? '') !== '') return false;
  return true;
}

/**
 * The values as entriesJson would store exactly them (by language, empty cells left out): equal to
 * the stored text only where the stored list holds these values and no others.
 */
function storedForm(feature: FeatureColumns, values: readonly string[]): string {
  let text = '';
  for (const i of feature.byLang) {
    const value = values[i]!;
    if (value === '') continue;
    text += `${text === '' ? '' : ','}{"lang":${JSON.stringify(feature.values[i]!.lang)},"value":${JSON.stringify(value)}}`;
  }
  return `[${text}]`;
}

/** A stored list's value by language (the last of a language, as a Map of its entries keeps). */
function valuesByLang(valuesJson: string): Map<string, string> {
  const pairs = entryPairs(valuesJson, []);
  const map = new Map<string, string>();
  for (let i = 0; i < pairs.length; i += 2) map.set(pairs[i]!, pairs[i + 1]!);
  return map;
}

function groupOf(cell: string, index: number, groups: ReadonlySet<number>): number | null {
  if (cell.trim() === '') return null;
  const id = /^\s*\d{1,15}\s*$/.test(cell) ? Number(cell) : NaN;
  if (!Number.isSafeInteger(id))
    throw new RowProblem(index + 1, `groupId '${cell}' is not a group's id (a whole number)`);
  if (!groups.has(id)) throw new RowProblem(index + 1, `groupId ${id}: no group has this id`);
  return id;
}
