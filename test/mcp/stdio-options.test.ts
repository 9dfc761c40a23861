import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cliEnv, pimBin, runCliAsync } from '../helpers/cli.js';
import { TOOL_NAMES } from '../../src/mcp/tools.js';
import { connectStdio, ok, READ_TOOLS } from '../helpers/mcp.js';
import { ADMIN, stdioPerTest, toolNames as names } from './stdio.fixtures.js';

const READS = READ_TOOLS;
const { cleanup, server, stdio } = stdioPerTest();

/**
 * `pim mcp`'s options and framing (credentials, which tools it offers, protocol revisions, lines
 * that are not JSON-RPC): decided before any storage is asked, so on SQLite only (vitest.config.ts).
 * What depends on the storage (another process's changes, ended sessions) is in stdio.test.ts.
 */
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
