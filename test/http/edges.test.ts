import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { pollUntil, rawExchange } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { lazyServerPerFile } from '../helpers/file-server.js';

/** The server's edges: who may call, by which name, with which headers back, for how long. */

/** The application of the tests that change nothing on it; the others start their own and say why. */
const shared = lazyServerPerFile();

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function statusAndBody(answer: string): { status: number; body: Record<string, unknown>; head: string } {
  const split = answer.indexOf('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0),
    head: answer.slice(0, split).toLowerCase(),
    body: JSON.parse(answer.slice(split + 4)) as Record<string, unknown>,
  };
}

const get = (s: TestServer, host: string | undefined, version = '1.1') =>
  rawExchange(
    s.baseUrl,
    `GET /api/workspace HTTP/${version}\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`,
  ).then(statusAndBody);

describe('Host header', () => {
  it('answers a request without Host in the envelope (400 HOST_MISSING)', async () => {
    const server = await shared();
    for (const version of ['1.1', '1.0']) {
      const answer = await get(server, undefined, version);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, code: 'HOST_MISSING' });
    }
  });

  it('while bound to loopback, refuses names that are not this machine (DNS rebinding) with 403', async () => {
    const server = await shared();
    const port = new URL(server.baseUrl).port;
    for (const host of ['evil.example', `evil.example:${port}`, '10.0.0.1', 'localhost.evil.example']) {
      const answer = await get(server, host);
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatchObject({ success: false, code: 'HOST_NOT_ALLOWED' });
    }
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      '127.0.0.2',
      `[::1]:${port}`,
      'pim.localhost',
    ]) {
      expect((await get(server, host)).status, host).toBe(401);
    }
  });

  it('bound to every address, accepts any Host', async () => {
    // Its own: bound to every address.
    server = await startServer({ host: '0.0.0.0' });
    expect((await get(server, 'pim.example.com')).status).toBe(401);
  });
});

describe('rest.allow', () => {
  it('refuses other addresses before anything else (403), live, preflights included', async () => {
    // Its own: it changes rest.allow.
    server = await startServer();
    const token = await server.login();
    await server.app.settings.update(server.app.ownerContext(), { 'rest.allow': '10.0.0.0/8, fd00::/8' });
    await server.app.applySettings();
    for (const [method, path] of [
      ['GET', '/api/workspace'],
      ['POST', '/api/auth/login'],
      ['OPTIONS', '/api/product'],
      ['GET', '/no-such-page'],
    ] as const) {
      const answer = await server.request(method, path, {
        token,
        headers: { origin: 'http://example.com', 'access-control-request-method': 'GET' },
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toMatchObject({ success: false, code: 'ADDRESS_NOT_ALLOWED' });
    }
    await server.app.settings.update(server.app.ownerContext(), { 'rest.allow': '127.0.0.0/8, ::1' });
    await server.app.applySettings();
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
  });

  it('is validated, shown by pim settings get, and warned about with a non-loopback host', async () => {
    // Its own: it reads the settings as stored and moves rest.host.
    server = await startServer();
    const dir = server.dataDir;
    const bad = runCli(dir, ['settings', 'set', 'rest.allow', '10.0.0.0/8, everyone']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/'everyone' is not an IP address or CIDR range/);
    expect(runCli(dir, ['settings', 'get']).stdout).toMatch(/^rest\.allow=$/m);
    const exposed = runCli(dir, ['settings', 'set', 'rest.host', '0.0.0.0']);
    expect(exposed.code).toBe(0);
    expect(exposed.stderr).toMatch(/warning: .*rest\.allow is empty/);
    const restricted = runCli(dir, ['settings', 'set', 'rest.allow', '10.0.0.0/8']);
    expect(restricted.stderr).toBe('');
    expect(runCli(dir, ['settings', 'get', 'rest.allow']).stdout.trim()).toBe('10.0.0.0/8');
  });
});

describe('security headers', () => {
  it('are on every answer: success, errors, unknown routes, refused URLs, oversized bodies', async () => {
    const server = await shared();
    const token = await server.login();
    const answers = [
      await server.request('GET', '/api/workspace', { token }),
      await server.request('GET', '/api/workspace'),
      await server.request('GET', '/api/no-such', { token }),
      await server.request('DELETE', '/api/workspace', { token }),
      await server.request('GET', '/api/product/%FF', { token }),
      await server.request('POST', '/api/product', {
        token,
        rawBody: 'x'.repeat(9 * 1024 * 1024),
        headers: { 'content-type': 'application/json' },
      }),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options'), String(answer.status)).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
    const raw = await rawExchange(server.baseUrl, 'FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(raw.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('the docs page keeps a policy that lets it run from this server only', async () => {
    const server = await shared();
    const docs = await fetch(`${server.baseUrl}/api/docs/`);
    expect(docs.status).toBe(200);
    const csp = docs.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/https:/);
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

/** Opens a TCP connection and resolves once it is established. */
function open(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function closed(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  return new Promise((resolve) =>
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8'))),
  );
}

describe('timeouts and the connection cap', () => {
  it('closes a client that trickles its headers, with 408 in the envelope', async () => {
    // Its own, as the next: limits of its own.
    server = await startServer({ httpLimits: { headersTimeoutMs: 300 } });
    const socket = await open(server.baseUrl);
    const answer = closed(socket);
    socket.write('GET /api/workspace HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"code":"REQUEST_TIMEOUT"');
  });

  it('closes connections beyond the cap at once; clients are served again once others leave', async () => {
    server = await startServer({ httpLimits: { maxConnections: 5 } });
    const idle = await Promise.all(Array.from({ length: 5 }, () => open(server!.baseUrl)));
    const extra = await open(server.baseUrl);
    expect(await closed(extra)).toBe('');
    for (const socket of idle) socket.destroy();
    // The server counts a connection gone when it sees it close: poll until it has.
    await pollUntil('the server accepts connections again', async () => {
      try {
        return (await server!.request('GET', '/api/workspace')).status === 401;
      } catch {
        return false;
      }
    });
  });

  it('a client still sending an oversized body reads its 413, not a reset', async () => {
    const server = await shared();
    const token = await server.login();
    const { port } = new URL(server.baseUrl);
    for (let attempt = 0; attempt < 3; attempt++) {
      const status = await new Promise<number | string>((resolve) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/product',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.on('error', (error) => resolve(error.message));
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const write = () => {
          while (sent < 16) {
            sent++;
            if (!request.write(chunk)) return void request.once('drain', write);
          }
          request.end();
        };
        write();
      });
      expect(status).toBe(413);
    }
  });
});
