import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Creates the folder `path` and the folders above it that are missing, each with `mode`; nothing
 * if it exists. Used instead of `mkdirSync(path, { recursive: true })`, which Node 20 retries for
 * ever when mkdir answers ENOENT although the parent exists (`/proc/x`): here each folder is made
 * once, and the first refusal is thrown (as mkdir's error: callers say which folder and why).
 */
export function makeFolder(path: string, mode: number): void {
  const target = resolve(path);
  const missing: string[] = [];
  for (let folder = target; ; folder = dirname(folder)) {
    try {
      // A file here: the mkdir below (or the check after the loop) fails with EEXIST or ENOTDIR.
      statSync(folder);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  if (missing.length === 0 && !statSync(target).isDirectory()) mkdirSync(target); // throws EEXIST
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by another process (two first starts at once): fine if it is a folder.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}

/** What went wrong, from a file system error, without the path and call Node's message repeats. */
export function fileSystemReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const match = /^[A-Z]+: ([^,]+)/.exec(error.message);
  return match ? match[1]! : error.message;
}
