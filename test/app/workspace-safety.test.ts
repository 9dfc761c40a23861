import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { ManualClock } from '../../src/domain/clock.js';
import { ValidationError } from '../../src/domain/errors.js';

/** Workspace folders and files: safe names, nothing foreign taken over, nothing readable by others. */

let dir: string;
let app: Application;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pim-ws-safety-'));
  app = await Application.open({ dataDir: join(dir, 'data'), clock: new ManualClock() });
});

afterEach(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const create = (name: string, path?: string) => app.workspaces.create(app.ownerContext(), { name, path });
const open = (workspaceName: string) => app.workspaces.open(app.ownerContext(), { workspaceName });
const mode = (path: string) => statSync(path).mode & 0o777;

describe('workspace names and folders', () => {
  it.each(['.', '..', '...', '.hidden', '-', '..-..'])(
    'gives %s a safe folder inside the workspaces folder',
    async (name) => {
      const ws = await create(name);
      expect(ws.rootpath.startsWith(join(dir, 'data', 'workspaces') + '/')).toBe(true);
      const folder = ws.rootpath.slice(join(dir, 'data', 'workspaces').length + 1);
      expect(folder).not.toMatch(/^\./);
      expect(folder).not.toContain('/');
    },
  );

  it('gives a name whose default folder exists already a folder of its own', async () => {
    const stranger = join(dir, 'data', 'workspaces', 'catalogue');
    mkdirSync(stranger, { recursive: true });
    writeFileSync(join(stranger, 'notes.txt'), 'somebody else');
    const ws = await create('Catalogue');
    expect(ws.rootpath).toBe(`${stranger}-2`);
    expect(readdirSync(stranger)).toEqual(['notes.txt']);
  });

  it.each(['Line\nbreak', 'Tab\there', 'Null\u0000', 'Bell\u0007', 'Next\u0085line', 'Sep\u2028arated'])(
    'refuses a name with control characters: %j',
    async (name) => {
      await expect(create(name)).rejects.toThrow(/control characters/);
      expect(await app.workspaces.list(app.ownerContext())).toEqual([]);
    },
  );

  it.each(['\u200b', '\u3164', '\u2800', '\u200e\u00ad'])(
    'refuses a name of only invisible characters: %j',
    async (name) => {
      await expect(create(name)).rejects.toThrow(
        'Workspace name must not be empty or only white space or invisible characters',
      );
      expect(await app.workspaces.list(app.ownerContext())).toEqual([]);
    },
  );

  it('a failed create leaves a folder that existed before, empty, in place', async () => {
    const given = join(dir, 'given');
    mkdirSync(given);
    await create('First', join(dir, 'first'));
    await expect(create('first', given)).rejects.toThrow(/already exists/);
    expect(existsSync(given)).toBe(true);
    expect(readdirSync(given)).toEqual([]);
  });
});

describe('opening', () => {
  it.each([
    ['an empty file', (file: string) => writeFileSync(file, '')],
    [
      'a text file',
      (file: string) =>
        writeFileSync(file, 'not a database at all, but long enough to look like one '.repeat(4)),
    ],
    [
      'a SQLite database of something else',
      (file: string) => {
        const db = new Database(file);
        db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)');
        db.close();
      },
    ],
  ])(
    'refuses %s as the workspace database (400), leaving it byte for byte as it was',
    async (_what, make) => {
      const ws = await create('Foreign');
      await create('Other');
      await open('Other');
      const file = join(ws.rootpath, 'workspace.sqlite');
      rmSync(file);
      make(file);
      const before = readFileSync(file);
      const error = await open('Foreign').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).not.toContain(dir);
      expect((error as ValidationError).message).toMatch(/workspace 'Foreign'/);
      expect(readFileSync(file).equals(before), 'the file changed').toBe(true);
      expect(readdirSync(ws.rootpath)).toEqual(['workspace.sqlite']);
      expect(app.workspaces.current()?.name).toBe('Other');
    },
  );

  it('opens a workspace database larger than 2 GiB, reading only its header to recognise it', async () => {
    // Sparse: the file reads as 2.25 GiB (more than one Node Buffer may hold) but takes no disk.
    // SQLite reads the pages its header counts and ignores the zeros past them.
    const ws = await create('Large');
    await create('Other');
    await open('Other');
    const file = join(ws.rootpath, 'workspace.sqlite');
    truncateSync(file, 2.25 * 1024 ** 3);
    const opened = await open('Large');
    expect(opened.name).toBe('Large');
    expect(app.workspaces.current()?.name).toBe('Large');
  });

  it('names the workspace, not its folder, when the folder or database is missing', async () => {
    const ws = await create('Gone');
    rmSync(join(ws.rootpath, 'workspace.sqlite'));
    await expect(open('Gone')).rejects.toThrow("The database of workspace 'Gone' is missing");
    rmSync(ws.rootpath, { recursive: true });
    await expect(open('Gone')).rejects.toThrow("The folder of workspace 'Gone' is missing");
  });
});

describe('permissions', () => {
  it('creates the data folder, workspace folders and database files readable by the owner only', async () => {
    const ws = await create('Private');
    await open('Private');
    expect(mode(join(dir, 'data'))).toBe(0o700);
    expect(mode(join(dir, 'data', 'workspaces'))).toBe(0o700);
    expect(mode(ws.rootpath)).toBe(0o700);
    for (const file of [join(dir, 'data', 'system.sqlite'), join(ws.rootpath, 'workspace.sqlite')]) {
      expect(mode(file), file).toBe(0o600);
      for (const suffix of ['-wal', '-shm']) {
        if (existsSync(file + suffix)) expect(mode(file + suffix), file + suffix).toBe(0o600);
      }
    }
  });
});
