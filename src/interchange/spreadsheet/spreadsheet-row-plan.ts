import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { DomainError } from '../../domain/errors.js';
import { checkFunit } from '../../domain/features/feature.rules.js';
import type { ProductState } from '../../domain/products/product-state.service.js';
import { SUPPLIER_PID_MAX } from '../../domain/products/product.rules.js';
import { checkLength, checkTextValue } from '../../domain/texts/text.rules.js';
import type { HeaderPlan } from './spreadsheet-header.js';

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

/**
 * Compares one row with the stored product (undefined: none has its supplierPid) and says what to
 * write: nothing for an unchanged product (it is not touched: revision and updated_at stay), else
 * the parts that differ. Empty cells are no value: a field cleared, a text or a feature value
 * removed, a feature whose cells are all empty removed. Columns the file lacks change nothing.
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
  const document: Record<string, unknown> = { supplierPid };
  let changes = 0;
  const removals: Removals = { texts: [], featureValues: [], features: [] };

  for (const { index, key } of header.fields) {
    const value = cellValue(header, cells, index, (v) => checkLength(v, key, MAX_LENGTH.get(key)!)) || null;
    if (stored ? stored.fields[key] !== value : value !== null) {
      document[key] = value;
      changes++;
    }
  }
  if (header.groupId !== undefined) {
    const groupId = groupOf(cellValue(header, cells, header.groupId), header.groupId, groups);
    if (stored ? stored.groupId !== groupId : groupId !== null) {
      document.groupId = groupId;
      changes++;
    }
  }
  if (header.masterSupplierPid !== undefined) {
    const master = cellValue(header, cells, header.masterSupplierPid) || null;
    if (stored && stored.masterSupplierPid !== master)
      throw new RowProblem(
        header.masterSupplierPid + 1,
        `masterSupplierPid '${master ?? ''}' differs from the stored one ('${stored.masterSupplierPid ?? ''}': ` +
          `${stored.masterSupplierPid === null ? 'a main product' : 'a variant'}): it cannot be changed`,
      );
    if (!stored && master !== null) document.masterSupplierPid = master;
  }

  const shortTexts: { lang: string; value: string }[] = [];
  const longTexts: { lang: string; value: string }[] = [];
  for (const { index, kind, lang } of header.texts) {
    const value = cellValue(header, cells, index, (v) => checkTextValue(v, `${kind}[${lang}]`));
    const current = (kind === 'short' ? stored?.shortTexts : stored?.longTexts)?.get(lang);
    if (value === '') {
      if (current !== undefined)
        removals.texts.push([kind === 'short' ? 'DESCRIPTIONSHORT' : 'DESCRIPTIONLONG', lang]);
    } else if (value !== current) (kind === 'short' ? shortTexts : longTexts).push({ lang, value });
  }
  if (shortTexts.length > 0) document.shortTexts = shortTexts;
  if (longTexts.length > 0) document.longTexts = longTexts;

  const features: { ftidref: string; funit?: string | null; values: { lang: string; value: string }[] }[] =
    [];
  for (const feature of header.features) {
    const current = stored?.features.get(feature.ftidref);
    const unit =
      feature.unit === undefined
        ? undefined
        : cellValue(header, cells, feature.unit, (v) => checkFunit(v)) || null;
    const values = feature.values.map(({ index, lang }) => ({
      lang,
      value: cellValue(header, cells, index, (v) =>
        checkTextValue(v, `feature[${feature.ftidref}][${lang}]`),
      ),
    }));
    if (!unit && values.every((v) => v.value === '')) {
      if (current) removals.features.push(feature.ftidref);
      continue;
    }
    const set = values.filter((v) => v.value !== '' && current?.values.get(v.lang) !== v.value);
    if (current)
      for (const v of values)
        if (v.value === '' && current.values.has(v.lang))
          removals.featureValues.push([feature.ftidref, v.lang]);
    const unitChanged =
      unit !== undefined &&
      (current ? (unit === null ? current.ownUnit !== null : unit !== current.unit) : unit !== null);
    if (set.length > 0 || unitChanged || !current)
      features.push({ ftidref: feature.ftidref, ...(unitChanged ? { funit: unit } : {}), values: set });
  }
  if (features.length > 0) document.features = features;

  changes += shortTexts.length + longTexts.length + features.length;
  const removed = removals.texts.length + removals.featureValues.length + removals.features.length;
  if (stored && changes === 0 && removed === 0) return { kind: 'unchanged', supplierPid };
  return {
    kind: stored ? 'change' : 'create',
    supplierPid,
    document: stored && changes === 0 ? undefined : document,
    removals,
  };
}

function groupOf(cell: string, index: number, groups: ReadonlySet<number>): number | null {
  if (cell.trim() === '') return null;
  const id = /^\s*\d{1,15}\s*$/.test(cell) ? Number(cell) : NaN;
  if (!Number.isSafeInteger(id))
    throw new RowProblem(index + 1, `groupId '${cell}' is not a group's id (a whole number)`);
  if (!groups.has(id)) throw new RowProblem(index + 1, `groupId ${id}: no group has this id`);
  return id;
}
