/**
 * The JSON of the catalogue views' endpoints (/ui/api/products/...), shared by the server
 * (src/window) and the front end (src/ui imports these types only). Fields are added, never renamed.
 */

/** The grid's sort columns; ties (and `id` itself) are ordered by id. */
export type GridSort = 'supplierPid' | 'name' | 'updated' | 'id';
export type GridSortDirection = 'asc' | 'desc';

/**
 * The query of GET /ui/api/products/rows and /count (all optional; booleans and numbers as
 * strings in the address). `limit`, `after` and `at` belong to /rows only.
 */
export interface GridQuery {
  sort?: GridSort;
  dir?: GridSortDirection;
  /** Substring of supplierPid or of a short text in any language, ASCII letters in either case. */
  q?: string;
  groupId?: number;
  /** With groupId: true includes the members of every subgroup; default false (direct members). */
  subgroups?: boolean;
  /** true: main products only; default false (variants too). */
  main?: boolean;
  /** ISO 8601: products updated at or after it. */
  updatedSince?: string;
  /** ISO 639-2 code, with `text`. */
  textLang?: string;
  text?: 'has' | 'lacks';
  /** A feature's ftidref (ECLASS ids such as 0173-1#02-AAF040#004 included), with `feature`. */
  ftidref?: string;
  feature?: 'has' | 'lacks';
  /** Language of the name and group columns; default: the workspace default. */
  lang?: string;
  /** 1..500, default 100. */
  limit?: number;
  /** A cursor from a previous answer's `next` (same sort and direction). */
  after?: string;
  /** A row index >= 0 into the sorted, filtered list. */
  at?: number;
}

export interface GridRow {
  id: number;
  supplierPid: string;
  /** The short text in `lang`, else the first by language code, else "" (REST's ProductDto.name). */
  name: string;
  ean: string | null;
  manufacturerPid: string | null;
  variantCount: number;
  masterProductId: number | null;
  /** The product's first (primary) group, null when ungrouped. */
  groupId: number | null;
  /** That group's name in `lang`, else the workspace default, else the first by code, else "". */
  group: string | null;
  updatedAt: string;
}

export interface GridRowsPage {
  rows: GridRow[];
  /** Cursor after the last row, null at the end. */
  next: string | null;
}

export interface GridCount {
  count: number;
}
