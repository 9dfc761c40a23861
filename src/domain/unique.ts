import { isUniqueViolation } from '../db/constraint-errors.js';
import type { ConflictError } from './errors.js';

/**
 * Runs a write whose duplicate is guarded by a unique index (the index is the guard, not a read
 * before the write), and turns the database's violation into the domain's conflict.
 */
export async function guardUnique<T>(write: () => Promise<T>, conflict: () => ConflictError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}
