import type Database from 'better-sqlite3';
import type pg from 'pg';
import { checksumMismatch, postgresChecksum, type TableChecksum } from './table-checksum.js';
import { copyTable, resetSequences, type RowTransform } from './table-copy.js';
import type { TablePlan } from './table-plan.js';

/** A table as moved: its name and the rows both sides agree it holds. */
export interface MovedTable {
  name: string;
  rows: number;
}

/** The target found data that differs from the source: the move is undone. */
export class VerificationError extends Error {}

export interface CopyOptions {
  /** Per table: replaces values of each source row on its way to the target. */
  transforms?: Record<string, RowTransform>;
  /** Wraps the loading of all tables (into a schema without foreign keys, say). */
  aroundLoad?: <T>(load: () => Promise<T>) => Promise<T>;
}

/**
 * Copies the tables of a plan inside the client's transaction and verifies each: row count and
 * checksum of the target, read back in the same transaction, against those of the rows sent.
 * A difference throws VerificationError naming the table; the caller rolls back.
 */
export async function copyAndVerify(
  source: Database.Database,
  client: pg.ClientBase,
  plan: TablePlan[],
  options: CopyOptions = {},
): Promise<MovedTable[]> {
  const load = async () => {
    const checksums = new Map<string, TableChecksum>();
    for (const table of plan) {
      checksums.set(table.name, await copyTable(source, client, table, options.transforms?.[table.name]));
    }
    return checksums;
  };
  const sent = options.aroundLoad ? await options.aroundLoad(load) : await load();
  const moved: MovedTable[] = [];
  for (const table of plan) {
    await resetSequences(source, client, table);
    const expected = sent.get(table.name)!;
    const mismatch = checksumMismatch(table.name, expected, await postgresChecksum(client, table));
    if (mismatch) throw new VerificationError(mismatch);
    moved.push({ name: table.name, rows: expected.rows });
  }
  return moved;
}
