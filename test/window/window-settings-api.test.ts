import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startServer, type StartOptions, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/**
 * Each test moves or tries to move REST: an application of its own, started by the test with the
 * options it needs (a second start per test cost 0.5-1.5 s).
 */
let server: TestServer | undefined;
let window: WindowClient;
async function open(options: StartOptions = {}): Promise<TestServer> {
  server = await startServer({ window: true, ...options });
  window = new WindowClient(server);
  await window.login();
  return server;
}
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('PUT /ui/api/settings/rest', () => {
  it('names the field a refused value belongs to, so the window shows it there', async () => {
    await open();
    const put = (port: number, host: string) =>
      window.request('PUT', '/settings/rest', { body: { enabled: true, port, host } });
    for (const port of [80, 99999]) {
      const res = await put(port, '127.0.0.1');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'port' });
    }
    for (const host of ['', 'a'.repeat(254)]) {
      expect((await put(9000, host)).body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'host' });
    }
    expect((await put(9000, 'not a host!')).body).toMatchObject({ field: 'rest.host' });
  });

  it('changes only the address on the same port, both ways, and keeps serving where it was if that fails', async () => {
    await sameAddressScenario(await open());
  });

  it('leaves the start option (--port) in force when a new port is refused', async () => {
    const saved = await freePort();
    const server = await open({ savedRestPort: saved });
    const running = server.app.rest.address()!;
    const put = (port: number) =>
      window.request('PUT', '/settings/rest', { body: { enabled: true, port, host: '127.0.0.1' } });
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const taken = (blocker.address() as { port: number }).port;
      expect((await put(taken)).body).toMatchObject({ code: 'PORT_IN_USE', field: 'port' });
    } finally {
      blocker.close();
    }
    // The saved values again, unchanged: the refused port changed nothing, so the option still holds.
    const same = await put(saved);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(server.app.rest.address()).toEqual(running);
  });

  it('does so as well when the port comes from the settings (no --port override), as with pim start', async () => {
    await sameAddressScenario(await open({ restPort: await freePort() }));
  });
});

/** Moves REST from 127.0.0.1:P to 0.0.0.0:P and back, then tries again with the port taken elsewhere. */
async function sameAddressScenario(server: TestServer): Promise<void> {
  const port = server.app.rest.address()!.port;
  const put = (host: string) =>
    window.request('PUT', '/settings/rest', { body: { enabled: true, port, host } });
  const answers = async (host: string) =>
    (await fetch(`http://${host}:${port}/api/workspace`).catch(() => undefined))?.status;

  const wide = await put('0.0.0.0');
  expect(wide.status, JSON.stringify(wide.body)).toBe(200);
  expect(server.app.rest.address()).toEqual({ host: '0.0.0.0', port });
  expect(await answers('127.0.0.1')).toBe(401);

  const narrow = await put('127.0.0.1');
  expect(narrow.status, JSON.stringify(narrow.body)).toBe(200);
  expect(server.app.rest.address()).toEqual({ host: '127.0.0.1', port });
  expect(await server.app.settings.get('rest.host')).toBe('127.0.0.1');

  // Another program holds the port on another loopback address: 0.0.0.0 cannot be bound even
  // after pim let go of 127.0.0.1, so pim serves there again and says why.
  const { createServer } = await import('node:net');
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.2', resolve));
  try {
    const refused = await put('0.0.0.0');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'PORT_IN_USE', field: 'port' });
    expect(refused.body.error).toBe(`Port ${port} on 0.0.0.0 is in use by another program`);
    expect(server.app.rest.address()).toEqual({ host: '127.0.0.1', port });
    expect(await server.app.settings.get('rest.host')).toBe('127.0.0.1');
    expect(await answers('127.0.0.1')).toBe(401);
  } finally {
    blocker.close();
  }
}
