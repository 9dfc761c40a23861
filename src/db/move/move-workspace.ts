import { inPoolTransaction } from './pool-transaction.js';
import type Database from 'better-sqlite3';
import { migratePostgres, openPostgres } from '../postgres.js';
import {
  workspaceLegacyNamesPostgres,
  workspaceMigrationsPostgres,
} from '../workspace.migrations.postgres.js';
import { loadIntoBareTables } from './bare-load.js';
import { planTables, POSTGRES_ONLY_TABLES, postgresTables, quoteName, sqliteTables } from './table-plan.js';
import { copyAndVerify, type MovedTable } from './verified-copy.js';

/**
 * A single statement of the move may run far longer than a request may (adding a foreign key
 * back checks millions of rows), yet a server that stops answering must still end the move.
 */
const MOVE_STATEMENT_TIMEOUT_MS = 30 * 60_000;

/**
 * Moves one workspace into a new schema of the target database: the schema is created by the
 * workspace migrations (the same DDL `pim workspace create` gives in team mode), then every
 * table the two sides have is copied and verified in ONE transaction, so that a failure leaves
 * an empty schema, which the caller drops. The caller chose the schema's name and registers it.
 */
export async function moveWorkspace(
  url: string,
  schema: string,
  name: string,
  source: Database.Database,
): Promise<MovedTable[]> {
  const handle = openPostgres<unknown>(url, schema, {
    max: 2,
    applicationName: 'pim db move',
    queryTimeoutMs: MOVE_STATEMENT_TIMEOUT_MS,
  });
  try {
    await migratePostgres(handle, workspaceMigrationsPostgres, workspaceLegacyNamesPostgres);
    // Only the tables: a new workspace's starting meta rows (insertInitialMeta) are not written,
    // the source's own meta rows are copied with the rest.
    const moved = await inPoolTransaction(handle.pool, async (client) => {
      const plan = planTables(
        `workspace '${name}'`,
        sqliteTables(source),
        await postgresTables(client, schema),
      );
      // Rows the migrations seed (the change counter's one row) come from the source instead: the
      // schema is this move's own, so emptying its tables loses nothing.
      for (const table of plan) await client.query(`DELETE FROM ${quoteName(table.name)}`);
      // The derived tables go bare too (their foreign keys reference the copied tables' keys),
      // and are filled from the copied rows before the indexes are built.
      const tables = [...plan.map((t) => t.name), ...POSTGRES_ONLY_TABLES.keys()];
      const moved = await copyAndVerify(source, client, plan, {
        aroundLoad: (load) =>
          loadIntoBareTables(client, schema, tables, async () => {
            const sent = await load();
            for (const fill of POSTGRES_ONLY_TABLES.values()) await client.query(fill);
            return sent;
          }),
      });
      // Fresh statistics: the first queries after the move are planned on the real table sizes,
      // not on those of empty tables (autovacuum would catch up only later).
      for (const table of tables) await client.query(`ANALYZE ${quoteName(table)}`);
      return moved;
    });
    // The visibility map, which only VACUUM sets (and VACUUM runs outside a transaction): without
    // it an index-only scan visits the table for every entry until autovacuum passes (where it
    // runs: about a minute after a load). Measured on 100,000 products: a jump in the grid sorted by name (fra) 92–121 ms
    // right after the move without it, 7 ms with it; VACUUM takes about 2 s of the move's 25–60.
    for (const table of moved) await handle.pool.query(`VACUUM ${quoteName(table.name)}`);
    return moved;
  } finally {
    await handle.close();
  }
}
