import { afterAll, beforeAll } from 'vitest';
import { startServer, type StartOptions, type TestServer } from './server.js';

/** The server a test file shares and the admin's token on it. */
export interface FileServer {
  readonly server: TestServer;
  readonly token: string;
}

/**
 * One server for the whole test file: started before its first test with an admin logged in, stopped
 * after its last. The fields are read at call time, so helpers bound to the result at module level see
 * the server once beforeAll has run.
 */
export function serverPerFile(options: StartOptions = {}): FileServer {
  let started: FileServer | undefined;
  beforeAll(async () => {
    const server = await startServer(options);
    started = { server, token: await server.login() };
  });
  afterAll(() => started?.server.stop());
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
