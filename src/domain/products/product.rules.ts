import { PRODUCT_FIELDS } from '../../db/catalogue/product-fields.js';
import { ValidationError } from '../errors.js';
import { normalizeLanguage } from '../languages/language.js';
import { checkNotBlank } from '../names.js';
import { checkLength, checkTextValue } from '../texts/text.rules.js';
import type { CreateProductInput, UpdateProductInput } from './product.types.js';

export const SUPPLIER_PID_MAX = 128;

/**
 * Checks a create or update input before anything is written and returns the
 * normalised language (undefined when none was sent). The HTTP schemas check the same
 * limits; these checks keep the other adapters (agent tools, UI, seed) honest.
 */
export function checkProductInput(
  input: CreateProductInput | UpdateProductInput,
  create: boolean,
): string | undefined {
  if (create && input.supplierPid === undefined) throw new ValidationError('supplierPid is required');
  if (input.supplierPid !== undefined) {
    if (typeof input.supplierPid !== 'string') throw new ValidationError('supplierPid must be a string');
    checkLength(input.supplierPid, 'supplierPid', SUPPLIER_PID_MAX, 1);
    checkNotBlank(input.supplierPid, 'supplierPid');
  }
  for (const { key, maxLength } of PRODUCT_FIELDS) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new ValidationError(`${key} must be a string or null`);
    checkLength(value, key, maxLength);
  }
  if (input.name !== undefined) {
    checkTextValue(input.name, 'name');
    checkNotBlank(input.name);
  }
  return input.language === undefined ? undefined : normalizeLanguage(input.language);
}

/** A variant named as the main product of a new variant. */
export function variantOfVariant(masterId: number, itsMasterId: number): ValidationError {
  return new ValidationError(
    `Product ${masterId} is a variant of product ${itsMasterId}; variants cannot have variants`,
    'VARIANT_OF_VARIANT',
  );
}
