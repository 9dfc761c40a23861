import { beforeEach, describe, expect, it } from 'vitest';
import { lazyServerPerFile } from '../helpers/file-server.js';
import type { TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/** User names: no control or invisible characters, no look-alikes (docs/decisions.md, "Names"). */
/** One application for the file: each test adds users of its own names; "adds none" compares before and after. */
const shared = lazyServerPerFile({ window: true });
let server: TestServer;
let admin: WindowClient;
beforeEach(async () => {
  server = await shared();
  admin = new WindowClient(server);
  await admin.login();
});

const addUser = (username: string) =>
  admin.request<{ id: number; username: string }>('POST', '/users', {
    body: { username, role: 'VIEWER', password: 'name-test-password' },
  });

describe('user names (window, POST /ui/api/users)', () => {
  it('refuses control and format characters, separators and compatibility look-alikes with 400', async () => {
    const users = async () =>
      (await admin.request<Array<{ username: string }>>('GET', '/users')).body.data!.map((u) => u.username);
    const before = await users();
    expect(before).toContain('admin');
    for (const [name, message] of [
      ['a\u001b[31mred', /must not contain the invisible or control character U\+001B/],
      ['a\u0007b', /U\+0007/],
      ['a\u200bb', /U\+200B/],
      ['a\u202eb', /U\+202E/],
      ['a\u00a0b', /must not contain spaces or colons/],
      ['\uff21\uff24\uff2d\uff29\uff2e', /plain characters \('ADMIN'\)/],
      ['\ufb01le', /plain characters \('file'\)/],
    ] as const) {
      const res = await addUser(name);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect(await users()).toEqual(before);
  });

  it('stores names in NFC: "é" composed or decomposed is one name, and either form logs in', async () => {
    const added = await addUser('e\u0301d');
    expect(added.status).toBe(201);
    expect(added.body.data!.username).toBe('\u00e9d');
    const again = await addUser('\u00e9d');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('USER_EXISTS');
    expect((await addUser('\u00c9D')).status).toBe(201); // only ASCII letters fold case, as before

    for (const form of ['e\u0301d', '\u00e9d', '\u00e9D']) {
      const login = await server.request<{ username: string }>('POST', '/api/auth/login', {
        body: { username: form, password: 'name-test-password' },
      });
      expect(login.status, JSON.stringify(form)).toBe(200);
      expect(login.body.data!.username).toBe('\u00e9d');
    }
  });
});
