import { NotFoundError, ValidationError } from '../errors.js';

/** The bulk upsert's own refusals, shared by its per-document path and its set-based plan. */

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
