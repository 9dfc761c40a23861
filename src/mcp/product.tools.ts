import { Type } from '@sinclair/typebox';
import { Id, Nullable } from '../domain/common.schemas.js';
import { ValidationError } from '../domain/errors.js';
import { listGroupProductsPage } from '../domain/groups/group.service.js';
import {
  createProductSheet,
  getProductSheetJson,
  updateProductSheet,
} from '../domain/products/product-sheet.service.js';
import {
  CreateProductSheetRequest,
  ProductSheetDto,
  UpdateProductSheetRequest,
} from '../domain/products/product-sheet.schemas.js';
import {
  ProductDto,
  ProductFilterQueryFields,
  ProductListQuery,
} from '../domain/products/product.schemas.js';
import {
  deleteProduct,
  listProductsPage,
  type ProductDto as Product,
} from '../domain/products/product.service.js';
import type { ProductListFilter } from '../domain/products/product.types.js';
import type { RequestContext } from '../domain/context.js';
import { RIGHTS } from '../domain/users/roles.js';
import { defineTool } from './tool.js';
import { EncodedJson } from './tool-result.js';
import { SHEET_ROWS_MAX } from '../domain/products/product-limits.js';

/** Page size of the list tools: small by default, because every item costs an agent tokens. */
export const TOOL_PAGE_DEFAULT = 50;
export const TOOL_PAGE_MAX = 500;
/** Longer strings are cut in lists (never in get_product). */
export const LIST_TEXT_MAX = 2_000;

const Limit = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: TOOL_PAGE_MAX,
    default: TOOL_PAGE_DEFAULT,
    description: `Page size, 1 to ${TOOL_PAGE_MAX} (default ${TOOL_PAGE_DEFAULT})`,
  }),
);
const Cursor = Type.Optional({
  ...ProductFilterQueryFields.after,
  description: 'nextCursor of the previous page; absent for the first page',
});

