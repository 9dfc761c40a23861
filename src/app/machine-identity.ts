import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolder } from '../db/file-system.js';

/** The file in the data folder that holds the instance's machine id. */
export const MACHINE_ID_FILE = 'machine-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The stable id of this pim instance ("machine" in the spec's "logged in on another machine"):
 * a UUID in `<dataDir>/machine-id`, created on first use (owner-only, 0600) and kept for good.
 * It lives beside the data, never in the system database: in team mode that database is
 * shared by several instances, and each must know which sessions it issued itself.
 *
 * Created atomically (written to a temporary file, then hard-linked into place), so that two
 * processes starting on a new data folder at once agree on one id and nobody reads half a file.
 */
export function readMachineId(dataDir: string): string {
  const file = join(dataDir, MACHINE_ID_FILE);
  const existing = readIfPresent(file);
  if (existing !== undefined) return existing;
  makeFolder(dataDir, 0o700);
  const temporary = join(dataDir, `${MACHINE_ID_FILE}.${process.pid}.${randomUUID()}.tmp`);
  writeFileSync(temporary, `${randomUUID()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process created it first: its id is the one.
  } finally {
    unlinkSync(temporary);
  }
  const created = readIfPresent(file);
  if (created === undefined) throw new Error(`Could not create the machine id file ${file}`);
  return created;
}

function readIfPresent(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const id = text.trim().toLowerCase();
  if (!UUID.test(id)) {
    throw new Error(
      `The machine id file ${file} does not hold a UUID; restore it from a backup, or delete it to give ` +
        'this data folder a new id (its users must then wait for their sessions to expire or be ended)',
    );
  }
  return id;
}
