import { RIGHTS, useWorkspace, type RequestContext, type WorkspaceContext } from '../context.js';
import { atField, ConflictError, PreconditionFailedError, ValidationError } from '../errors.js';
import { guardUnique } from '../unique.js';
import { nextTurn } from '../fair-turns.js';
import { decodeCursor, encodeCursor } from './product.cursor.js';
import { checkLimit, likePattern, parseInstant } from './product.filter.js';
import { isTooLarge } from '../../db/size-errors.js';
import {
  allFieldColumns,
  DTO_FIELDS_AFTER_NAME,
  DTO_FIELDS_BEFORE_NAME,
  fieldColumns,
} from '../../db/catalogue/product-fields.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import {
  deleteProduct as deleteProductRow,
  findProduct,
  insertProduct,
  lockProductRevision,
  touchProducts,
  updateProduct as updateProductRow,
  type ProductRow,
  type ProductRowQuery,
  type ProductValues,
} from './product.repository.js';
import { upsertText } from '../texts/text.repository.js';
import { noteDeletions } from './product-deletion.service.js';
import { lockProduct, lockProductForDelete, productNotFound } from './product.guards.js';
import { checkProductInput, variantOfVariant } from './product.rules.js';
import type {
  CreateProductInput,
  ExpectedRevision,
  ProductDto,
  ProductListFilter,
  ProductPage,
  ProductVersion,
  UpdateProductInput,
  VersionedProduct,
} from './product.types.js';

export type {
  ExpectedRevision,
  ProductDto,
  ProductListFilter,
  ProductPage,
  ProductVersion,
  VersionedProduct,
} from './product.types.js';

/** ProductDto in the spec's order, as the database's JSON has it (db/catalogue/product-dto-entries.ts). */
function toDto(row: ProductRow): ProductDto {
  const dto: Record<string, unknown> = { id: row.id, supplierPid: row.supplier_pid };
  for (const f of DTO_FIELDS_BEFORE_NAME) dto[f.key] = row[f.column];
  dto.name = row.name;
  for (const f of DTO_FIELDS_AFTER_NAME) dto[f.key] = row[f.column];
  return Object.assign(dto, {
    masterProduct: row.master_id === null,
    variantCount: row.variant_count,
    masterProductId: row.master_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }) as unknown as ProductDto;
}

/** The language of ProductDto.name: the one asked for, else the workspace default. */
export function nameLanguage(ctx: WorkspaceContext, requested?: string): string {
  return requested ?? ctx.language ?? ctx.workspace.defaultLanguage;
}

function now(ctx: WorkspaceContext): string {
  return ctx.clock.now().toISOString();
}

function versioned(ctx: WorkspaceContext, row: ProductRow, lang: string): VersionedProduct {
  return {
    product: toDto(row),
    version: { workspaceId: ctx.workspace.id, productId: row.id, revision: row.revision, language: lang },
  };
}

async function readProduct(ctx: WorkspaceContext, db: WorkspaceDb, id: number, lang: string) {
  const row = await findProduct(db, id, lang);
  if (!row) throw productNotFound(id);
  return versioned(ctx, row, lang);
}

export async function getProduct(context: RequestContext, id: number): Promise<ProductDto> {
  return (await getVersionedProduct(context, id)).product;
}

/** The product with its version, read in the same statement (the version never runs ahead of the data). */
export async function getVersionedProduct(context: RequestContext, id: number): Promise<VersionedProduct> {
  const ctx = useWorkspace(context, RIGHTS.read);
  // REST's GET by id reads the JSON SQLite writes (product-json.service.ts); this is the DTO.
  return readProduct(ctx, ctx.db, id, nameLanguage(ctx));
}

/**
 * The version a read of the product would show now, or undefined for an unknown product: one
 * lookup by primary key, for answering a conditional read without building the product.
 */
export async function getProductVersion(
  context: RequestContext,
  id: number,
): Promise<ProductVersion | undefined> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const revision = await ctx.reads.productRevision(id);
  if (revision === undefined) return undefined;
  return { workspaceId: ctx.workspace.id, productId: id, revision, language: nameLanguage(ctx) };
}

