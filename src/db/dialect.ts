/**
 * The two storage backends: SQLite (embedded, the default) and PostgreSQL (team mode). A
 * workspace's SQL that differs between them lives behind one seam (catalogue/catalogue-store.ts),
 * chosen once when the workspace opens.
 */
export type Dialect = 'sqlite' | 'postgres';
