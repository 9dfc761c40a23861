import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { statusAfterSessionsEnded } from '../helpers/sessions-ended.js';
import { runCliAsync } from '../helpers/cli.js';
import { expectSuccess } from '../helpers/expect-cli.js';
import type { TestServer } from '../helpers/server.js';
import { startTeam, type Team } from './team.js';

/**
 * Team mode (issue 11, "several instances, one catalogue"): three instances with their own data
 * folders and ports on one PostgreSQL database see each other's changes in the next request,
 * and races between them end as they would on one instance.
 */

interface Product {
  id: number;
  supplierPid: string;
  name: string;
  updatedAt: string;
}
interface Group {
  id: number;
  groupId: string;
  parentGroupId: number | null;
}

describe.runIf(TEST_BACKEND === 'postgres')('several instances on one PostgreSQL database', () => {
  let team: Team;
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;
  const call = <T>(i: number, method: string, path: string, body?: unknown) =>
    team.instances[i]!.request<T>(method, path, { token: team.tokens[i], body });

  beforeAll(async () => {
    team = await startTeam(3);
    [a, b, c] = team.instances as [TestServer, TestServer, TestServer];
  });
  afterAll(() => team?.stop());

  it('run as three instances with their own machine ids and ports', () => {
    const ids = new Set([a, b, c].map((s) => s.app.machineId));
    expect(ids.size).toBe(3);
    expect(new Set([a, b, c].map((s) => s.baseUrl)).size).toBe(3);
  });

  it('count failed logins each for itself, as documented (storage.md, the API description)', async () => {
    const guess = (server: TestServer) =>
      server.request('POST', '/api/auth/login', { body: { username: 'member1', password: 'guess' } });
    for (let i = 0; i < 10; i++) expect((await guess(a)).status).toBe(401);
    expect((await guess(a)).status).toBe(429);
    // Another instance has seen none of them.
    expect((await guess(b)).status).toBe(401);
  });

  it('see a create, an update, a text, a feature and a delete of another instance in the next request', async () => {
    const created = await call<Product>(0, 'POST', '/api/product', { supplierPid: 'TEAM-1', name: 'Bohrer' });
    expect(created.status).toBe(201);
    const id = created.body.data!.id;
    expect((await call<Product>(1, 'GET', `/api/product/${id}`)).body.data).toEqual(created.body.data);

    const renamed = await call<Product>(1, 'PUT', `/api/product/${id}`, { name: 'Akku-Bohrer' });
    expect(renamed.status).toBe(200);
    expect((await call<Product>(2, 'GET', `/api/product/${id}`)).body.data!.name).toBe('Akku-Bohrer');

    expect(
      (await call(2, 'PUT', `/api/product/${id}/texts/long/eng`, { value: 'Cordless drill' })).status,
    ).toBe(200);
    expect((await call(0, 'GET', `/api/product/${id}/texts/long/eng`)).body.data).toEqual({
      lang: 'eng',
      value: 'Cordless drill',
    });
    const feature = await call(
      0,
      'PUT',
      `/api/product/${id}/features/${encodeURIComponent('0173-1#02-AAF040#004')}`,
      {
        funit: 'V',
        values: [{ lang: 'deu', value: '18' }],
      },
    );
    expect(feature.status).toBe(200);
    expect((await call(1, 'GET', `/api/product/${id}/features`)).body.data).toEqual([feature.body.data]);

    expect((await call(1, 'DELETE', `/api/product/${id}`)).status).toBe(200);
    for (const i of [0, 1, 2]) {
      const gone = await call(i, 'GET', `/api/product/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe('PRODUCT_NOT_FOUND');
    }
  });

  it('create a contested supplierPid once: one 201, the others 409', async () => {
    for (let round = 0; round < 10; round++) {
      const supplierPid = `CONTESTED-${round}`;
      const answers = await Promise.all(
        [0, 1, 2].map((i) => call<Product>(i, 'POST', '/api/product', { supplierPid, name: `from ${i}` })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      for (const refused of answers.filter((r) => r.status === 409)) {
        expect(refused.body).toEqual({
          success: false,
          error: `supplierPid '${supplierPid}' is already taken`,
          code: 'SUPPLIER_PID_TAKEN',
        });
      }
      const found = await call<Product[]>(1, 'GET', `/api/product?all=true&supplierPid=${supplierPid}`);
      expect(found.body.data).toHaveLength(1);
    }
  });

  it('never leave a cycle or a wrong groupId when groups are moved through several instances at once', async () => {
    const group = async (name: string, parentId?: number) =>
      (await call<Group>(0, 'POST', '/api/group', { name, ...(parentId ? { parentId } : {}) })).body.data!;
    for (let round = 0; round < 8; round++) {
      const x = await group(`X${round}`);
      const y = await group(`Y${round}`);
      const z = await group(`Z${round}`, x.id);
      // Each move alone is fine; together x under y and y under z (a child of x) would close a cycle.
      const moves = await Promise.all([
        call(1, 'POST', `/api/group/${x.id}/move`, { parentId: y.id }),
        call(2, 'POST', `/api/group/${y.id}/move`, { parentId: z.id }),
      ]);
      const statuses = moves.map((m) => m.status).sort();
      expect(statuses).toEqual([200, 400]);
      expect(moves.find((m) => m.status === 400)!.body.code).toBe('GROUP_MOVE_CYCLE');
    }
    const groups = (await call<Group[]>(0, 'GET', '/api/group')).body.data!;
    const byId = new Map(groups.map((g) => [g.id, g]));
    for (const g of groups) {
      // Walking up ends at the root, and every groupId is its parent's groupId plus one number.
      const seen = new Set<number>();
      for (
        let at: Group | undefined = g;
        at;
        at = at.parentGroupId ? byId.get(at.parentGroupId) : undefined
      ) {
        expect(seen.has(at.id)).toBe(false);
        seen.add(at.id);
      }
      const parent = g.parentGroupId === null ? undefined : byId.get(g.parentGroupId);
      if (parent) expect(g.groupId).toMatch(new RegExp(`^${parent.groupId.replace(/\./g, '\\.')}\\.\\d+$`));
      else expect(g.groupId).toMatch(/^\d+$/);
    }
    expect(new Set(groups.map((g) => g.groupId)).size).toBe(groups.length);
    // The tree each instance answers is the same.
    const trees = await Promise.all([0, 1, 2].map((i) => call(i, 'GET', '/api/group/tree')));
    expect(trees[1]!.body).toEqual(trees[0]!.body);
    expect(trees[2]!.body).toEqual(trees[0]!.body);
  });

  it('one login per user: refused on another machine while a token lives, free again after logout', async () => {
    await a.addUser('shared', 'EDITOR', 'shared-password');
    const login = (s: TestServer) =>
      s.request<{ token: string }>('POST', '/api/auth/login', {
        body: { username: 'shared', password: 'shared-password' },
      });
    const first = await login(a);
    expect(first.status).toBe(200);
    const token = first.body.data!.token;
    const refused = await login(b);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('LOGGED_IN_ELSEWHERE');
    expect(refused.body.error).toBe("User 'shared' is already logged in on another machine");
    // A token is valid on the instance that issued it only.
    expect((await b.request('GET', '/api/workspace', { token })).status).toBe(401);
    expect((await a.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    const second = await login(b);
    expect(second.status).toBe(200);
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(401);
    await b.request('POST', '/api/auth/logout', { token: second.body.data!.token });
  });

  it('an administrator ending a user’s sessions on one instance ends their token on another within a second', async () => {
    await a.addUser('ended', 'EDITOR', 'ended-password');
    const token = await a.login('ended', 'ended-password');
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(200); // cached now
    const ended = await runCliAsync(c.dataDir, ['user', 'logout', 'ended']);
    expectSuccess(ended);
    const status = await statusAfterSessionsEnded(
      async () => (await a.request('GET', '/api/workspace', { token })).status,
    );
    expect(status, 'the token still worked a second after its sessions were ended elsewhere').toBe(401);
    // The user is free to log in elsewhere at once.
    expect(
      (
        await b.request('POST', '/api/auth/login', {
          body: { username: 'ended', password: 'ended-password' },
        })
      ).status,
    ).toBe(200);
  });

  it('disabling a user on one instance refuses their token on another within a second', async () => {
    await a.addUser('disabled', 'EDITOR', 'disabled-password');
    const token = await a.login('disabled', 'disabled-password');
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(200);
    await b.app.users.setDisabled(
      b.app.ownerContext(),
      await b.app.users.idOf(b.app.ownerContext(), 'disabled'),
      true,
    );
    const since = Date.now();
    let answer = await a.request('GET', '/api/workspace', { token });
    while (answer.status === 200 && Date.now() - since < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await a.request('GET', '/api/workspace', { token });
    }
    expect(answer.status).toBe(401);
    // Disabling ends the user's sessions: the token is unknown now.
    expect(answer.body.code).toBe('TOKEN_INVALID');
  });
});
