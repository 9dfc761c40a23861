import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileSystemReason, makeFolder } from '../db/file-system.js';

/** `--data-dir`, else PIM_DATA_DIR, else the platform's application-data folder. */
export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined) return resolve(flag);
  if (env.PIM_DATA_DIR) return resolve(env.PIM_DATA_DIR);
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'pim');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'pim');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'pim');
}

/**
 * Refuses a data folder that cannot be one, in a sentence that names it: a file or a path
 * through a file (mkdir's EEXIST and ENOTDIR say neither), and, unless `mayCreate`, a folder
 * that does not exist: a mistyped --data-dir must not be answered from a fresh, empty folder.
 */
export function checkDataDir(dir: string, mayCreate: boolean): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      if (mayCreate) return;
      throw new Error(
        `the data folder ${dir} does not exist (pim start or pim setup creates one; check --data-dir and PIM_DATA_DIR)`,
      );
    }
    if (code === 'ENOTDIR')
      throw new Error(`the data folder ${dir} cannot be used: a part of its path is a file`);
    throw new Error(`the data folder ${dir} cannot be used: ${fileSystemReason(error)}`, { cause: error });
  }
  if (!isFolder) throw new Error(`the data folder ${dir} is not a folder`);
}

/** Creates the data folder (the owner's only: it holds users, password hashes and the catalogue). */
export function ensureDataDir(dir: string): void {
  checkDataDir(dir, true);
  try {
    makeFolder(dir, 0o700);
  } catch (error) {
    throw new Error(`the data folder ${dir} cannot be created: ${fileSystemReason(error)}`, { cause: error });
  }
}
