import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceDto } from '../../src/domain/workspaces/workspace.service.js';
import { ManualClock } from '../../src/domain/clock.js';
import { startServer } from '../helpers/server.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

describe('restart of the application on the same data folder', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await newDataDir();
  });
  afterEach(() => removeDataDir(dataDir));

  it('keeps tokens valid (and logged-out ones dead) and reopens the workspace that was open', async () => {
    const clock = new ManualClock(new Date('2026-03-01T08:00:00.000Z'));
    const first = await startServer({ dataDir, setup: 'first-run', clock });
    let token: string;
    let dead: string;
    let second: WorkspaceDto;
    try {
      token = await first.login();
      dead = await first.login();
      second = await first.app.workspaces.create(first.app.ownerContext(), { name: 'Second' });
      const opened = await first.request('POST', '/api/workspace/open', {
        token,
        body: { workspaceName: 'Second' },
      });
      expect(opened.status).toBe(200);
      expect((await first.request('POST', '/api/auth/logout', { token: dead })).status).toBe(200);
    } finally {
      await first.stop();
    }

    clock.advance(60 * 60 * 1000);
    const again = await startServer({ dataDir, clock });
    try {
      const list = await again.request<WorkspaceDto[]>('GET', '/api/workspace', { token });
      expect(list.status).toBe(200);
      expect(list.body.data!.map((w) => [w.name, w.active])).toEqual([
        ['Demo', false],
        ['Second', true],
      ]);
      expect(list.body.data!.find((w) => w.active)!.id).toBe(second.id);
      expect((await again.request('GET', '/api/workspace', { token: dead })).status).toBe(401);
      // Still 24 hours from issue, not from the restart.
      clock.advance(23 * 60 * 60 * 1000);
      expect((await again.request('GET', '/api/workspace', { token })).status).toBe(401);
    } finally {
      await again.stop();
    }
  });
});
