import { afterAll, beforeAll } from 'vitest';
import { startServer, type StartOptions, type TestServer } from './server.js';

/**
 * One application for the file (or the describe it is called in), started by the first test that
 * asks for it and stopped after the last: for tests that make their own products, groups and users
 * under unique names and assert only on those, so that they pass in any order and alone (`-t`). A
 * start costs about 0.5 s on SQLite and 1.5 s on PostgreSQL on the 2-core machine; a test that needs
 * an application of its own (an empty catalogue, a first run, changed settings, a stopped server)
 * starts it with startServer and says why. Lazy, so that a file run with `-t` on a test that needs
 * no shared application starts none.
 */
export function lazyServerPerFile(options: StartOptions = {}): () => Promise<TestServer> {
  let started: Promise<TestServer> | undefined;
  afterAll(async () => {
    const server = started;
    started = undefined;
    if (server) await (await server).stop();
  });
  return () => (started ??= startServer(options));
}

/** The server a test file shares and the admin's token on it. */
export interface FileServer {
  readonly server: TestServer;
  readonly token: string;
}

/**
 * lazyServerPerFile started before the file's first test, with an admin logged in, for files whose
 * tests all use it. The fields are read at call time, so helpers bound to the result at module
 * level see the server once beforeAll has run.
 */
export function serverPerFile(options: StartOptions = {}): FileServer {
  const shared = lazyServerPerFile(options);
  let started: FileServer | undefined;
  beforeAll(async () => {
    const server = await shared();
    started = { server, token: await server.login() };
  });
  const current = (): FileServer => {
    if (!started) throw new Error('the file server is read before beforeAll started it');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get token() {
      return current().token;
    },
  };
}
