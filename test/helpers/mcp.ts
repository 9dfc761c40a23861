import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { pimBin } from './cli.js';

export type Era = 'legacy' | 'modern';
/** Both protocol eras pim serves: 2025-11-25 (most deployed clients) and 2026-07-28. */
export const ERAS: readonly Era[] = ['legacy', 'modern'];

function newClient(era: Era): Client {
  return new Client(
    { name: 'pim-tests', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: '2026-07-28' } } },
  );
}

/** An SDK client connected to the running application's /mcp with a bearer token. */
export async function connectHttp(
  baseUrl: string,
  token: string,
  options: { era?: Era; headers?: Record<string, string> } = {},
): Promise<Client> {
  const client = newClient(options.era ?? 'modern');
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...options.headers } },
  });
  await client.connect(transport);
  return client;
}

/** An SDK client over stdio, spawning `pim mcp` (pimBin: the current sources) on a data folder. */
export async function connectStdio(
  dataDir: string,
  args: string[],
  env: Record<string, string>,
  era: Era = 'legacy',
): Promise<Client> {
  const client = newClient(era);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [pimBin(), 'mcp', '--data-dir', dataDir, ...args],
    env: {
      PATH: process.env.PATH ?? '',
      PIM_TEST_WEAK_PASSWORD_HASHES: process.env.PIM_TEST_WEAK_PASSWORD_HASHES ?? '',
      ...env,
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

export interface ToolOutcome<T = Record<string, unknown>> {
  isError: boolean;
  data: T;
  text: string;
}

/** Calls a tool and returns its structured content, whether it is an error and its text. */
export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolOutcome<T>> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { type: string; text?: string }[];
  };
  const text = result.content.map((c) => c.text ?? '').join('');
  return { isError: result.isError === true, data: result.structuredContent as T, text };
}

/** Calls a tool that must succeed; throws with the tool's error text otherwise. */
export async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const outcome = await call<T>(client, name, args);
  if (outcome.isError) throw new Error(`${name} failed: ${outcome.text}`);
  return outcome.data;
}

/** The read tools in the order tools/list shows them: what a VIEWER and `--read-only` get. */
export const READ_TOOLS = [
  'list_workspaces',
  'search_products',
  'get_product',
  'get_group_tree',
  'list_group_products',
  'get_job',
  'get_catalog_header',
];
