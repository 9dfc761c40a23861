/**
 * The one place that recognises a value the database would not build because it is too large,
 * per dialect: SQLite's `SQLITE_TOOBIG` (a string or BLOB over 1,000,000,000 bytes) and
 * PostgreSQL's SQLSTATE 54000 (program_limit_exceeded: a text over 1 GB). JavaScript's own
 * limit on a string's length (RangeError) is one too.
 */
export function isTooLarge(error: unknown): boolean {
  if (error instanceof RangeError) return /string length/i.test(error.message);
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_TOOBIG' || code === '54000';
}
