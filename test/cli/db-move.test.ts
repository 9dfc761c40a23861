import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';
import { runCliAsync, startCli } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { apiRequest, loginAt } from '../helpers/http.js';
import type { NodeDto } from '../helpers/group-dto.js';

/**
 * `pim db move --to URL`: a single-machine installation (SQLite) copied into PostgreSQL and the
 * data folder switched to it. The source is made through the interfaces (first run, REST, CLI),
 * and the result is read back through them, from a `pim start` on the moved data folder.
 */
describe.runIf(TEST_BACKEND === 'postgres')('pim db move', () => {
  const ADMIN_PASSWORD = 'admin-secret-1';
  const CAROL_PASSWORD = 'carol-secret-2';
  // Not the environment's database: every command here works on its own data folder.
  const env = { PIM_DATABASE_URL: '' };
  let dir: string;
  let scratch: string;
  let database: { name: string; url: string };
  const since = new Date(Date.now() - 60 * 60_000).toISOString();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pim-move-'));
    scratch = mkdtempSync(join(tmpdir(), 'pim-move-other-'));
    database = await createTestDatabase();
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    await dropTestDatabase(database.name);
  });

  const pim = (folder: string, ...args: string[]) => runCliAsync(folder, args, { env });

  /** Runs `pim start` on the folder (the first start sets up the demo catalogue), then stops it. */
  async function withServer<T>(folder: string, work: (baseUrl: string) => Promise<T>): Promise<T> {
    const server = await startCli(folder, { ...env, PIM_ADMIN_PASSWORD: ADMIN_PASSWORD }, ['--no-ui']);
    try {
      return await work(server.baseUrl);
    } finally {
      server.child.kill('SIGINT');
      await server.exited;
    }
  }

  async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  const workspaceSchemas = async () =>
    (
      await query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pim\\_ws\\_%'")
    ).map((r) => r.nspname);

  function api(baseUrl: string, token: string) {
    return async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await apiRequest<T>(baseUrl, method, path, { token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      return res.body.data as T;
    };
  }

  /** The ids of a group tree's groups (its root is no group). */
  const groupIds = (node: NodeDto): number[] =>
    [node.id, ...node.children.flatMap(groupIds)].filter((id) => id > 0);

  /** Everything the REST interface shows of the open workspace's catalogue. */
  async function catalogue(baseUrl: string, token: string): Promise<Record<string, unknown>> {
    const get = api(baseUrl, token);
    const products = await get<Array<{ id: number }>>('GET', '/api/product?all=true');
    const tree = await get<NodeDto>('GET', '/api/group/tree');
    const snapshot: Record<string, unknown> = {
      products,
      tree,
      deleted: await get('GET', `/api/product/deleted?since=${since}`),
    };
    for (const { id } of products) {
      snapshot[`product ${id}`] = {
        short: await get('GET', `/api/product/${id}/texts/short`),
        long: await get('GET', `/api/product/${id}/texts/long`),
        features: await get('GET', `/api/product/${id}/features`),
        variants: await get('GET', `/api/product/${id}/variants`),
      };
    }
    for (const id of groupIds(tree)) {
      snapshot[`group ${id}`] = {
        deu: await get('GET', `/api/group/${id}`),
        eng: await get('GET', `/api/group/${id}?lang=eng`),
        products: await get('GET', `/api/group/${id}/products`),
      };
    }
    return snapshot;
  }

  /**
   * A single-machine installation with a bit of everything: the demo catalogue of the first
   * start (products, variants, texts, features with named definitions, groups), and over REST a
   * product with texts in three languages and features, a group that became the child of a
   * younger one, and the newest product deleted (product_deletion; its id must never come back).
   */
  async function singleMachineInstallation(): Promise<{ deletedId: number; token: string }> {
    return withServer(dir, async (baseUrl) => {
      const token = await loginAt(baseUrl, 'admin', ADMIN_PASSWORD);
      const call = api(baseUrl, token);
      const product = await call<{ id: number }>('POST', '/api/product', {
        supplierPid: 'MOVE-1',
        name: 'Umzugskarton',
        ean: '4006381333115',
      });
      await call('PUT', `/api/product/${product.id}/texts/short/eng`, { value: 'Moving box "XL"\n\ttab' });
      await call('PUT', `/api/product/${product.id}/texts/short/fra`, { value: 'Carton de déménagement 📦' });
      await call('PUT', `/api/product/${product.id}/texts/long/deu`, { value: '<p>Lang</p>'.repeat(500) });
      await call('PUT', `/api/product/${product.id}/features/${encodeURIComponent('0173-1#02-AAF040#004')}`, {
        funit: 'mm',
        values: [
          { lang: 'deu', value: '400' },
          { lang: 'eng', value: '400.0' },
        ],
      });
      await call('POST', `/api/product/${product.id}/variants`, { supplierPid: 'MOVE-1-S', name: 'klein' });
      const older = await call<{ id: number }>('POST', '/api/group', { name: 'Kartons' });
      const younger = await call<{ id: number }>('POST', '/api/group', { name: 'Verpackung' });
      await call('PUT', `/api/group/${younger.id}`, { name: 'Packaging', language: 'eng' });
      await call('POST', `/api/group/${older.id}/move`, { parentId: younger.id });
      await call('POST', `/api/group/${older.id}/products`, { productIds: [product.id] });
      const doomed = await call<{ id: number }>('POST', '/api/product', {
        supplierPid: 'GONE-1',
        name: 'weg',
      });
      await call('DELETE', `/api/product/${doomed.id}`);
      return { deletedId: doomed.id, token };
    });
  }

  it('copies users, workspaces and the whole catalogue, verifies them and switches the data folder', async () => {
    const { deletedId, token: oldToken } = await singleMachineInstallation();
    expectSuccess(
      await runCliAsync(dir, ['user', 'add', 'carol', '--role', 'EDITOR', '--password-stdin'], {
        stdin: `${CAROL_PASSWORD}\n`,
        env,
      }),
    );
    expectSuccess(await pim(dir, 'workspace', 'create', 'Second', '--language', 'eng'));
    const before = await withServer(dir, async (baseUrl) =>
      catalogue(baseUrl, await loginAt(baseUrl, 'admin', ADMIN_PASSWORD)),
    );
    // Listed after that start: its login is the last one.
    const users = (await pim(dir, 'user', 'list')).stdout;
    const workspaces = (await pim(dir, 'workspace', 'list')).stdout;

    // A password in the URL (the test server trusts, so it goes unused) must not be printed.
    const url = new URL(database.url);
    url.password = 'Sup3rSecret';
    const move = await pim(dir, 'db', 'move', '--to', url.toString());
    expectSuccess(move);
    expect(move.stdout).toMatch(
      /^moved into postgres:\/\/postgres:\*\*\*@.* in \d+\.\d s: 2 users, 2 workspaces/,
    );
    expect(move.stdout).toMatch(/user 2, workspace 2/);
    expect(move.stdout).toMatch(/product_deletion 1/);
    expect(move.stdout).not.toContain('Sup3rSecret');
    expect(JSON.parse(readFileSync(join(dir, 'database.json'), 'utf8'))).toEqual({ url: url.toString() });
    // The SQLite files stay, as the backup.
    expect(existsSync(join(dir, 'system.sqlite'))).toBe(true);
    expect(existsSync(join(dir, 'workspaces', 'demo', 'workspace.sqlite'))).toBe(true);
    expect(await workspaceSchemas()).toHaveLength(2);

    expect((await pim(dir, 'user', 'list')).stdout).toBe(users);
    expect((await pim(dir, 'workspace', 'list')).stdout).toBe(workspaces);
    await withServer(dir, async (baseUrl) => {
      // Sessions stay behind: the old token is unknown, the old passwords work.
      expect((await apiRequest(baseUrl, 'GET', '/api/product', { token: oldToken })).status).toBe(401);
      await loginAt(baseUrl, 'carol', CAROL_PASSWORD);
      const token = await loginAt(baseUrl, 'admin', ADMIN_PASSWORD);
      expect(await catalogue(baseUrl, token)).toEqual(before);
      // Ids continue after the highest ever given: not the deleted product's id again.
      const call = api(baseUrl, token);
      const created = await call<{ id: number }>('POST', '/api/product', {
        supplierPid: 'NEW-1',
        name: 'neu',
      });
      expect(created.id).toBe(deletedId + 1);
      const group = await call<{ id: number }>('POST', '/api/group', { name: 'Neu' });
      expect(group.id).toBe(Math.max(...groupIds(before.tree as NodeDto)) + 1);
      const second = await call<Array<{ id: number; name: string }>>('GET', '/api/workspace');
      const id = second.find((w) => w.name === 'Second')!.id;
      await call('POST', '/api/workspace/open', { workspaceId: id });
      expect(await call('GET', '/api/product?all=true')).toEqual([]);
    });
  }, 120_000);

  it('refuses a database that already holds pim data, and changes nothing', async () => {
    expectSuccess(await pim(dir, 'workspace', 'create', 'Mine'));
    expectSuccess(await pim(scratch, 'setup', '--database', database.url));
    expectSuccess(
      await runCliAsync(scratch, ['user', 'add', 'other', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'pw\n',
        env,
      }),
    );
    const move = await pim(dir, 'db', 'move', '--to', database.url);
    expectOneLineError(move, /is not empty \(1 users, 0 workspaces\).*nothing was changed/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expect((await pim(dir, 'workspace', 'list')).stdout).toMatch(/^1\tMine\t/);
    expect(
      (await query<{ username: string }>('SELECT username FROM pim."user"')).map((u) => u.username),
    ).toEqual(['other']);
    expect(await workspaceSchemas()).toEqual([]);
  }, 60_000);

  it('refuses a data folder that already uses PostgreSQL, or PIM_DATABASE_URL', async () => {
    expectSuccess(await pim(scratch, 'setup', '--database', database.url));
    expectOneLineError(
      await pim(scratch, 'db', 'move', '--to', database.url),
      /already uses the shared database/,
    );
    expectSuccess(await pim(dir, 'workspace', 'create', 'Mine'));
    const withVariable = await runCliAsync(dir, ['db', 'move', '--to', database.url], {
      env: { PIM_DATABASE_URL: database.url },
    });
    expectOneLineError(withVariable, /PIM_DATABASE_URL is set/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expectOneLineError(await pim(dir, 'db', 'move'), /needs --to postgres:\/\//);
    expectOneLineError(
      await pim(dir, 'db', 'move', '--to', 'mysql://x@y/z'),
      /must start with postgres:\/\//,
    );
    expectOneLineError(await pim(dir, 'db'), /pim db needs one of: move/);
  });

  it('refuses a workspace whose folder is gone before it touches the database', async () => {
    expectSuccess(await pim(dir, 'workspace', 'create', 'Gone', '--path', join(scratch, 'gone')));
    rmSync(join(scratch, 'gone'), { recursive: true });
    const move = await pim(dir, 'db', 'move', '--to', database.url);
    expectOneLineError(move, /The folder of workspace 'Gone' is missing; nothing was moved/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expect(await query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pim%'")).toEqual([]);
  });

  it('reports an unreachable database in one line without its password, and changes nothing', async () => {
    expectSuccess(await pim(dir, 'workspace', 'create', 'Mine'));
    const move = await pim(dir, 'db', 'move', '--to', 'postgres://pim:Sup3rSecret@127.0.0.1:1/pim');
    expectOneLineError(move, /cannot be reached/);
    expect(move.code).toBe(1);
    expect(move.stderr).not.toContain('Sup3rSecret');
    expect(move.stderr).toContain('postgres://pim:***@127.0.0.1:1/pim');
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
  });

  it('removes the shared schema it created when a workspace cannot be copied', async () => {
    expectSuccess(await pim(dir, 'workspace', 'create', 'Mine'));
    // A server that refuses part of what is sent, after the shared schema exists: an event
    // trigger fails the creation of a workspace's texts table.
    await query(`CREATE FUNCTION refuse_texts() RETURNS event_trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_event_trigger_ddl_commands() WHERE object_identity LIKE '%.product_text')
        THEN RAISE EXCEPTION 'texts refused here'; END IF;
      END $$`);
    await query(
      "CREATE EVENT TRIGGER refuse_texts ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION refuse_texts()",
    );

    const move = await pim(dir, 'db', 'move', '--to', database.url);
    expectOneLineError(move, /moving workspace 'Mine' failed: .*texts refused here.*stays on SQLite/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expect(await query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pim%'")).toEqual([]);

    await query('DROP EVENT TRIGGER refuse_texts');
    expectSuccess(await pim(dir, 'db', 'move', '--to', database.url));
    expect((await pim(dir, 'workspace', 'list')).stdout).toMatch(/^1\tMine\t/);
  }, 120_000);

  it('undoes the copy when the target does not hold what was sent, naming the table', async () => {
    await singleMachineInstallation();
    // A target that changes what it is given: a trigger (as a misconfigured server might have)
    // rewrites every password hash on its way in.
    expectSuccess(await pim(scratch, 'setup', '--database', database.url));
    await query(`CREATE FUNCTION pim.tamper() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.password_hash := 'tampered'; RETURN NEW; END $$`);
    await query(
      'CREATE TRIGGER tamper BEFORE INSERT ON pim."user" FOR EACH ROW EXECUTE FUNCTION pim.tamper()',
    );

    const move = await pim(dir, 'db', 'move', '--to', database.url);
    expectOneLineError(move, /table user differs between SQLite and PostgreSQL.*stays on SQLite/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expect(await workspaceSchemas()).toEqual([]);
    expect(await query('SELECT * FROM pim."user"')).toEqual([]);
    expect(await query('SELECT * FROM pim.workspace')).toEqual([]);

    // Nothing of the failed attempt is in the way once the server is fixed.
    await query('DROP TRIGGER tamper ON pim."user"');
    expectSuccess(await pim(dir, 'db', 'move', '--to', database.url));
    await withServer(dir, (baseUrl) => loginAt(baseUrl, 'admin', ADMIN_PASSWORD));
  }, 120_000);
});
