import type { DtoField, ProductFieldValues } from '../../db/catalogue/product-fields.js';

/** ProductDto's text fields (supplierIdRef, ean, manufacturerPid, …: db/catalogue/product-fields.ts). */
export type ProductDtoFields = { [K in DtoField['key']]: string | null };

/** A product as every adapter returns it (REST, agent tools, UI). Unset optional fields are null. */
export type ProductDto = ProductDtoFields & ProductDtoCore;

interface ProductDtoCore {
  id: number;
  supplierPid: string;
  /** Short text in the request language, else the workspace default, else the first by code, else "". */
  name: string;
  /** True for a main product, false for a variant. */
  masterProduct: boolean;
  /** Number of variants; 0 for a variant. */
  variantCount: number;
  /** Id of the main product of a variant; null for a main product. */
  masterProductId: number | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** ISO 8601 UTC; touched by every change to the product, its texts, features, group or variants. */
  updatedAt: string;
}

/** A new product: every text field (those the sheet shows too) may be sent. */
export interface CreateProductInput extends ProductFieldValues {
  supplierPid: string;
  name?: string;
  language?: string;
  masterProductId?: number;
}

/** A partial update: the fields sent change, null clears one. */
export interface UpdateProductInput extends ProductFieldValues {
  supplierPid?: string;
  name?: string;
  language?: string;
}

/** Which products a list returns, and which page of them. */
export interface ProductListFilter {
  /** Include variants (main products only by default). Implied when groupId is given. */
  all?: boolean;
  /** Only products directly in this group (product.group_id), main products and variants. */
  groupId?: number;
  /** Page size, 1 to 1,000; without it the whole list is returned. */
  limit?: number;
  /** Opaque cursor from the previous page (keyset on id). */
  after?: string;
  /** ISO 8601: only products with updatedAt at or after this instant. */
  updatedSince?: string;
  /** Exact supplierPid. */
  supplierPid?: string;
  /** Exact EAN. */
  ean?: string;
  /** Case-insensitive substring of supplierPid or of any short text. */
  q?: string;
}

export interface ProductPage {
  items: ProductDto[];
  /** Cursor of the next page, when there is one (only with `limit`). */
  next?: string;
}

/** Which version of a product a representation shows: what its ETag is made of. */
export interface ProductVersion {
  workspaceId: number;
  productId: number;
  /** Rises with every change of the product, its texts, features, group membership or variants. */
  revision: number;
  /** The language of ProductDto.name in the representation (it differs per language). */
  language: string;
}

export interface VersionedProduct {
  product: ProductDto;
  version: ProductVersion;
}

/**
 * The condition of a change (optimistic locking): the product still exists ('any'), or it is
 * still at one of these revisions. Otherwise the change is refused with PRECONDITION_FAILED.
 */
export type ExpectedRevision = 'any' | readonly number[];
