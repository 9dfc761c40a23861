import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application } from '../../src/app/application.js';
import { saveDatabaseUrl } from '../../src/db/database-config.js';
import { ManualClock } from '../../src/domain/clock.js';
import { createTestDatabase, dropTestDatabase } from '../helpers/backend.js';
import { expect } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import type { ServerEvent } from '../helpers/window.js';
import type { WindowStatus } from '../../src/window/window-api.types.js';

/**
 * Several pim instances (one per desktop), each with its own data folder and ports, on one
 * PostgreSQL database: the first sets it up (admin, workspace "Test" open); each other one
 * joins as a second desktop would (`pim setup --database`, REST enabled, the same workspace
 * opened), with a user of its own (one login per user across machines).
 */
export interface Team {
  url: string;
  instances: TestServer[];
  /** The user each instance's `token` belongs to (instance 0: admin). */
  users: string[];
  tokens: string[];
  stop(): Promise<void>;
}

export const MEMBER_PASSWORD = 'member-password';

export async function startTeam(
  count: number,
  options: { url?: string; window?: boolean; listenerRetryMs?: number } = {},
): Promise<Team> {
  const database = options.url ? undefined : await createTestDatabase();
  const url = options.url ?? database!.url;
  const dirs: string[] = [];
  const instances: TestServer[] = [];
  const clock = new ManualClock(new Date('2026-01-15T10:00:00.000Z'));
  try {
    for (let i = 0; i < count; i++) {
      const dir = mkdtempSync(join(tmpdir(), `pim-team-${i}-`));
      dirs.push(dir);
      saveDatabaseUrl(dir, url);
      if (i > 0) {
        const prep = await Application.open({ dataDir: dir, clock });
        await prep.settings.update(prep.ownerContext(), { 'rest.enabled': true });
        await prep.users.add(prep.ownerContext(), {
          username: `member${i}`,
          role: 'ADMIN',
          password: MEMBER_PASSWORD,
        });
        await prep.workspaces.open(prep.ownerContext(), { workspaceName: 'Test' });
        await prep.stop();
      }
      const window = options.window === true;
      instances.push(
        i === 0
          ? await startFirst(dir, clock, window, options.listenerRetryMs)
          : await startServer({ dataDir: dir, clock, window, listenerRetryMs: options.listenerRetryMs }),
      );
    }
  } catch (error) {
    await Promise.all(instances.map((s) => s.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (database) await dropTestDatabase(database.name);
    throw error;
  }
  const users = instances.map((_, i) => (i === 0 ? 'admin' : `member${i}`));
  const tokens = await Promise.all(
    instances.map((s, i) => (i === 0 ? s.login() : s.login(users[i], MEMBER_PASSWORD))),
  );
  return {
    url,
    instances,
    users,
    tokens,
    async stop() {
      await Promise.all(instances.map((s) => s.stop()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      if (database) await dropTestDatabase(database.name);
    },
  };
}

/** The first desktop: admin and the workspace "Test", set up as the test helper does for any server. */
async function startFirst(
  dir: string,
  clock: ManualClock,
  window: boolean,
  listenerRetryMs: number | undefined,
): Promise<TestServer> {
  const prep = await Application.open({ dataDir: dir, clock });
  const { ADMIN_PASSWORD } = await import('../helpers/server.js');
  await prep.users.add(prep.ownerContext(), { username: 'admin', role: 'ADMIN', password: ADMIN_PASSWORD });
  const ws = await prep.workspaces.create(prep.ownerContext(), { name: 'Test', language: 'deu' });
  await prep.workspaces.open(prep.ownerContext(), { workspaceId: ws.id });
  await prep.settings.update(prep.ownerContext(), { 'rest.enabled': true });
  await prep.stop();
  return startServer({ dataDir: dir, clock, window, listenerRetryMs });
}

/** An answer while the shared database cannot be reached: 503 DATABASE_UNAVAILABLE with Retry-After. */
export function expectDatabaseUnavailable(answer: ApiResponse): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.body).toEqual({
    success: false,
    error: 'The database cannot be reached; try again shortly',
    code: 'DATABASE_UNAVAILABLE',
  });
  expect(answer.headers.get('retry-after')).toBe('5');
}

/** A window status event that shows the shared database as reachable, or not. */
export const databaseShown = (reachable: boolean) => (event: ServerEvent) =>
  event.event === 'status' && (event.data as WindowStatus).database.reachable === reachable;
