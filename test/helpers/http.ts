import { connect, createServer } from 'node:net';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { success: boolean; data?: T; error?: string; code?: string } & Record<string, unknown>;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** One request against any base URL (a `pim start` child process, or a server whose port moved). */
export async function apiRequest<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: ApiResponse<T>['body'];
  try {
    parsed = text ? JSON.parse(text) : ({} as ApiResponse<T>['body']);
  } catch {
    parsed = {} as ApiResponse<T>['body'];
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Logs in over HTTP and returns the token; throws with the answer when that fails. */
export async function loginAt(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await apiRequest<{ token: string }>(baseUrl, 'POST', '/api/auth/login', {
    body: { username, password },
  });
  if (res.status !== 200 || !res.body.data) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body.data.token;
}

/** Polls `probe` until it returns true, failing after `timeoutMs`. For state the application polls itself. */
export async function pollUntil(
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** True when nothing accepts TCP connections on 127.0.0.1:port. */
export async function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** A port that was free a moment ago (for tests that must choose the port themselves). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Sends bytes as they are over TCP and returns everything the server wrote until it closed. */
export async function rawExchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('connect', () => socket.end(request));
  });
}