/**
 * Checks, inside the writing transaction and with the product's row locked, that the product
 * is still at an expected revision; throws PRECONDITION_FAILED otherwise. Two editors racing
 * with the same version: the first changes it, the second is refused.
 */
export async function checkRevision(trx: WorkspaceDb, id: number, expected: ExpectedRevision | undefined) {
  if (expected === undefined) return;
  const revision = await lockProductRevision(trx, id);
  if (revision === undefined) throw productNotFound(id);
  if (expected !== 'any' && !expected.includes(revision)) {
    throw new PreconditionFailedError(
      `Product ${id} was changed since the version this change is based on: read it again and reapply the change`,
    );
  }
}

/**
 * One page of products (or all of them without `limit`), ordered by id. Filters combine
 * with AND. With `groupId`, the direct members of that group, variants included.
 */
export async function listProductsPage(
  context: RequestContext,
  filter: ProductListFilter,
): Promise<ProductPage> {
  const ctx = useWorkspace(context, RIGHTS.read);
  if (filter.limit !== undefined) checkLimit(filter.limit);
  const query = rowQuery(ctx, filter);
  const rows = await ctx.reads.productRows({
    ...query,
    limit: filter.limit === undefined ? undefined : filter.limit + 1,
  });
  if (filter.limit !== undefined && rows.length > filter.limit) {
    const items = rows.slice(0, filter.limit).map(toDto);
    return { items, next: encodeCursor(items[items.length - 1]!.id) };
  }
  return { items: rows.map(toDto) };
}

/**
 * One page of products as ProductDto JSON written by the database (items joined by commas, UTF-8,
 * null for none), with the cursor of the next page: the same answer as listProductsPage without
 * turning every field into a JavaScript value and back (a page of 100 is the hot path of delta
 * syncs).
 */
export async function listProductsPageJson(
  context: RequestContext,
  filter: ProductListFilter & { limit: number },
): Promise<{ json: Uint8Array | null; next?: string }> {
  const ctx = useWorkspace(context, RIGHTS.read);
  checkLimit(filter.limit);
  const query = { ...rowQuery(ctx, filter), limit: filter.limit };
  let page;
  try {
    page = await ctx.reads.productPage(query, PAGE_BYTES_MAX);
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    throw pageTooLarge(filter.limit);
  }
  // A page of very long names: SQLite refused to build it, PostgreSQL cut it at the budget.
  if (page.tooLarge) throw pageTooLarge(filter.limit);
  return page.more && page.lastId !== null
    ? { json: page.json, next: encodeCursor(page.lastId) }
    : { json: page.json };
}

/** The most a page's JSON may hold on PostgreSQL, which reads it row by row (SQLite stops at about 1 GB). */
const PAGE_BYTES_MAX = 256 * 1024 * 1024;

function pageTooLarge(limit: number): ValidationError {
  return new ValidationError(
    `This page of up to ${limit} products is too large for one answer (their names are very long): ` +
      'ask for fewer with limit, or for all with all=true, which streams',
    'PAGE_TOO_LARGE',
  );
}

/** Validates a filter (before anything is answered) and turns it into a row query. */
function rowQuery(ctx: WorkspaceContext, filter: ProductListFilter): ProductRowQuery {
  return {
    lang: nameLanguage(ctx),
    all: filter.all ?? false,
    groupId: filter.groupId,
    afterId: filter.after === undefined ? undefined : decodeCursor(filter.after),
    updatedSince:
      filter.updatedSince === undefined ? undefined : parseInstant(filter.updatedSince, 'updatedSince'),
    supplierPid: filter.supplierPid,
    ean: filter.ean,
    search:
      filter.q === undefined || filter.q === ''
        ? undefined
        : { text: filter.q, pattern: likePattern(filter.q) },
  };
}

/** The most products in one chunk of a streamed list. */
const STREAM_CHUNK = 1000;
/** The first chunk's size: grown while chunks stay small, so that a run of huge names never starts with a giant chunk. */
const FIRST_CHUNK = 20;
/** The bytes a chunk aims at: a product's name may hold 1,000,000 characters (4 MB in UTF-8). */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** The next chunk's size after one of `count` products and `bytes` bytes. */
export function nextChunkSize(count: number, bytes: number): number {
  if (bytes > CHUNK_BYTES) return Math.max(1, Math.floor((count * CHUNK_BYTES) / bytes));
  return Math.min(STREAM_CHUNK, count * 2);
}

