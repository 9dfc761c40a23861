import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pimBin } from '../helpers/cli.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';
import { TOOL_NAMES } from '../../src/mcp/tools.js';

/** The MCP Inspector's CLI mode: a client nobody here wrote (pinned to 0.15.0, the last for Node 20). */
const INSPECTOR = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector', import.meta.url));

function inspect(
  dataDir: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    INSPECTOR,
    [
      '--cli',
      '-e',
      `PIM_PASSWORD=${ADMIN_PASSWORD}`,
      ...args,
      '--',
      process.execPath,
      pimBin(),
      '--data-dir',
      dataDir,
      'mcp',
      '--user',
      'admin',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d.toString()));
  child.stderr.on('data', (d) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let server: TestServer;
let productId: number;
beforeAll(async () => {
  server = await startServer();
  const token = await server.login();
  const created = await server.request<{ id: number }>('POST', '/api/product', {
    token,
    body: { supplierPid: 'INSPECT-1', name: 'Geprüft' },
  });
  productId = created.body.data!.id;
});
afterAll(async () => server.stop());

describe('the MCP Inspector (CLI mode) over stdio', () => {
  it('lists the tools', async () => {
    const result = await inspect(server.dataDir, ['--method', 'tools/list']);
    expect(result.code, result.stderr).toBe(0);
    const tools = (JSON.parse(result.stdout) as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(tools.find((t) => t.name === 'get_product')?.inputSchema).toMatchObject({ required: ['id'] });
  });

  it('calls get_product', async () => {
    const result = await inspect(server.dataDir, [
      '--tool-name',
      'get_product',
      '--tool-arg',
      `id=${productId}`,
      '--method',
      'tools/call',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as {
      isError?: boolean;
      structuredContent: { product: unknown };
    };
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.product).toMatchObject({
      id: productId,
      supplierPid: 'INSPECT-1',
      name: 'Geprüft',
    });
  });

  it('shows a tool error as pim wrote it (its 1.x SDK client checks structuredContent on errors too)', async () => {
    const result = await inspect(server.dataDir, [
      '--tool-name',
      'get_product',
      '--tool-arg',
      'id=999999',
      '--method',
      'tools/call',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { isError?: boolean; structuredContent: unknown };
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toEqual({
      error: 'Product 999999 not found',
      code: 'PRODUCT_NOT_FOUND',
      status: 404,
    });
  });
});
