import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a test file puts screenshots of the states it reaches, to look at (not the README's):
 * PIM_SHOTS_DIR when set, else a fresh temporary folder.
 */
export function shotsDir(name: string): string {
  const dir = process.env.PIM_SHOTS_DIR;
  if (!dir) return mkdtempSync(join(tmpdir(), `pim-${name}-`));
  mkdirSync(dir, { recursive: true });
  return dir;
}