export const ProductPage = Type.Object(
  {
    items: Type.Array(ProductDto),
    nextCursor: Nullable(
      Type.String({ description: 'Pass as cursor for the next page; null on the last page' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A name over LIST_TEXT_MAX characters is cut, with a marker saying so and where the rest is.
 * Characters are code points, as pim's limits count them (an emoji is one, though two UTF-16
 * units), so the cut never splits a surrogate pair and the marker's figures are true.
 */
function compact(product: Product): Product {
  const { name } = product;
  // A string has at least as many UTF-16 units as code points: short names need no counting.
  if (name.length <= LIST_TEXT_MAX) return product;
  let characters = 0;
  let cutAt = name.length;
  for (let unit = 0; unit < name.length; characters++) {
    if (characters === LIST_TEXT_MAX) cutAt = unit;
    const code = name.charCodeAt(unit);
    unit += code >= 0xd800 && code <= 0xdbff && isLowSurrogate(name.charCodeAt(unit + 1)) ? 2 : 1;
  }
  if (characters <= LIST_TEXT_MAX) return product;
  return {
    ...product,
    name: `${name.slice(0, cutAt)}… [cut at ${LIST_TEXT_MAX} of ${characters} characters; get_product has all]`,
  };
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * One page of products; the cursor is `cursor` here, `after` on REST. With a groupId the group
 * service lists them, which answers an unknown group with GROUP_NOT_FOUND, not an empty page.
 */
export async function productPage(
  ctx: RequestContext,
  filter: Omit<ProductListFilter, 'after'> & { cursor?: string; limit: number },
) {
  const { cursor, groupId, ...rest } = filter;
  try {
    const page =
      groupId === undefined
        ? await listProductsPage(ctx, { ...rest, after: cursor })
        : await listGroupProductsPage(ctx, groupId, { ...rest, after: cursor });
    return { items: page.items.map(compact), nextCursor: page.next ?? null };
  } catch (error) {
    if (error instanceof ValidationError && error.detailCode === 'INVALID_CURSOR') {
      throw new ValidationError(`cursor '${cursor}' is not a cursor of this list`, 'INVALID_CURSOR');
    }
    throw error;
  }
}

const ProductId = { ...Id, description: 'The product (database id)' };

export const productTools = [
  defineTool({
    name: 'search_products',
    title: 'Search products',
    description:
      'Lists products of the open workspace as ProductDto, ordered by id, one page at a time (keyset paging: ' +
      'pass nextCursor as cursor until it is null). Filters combine with AND: q searches supplierPid and the ' +
      'short texts of all languages (substring, case-insensitive for ASCII); supplierPid and ean match exactly; ' +
      'groupId lists the products directly in that group (variants included); updatedSince (ISO 8601) gives ' +
      'products changed at or after an instant. Main products only unless includeVariants is true. ' +
      `Names longer than ${LIST_TEXT_MAX} characters are cut with a marker; get_product returns everything.`,
    input: Type.Object(
      {
        q: ProductFilterQueryFields.q,
        supplierPid: ProductFilterQueryFields.supplierPid,
        ean: ProductFilterQueryFields.ean,
        groupId: Type.Optional({ ...Id, description: 'Only products directly in this group (database key)' }),
        updatedSince: ProductFilterQueryFields.updatedSince,
        includeVariants: ProductListQuery.properties.all,
        lang: ProductFilterQueryFields.lang,
        limit: Limit,
        cursor: Cursor,
      },
      { additionalProperties: false },
    ),
    output: ProductPage,
    effect: 'read',
    right: RIGHTS.read,
    workspace: true,
    run: (ctx, { includeVariants, limit, ...filter }) =>
      productPage(ctx, { ...filter, all: includeVariants, limit: limit ?? TOOL_PAGE_DEFAULT }),
  }),
  defineTool({
    name: 'get_product',
    title: 'Get a product sheet',
    description:
      'The whole sheet of one product in one answer: the ProductDto, its short and long texts in every ' +
      'language, every feature occurrence in order (FT_IDREF, unit, names, values; one FT_IDREF may occur ' +
      'several times, a language may have several values, zxx is a value without language; details: ' +
      'VALUE_IDREF, FVALUE_DETAILS, FID, FPARENT_ID, reference system and group), its first group (id, ' +
      'groupId, name; null without one) and all its groups, manufacturerName, keywords per language, media ' +
      '(MIME_INFO), fragments kept verbatim, and its variants (id, supplierPid, name). Nothing is cut. lang ' +
      'chooses the language of the names shown (default: the workspace default language).',
    input: Type.Object(
      { id: ProductId, lang: ProductFilterQueryFields.lang },
      { additionalProperties: false },
    ),
    output: ProductSheetDto,
    effect: 'read',
    right: RIGHTS.read,
    workspace: true,
    // The database's JSON as it comes: no parse and serialise again per call.
    run: async (ctx, { id }) => new EncodedJson(await getProductSheetJson(ctx, id)),
  }),
  defineTool({
    name: 'create_product',
    title: 'Create a product',
    description:
      'Creates a product (or, with masterProductId, a variant of that main product) with its short and long ' +
      'texts, features and group, all in one transaction: any error creates nothing. allFeatures gives every ' +
      'feature occurrence (an FT_IDREF several times included) instead of features; groupIds every group; ' +
      'keywords, media, fragments and manufacturerName as get_product shows them. supplierPid must be ' +
      'unique in the workspace (CONFLICT otherwise). name is stored as the short text in language. Returns ' +
      `the new product sheet (as get_product). At most ${SHEET_ROWS_MAX} texts and feature values per call.`,
    input: CreateProductSheetRequest,
    output: ProductSheetDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 201,
    run: (ctx, input) => createProductSheet(ctx, input),
  }),
  defineTool({
    name: 'update_product',
    title: 'Update a product',
    description:
      'Changes the fields sent (others stay; null clears an optional field), sets the texts and features ' +
      'sent (languages and features not named stay; features address the first occurrence of an FT_IDREF) ' +
      'and, with groupId, moves the product into that group (null: out of its group). allFeatures, groupIds, ' +
      'keywords, media, fragments and manufacturerName replace that part as a whole when sent. All in one ' +
      'transaction: any error changes nothing. masterProductId cannot ' +
      'be changed. Returns the product sheet (as get_product). ' +
      `At most ${SHEET_ROWS_MAX} texts and feature values per call.`,
    input: UpdateProductSheetRequest,
    output: ProductSheetDto,
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: (ctx, { id, ...input }) => updateProductSheet(ctx, id, input),
  }),
  defineTool({
    name: 'delete_product',
    title: 'Delete a product',
    description:
      'Deletes a product with its texts, features and group membership; a main product takes all its ' +
      'variants with it. Cannot be undone. Returns the id deleted.',
    input: Type.Object({ id: ProductId }, { additionalProperties: false }),
    output: Type.Object({ deletedId: Type.Integer() }, { additionalProperties: false }),
    effect: 'delete',
    right: RIGHTS.edit,
    workspace: true,
    async run(ctx, { id }) {
      await deleteProduct(ctx, id);
      return { deletedId: id };
    },
  }),
];
