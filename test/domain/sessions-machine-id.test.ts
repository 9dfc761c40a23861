import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { MACHINE_ID_FILE, readMachineId } from '../../src/app/machine-identity.js';
import { runCliAsync } from '../helpers/cli.js';
import { removeDir, tempDir } from '../helpers/temp.js';

/** Each data folder has a stable machine id, in the folder (not in the shared system database). */

let dir: string | undefined;
afterEach(() => {
  removeDir(dir);
  dir = undefined;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('readMachineId', () => {
  it('creates a UUID in <dataDir>/machine-id on first use, readable by the owner only, and keeps it', () => {
    dir = tempDir('pim-machine-');
    const data = join(dir, 'data');
    const id = readMachineId(data);
    expect(id).toMatch(UUID);
    const file = join(data, MACHINE_ID_FILE);
    expect(readFileSync(file, 'utf8')).toBe(`${id}\n`);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readMachineId(data)).toBe(id);
    expect(readMachineId(join(dir, 'other'))).not.toBe(id);
  });

  it('is the Application’s machineId, the same after a restart and for every process on the folder', async () => {
    dir = tempDir('pim-machine-');
    const first = await Application.open({ dataDir: dir });
    const id = first.machineId;
    await first.stop();
    const again = await Application.open({ dataDir: dir });
    expect(again.machineId).toBe(id);
    expect(again.sessions.machineId).toBe(id);
    await again.stop();
    expect(readMachineId(dir)).toBe(id);
  });

  it('processes starting on a new folder at once all succeed and leave one valid id', async () => {
    dir = tempDir('pim-machine-');
    const results = await Promise.all(Array.from({ length: 4 }, () => runCliAsync(dir, ['user', 'list'])));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(readMachineId(dir)).toMatch(UUID);
  });

  it('refuses a file that holds no UUID, saying what to do, rather than silently becoming another machine', () => {
    dir = tempDir('pim-machine-');
    writeFileSync(join(dir, MACHINE_ID_FILE), 'garbage\n');
    expect(() => readMachineId(dir!)).toThrow(/does not hold a UUID; restore it from a backup, or delete it/);
  });
});
