import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `--data-dir`, else PIM_DATA_DIR, else the platform's application-data folder. */
export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.PIM_DATA_DIR) return resolve(env.PIM_DATA_DIR);
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'pim');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'pim');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'pim');
}
