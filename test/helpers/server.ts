import { Application, type ApplicationOptions } from '../../src/app/application.js';
import { ManualClock, type Clock } from '../../src/domain/clock.js';
import { newDataDir, removeDataDir } from './backend.js';
import { apiRequest, loginAt, type ApiResponse, type RequestOptions } from './http.js';

export const ADMIN_PASSWORD = 'admin-password-1';

export type { ApiResponse, RequestOptions };

export interface TestServer {
  app: Application;
  baseUrl: string;
  /** The application window's server (http://127.0.0.1:PORT), when started with `window: true`. */
  windowUrl: string;
  dataDir: string;
  clock: ManualClock;
  /** Logs in (admin by default) and returns the token. */
  login(username?: string, password?: string): Promise<string>;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Creates a user through the same service as `pim user add`. */
  addUser(username: string, role: 'ADMIN' | 'EDITOR' | 'VIEWER', password?: string): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * 'first-run': a pristine data folder, set up as `pim start` does the first time (demo workspace).
   * 'workspace' (default): an admin and an empty opened workspace "Test".
   * 'no-workspace': an admin and no workspace at all.
   */
  setup?: 'first-run' | 'workspace' | 'no-workspace';
  clock?: Clock;
  dataDir?: string;
  /** Address the REST server binds to (default 127.0.0.1). */
  host?: string;
  httpLimits?: ApplicationOptions['httpLimits'];
  /** Also serve the application window (on a free port); off by default, as tests of REST need none. */
  window?: boolean;
  /**
   * REST follows the stored settings with this port (no override): for tests that move the
   * server through the settings. Default: an override to any free port.
   */
  restPort?: number;
  /** rest.port as stored, while the start overrides it as usual (`pim start --port 0`). */
  savedRestPort?: number;
  /** The window follows the stored ui.port (no override), like restPort for REST. */
  uiPort?: number;
  /** MCP's tools/call fast path over HTTP (default on). */
  mcpFastPath?: boolean;
  /** Rewrites the MCP SDK's answers, as another SDK release might write them (see ApplicationOptions). */
  rewriteMcpSdkAnswer?: ApplicationOptions['rewriteMcpSdkAnswer'];
  /** How often the stored settings are polled (default 50 ms here; 1 s in production). */
  settingsPollMs?: number;
  /** Team mode: the notification listener's reconnect delay (default 1 s). */
  listenerRetryMs?: number;
  /** SQLite: how long a write waits for another process's lock before 503 DATABASE_BUSY (default 5 s). */
  lockWaitMs?: number;
}

/** Starts the real application (same code path as `pim start`) on a free port with a temporary data folder. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await newDataDir());
  const clock =
    (options.clock as ManualClock | undefined) ?? new ManualClock(new Date('2026-01-15T10:00:00.000Z'));
  const setup = options.setup ?? 'workspace';
  const app = await Application.open({
    dataDir,
    clock,
    restOverride: options.restPort === undefined ? { port: 0, host: options.host ?? '127.0.0.1' } : undefined,
    httpLimits: options.httpLimits,
    uiOverride: options.uiPort === undefined ? { port: 0 } : undefined,
    noUi: options.window !== true,
    adminPassword: ADMIN_PASSWORD,
    settingsPollMs: options.settingsPollMs ?? 50,
    listenerRetryMs: options.listenerRetryMs,
    mcpFastPath: options.mcpFastPath,
    rewriteMcpSdkAnswer: options.rewriteMcpSdkAnswer,
    lockWaitMs: options.lockWaitMs,
  });
  // Set up through the application's own services before it starts, as `pim user add`,
  // `pim workspace create` and `pim settings set` would have: start() reads the settings, finds the
  // admin (no first run) and reopens the workspace, as after a restart. One application instead of a
  // second one opened for the set-up halves the connections and migration checks per test server
  // (on PostgreSQL about 0.3 s of each start on the 2-core machine).
  if (setup !== 'first-run' && !options.dataDir) {
    const ctx = app.ownerContext();
    await app.users.add(ctx, { username: 'admin', role: 'ADMIN', password: ADMIN_PASSWORD });
    if (setup === 'workspace') {
      const ws = await app.workspaces.create(ctx, { name: 'Test', language: 'deu' });
      await app.workspaces.open(ctx, { workspaceId: ws.id });
    }
    await app.settings.update(ctx, { 'rest.enabled': true });
    const savedRestPort = options.restPort ?? options.savedRestPort;
    if (savedRestPort !== undefined) await app.settings.update(ctx, { 'rest.port': savedRestPort });
    if (options.uiPort !== undefined) await app.settings.update(ctx, { 'ui.port': options.uiPort });
  }
  const report = await app.start();
  if (!report.rest) throw new Error('REST server did not start');
  const baseUrl = `http://127.0.0.1:${report.rest.port}`;
  const windowUrl = report.window ? `http://127.0.0.1:${report.window.port}` : '';
  if (options.window && !windowUrl) throw new Error(`window server did not start: ${report.windowProblem}`);

  const request = <T>(method: string, path: string, opts?: RequestOptions) =>
    apiRequest<T>(baseUrl, method, path, opts);

  return {
    app,
    baseUrl,
    windowUrl,
    dataDir,
    clock,
    request,
    login: (username = 'admin', password = ADMIN_PASSWORD) => loginAt(baseUrl, username, password),
    async addUser(username, role, password = `${username}-password`) {
      await app.users.add(app.ownerContext(), { username, role, password });
    },
    async stop() {
      await app.stop();
      if (!options.dataDir) await removeDataDir(dataDir);
    },
  };
}

/** A TCP port that was free a moment ago (for tests that need a fixed port in the settings). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
