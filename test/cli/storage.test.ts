import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemMigrations } from '../../src/db/system.migrations.js';
import { workspaceMigrations } from '../../src/db/workspace.migrations.js';
import { PRODUCTION_HASHES, runCliAsync, startCli, type StartedProcess } from '../helpers/cli.js';
import { expectSuccess } from '../helpers/expect-cli.js';
import { apiRequest, loginAt } from '../helpers/http.js';
import { removeDir, tempDir } from '../helpers/temp.js';

/** Runs `query` on a read-only connection to a SQLite file (never creating or changing it). */
function readDb<T>(file: string, query: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

function migrationNames(file: string): string[] {
  return readDb(file, (db) =>
    (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
}

/** Every byte of the database, including its write-ahead log (where fresh commits live). */
function rawDatabaseText(file: string): string {
  return [file, `${file}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');
}

describe('storage', () => {
  let dataDir: string;
  let running: StartedProcess | undefined;
  beforeEach(() => {
    dataDir = tempDir();
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = undefined;
    removeDir(dataDir);
  });

  const systemDb = () => join(dataDir, 'system.sqlite');

  it('keeps a system database and one SQLite database per workspace, migrations recorded, in WAL mode', async () => {
    expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Shop']));
    const workspaceDb = join(dataDir, 'workspaces', 'shop', 'workspace.sqlite');
    expect(migrationNames(systemDb())).toEqual(Object.keys(systemMigrations).sort());
    expect(migrationNames(workspaceDb)).toEqual(Object.keys(workspaceMigrations).sort());
    expect(Object.keys(systemMigrations).length).toBeGreaterThan(0);
    for (const file of [systemDb(), workspaceDb]) {
      expect(readDb(file, (db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
    }
    const registry = readDb(systemDb(), (db) => db.prepare('SELECT name, rootpath FROM workspace').all());
    expect(registry).toEqual([{ name: 'Shop', rootpath: join(dataDir, 'workspaces', 'shop') }]);
  });

  it('stores passwords as argon2id hashes and tokens only as hashes', async () => {
    const password = 'Correct-Horse-Battery-Staple';
    expectSuccess(
      await runCliAsync(dataDir, ['user', 'add', 'hashme', '--role', 'ADMIN', '--password-stdin'], {
        stdin: `${password}\n`,
        env: PRODUCTION_HASHES,
      }),
    );
    expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
    const [{ password_hash: hash }] = readDb(systemDb(), (db) =>
      db.prepare("SELECT password_hash FROM user WHERE username = 'hashme'").all(),
    ) as [{ password_hash: string }];
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(hash).not.toContain(password);

    running = await startCli(dataDir);
    const token = await loginAt(running.baseUrl, 'hashme', password);
    const sessions = readDb(systemDb(), (db) => db.prepare('SELECT * FROM session').all()) as Record<
      string,
      unknown
    >[];
    expect(sessions).toHaveLength(1);
    for (const value of Object.values(sessions[0]!)) {
      expect(String(value).toLowerCase()).not.toContain(token.toLowerCase());
    }
    expect(rawDatabaseText(systemDb()).toLowerCase()).not.toContain(token.toLowerCase());
    expect(rawDatabaseText(systemDb())).not.toContain(password);
  });

  it('keeps an acknowledged write through kill -9: the token still works, the opened workspace is reopened', async () => {
    expectSuccess(
      await runCliAsync(dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'admin-pw\n',
      }),
    );
    expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Alpha']));
    expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Beta']));
    expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));

    running = await startCli(dataDir);
    const token = await loginAt(running.baseUrl, 'admin', 'admin-pw');
    const opened = await apiRequest(running.baseUrl, 'POST', '/api/workspace/open', {
      token,
      body: { workspaceName: 'Beta' },
    });
    expect(opened.status).toBe(200);
    running.child.kill('SIGKILL');
    expect(await running.exited).toBeNull();
    expect(running.output()).not.toMatch(/stopped/);

    running = await startCli(dataDir);
    const list = await apiRequest<{ name: string; active: boolean }[]>(
      running.baseUrl,
      'GET',
      '/api/workspace',
      {
        token,
      },
    );
    expect(list.status).toBe(200);
    expect(list.body.data!.map((w) => [w.name, w.active])).toEqual([
      ['Alpha', false],
      ['Beta', true],
    ]);
  });

  it('keeps every acknowledged product write through kill -9 while the WAL is checkpointed by its own thread', async () => {
    expectSuccess(
      await runCliAsync(dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'admin-pw\n',
      }),
    );
    expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Shop']));
    expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
    running = await startCli(dataDir);
    const token = await loginAt(running.baseUrl, 'admin', 'admin-pw');
    const { baseUrl } = running;
    expect(
      (await apiRequest(baseUrl, 'POST', '/api/workspace/open', { token, body: { workspaceName: 'Shop' } }))
        .status,
    ).toBe(200);

    // Writes in flight together, as clients send them; every one answered is acknowledged.
    const acknowledged: { id: number; supplierPid: string; name: string }[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const supplierPid = `KILL-${round}-${i}`;
          const created = await apiRequest<{ id: number }>(baseUrl, 'POST', '/api/product', {
            token,
            body: { supplierPid, name: `Artikel ${round}-${i}`, language: 'deu' },
          });
          expect(created.status).toBe(201);
          const id = created.body.data!.id;
          const name = `Neu ${round}-${i}`;
          const put = await apiRequest(baseUrl, 'PUT', `/api/product/${id}/texts/short/deu`, {
            token,
            body: { value: name },
          });
          expect(put.status).toBe(200);
          return { id, supplierPid, name };
        }),
      );
      acknowledged.push(...answers);
    }
    running.child.kill('SIGKILL');
    expect(await running.exited).toBeNull();

    running = await startCli(dataDir);
    for (const { id, supplierPid, name } of acknowledged) {
      const read = await apiRequest<{ supplierPid: string; name: string }>(
        running.baseUrl,
        'GET',
        `/api/product/${id}`,
        { token },
      );
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ supplierPid, name });
    }
  });
});
