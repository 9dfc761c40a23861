import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The environment variable that names the shared database; it wins over the data folder's file. */
export const DATABASE_URL_VARIABLE = 'PIM_DATABASE_URL';
/** The data folder's choice of shared database (`pim setup --database`), readable by the owner only. */
export const DATABASE_CONFIG_FILE = 'database.json';

/** Where the system data (users, sessions, workspace registry) and the workspaces live. */
export type StorageChoice = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

/**
 * The storage of a data folder: PostgreSQL when PIM_DATABASE_URL is set or the folder was set up
 * with `pim setup --database`, else SQLite in the folder itself.
 */
export function storageChoice(dataDir: string, env: NodeJS.ProcessEnv = process.env): StorageChoice {
  const fromEnv = env[DATABASE_URL_VARIABLE];
  if (fromEnv !== undefined && fromEnv.trim() !== '')
    return { kind: 'postgres', url: checkDatabaseUrl(fromEnv) };
  const file = join(dataDir, DATABASE_CONFIG_FILE);
  if (!existsSync(file)) return { kind: 'sqlite' };
  let stored: unknown;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${DATABASE_CONFIG_FILE} in the data folder is not valid JSON`);
  }
  const url = (stored as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') throw new Error(`${DATABASE_CONFIG_FILE} in the data folder has no "url"`);
  return { kind: 'postgres', url: checkDatabaseUrl(url) };
}

/** Records the data folder's shared database (written whole, then renamed: never half a file). */
export function saveDatabaseUrl(dataDir: string, url: string): void {
  const file = join(dataDir, DATABASE_CONFIG_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ url: checkDatabaseUrl(url) }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** Accepts postgres:// and postgresql:// URLs with a host; anything else is refused with a reason. */
export function checkDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error('the database URL is not a URL; use postgres://USER@HOST:PORT/DATABASE');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`the database URL must start with postgres://, not ${parsed.protocol}//`);
  }
  if (parsed.hostname === '' && !parsed.searchParams.has('host')) {
    throw new Error('the database URL names no host; use postgres://USER@HOST:PORT/DATABASE');
  }
  return url.trim();
}

/** The URL without its password, for messages and logs: postgres://pim:***@db:5432/pim. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
    }
    return parsed.toString();
  } catch {
    return 'the configured database';
  }
}

/** Replaces every occurrence of the URL's password in a text (driver messages may quote it). */
export function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return text;
  }
  return password === '' ? text : text.split(password).join('***').split(url).join(redactDatabaseUrl(url));
}

/**
 * A URL given to set a data folder up or to move a catalogue to (checkDatabaseUrl, and it must
 * name its database). Without one the driver takes the database named after the user: with user
 * postgres, the server's maintenance database would receive pim's schema. URLs stored or in the
 * environment are read as before, so that a folder set up that way keeps working.
 */
export function checkNewDatabaseUrl(url: string): string {
  const checked = checkDatabaseUrl(url);
  if (new URL(checked).pathname.replace(/^\//, '') === '') {
    throw new Error('the database URL names no database; use postgres://USER@HOST:PORT/DATABASE');
  }
  return checked;
}
