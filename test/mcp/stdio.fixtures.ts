import type { Client } from '@modelcontextprotocol/client';
import { afterEach } from 'vitest';
import { connectStdio } from '../helpers/mcp.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';

export const ADMIN = { PIM_PASSWORD: ADMIN_PASSWORD };

/**
 * `pim mcp` processes and the applications beside them for one test file: registers an afterEach
 * that closes what a test opened (newest first) and returns the openers.
 */
export function stdioPerTest() {
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
    env: Record<string, string> = ADMIN,
    era?: 'legacy' | 'modern',
  ): Promise<Client> {
    const client = await connectStdio(dataDir, ['--user', 'admin', ...args], env, era);
    cleanup.push(() => client.close());
    return client;
  }
  return { cleanup, server, stdio };
}

export const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
