import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The agent configurations of docs/agent-interface.md ("Setting up an agent"), where the README
 * sends users, must work as a user copies them (paths and secrets filled in).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const DOC = readFileSync(`${ROOT}/docs/agent-interface.md`, 'utf8');
const start = DOC.indexOf('## Setting up an agent');
const section = DOC.slice(start, DOC.indexOf('\n## ', start + 1));
const [stdioBlock, httpBlock] = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);

interface ServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer({ setup: 'first-run' });
  await server.addUser('agent', 'EDITOR', 'secret');
  token = await server.login();
});
afterAll(async () => server.stop());

async function findReadChange(client: Client): Promise<void> {
  const found = await client.callTool({ name: 'search_products', arguments: { q: 'bohr', limit: 1 } });
  const [product] = (found.structuredContent as { items: { id: number }[] }).items;
  expect(product).toBeDefined();
  const sheet = await client.callTool({ name: 'get_product', arguments: { id: product!.id } });
  expect(sheet.isError).toBeFalsy();
  const changed = await client.callTool({
    name: 'set_texts',
    arguments: { id: product!.id, kind: 'long', texts: [{ lang: 'eng', value: 'Changed by an agent' }] },
  });
  expect(changed.isError).toBeFalsy();
  const rest = await server.request<{ value: string }>('GET', `/api/product/${product!.id}/texts/long/eng`, {
    token,
  });
  expect(rest.body.data!.value).toBe('Changed by an agent');
}

describe('docs/agent-interface.md: setting up an agent', () => {
  it('the stdio configuration finds, reads and changes products', async () => {
    const config = (JSON.parse(stdioBlock!) as { mcpServers: { pim: ServerConfig } }).mcpServers.pim;
    const args = config.args!.map((a) =>
      a.replace('/path/to/pim', ROOT).replace('/path/to/data', server.dataDir),
    );
    const command = config.command === 'node' ? process.execPath : config.command!;
    const client = new Client({ name: 'readme', version: '1' });
    await client.connect(
      new StdioClientTransport({ command, args, env: { PATH: process.env.PATH ?? '', ...config.env } }),
    );
    try {
      await findReadChange(client);
    } finally {
      await client.close();
    }
  });

  it('the HTTP configuration finds, reads and changes products', async () => {
    const config = (JSON.parse(httpBlock!) as { mcpServers: { pim: ServerConfig } }).mcpServers.pim;
    expect(config.type).toBe('http');
    const url = new URL(config.url!.replace('http://127.0.0.1:8765', server.baseUrl));
    const agentToken = await server.login('agent', 'secret');
    const headers = Object.fromEntries(
      Object.entries(config.headers!).map(([k, v]) => [k, v.replace('<token>', agentToken)]),
    );
    const client = new Client({ name: 'readme', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      await findReadChange(client);
    } finally {
      await client.close();
    }
  });
});
