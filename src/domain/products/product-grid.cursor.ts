import { ValidationError } from '../errors.js';
import type { GridOrder, GridPlace } from './product-grid.repository.js';

/**
 * The grid's cursors are opaque to clients: base64url of JSON `[sort, dir, key, id]`, the place
 * of a page's last row in its order (keyset on the sort key and the id). A cursor belongs to
 * its sort: one of another sort or direction is refused rather than read wrongly.
 */
export function encodeGridCursor(order: GridOrder, place: GridPlace): string {
  const json = JSON.stringify([order.sort, order.desc ? 'desc' : 'asc', place.key, place.id]);
  return Buffer.from(json, 'utf8').toString('base64url');
}

export function decodeGridCursor(order: GridOrder, cursor: string): GridPlace {
  const place = parse(cursor);
  if (
    place === undefined ||
    place.sort !== order.sort ||
    place.dir !== (order.desc ? 'desc' : 'asc') ||
    (order.sort === 'id') !== (place.key === null) ||
    encodeGridCursor(order, place) !== cursor
  ) {
    throw Object.assign(
      new ValidationError(`after '${cursor}' is not a cursor of this list and sort`, 'INVALID_CURSOR'),
      { field: 'after' },
    );
  }
  return { key: place.key, id: place.id };
}

function parse(cursor: string) {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  const [sort, dir, key, id] = value as unknown[];
  if (typeof sort !== 'string' || typeof dir !== 'string') return undefined;
  if (key !== null && typeof key !== 'string') return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return undefined;
  return { sort, dir, key, id };
}
