import type Database from 'better-sqlite3';
import type { Dialect } from '../dialect.js';
import { kyselyReads, type CatalogueReads } from './catalogue-reads.js';
import { sqliteReaderReads } from './catalogue-reads.sqlite.js';
import { bindCatalogueSql, type CatalogueSql, type WorkspaceDb } from './catalogue-sql.js';
import { catalogueSqlPostgres } from './catalogue-sql.postgres.js';
import { catalogueSqlSqlite } from './catalogue-sql.sqlite.js';

/**
 * A workspace's catalogue behind the dialect seam, resolved once when the workspace opens: its SQL
 * (catalogueSql(db) finds it from any connection of the workspace) and its reads, which choose
 * their connection here, never in a service.
 */
export interface CatalogueStore {
  readonly sql: CatalogueSql;
  /** Reads outside a transaction: SQLite's read-only connection, PostgreSQL's pool. */
  readonly reads: CatalogueReads;
  /** Reads inside the caller's transaction, which see its own uncommitted writes. */
  readsIn(trx: WorkspaceDb): CatalogueReads;
}

/** The one place that looks at the dialect: `reader` is SQLite's read-only connection. */
export function openCatalogueStore(
  dialect: Dialect,
  db: WorkspaceDb,
  reader?: Database.Database,
): CatalogueStore {
  const catalogue = dialect === 'postgres' ? catalogueSqlPostgres : catalogueSqlSqlite;
  bindCatalogueSql(db, catalogue);
  return {
    sql: catalogue,
    reads: reader ? sqliteReaderReads(db, reader) : kyselyReads(db),
    readsIn: kyselyReads,
  };
}
