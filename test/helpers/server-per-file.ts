import { afterAll } from 'vitest';
import { startServer, type StartOptions, type TestServer } from './server.js';

/**
 * One application for the file (or the describe it is called in), started by the first test that
 * asks for it and stopped after the last: for tests that make their own products, groups and users
 * under unique names and assert only on those, so that they pass in any order and alone (`-t`). A
 * start costs about 0.5 s on SQLite and 1.5 s on PostgreSQL on the 2-core machine; a test that needs
 * an application of its own (an empty catalogue, a first run, changed settings, a stopped server)
 * starts it with startServer and says why.
 */
export function serverPerFile(options: StartOptions = {}): () => Promise<TestServer> {
  let started: Promise<TestServer> | undefined;
  afterAll(async () => {
    const server = started;
    started = undefined;
    if (server) await (await server).stop();
  });
  return () => (started ??= startServer(options));
}
