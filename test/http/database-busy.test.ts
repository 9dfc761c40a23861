import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { serverPerFile } from '../helpers/file-server.js';
import { expectDatabaseBusy } from '../helpers/lock-holder.js';
import { ADMIN_PASSWORD } from '../helpers/server.js';

/**
 * Another program holding a SQLite database locked for longer than pim waits for it (5 s): a
 * backup tool, `sqlite3` in a shell with a transaction open. pim answers 503 DATABASE_BUSY with
 * Retry-After, changes nothing, and serves the same request once the lock is gone.
 */
describe.skipIf(TEST_BACKEND !== 'sqlite')('a database another process holds locked', () => {
  const shared = serverPerFile();

  /** Runs `work` while another connection holds `file` locked exclusively. */
  async function whileLocked<T>(file: string, work: () => Promise<T>): Promise<T> {
    const other = new Database(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      return await work();
    } finally {
      other.exec('COMMIT');
      other.close();
    }
  }

  it('answers a write to the catalogue 503 DATABASE_BUSY with Retry-After and writes nothing', async () => {
    const file = join(shared.server.app.workspaces.current()!.rootpath, 'workspace.sqlite');
    const body = { supplierPid: 'LOCKED-1', name: 'Locked' };
    const res = await whileLocked(file, () =>
      shared.server.request('POST', '/api/product', { token: shared.token, body }),
    );
    expectDatabaseBusy(res);
    const list = await shared.server.request<{ supplierPid: string }[]>('GET', '/api/product?all=true', {
      token: shared.token,
    });
    expect(list.body.data!.map((p) => p.supplierPid)).not.toContain('LOCKED-1');
    const again = await shared.server.request('POST', '/api/product', { token: shared.token, body });
    expect(again.status, again.text).toBe(201);
  });

  it('answers a login 503 while the system database is locked, and logs in afterwards', async () => {
    const credentials = { username: 'admin', password: ADMIN_PASSWORD };
    const res = await whileLocked(join(shared.server.dataDir, 'system.sqlite'), () =>
      shared.server.request('POST', '/api/auth/login', { body: credentials }),
    );
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe('DATABASE_BUSY');
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await shared.server.request('POST', '/api/auth/login', { body: credentials })).status).toBe(200);
  });
});
