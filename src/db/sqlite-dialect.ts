import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely's SQLite driver begins every transaction with a plain BEGIN, which takes SQLite's write
 * lock only at the first write. A transaction that read first (a product must exist before it
 * changes) then cannot take the lock once another process (`pim mcp`, the CLI) has committed
 * meanwhile: SQLite answers SQLITE_BUSY at once, with no waiting, and the request failed with 500.
 * BEGIN IMMEDIATE takes the lock at the start and waits for it (busy_timeout) like any other
 * writer. Transactions marked read only (the group tree's consistent reads) keep the plain BEGIN:
 * they must never wait for a writer.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

export class PimSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
