import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkNewDatabaseUrl,
  DATABASE_CONFIG_FILE,
  DATABASE_URL_VARIABLE,
  redactDatabaseUrl,
  saveDatabaseUrl,
  storageChoice,
} from '../../db/database-config.js';
import { refuseWhileRunning } from '../../app/running-processes.js';
import { openStores, SYSTEM_DB_FILE } from '../../app/system-store.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';
import { withApplication } from './with-app.js';

/** Whether the data folder's own SQLite database holds users or workspaces (a single-machine installation). */
async function localCatalogueExists(dataDir: string): Promise<boolean> {
  if (!existsSync(join(dataDir, SYSTEM_DB_FILE))) return false;
  return withApplication(
    dataDir,
    async (app) =>
      (await app.users.list(app.ownerContext())).length > 0 || (await app.workspaces.count()) > 0,
    { kind: 'sqlite' },
  );
}

/**
 * `pim setup --database URL`: this data folder keeps its users, sessions and workspaces in the
 * shared PostgreSQL database from now on (team mode); `--database sqlite` goes back to the data
 * folder's own files. The database is reached and its schema brought up to date before the
 * choice is saved, so a wrong URL changes nothing. Refused while `pim start` or `pim mcp` runs on
 * the folder: they keep the database they started with, while the CLI would use the new one.
 */
export async function setupCommand({ dataDir, values, out }: CommandInput): Promise<void> {
  const target = values.database;
  if (typeof target !== 'string' || target.trim() === '') {
    throw new UsageError(
      'pim setup needs --database postgres://USER@HOST:PORT/DATABASE (or --database sqlite)',
    );
  }
  refuseWhileRunning(dataDir, 'nothing was changed', ' and would keep the database it started with');
  if (process.env[DATABASE_URL_VARIABLE]) {
    process.stderr.write(
      `pim: note: ${DATABASE_URL_VARIABLE} is set and wins over the data folder's choice while it is set\n`,
    );
  }
  if (target.trim() === 'sqlite') {
    rmSync(join(dataDir, DATABASE_CONFIG_FILE), { force: true });
    out('this data folder now keeps its data in its own SQLite files');
    return;
  }
  const url = checkNewDatabaseUrl(target);
  const current = storageChoice(dataDir, {});
  if (current.kind === 'sqlite' && values.force !== true && (await localCatalogueExists(dataDir))) {
    throw new Error(
      'this data folder holds users or workspaces in SQLite: copy them with pim db move --to URL, ' +
        'or pass --force to leave them behind (the files stay)',
    );
  }
  const stores = await openStores(dataDir, { kind: 'postgres', url });
  await stores.close();
  saveDatabaseUrl(dataDir, url);
  out(`this data folder now uses the shared database ${redactDatabaseUrl(url)}`);
}
