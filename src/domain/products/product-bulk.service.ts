import { isConnectionFailure, isLockTimeout } from '../../db/connection-errors.js';
import { isUniqueViolation } from '../../db/constraint-errors.js';
import { withSavepoint } from '../../db/savepoint.js';
import { isAbortedTransaction } from '../../db/transaction-retry.js';
import { RIGHTS, useWorkspace, type RequestContext, type WorkspaceContext } from '../context.js';
import { Turns } from '../fair-turns.js';
import { DomainError, NotFoundError, ValidationError } from '../errors.js';
import { documentValidator } from '../validation/schema-validation.js';
import {
  BulkProductDocument,
  type BulkDeleteInput,
  type BulkDeleteResultDto,
  type BulkProductDocumentInput,
  type BulkProductResultDto,
} from './product-bulk.schemas.js';
import {
  findByIds,
  findBySupplierPid,
  findVariantIds,
  type ProductKeyRow,
} from './product-bulk.repository.js';
import { lockNamed, namedPids, writeBatch, type Outcome } from './product-bulk-fast.js';
import { dropUnusedDefinitions, ensureDefinitions, findBulkKeys } from './product-bulk-write.repository.js';
import { lockProducts } from './product-lock.repository.js';
import type { Pending } from './product-bulk-plan.js';
import {
  checkBatchSize,
  keyRepeated,
  masterCannotChange,
  masterNotFound,
  noProductWithPid,
  refusal,
} from './product-bulk.rules.js';
import { writeNewProductSheet, writeProductSheet } from './product-sheet.service.js';
import { deleteProduct } from './product.service.js';
import { BULK_ROWS_MAX } from './product-limits.js';

/**
 * Bulk upsert and bulk delete for integrations that sync whole catalogues. Each document is
 * written by the same code as the single-product services (the product sheet), inside a
 * savepoint of one transaction: a document's error undoes that document only, and every valid
 * document of the batch commits together.
 */

const validateDocument = documentValidator<BulkProductDocumentInput>(BulkProductDocument);

/** Items of an array property of a raw (not yet validated) document, else 0. */
function itemsOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Refuses a batch with more texts and feature values than BULK_ROWS_MAX, counted on the raw
 * documents before anything else is done with them.
 */
function checkBatchRows(documents: readonly unknown[]): void {
  let rows = 0;
  for (const raw of documents) {
    if (raw === null || typeof raw !== 'object') continue;
    const doc = raw as Record<string, unknown>;
    rows += itemsOf(doc.shortTexts).length + itemsOf(doc.longTexts).length;
    rows += itemsOf(doc.keywords).length;
    for (const feature of [...itemsOf(doc.features), ...itemsOf(doc.allFeatures)]) {
      if (feature !== null && typeof feature === 'object')
        rows += itemsOf((feature as { values?: unknown }).values).length;
    }
  }
  if (rows > BULK_ROWS_MAX) {
    throw new ValidationError(
      `A batch holds at most ${BULK_ROWS_MAX} texts and feature values, this one ${rows}: split it`,
      'BATCH_TOO_LARGE',
    );
  }
}

/**
 * A document that is not an object, named by its place in the batch: the schema's sentence for
 * it ("Request body must be a JSON object") spoke of a body that is a valid array.
 */
