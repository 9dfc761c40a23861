import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';

/** `pim setup --database`: a data folder switched to a shared PostgreSQL database (team mode). */
describe.runIf(TEST_BACKEND === 'postgres')('pim setup --database', () => {
  let dir: string;
  let database: { name: string; url: string };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pim-setup-'));
    database = await createTestDatabase();
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropTestDatabase(database.name);
  });
  const pim = (...args: string[]) => runCliAsync(dir, args, { env: { PIM_DATABASE_URL: '' } });
  const addUser = (name: string) =>
    runCliAsync(dir, ['user', 'add', name, '--role', 'ADMIN', '--password-stdin'], {
      stdin: 'pw\n',
      env: { PIM_DATABASE_URL: '' },
    });

  async function sharedUsers(): Promise<string[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (
        await client.query<{ username: string }>('SELECT username FROM pim."user" ORDER BY id')
      ).rows.map((r) => r.username);
    } finally {
      await client.end();
    }
  }

  it('prepares the database, keeps its URL readable by the owner only, and every command then uses it', async () => {
    const setup = await pim('setup', '--database', database.url);
    expectSuccess(setup);
    expect(setup.stdout).toContain('this data folder now uses the shared database');
    const file = join(dir, 'database.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: database.url });
    expectSuccess(await addUser('alice'));
    expect(await sharedUsers()).toEqual(['alice']);
    expect((await pim('user', 'list')).stdout).toMatch(/^1\talice\tADMIN/);
  });

  it('refuses a template database in one line and writes nothing into it', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${database.name} IS_TEMPLATE true`);
      const setup = await pim('setup', '--database', database.url);
      expectOneLineError(setup, new RegExp(`${database.name} is a template database`));
      expect(existsSync(join(dir, 'database.json'))).toBe(false);
      const schemas = await admin.query("SELECT 1 FROM pg_namespace WHERE nspname = 'pim'");
      expect(schemas.rowCount).toBe(0);
    } finally {
      // A template database cannot be dropped.
      await admin.query(`ALTER DATABASE ${database.name} IS_TEMPLATE false`);
      await admin.end();
    }
  });

  it('refuses a database whose schema pim is another application’s, before writing into it', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const tablesOfPim = async () =>
      (
        await admin.query<{ relname: string }>(
          "SELECT relname FROM pg_class JOIN pg_namespace n ON n.oid = relnamespace WHERE n.nspname = 'pim' ORDER BY relname",
        )
      ).rows.map((r) => r.relname);
    try {
      await admin.query(
        'CREATE SCHEMA pim; CREATE TABLE pim."user" (id int, login text); CREATE TABLE pim.orders (id int)',
      );
      const refusal =
        /its schema pim holds tables that are not pim's \(orders, user\); give pim a database of its own/;
      expectOneLineError(await pim('setup', '--database', database.url), refusal);
      expect(existsSync(join(dir, 'database.json'))).toBe(false);
      // pim db move refuses the same way, for a data folder with something to move.
      expectSuccess(await addUser('local'));
      expectOneLineError(await pim('db', 'move', '--to', database.url), refusal);
      expect(existsSync(join(dir, 'database.json'))).toBe(false);
      expect(await tablesOfPim()).toEqual(['orders', 'user']);
      const schemas = await admin.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pim%'");
      expect(schemas.rows).toEqual([{ nspname: 'pim' }]);
    } finally {
      await admin.end();
    }
  });

  it('refuses an unreachable database in one line without its password, and changes nothing', async () => {
    const url = 'postgres://pim:Sup3rSecret@127.0.0.1:1/pim';
    const setup = await pim('setup', '--database', url);
    expectOneLineError(setup, /cannot be reached/);
    expect(setup.stderr).not.toContain('Sup3rSecret');
    expect(setup.stderr).toContain('postgres://pim:***@127.0.0.1:1/pim');
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
  });

  it('refuses a URL that is not PostgreSQL with a usage hint', async () => {
    expectOneLineError(await pim('setup', '--database', 'mysql://x@y/z'), /must start with postgres:\/\//);
    expectOneLineError(await pim('setup'), /needs --database/);
    // Port 1: were the check missing, nothing would reach a real server's databases.
    for (const url of ['postgres://postgres@127.0.0.1:1/', 'postgres://postgres@127.0.0.1:1']) {
      expectOneLineError(await pim('setup', '--database', url), /names no database/);
      expectOneLineError(await pim('db', 'move', '--to', url), /names no database/);
    }
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    // A folder set up so by an earlier version keeps working: its stored URL is read as it is.
    writeFileSync(join(dir, 'database.json'), JSON.stringify({ url: 'postgres://postgres@127.0.0.1:1' }));
    expectOneLineError(await pim('user', 'list'), /cannot be reached/);
  });

  it('refuses a data folder with SQLite users unless --force, and --database sqlite switches back', async () => {
    expectSuccess(await addUser('local'));
    expectOneLineError(await pim('setup', '--database', database.url), /pim db move --to URL/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expectSuccess(await pim('setup', '--database', database.url, '--force'));
    expect((await pim('user', 'list')).stdout).toBe('');
    expectSuccess(await pim('setup', '--database', 'sqlite'));
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expect((await pim('user', 'list')).stdout).toMatch(/^1\tlocal\tADMIN/);
  });
});
