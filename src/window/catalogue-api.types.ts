/** The catalogue views' JSON (the grid's endpoints), shared by the window's server and front end. */

/** One row of the product grid (GET /ui/api/products/rows). */
export interface GridRow {
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

export interface GridRowsPage {
  rows: GridRow[];
  /** The cursor after the last row; null at the end. */
  next: string | null;
}

export interface GridCount {
  count: number;
}