/**
 * The whole filtered list in id order, as chunks of ProductDto JSON in UTF-8 (objects joined
 * by commas) read by keyset: a list of 100,000 products never sits in memory at once, and
 * other requests are served between chunks. Names may hold 1,000,000 characters, so chunks
 * start at 20 products, double while under 4 MB and shrink toward 4 MB after a larger one; on
 * PostgreSQL a chunk ends where its JSON passes 4 MB, and a chunk SQLite refuses to build (its
 * limit, about 1 GB) is read again in halves (CatalogueReads.productChunk).
 * The filter is validated now, so that a bad one is refused before any byte is sent. Not a
 * snapshot: a product created or deleted while the list streams may or may not appear.
 */
export function streamProductsJson(
  context: RequestContext,
  filter: Omit<ProductListFilter, 'limit'>,
): AsyncIterable<Uint8Array> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const query = rowQuery(ctx, filter);
  const reads = ctx.reads;
  return (async function* () {
    let afterId = query.afterId;
    let limit = FIRST_CHUNK;
    for (;;) {
      let chunk;
      try {
        chunk = await reads.productChunk({ ...query, afterId, limit }, CHUNK_BYTES);
      } catch (error) {
        if (!isTooLarge(error) || limit === 1) throw error;
        limit = Math.ceil(limit / 2);
        await nextTurn();
        continue;
      }
      if (chunk.json !== null) yield chunk.json;
      if (chunk.ended || chunk.lastId === null) return;
      afterId = chunk.lastId;
      limit = nextChunkSize(chunk.count, chunk.json?.byteLength ?? 0);
      await nextTurn();
    }
  })();
}

/** Products in id order: main products, or all with `all`, or the direct members of a group. */
export async function listProducts(
  context: RequestContext,
  filter: ProductListFilter = {},
): Promise<ProductDto[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return (await listProductsPage(ctx, filter)).items;
}

/**
 * The variants of a product in id order (none for a variant), as the JSON text of ProductDto[]
 * the database writes (GET /api/product/{id}/variants sends it as it is): one statement, which
 * also tells an unknown product (404).
 */
export async function listVariantsJson(context: RequestContext, id: number): Promise<string> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const json = await ctx.reads.variantsJson(id, nameLanguage(ctx));
  if (json === undefined) throw productNotFound(id);
  return json;
}

function supplierPidTaken(supplierPid: string): ConflictError {
  const error = new ConflictError(`supplierPid '${supplierPid}' is already taken`, 'SUPPLIER_PID_TAKEN');
  return atField(error, 'supplierPid');
}

/** Inserts, translating the unique index on supplier_pid into a 409. */
function insertUnique(db: WorkspaceDb, values: ProductValues, at: string): Promise<number> {
  return guardUnique(
    () => insertProduct(db, values, at),
    () => supplierPidTaken(values.supplier_pid),
  );
}

/**
 * Creates a product, or a variant when masterProductId is set (404 for an unknown main
 * product, 400 when it is itself a variant). `name` becomes the short text in `language`.
 */
export async function createProduct(context: RequestContext, input: CreateProductInput): Promise<ProductDto> {
  return (await createVersionedProduct(context, input)).product;
}

/** createProduct with the new product's version (its first revision, for the 201's ETag). */
export async function createVersionedProduct(
  context: RequestContext,
  input: CreateProductInput,
): Promise<VersionedProduct> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const language = checkProductInput(input, true);
  const lang = nameLanguage(ctx, language);
  const masterId = input.masterProductId;
  if (masterId !== undefined && (!Number.isSafeInteger(masterId) || masterId < 1)) {
    throw new ValidationError('masterProductId must be a positive integer');
  }
  return ctx.transaction(async (trx) => {
    const at = now(ctx);
    if (masterId !== undefined) {
      // Locked first (PostgreSQL), as every product write: a delete racing with this create either
      // finishes before (404) or waits until the variant exists. The touch then updates a row this
      // transaction holds; as the first statement, its `id IN (subquery)` could wait for another
      // writer and lose the row in PostgreSQL's re-check (product-lock.repository.ts).
      const master = await lockProduct(trx, masterId);
      if (master.master_id !== null) throw variantOfVariant(masterId, master.master_id);
      await touchProducts(trx, [masterId], at);
    }
    const values: ProductValues = {
      supplier_pid: input.supplierPid,
      ...allFieldColumns(input),
      master_id: masterId ?? null,
    };
    const id = await insertUnique(trx, values, at);
    if (input.name !== undefined) await upsertText(trx, id, 'DESCRIPTIONSHORT', lang, input.name);
    // Not read back (a query per create): a new product is what was written, with no variants
    // and, as its only short text, the name in `lang`.
    const name = input.name ?? '';
    const row = { id, ...values, created_at: at, updated_at: at, revision: 1, variant_count: 0, name };
    return versioned(ctx, row, lang);
  });
}

