import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACHINE_ID_FILE } from '../../src/app/machine-identity.js';
import { ManualClock } from '../../src/domain/clock.js';
import { pollUntil } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Spec, Authentication 5 ("a user who is already logged in on another machine cannot log in:
 * 401") over HTTP, with "another machine" as decisions.md defines it: another pim instance on
 * the same system database. Two running applications share one data folder's database; the
 * second gets its own machine id (the file is replaced between the two starts), as an instance
 * on another computer would have.
 */

let here: TestServer;
let there: TestServer;
const clock = new ManualClock(new Date('2026-04-01T09:00:00.000Z'));

beforeAll(async () => {
  here = await startServer({ setup: 'no-workspace', clock });
  await here.addUser('api', 'EDITOR', 'api-password');
  writeFileSync(join(here.dataDir, MACHINE_ID_FILE), `${randomUUID()}\n`, { mode: 0o600 });
  there = await startServer({ dataDir: here.dataDir, clock });
});

afterAll(async () => {
  await there?.stop();
  await here?.stop();
});

const loginAt = (server: TestServer, username: string, password: string) =>
  server.request<{ token: string }>('POST', '/api/auth/login', { body: { username, password } });

describe('logins across instances over HTTP', () => {
  it('the two instances have different machine ids', () => {
    expect(here.app.machineId).not.toBe(there.app.machineId);
  });

  it('a user with a live token of one instance gets 401 LOGGED_IN_ELSEWHERE from the other, until logout', async () => {
    const first = await loginAt(here, 'api', 'api-password');
    expect(first.status).toBe(200);
    // Several scripts on any client share the user on this instance.
    const second = await loginAt(here, 'api', 'api-password');
    expect(second.status).toBe(200);

    const refused = await loginAt(there, 'api', 'api-password');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      success: false,
      error: "User 'api' is already logged in on another machine",
      code: 'LOGGED_IN_ELSEWHERE',
    });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="pim"');

    for (const token of [first.body.data!.token, second.body.data!.token]) {
      expect((await here.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    }
    const moved = await loginAt(there, 'api', 'api-password');
    expect(moved.status).toBe(200);
    expect((await loginAt(here, 'api', 'api-password')).body).toMatchObject({ code: 'LOGGED_IN_ELSEWHERE' });
    await there.request('POST', '/api/auth/logout', { token: moved.body.data!.token });
  });

  it('a token is valid only on the instance that issued it: elsewhere 401 TOKEN_INVALID, saying so', async () => {
    const token = await here.login();
    expect((await here.request('GET', '/api/workspace', { token })).status).toBe(200);
    const elsewhere = await there.request('GET', '/api/workspace', { token });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual({
      success: false,
      error: 'This token was issued by another pim instance; log in to this one',
      code: 'TOKEN_INVALID',
    });
    expect(elsewhere.headers.get('www-authenticate')).toMatch(/^Bearer realm="pim", error="invalid_token"/);
    // Its logout there is refused too, and the token lives on here.
    expect((await there.request('POST', '/api/auth/logout', { token })).status).toBe(401);
    expect((await here.request('GET', '/api/workspace', { token })).status).toBe(200);
    await here.request('POST', '/api/auth/logout', { token });
  });

  it('after the session elsewhere expired, the other instance lets the user in', async () => {
    await loginAt(here, 'api', 'api-password');
    expect((await loginAt(there, 'api', 'api-password')).status).toBe(401);
    clock.advance(24 * 60 * 60 * 1000);
    expect((await loginAt(there, 'api', 'api-password')).status).toBe(200);
  });
});

describe('disabled users over HTTP', () => {
  it('a disabled user gets 401 USER_DISABLED at login, and their tokens stop working at once', async () => {
    await here.addUser('leaver', 'VIEWER', 'leaver-password');
    const token = (await loginAt(here, 'leaver', 'leaver-password')).body.data!.token;
    expect((await here.request('GET', '/api/workspace', { token })).status).toBe(200);
    const ctx = here.app.ownerContext();
    await here.app.users.setDisabled(ctx, await here.app.users.idOf(ctx, 'leaver'), true);

    const after = await here.request('GET', '/api/workspace', { token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ success: false, code: 'TOKEN_INVALID' });
    for (const server of [here, there]) {
      const login = await loginAt(server, 'leaver', 'leaver-password');
      expect(login.status).toBe(401);
      expect(login.body).toEqual({
        success: false,
        error: "User 'leaver' is disabled",
        code: 'USER_DISABLED',
      });
    }
  });

  it('disabling on one instance ends the tokens of the other within its poll of the database', async () => {
    await here.addUser('mover', 'VIEWER', 'mover-password');
    const token = (await loginAt(there, 'mover', 'mover-password')).body.data!.token;
    expect((await there.request('GET', '/api/workspace', { token })).status).toBe(200);
    const ctx = here.app.ownerContext();
    await here.app.users.setDisabled(ctx, await here.app.users.idOf(ctx, 'mover'), true);
    await pollUntil(
      'the other instance refuses the token',
      async () => (await there.request('GET', '/api/workspace', { token })).status === 401,
    );
  });

  it('the OpenAPI description explains the login rules and lists the new codes', async () => {
    const doc = (await here.request('GET', '/api/openapi.json')).body as unknown as {
      info: { description: string };
      paths: Record<string, Record<string, { description?: string }>>;
    };
    for (const code of ['LOGGED_IN_ELSEWHERE', 'USER_DISABLED', 'USER_NOT_FOUND', 'LAST_ADMIN']) {
      expect(doc.info.description).toContain(`| ${code} |`);
    }
    expect(doc.paths['/api/auth/login']!.post!.description).toMatch(/another pim instance/);
    expect(doc.paths['/api/auth/logout']!.post!.description).toMatch(/desktop session/);
  });
});
