import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cliEnv, pimBin, runCliAsync } from '../helpers/cli.js';
import { TOOL_NAMES } from '../../src/mcp/tools.js';
import { call, connectStdio, ok, READ_TOOLS } from '../helpers/mcp.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';

const ADMIN = { PIM_PASSWORD: ADMIN_PASSWORD };
const READS = READ_TOOLS;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function server(setup?: 'workspace' | 'no-workspace'): Promise<TestServer> {
  const started = await startServer({ setup });
  cleanup.push(() => started.stop());
  return started;
}

async function stdio(
  dataDir: string,
  args: string[] = [],
  env = ADMIN,
  era?: 'legacy' | 'modern',
): Promise<Client> {
  const client = await connectStdio(dataDir, ['--user', 'admin', ...args], env, era);
  cleanup.push(() => client.close());
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

describe('pim mcp: credentials', () => {
  it('refuses missing or wrong credentials with one line on stderr and exit code 1, before any protocol traffic', async () => {
    const { dataDir } = await server();
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--user', 'admin'], {}, /^pim: set PIM_PASSWORD to the password of admin/],
      [['--user', 'admin'], { PIM_PASSWORD: 'wrong' }, /^pim: Wrong username or password$/],
      [['--user', 'nobody'], ADMIN, /^pim: Wrong username or password$/],
    ];
    for (const [args, env, message] of cases) {
      const result = await runCliAsync(dataDir, ['mcp', ...args], { env, stdin: '' });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr.trim()).toMatch(message);
    }
    const usage = await runCliAsync(dataDir, ['mcp'], { env: ADMIN });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('pim mcp needs --user NAME');
    const unknownTool = await runCliAsync(
      dataDir,
      ['mcp', '--user', 'admin', '--tools', 'get_product,nope'],
      {
        env: ADMIN,
      },
    );
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toContain("unknown tool 'nope' in --tools");
  });
});

describe('pim mcp: which tools', () => {
  it('offers all tools, only the read tools with --read-only, and only those named with --tools', async () => {
    const { dataDir } = await server();
    expect((await names(await stdio(dataDir))).sort()).toEqual([...TOOL_NAMES].sort());
    expect(await names(await stdio(dataDir, ['--read-only']))).toEqual(READS);
    const chosen = await stdio(dataDir, ['--tools', 'get_product, search_products']);
    expect(await names(chosen)).toEqual(['search_products', 'get_product']);
    const refused = await chosen
      .callTool({ name: 'create_product', arguments: { supplierPid: 'X' } })
      .catch((e) => e);
    expect(String(refused)).toContain('Tool create_product not found');
  });

  it("offers a viewer only what the viewer's role may call", async () => {
    const started = await server();
    await started.addUser('vi', 'VIEWER');
    const viewer = await connectStdio(started.dataDir, ['--user', 'vi'], { PIM_PASSWORD: 'vi-password' });
    cleanup.push(() => viewer.close());
    expect(await names(viewer)).toEqual(READS);
    // Tools named in --tools that will not be offered are named on stderr, with why; the rest serve.
    const start = (user: string, args: string[]) =>
      runCliAsync(started.dataDir, ['mcp', '--user', user, ...args], {
        env: { PIM_PASSWORD: `${user}-password` },
        stdin: '',
      });
    const warned = await start('vi', ['--tools', 'get_product,create_product,delete_group']);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toBe('');
    expect(warned.stderr.trim()).toBe(
      "pim mcp: --tools names tools not offered: create_product (role VIEWER lacks the right 'Bearbeiten'), " +
        "delete_group (role VIEWER lacks the right 'Bearbeiten')",
    );
    const readOnly = await start('vi', ['--read-only', '--tools', 'get_product,set_texts']);
    expect(readOnly.stderr.trim()).toBe('pim mcp: --tools names tools not offered: set_texts (--read-only)');
    expect((await start('vi', ['--tools', 'get_product'])).stderr).toBe('');
  });

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

  it('speaks the 2026-07-28 revision as well as the 2025 one', async () => {
    const { dataDir } = await server();
    const modern = await stdio(dataDir, [], ADMIN, 'modern');
    expect(await ok(modern, 'list_workspaces')).toMatchObject({ workspaces: [{ name: 'Test' }] });
  });
});

describe('pim mcp: lines that are not JSON-RPC messages', () => {
  it('answers them as JSON-RPC says (-32700, -32600) and goes on serving', async () => {
    const { dataDir } = await server();
    const child = spawn(process.execPath, [pimBin(), '--data-dir', dataDir, 'mcp', '--user', 'admin'], {
      env: cliEnv(ADMIN),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanup.push(async () => child.kill());
    const answers: Record<string, unknown>[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.trim()) answers.push(JSON.parse(line) as Record<string, unknown>);
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 9,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write(
      [
        '{bad',
        '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":"s","method":5}',
        '[]',
        '',
        // A multi-byte character split over two writes stays whole.
        JSON.stringify(initialize).replace('"raw"', '"r\u00e4w"'),
      ].join('\n') + '\n',
    );
    await expect.poll(() => answers.length).toBe(5);
    expect(answers.slice(0, 4)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not valid JSON' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      },
      {
        jsonrpc: '2.0',
        id: 's',
        error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      },
    ]);
    expect(answers[4]).toMatchObject({ jsonrpc: '2.0', id: 9, result: { serverInfo: { name: 'pim' } } });
    const split = Buffer.from('{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":"ä"}}\n');
    const cut = split.indexOf(Buffer.from('ä')) + 1;
    child.stdin.write(split.subarray(0, cut));
    await new Promise((resolve) => setTimeout(resolve, 50));
    child.stdin.write(split.subarray(cut));
    await expect.poll(() => answers.length).toBe(6);
    expect(answers[5]).toMatchObject({ jsonrpc: '2.0', id: 10, result: {} });
    // Bytes that are not UTF-8 are refused, not read as U+FFFD; the next line is served.
    child.stdin.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":11,"method":"ping","params":{"x":"CT'),
        Buffer.from([0xff]),
        Buffer.from('10"}}\n{"jsonrpc":"2.0","id":12,"method":"ping"}\n'),
      ]),
    );
    await expect.poll(() => answers.length).toBe(8);
    expect(answers.slice(6)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not valid UTF-8' },
      },
      { jsonrpc: '2.0', id: 12, result: {} },
    ]);
    child.stdin.end();
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
