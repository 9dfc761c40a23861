import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { saveDatabaseUrl } from '../../src/db/database-config.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';

/**
 * Two desktops started at the same moment on one empty shared database (README, team mode: "the
 * first desktop that starts on the empty database does the first-run set-up"). Both used to see
 * it empty: one failed with "User 'admin' already exists", and every later start of it reset the
 * admin's password (never shown) and failed on the existing "Demo".
 */
describe.runIf(TEST_BACKEND === 'postgres')('two desktops starting at once on an empty database', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    while (cleanup.length > 0) await cleanup.pop()!();
  });

  it('do the first run once; the other desktop starts and the password shown logs in', async () => {
    const database = await createTestDatabase();
    cleanup.push(() => dropTestDatabase(database.name));
    const open = async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pim-first-race-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      saveDatabaseUrl(dir, database.url);
      const app = await Application.open({
        dataDir: dir,
        restOverride: { port: 0, host: '127.0.0.1' },
        noUi: true,
      });
      cleanup.push(() => app.stop());
      return app;
    };
    const apps = [await open(), await open()];
    const reports = await Promise.all(apps.map((app) => app.start()));
    const firstRuns = reports.flatMap((report) => (report.firstRun ? [report.firstRun] : []));
    expect(firstRuns).toHaveLength(1);
    const { adminPassword } = firstRuns[0]!;
    for (const app of apps) {
      const admin = await app.sessions.checkCredentials('admin', adminPassword, { address: '127.0.0.1' });
      expect(admin.username).toBe('admin');
      expect((await app.workspaces.list(app.ownerContext())).map((w) => w.name)).toEqual(['Demo']);
    }
  });
});
