import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { call, connectStdio, ok, READ_TOOLS } from '../helpers/mcp.js';
import { stdioPerTest, toolNames as names } from './stdio.fixtures.js';

const READS = READ_TOOLS;
const { cleanup, server, stdio } = stdioPerTest();

describe('pim mcp: users and sessions', () => {
  it("records the user's last login, as a token or the window does", async () => {
    const started = await server();
    await started.addUser('ag', 'EDITOR');
    const admin = started.app.ownerContext();
    const lastLogin = async () =>
      (await started.app.users.list(admin)).find((u) => u.username === 'ag')?.lastLoginAt;
    expect(await lastLogin()).toBeNull();
    const before = new Date().toISOString();
    const agent = await connectStdio(started.dataDir, ['--user', 'ag'], { PIM_PASSWORD: 'ag-password' });
    cleanup.push(() => agent.close());
    const at = await lastLogin();
    expect(at).not.toBeNull();
    expect(at! >= before).toBe(true);
    // A refused start records nothing.
    await started.addUser('nx', 'EDITOR');
    const refused = await runCliAsync(started.dataDir, ['mcp', '--user', 'nx'], {
      env: { PIM_PASSWORD: 'wrong' },
      stdin: '',
    });
    expect(refused.code).toBe(1);
    expect((await started.app.users.list(admin)).find((u) => u.username === 'nx')?.lastLoginAt).toBeNull();
  });

  it('notices a user disabled or demoted while it runs (it holds no token)', async () => {
    const started = await server();
    await started.addUser('ed', 'EDITOR');
    const agent = await connectStdio(started.dataDir, ['--user', 'ed'], { PIM_PASSWORD: 'ed-password' });
    cleanup.push(() => agent.close());
    await ok(agent, 'create_product', { supplierPid: 'BEFORE' });
    const admin = started.app.ownerContext();
    const id = await started.app.users.idOf(admin, 'ed');
    await started.app.users.setRole(admin, id, 'VIEWER');
    expect((await call(agent, 'create_product', { supplierPid: 'AFTER' })).data).toMatchObject({
      status: 403,
    });
    expect(await names(agent)).toEqual(READS);
    await started.app.users.setDisabled(admin, id, true);
    expect((await call(agent, 'search_products')).data).toEqual({
      error: "User 'ed' is disabled",
      code: 'USER_DISABLED',
      status: 401,
    });
  });

  it('stops serving once the user’s sessions are ended, also after a disable is undone', async () => {
    const started = await server();
    await started.addUser('ed', 'EDITOR');
    await started.addUser('al', 'EDITOR');
    const admin = started.app.ownerContext();
    const ended = {
      error: "The sessions of user 'ed' were ended since this connection logged in: connect again to log in",
      code: 'TOKEN_INVALID',
      status: 401,
    };
    const ed = await started.app.users.idOf(admin, 'ed');
    const loggedOut = await connectStdio(started.dataDir, ['--user', 'ed'], { PIM_PASSWORD: 'ed-password' });
    const other = await connectStdio(started.dataDir, ['--user', 'al'], { PIM_PASSWORD: 'al-password' });
    cleanup.push(
      () => loggedOut.close(),
      () => other.close(),
    );
    await ok(loggedOut, 'search_products');
    await started.app.users.endSessions(admin, ed);
    expect((await call(loggedOut, 'search_products')).data).toEqual(ended);
    // Another user's connection goes on.
    await ok(other, 'search_products');

    const disabled = await connectStdio(started.dataDir, ['--user', 'ed'], { PIM_PASSWORD: 'ed-password' });
    cleanup.push(() => disabled.close());
    await ok(disabled, 'search_products');
    await started.app.users.setDisabled(admin, ed, true);
    await started.app.users.setDisabled(admin, ed, false);
    expect((await call(disabled, 'search_products')).data).toEqual(ended);
    // A new connection with the password logs in again.
    const again = await connectStdio(started.dataDir, ['--user', 'ed'], { PIM_PASSWORD: 'ed-password' });
    cleanup.push(() => again.close());
    await ok(again, 'search_products');
  });
});

