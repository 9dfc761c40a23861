import { errorStatus } from '../error-codes.js';
import { NotFoundError, ValidationError, type DomainError } from '../errors.js';
import { BULK_DOCUMENTS_MAX } from './product-limits.js';

/**
 * The bulk writes' own refusals, shared by the upsert's per-document path and its set-based plan,
 * the bulk delete and setProductGroups.
 */

/** A refused document's result: its status, sentence and code. */
export function refusal(error: DomainError): { status: number; error: string; code: string } {
  return { status: errorStatus(error.detailCode), error: error.message, code: error.detailCode };
}

export function checkBatchSize(count: number): void {
  if (count > BULK_DOCUMENTS_MAX) {
    throw new ValidationError(
      `A batch holds at most ${BULK_DOCUMENTS_MAX} documents, this one ${count}: split it`,
      'BATCH_TOO_LARGE',
    );
  }
}

/** A document naming the supplierPid an earlier document of its batch named. */
export function keyRepeated(supplierPid: string, earlier: number): ValidationError {
  return new ValidationError(
    `supplierPid '${supplierPid}' is already the key of document ${earlier} of this batch`,
  );
}

export function noProductWithPid(supplierPid: string): NotFoundError {
  return new NotFoundError(`No product has supplierPid '${supplierPid}'`, 'PRODUCT_NOT_FOUND');
}

export function masterNotFound(masterSupplierPid: string): NotFoundError {
  return new NotFoundError(`masterSupplierPid '${masterSupplierPid}' names no product`, 'PRODUCT_NOT_FOUND');
}

/** An existing product named with another main product (or, as a main product, with one). */
export function masterCannotChange(supplierPid: string, currentMasterId: number | null): ValidationError {
  return new ValidationError(
    `Product '${supplierPid}' exists ${currentMasterId === null ? 'as a main product' : 'with another main product'}: ` +
      'masterSupplierPid cannot change it',
  );
}
