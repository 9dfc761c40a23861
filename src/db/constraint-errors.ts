/**
 * The one place that recognises a unique-constraint violation, per dialect: SQLite
 * (better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE`, `…_PRIMARYKEY`) and PostgreSQL (SQLSTATE 23505).
 * The domain turns it into its own ConflictError with `guardUnique` (domain/unique.ts).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
