import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, expect } from 'vitest';
import { call, connectHttp, type Era } from './mcp.js';
import { startServer, type ApiResponse, type StartOptions, type TestServer } from './server.js';

/** A tool error's structured content: REST's sentence, code and status. */
export interface ToolError {
  error: string;
  code: string;
  status: number;
}

/** One fresh application with an admin's MCP client and REST access. */
export interface McpSession {
  server: TestServer;
  client: Client;
  rest<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
}

/** Starts an application and connects an admin's client; both are stopped by `cleanups` (newest first). */
export async function openMcpSession(
  cleanups: (() => Promise<void>)[],
  options: { era?: Era; setup?: StartOptions['setup'] } = {},
): Promise<McpSession> {
  const server = await startServer({ setup: options.setup });
  cleanups.push(() => server.stop());
  const token = await server.login();
  const client = await connectHttp(server.baseUrl, token, { era: options.era });
  cleanups.push(() => client.close());
  return {
    server,
    client,
    rest: <T>(method: string, path: string, body?: unknown) =>
      server.request<T>(method, path, { token, body }),
  };
}

/** A tool call that must fail: its structured error, after checking that text and error agree. */
export async function fail(client: Client, name: string, args: Record<string, unknown>): Promise<ToolError> {
  const outcome = await call<ToolError>(client, name, args);
  expect(outcome.isError, `${name} ${JSON.stringify(args)} should fail: ${outcome.text}`).toBe(true);
  expect(outcome.text).toBe(outcome.data.error);
  return outcome.data;
}

/** What REST answered, as a tool error carries it. */
export function asToolError(res: ApiResponse): ToolError {
  expect(res.body.success, res.text).toBe(false);
  return { error: res.body.error!, code: res.body.code!, status: res.status };
}

/**
 * A fresh application per test: registers an afterEach that closes what the test opened (clients
 * first, newest first, then their servers) and returns the opener with the list tests may add to.
 */
export function sessionPerTest(defaults: { era?: Era; setup?: StartOptions['setup'] } = {}) {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  const open = (options: { era?: Era; setup?: StartOptions['setup'] } = {}): Promise<McpSession> =>
    openMcpSession(cleanups, { ...defaults, ...options });
  return { cleanups, open };
}

/**
 * One application per file (or per describe, where it is called), started by the first test that
 * opens a session, and one MCP client per test: tests that make their own products, groups and users
 * under unique names share the server (each start costs 0.5 s on SQLite, 1.5 s on PostgreSQL) and
 * stay independent of each other's order. `fresh` opens a test's own application, for a test that
 * needs one (an empty catalogue, a first run); both are closed after the test as in sessionPerTest.
 */
export function sessionPerFile(defaults: { era?: Era } = {}) {
  const cleanups: (() => Promise<void>)[] = [];
  let shared: Promise<TestServer> | undefined;
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  afterAll(async () => {
    const started = shared;
    shared = undefined;
    if (started) await (await started).stop();
  });
  const open = async (options: { era?: Era } = {}): Promise<McpSession> => {
    shared ??= startServer();
    const server = await shared;
    // A token of the test's own: one that moves the clock a day on ends no other test's.
    const token = await server.login();
    const client = await connectHttp(server.baseUrl, token, { era: options.era ?? defaults.era });
    cleanups.push(() => client.close());
    return {
      server,
      client,
      rest: <T>(method: string, path: string, body?: unknown) =>
        server.request<T>(method, path, { token, body }),
    };
  };
  const fresh = (options: { era?: Era; setup?: StartOptions['setup'] } = {}): Promise<McpSession> =>
    openMcpSession(cleanups, { ...defaults, ...options });
  return { cleanups, open, fresh };
}