/** Creates a variant of a main product (POST /api/product/{id}/variants). */
export async function createVariant(
  context: RequestContext,
  masterId: number,
  input: Omit<CreateProductInput, 'masterProductId'>,
): Promise<ProductDto> {
  return (await createVersionedVariant(context, masterId, input)).product;
}

/** createVariant with the new variant's version (for the 201's ETag). */
export async function createVersionedVariant(
  context: RequestContext,
  masterId: number,
  input: Omit<CreateProductInput, 'masterProductId'>,
): Promise<VersionedProduct> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  if ('masterProductId' in input) {
    throw new ValidationError(
      'masterProductId is not accepted here: the variant belongs to the product in the path',
    );
  }
  return createVersionedProduct(ctx, { ...input, masterProductId: masterId });
}

/** Partial update: only the fields present change; `name` writes the short text in `language`. */
export async function updateProduct(
  context: RequestContext,
  id: number,
  input: UpdateProductInput,
  expected?: ExpectedRevision,
): Promise<ProductDto> {
  return (await updateVersionedProduct(context, id, input, expected)).product;
}

/**
 * updateProduct, answering the product with its new version; with `expected`, only while the
 * product is at that revision (PRECONDITION_FAILED otherwise, after 404 and 400, before 409).
 */
export async function updateVersionedProduct(
  context: RequestContext,
  id: number,
  input: UpdateProductInput,
  expected?: ExpectedRevision,
): Promise<VersionedProduct> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  if ('masterProductId' in input) {
    throw new ValidationError('masterProductId cannot be changed: it is set only when a variant is created');
  }
  const language = checkProductInput(input, false);
  const lang = nameLanguage(ctx, language);
  const patch: Partial<Omit<ProductValues, 'master_id'>> = fieldColumns(input);
  if (input.supplierPid !== undefined) patch.supplier_pid = input.supplierPid;
  return ctx.transaction(async (trx) => {
    const at = now(ctx);
    await lockProduct(trx, id);
    await checkRevision(trx, id, expected);
    const changes = Object.keys(patch).length > 0 || input.name !== undefined;
    if (Object.keys(patch).length > 0) {
      await guardUnique(
        () => updateProductRow(trx, id, patch, at),
        () => supplierPidTaken(input.supplierPid ?? ''),
      );
    }
    if (input.name !== undefined) await upsertText(trx, id, 'DESCRIPTIONSHORT', lang, input.name);
    if (changes) await touchProducts(trx, [id], at);
    return readProduct(ctx, trx, id, lang);
  });
}

/**
 * Deletes a product; a main product takes its variants (and all their data) with it. With
 * `expected`, only while the product is at that revision (else PRECONDITION_FAILED). Returns the
 * number of products deleted, its variants included.
 */
export async function deleteProduct(
  context: RequestContext,
  id: number,
  expected?: ExpectedRevision,
): Promise<number> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  return ctx.transaction(async (trx) => {
    const at = now(ctx);
    // Locked first: of two deletes of one product, the second waits and then finds none (404),
    // where it recorded the deletion a second time (duplicate key, 500) or answered 200 for nothing.
    const { product, variants } = await lockProductForDelete(trx, id);
    await checkRevision(trx, id, expected);
    if (product.master_id !== null) await touchProducts(trx, [product.master_id], at);
    await noteDeletions(trx, [id], at);
    await deleteProductRow(trx, id);
    return 1 + variants;
  });
}