function checkIsObject(raw: unknown, index: number): void {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return;
  const kind = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`;
  throw new ValidationError(`Document ${index} of this batch must be a JSON object, not ${kind}`);
}

/**
 * Validates every document; the invalid ones get their result at once. Before the transaction
 * (no lock is held meanwhile), giving other requests turns (about 30 ms for 1,000 full documents).
 */
async function sortOut(
  documents: readonly unknown[],
): Promise<{ pending: Pending[]; results: BulkProductResultDto[] }> {
  const pending: Pending[] = [];
  const results: BulkProductResultDto[] = [];
  const firstIndex = new Map<string, number>();
  const turns = new Turns();
  for (const [index, raw] of documents.entries()) {
    await turns.take();
    const named = (raw as { supplierPid?: unknown } | null)?.supplierPid;
    const supplierPid = typeof named === 'string' ? named : null;
    try {
      checkIsObject(raw, index);
      const doc = validateDocument(raw);
      const earlier = firstIndex.get(doc.supplierPid);
      if (earlier !== undefined) {
        throw keyRepeated(doc.supplierPid, earlier);
      }
      firstIndex.set(doc.supplierPid, index);
      pending.push({ index, doc });
      results[index] = { supplierPid, id: null, status: 0 };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results[index] = { supplierPid, id: null, ...refusal(error) };
    }
  }
  return { pending, results };
}

async function masterOf(ctx: WorkspaceContext, masterSupplierPid: string): Promise<ProductKeyRow> {
  const master = await findBySupplierPid(ctx.db, masterSupplierPid);
  if (!master) throw masterNotFound(masterSupplierPid);
  return master;
}

/** Creates or updates one document's product; returns its id and 201 or 200. */
async function applyDocument(
  ctx: WorkspaceContext,
  doc: BulkProductDocumentInput,
): Promise<{ id: number; status: 201 | 200 }> {
  const { supplierPid, masterSupplierPid, groupId, ...rest } = doc;
  const existing = await findBySupplierPid(ctx.db, supplierPid);
  if (existing) {
    if (masterSupplierPid !== undefined) {
      const master = await masterOf(ctx, masterSupplierPid);
      if (existing.master_id !== master.id) throw masterCannotChange(supplierPid, existing.master_id);
    }
    await writeProductSheet(ctx, existing.id, { ...rest, groupId });
    return { id: existing.id, status: 200 };
  }
  const masterProductId =
    masterSupplierPid === undefined ? undefined : (await masterOf(ctx, masterSupplierPid)).id;
  const id = await writeNewProductSheet(ctx, {
    ...rest,
    supplierPid,
    masterProductId,
    groupId: groupId ?? undefined,
  });
  return { id, status: 201 };
}

/**
 * Creates or updates up to 1,000 products keyed by supplierPid (documents are validated here, one
 * by one, so that a bad one is that document's 400). Documents naming a main product by
 * masterSupplierPid are written after the others, so their main product may come later in the
 * batch. Results are in the order of the documents.
 *
 * The batch is written set-based (product-bulk-fast.ts: a dozen statements, two more per part of
 * the product model sent, instead of about a hundred per document) inside a savepoint; when a
 * statement of it fails (another transaction took a supplierPid meanwhile, on PostgreSQL), the
 * savepoint is rolled back and the batch is written document by document, as the single services
 * write (writeOne), which knows how to resolve that race.
 */
export function upsertProducts(
  context: RequestContext,
  documents: readonly unknown[],
): Promise<BulkProductResultDto[]> {
  return upsert(context, documents, true);
}

/**
 * upsertProducts written document by document through the single services only: the path the
 * set-based write falls back to, and the reference it must equal (stored rows, results, errors).
 */
export function upsertProductsOneByOne(
  context: RequestContext,
  documents: readonly unknown[],
): Promise<BulkProductResultDto[]> {
  return upsert(context, documents, false);
}

async function upsert(
  context: RequestContext,
  documents: readonly unknown[],
  setBased: boolean,
): Promise<BulkProductResultDto[]> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  checkBatchSize(documents.length);
  checkBatchRows(documents);
  const checked = await sortOut(documents);
  return ctx.transaction(async (trx) => {
    // Copied inside: a transaction PostgreSQL aborts (deadlock) runs again from the start.
    const results = checked.results.map((result) => ({ ...result }));
    const pending = checked.pending;
    const inner = useWorkspace({ ...ctx, trx }, RIGHTS.edit);
    if (pending.length === 0) return results;
    const outcomes = setBased ? await tryFastPath(inner, pending) : undefined;
    if (outcomes) {
      for (const outcome of outcomes) {
        const result = results[outcome.index]!;
        if ('error' in outcome) Object.assign(result, refusal(outcome.error));
        else Object.assign(result, { id: outcome.id, status: outcome.status });
      }
      return results;
    }
    const created = await prepareOneByOne(inner, pending);
    const ordered = [
      ...pending.filter((p) => p.doc.masterSupplierPid === undefined),
      ...pending.filter((p) => p.doc.masterSupplierPid !== undefined),
    ];
    for (const { index, doc } of ordered) {
      const result = results[index]!;
      try {
        const written = await writeOne(inner, doc);
        result.id = written.id;
        result.status = written.status;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        Object.assign(result, refusal(error));
      }
    }
    await dropUnusedDefinitions(trx, created);
    return results;
  });
}

/** How often the set-based write is tried before the batch is written document by document. */
const FAST_PATH_ATTEMPTS = 3;

/**
 * The set-based write in a savepoint; undefined when it failed and was rolled back (the caller
 * then writes document by document). It fails when another transaction committed a supplierPid
 * it was about to create; tried again, it finds that product and updates it, with
 * the locks taken in the one order every batch takes them. An aborted transaction (deadlock) or
 * a lost connection cannot be saved by a savepoint: those are rethrown, and the transaction runs
 * again. Nor can a lock another transaction held past the lock wait (PostgreSQL's lock_timeout):
 * the document-by-document path would wait for it as long again before the 503.
 */
async function tryFastPath(
  ctx: WorkspaceContext,
  pending: readonly Pending[],
): Promise<Outcome[] | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withSavepoint(ctx.db, 'bulk_batch', () => writeBatch(ctx, pending));
    } catch (error) {
      if (isAbortedTransaction(error) || isConnectionFailure(error) || isLockTimeout(error)) throw error;
      // Only the race is worth another set-based try; any other failure (a string the JSON
      // parameter cannot carry) would fail the same way again.
      if (!isUniqueViolation(error) || attempt === FAST_PATH_ATTEMPTS) return undefined;
    }
  }
}

/**
 * Before the documents are written one by one (each locks its product as the single services
 * do, in the batch's order): the stored products the batch names locked at once in id order,
 * and its feature definitions created in one order, as the set-based write does. Taken one by
 * one in the batch's order, they deadlocked with other batches (four overlapping batches, two of
 * them in reverse order, on PostgreSQL). Returns the definitions it created: those a refused
 * document named are dropped again once the documents are written.
 */
async function prepareOneByOne(ctx: WorkspaceContext, pending: readonly Pending[]): Promise<number[]> {
  await lockNamed(ctx.db, namedPids(pending));
  const definitions = await ensureDefinitions(ctx.db, [
    ...new Set(pending.flatMap(({ doc }) => (doc.features ?? []).map((f) => f.ftidref))),
  ]);
  return definitions.created;
}

/**
 * One document in its own savepoint. A create that loses a race for its supplierPid (another
 * transaction inserted it meanwhile: PostgreSQL, several instances) is undone and applied
 * again as an update, so that neither a duplicate nor a lost update can result.
 */
async function writeOne(ctx: WorkspaceContext, doc: BulkProductDocumentInput) {
  try {
    return await withSavepoint(ctx.db, 'bulk_document', () => applyDocument(ctx, doc));
  } catch (error) {
    if (!(error instanceof DomainError) || error.detailCode !== 'SUPPLIER_PID_TAKEN') throw error;
    return withSavepoint(ctx.db, 'bulk_document', () => applyDocument(ctx, doc));
  }
}

/**
 * Deletes up to 1,000 products named by supplierPid or by id, in one transaction; a main
 * product takes its variants. One result per entry, in order: 200 when the product is gone
 * (also when an earlier entry took it along as a variant), 404 when there was none.
 */
export async function deleteProducts(
  context: RequestContext,
  input: BulkDeleteInput,
): Promise<BulkDeleteResultDto[]> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const { supplierPids, ids } = input;
  if ((supplierPids === undefined) === (ids === undefined)) {
    throw new ValidationError('Send exactly one of supplierPids and ids');
  }
  checkBatchSize((supplierPids ?? ids ?? []).length);
  return ctx.transaction(async (trx) => {
    const inner = useWorkspace({ ...ctx, trx }, RIGHTS.edit);
    const found = supplierPids ? await findBulkKeys(trx, supplierPids) : await findByIds(trx, ids ?? []);
    // Every product of the batch locked at once, in id order, before the first is deleted: deleting
    // in the order of the entries locked row by row, and two batches naming the same products in
    // other orders deadlocked. The locked rows are the products as they are now: one another
    // transaction deleted (or renamed) meanwhile is not found (404), as if that came first.
    const named = new Set(found.map((row) => row.id));
    const rows = (await lockProducts(trx, [...named], 'delete', { variants: true })).filter((row) =>
      named.has(row.id),
    );
    const byKey = new Map<string | number, ProductKeyRow>(
      rows.map((row) => [supplierPids ? row.supplier_pid : row.id, row]),
    );
    const gone = new Set<number>();
    const keys: (string | number)[] = supplierPids ?? ids ?? [];
    const results: BulkDeleteResultDto[] = [];
    for (const key of keys) {
      const row = byKey.get(key);
      if (!row) {
        const error =
          typeof key === 'string'
            ? noProductWithPid(key)
            : new NotFoundError(`Product ${key} not found`, 'PRODUCT_NOT_FOUND');
        results.push({
          supplierPid: typeof key === 'string' ? key : null,
          id: typeof key === 'number' ? key : null,
          ...refusal(error),
        });
        continue;
      }
      if (!gone.has(row.id)) {
        const variants = await findVariantIds(trx, row.id);
        await deleteProduct(inner, row.id);
        for (const id of [row.id, ...variants]) gone.add(id);
      }
      results.push({ supplierPid: row.supplier_pid, id: row.id, status: 200 });
    }
    return results;
  });
}
