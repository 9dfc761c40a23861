import type { RequestSpec, Method } from './load.js';

export interface Reply {
  status: number;
  headers: Headers;
  /** The parsed body, or the text when it is not JSON. */
  body: unknown;
}

export async function send(
  baseUrl: string,
  method: Method,
  spec: RequestSpec,
  token?: string,
): Promise<Reply> {
  const headers: Record<string, string> = { ...spec.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(baseUrl + spec.path, { method, headers, body: spec.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** The envelope's data, or undefined. */
export function dataOf(reply: Reply): unknown {
  const body = reply.body as { data?: unknown } | undefined;
  return typeof body === 'object' && body !== null ? body.data : undefined;
}

/** A short description of a failed reply: status and the envelope's error text. */
export function describe(reply: Reply): string {
  const body = reply.body as { error?: unknown } | string | undefined;
  const text =
    typeof body === 'object' && body !== null && typeof body.error === 'string'
      ? body.error
      : String(typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 200);
  return `${reply.status} ${text}`;
}

export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const reply = await send(baseUrl, 'POST', {
    path: '/api/auth/login',
    body: JSON.stringify({ username, password }),
  });
  const token = (dataOf(reply) as { token?: unknown } | undefined)?.token;
  if (reply.status !== 200 || typeof token !== 'string') throw new Error(`login failed: ${describe(reply)}`);
  return token;
}

/** The `after` cursor of a `Link: <...>; rel="next"` header, if any. */
export function nextCursor(reply: Reply, baseUrl: string): string | undefined {
  const link = reply.headers.get('link');
  const match = link ? /<([^>]+)>\s*;\s*rel="?next"?/i.exec(link) : null;
  if (!match) return undefined;
  return new URL(match[1]!, baseUrl).searchParams.get('after') ?? undefined;
}
