import { ValidationError } from '../errors.js';

/**
 * Paging cursors are opaque to clients: base64url of `p:<id>`, the last id of the page
 * (keyset paging on id). Ids are never reused (AUTOINCREMENT), so a page boundary stays
 * valid while products are created and deleted between pages.
 */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`p:${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^p:(\d{1,16})$/.exec(text);
  const id = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(id) || encodeCursor(id) !== cursor) {
    throw new ValidationError(`after '${cursor}' is not a cursor of this list`, 'INVALID_CURSOR');
  }
  return id;
}