describe('pim mcp beside pim start on one data folder', () => {
  it('sees changes of the other process in the very next request, both ways', async () => {
    const app = await server();
    const token = await app.login();
    const agent = await stdio(app.dataDir);
    const created = await ok<{ product: { id: number } }>(agent, 'create_product', {
      supplierPid: 'FROM-AGENT',
      name: 'Agent',
    });
    const id = created.product.id;
    expect(
      (await app.request<{ name: string }>('GET', `/api/product/${id}`, { token })).body.data!.name,
    ).toBe('Agent');
    await app.request('PUT', `/api/product/${id}`, { token, body: { name: 'REST' } });
    expect(await ok(agent, 'get_product', { id })).toMatchObject({ product: { name: 'REST' } });
    await app.request('DELETE', `/api/product/${id}`, { token });
    expect((await call(agent, 'get_product', { id })).data).toMatchObject({ code: 'PRODUCT_NOT_FOUND' });
  });

  it('answers parallel first calls on the open workspace, and again after the application opens another', async () => {
    const app = await server();
    const token = await app.login();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await app.request<{ id: number }>('POST', '/api/product', {
        token,
        body: { supplierPid: `PAR-${i}` },
      });
      ids.push(created.body.data!.id);
    }
    const agent = await stdio(app.dataDir);
    // The first calls reach the process at once, while it first looks at the open workspace.
    const reads = async () => Promise.all(ids.map((id) => call(agent, 'get_product', { id })));
    for (const result of await reads()) expect(result.isError, JSON.stringify(result.data)).toBeFalsy();
    const second = await app.app.workspaces.create(app.app.ownerContext(), { name: 'Parallel' });
    await app.request('POST', '/api/workspace/open', { token, body: { workspaceId: second.id } });
    for (const result of await reads()) expect(result.data).toMatchObject({ code: 'PRODUCT_NOT_FOUND' });
  });

  it('follows the workspace the application opens, and the application follows the agent', async () => {
    const app = await server();
    const token = await app.login();
    const second = await app.app.workspaces.create(app.app.ownerContext(), { name: 'Zweiter' });
    await app.request('POST', '/api/product', { token, body: { supplierPid: 'IN-TEST' } });
    const agent = await stdio(app.dataDir);
    const pids = async () =>
      ((await ok(agent, 'search_products')) as { items: { supplierPid: string }[] }).items.map(
        (p) => p.supplierPid,
      );
    expect(await pids()).toEqual(['IN-TEST']);

    expect(
      (await app.request('POST', '/api/workspace/open', { token, body: { workspaceId: second.id } })).status,
    ).toBe(200);
    expect(await pids()).toEqual([]);
    await ok(agent, 'create_product', { supplierPid: 'IN-ZWEITER' });

    await ok(agent, 'open_workspace', { workspaceName: 'Test' });
    const list = await app.request<{ supplierPid: string }[]>('GET', '/api/product', { token });
    expect(list.body.data!.map((p) => p.supplierPid)).toEqual(['IN-TEST']);
    const workspaces = await app.request<{ name: string; active: boolean }[]>('GET', '/api/workspace', {
      token,
    });
    expect(workspaces.body.data!.find((w) => w.active)?.name).toBe('Test');
  });

  it('works without pim start, and answers like REST while no workspace is open', async () => {
    const bare = await server('no-workspace');
    const dataDir = bare.dataDir;
    const agent = await stdio(dataDir);
    expect((await call(agent, 'search_products')).data).toEqual({
      error: 'No workspace is open: open one with the tool open_workspace (list_workspaces shows them)',
      code: 'NO_WORKSPACE_OPEN',
      status: 409,
    });
    await bare.app.workspaces.create(bare.app.ownerContext(), { name: 'Später' });
    await bare.app.stop();
    // pim start has stopped; the agent goes on alone on the data folder.
    await ok(agent, 'open_workspace', { workspaceName: 'Später' });
    await ok(agent, 'create_product', { supplierPid: 'ALONE' });
    expect(await ok(agent, 'search_products')).toMatchObject({ items: [{ supplierPid: 'ALONE' }] });
  });
});
