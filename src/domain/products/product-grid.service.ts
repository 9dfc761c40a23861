import { RIGHTS, useWorkspace, type RequestContext, type WorkspaceContext } from '../context.js';
import { DomainError, ValidationError } from '../errors.js';
import { normalizeLanguage } from '../languages/language.js';
import { decodeGridCursor, encodeGridCursor } from './product-grid.cursor.js';
import {
  countGrid,
  gridPlaceAt,
  gridPlaces,
  gridRows,
  type GridFilter,
  type GridOrder,
  type GridRowRecord,
  type GridStart,
} from './product-grid.repository.js';
import { GRID_LIMIT_DEFAULT, type GridCountFilter, type GridRowsFilter } from './product-grid.schemas.js';
import { likePattern, parseInstant } from './product.filter.js';
import { nameLanguage } from './product.service.js';

/** A row of the product grid (the window's GridRow, src/window/catalogue-api.types.ts). */
export interface ProductGridRow {
  id: number;
  supplierPid: string;
  name: string;
  ean: string | null;
  manufacturerPid: string | null;
  variantCount: number;
  masterProductId: number | null;
  groupId: number | null;
  group: string | null;
  updatedAt: string;
}

export interface ProductGridPage {
  rows: ProductGridRow[];
  next: string | null;
}

/** The error of a parameter, naming it (`field`) so that the window shows it beside its input. */
function atField(field: string, work: () => string): string {
  try {
    return work();
  } catch (error) {
    if (error instanceof DomainError) throw Object.assign(error, { field });
    throw error;
  }
}

/** A parameter that works only with another: the missing one is at fault. */
function needs(present: string, missing: string): never {
  throw Object.assign(new ValidationError(`${present} needs ${missing}`), { field: missing });
}

/** The filters of a grid query, checked (400 naming the parameter) and normalised. */
export function gridFilter(query: GridCountFilter): GridFilter {
  if (query.text !== undefined && query.textLang === undefined) needs('text', 'textLang');
  if (query.textLang !== undefined && query.text === undefined) needs('textLang', 'text');
  if (query.feature !== undefined && query.ftidref === undefined) needs('feature', 'ftidref');
  if (query.ftidref !== undefined && query.feature === undefined) needs('ftidref', 'feature');
  if (query.subgroups !== undefined && query.groupId === undefined) needs('subgroups', 'groupId');
  const q = query.q === undefined || query.q === '' ? undefined : query.q;
  return {
    search: q === undefined ? undefined : { text: q, pattern: likePattern(q) },
    groupId: query.groupId,
    subgroups: query.subgroups ?? false,
    main: query.main ?? false,
    updatedSince:
      query.updatedSince === undefined
        ? undefined
        : atField('updatedSince', () => parseInstant(query.updatedSince!, 'updatedSince')),
    text:
      query.textLang === undefined
        ? undefined
        : {
            lang: atField('textLang', () => normalizeLanguage(query.textLang!, 'textLang')),
            has: query.text === 'has',
          },
    feature:
      query.ftidref === undefined ? undefined : { ftidref: query.ftidref, has: query.feature === 'has' },
  };
}

function gridLanguage(ctx: WorkspaceContext, lang: string | undefined): string {
  return lang === undefined ? nameLanguage(ctx) : atField('lang', () => normalizeLanguage(lang, 'lang'));
}

/** The number of products the grid's filters select (GET /ui/api/products/count). */
export async function countProductGrid(context: RequestContext, query: GridCountFilter): Promise<number> {
  const ctx = useWorkspace(context, RIGHTS.read);
  gridLanguage(ctx, query.lang);
  return countGrid(ctx.db, gridFilter(query));
}

/**
 * A page of the product grid (GET /ui/api/products/rows): `limit` rows of the filtered list in
 * the sort's order (then by id), from the start, after a cursor (pure keyset) or at a row index
 * (one OFFSET probe over the sort's index finds that row's key, then keyset from it). Never
 * OFFSET over the rows themselves (docs/catalogue-grid.md).
 */
export async function listProductGrid(
  context: RequestContext,
  query: GridRowsFilter,
): Promise<ProductGridPage> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const lang = gridLanguage(ctx, query.lang);
  const filter = gridFilter(query);
  const order: GridOrder = { sort: query.sort ?? 'id', desc: query.dir === 'desc', lang };
  const limit = query.limit ?? GRID_LIMIT_DEFAULT;
  if (query.after !== undefined && query.at !== undefined) {
    throw Object.assign(new ValidationError('after and at cannot be combined: give one of them'), {
      field: 'at',
    });
  }
  let start: GridStart;
  if (query.after !== undefined) start = { after: decodeGridCursor(order, query.after) };
  else if (query.at !== undefined) {
    const anchor = await gridPlaceAt(ctx.db, filter, order, query.at);
    if (anchor === undefined) return { rows: [], next: null };
    start = { from: anchor };
  }
  const places = await gridPlaces(ctx.db, filter, order, start, limit + 1);
  const page = places.slice(0, limit);
  const records = await gridRows(
    ctx.db,
    page.map((p) => p.id),
    lang,
    ctx.workspace.defaultLanguage,
  );
  const byId = new Map(records.map((r) => [Number(r.id), r]));
  // A product deleted between the two reads is left out; its place still carries the cursor on.
  const rows = page.flatMap((p) => {
    const record = byId.get(p.id);
    return record ? [toGridRow(record)] : [];
  });
  const last = page[page.length - 1];
  return { rows, next: places.length > limit && last ? encodeGridCursor(order, last) : null };
}

function toGridRow(r: GridRowRecord): ProductGridRow {
  return {
    id: Number(r.id),
    supplierPid: r.supplier_pid,
    name: r.name,
    ean: r.ean,
    manufacturerPid: r.manufacturer_pid,
    variantCount: Number(r.variant_count),
    masterProductId: r.master_id === null ? null : Number(r.master_id),
    groupId: r.group_id === null ? null : Number(r.group_id),
    group: r.group_id === null ? null : r.group_name,
    updatedAt: r.updated_at,
  };
}
