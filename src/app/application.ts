import { JobService } from '../domain/jobs/job.service.js';
import { exclusively } from '../db/postgres.js';
import type { FastifyServerOptions } from 'fastify';
import { systemClock, type Clock } from '../domain/clock.js';
import { systemContext, type RequestContext } from '../domain/context.js';
import { SessionService } from '../domain/sessions/session.service.js';
import { SettingsService, type SettingKey, type Settings } from '../domain/settings/settings.service.js';
import { UserService } from '../domain/users/user.service.js';
import { WorkspaceService } from '../domain/workspaces/workspace.service.js';
import {
  allowMatcher,
  exposureWarning,
  isLoopbackHost,
  windowExposureWarning,
} from '../domain/settings/address-allow.js';
import type { HttpLimits } from '../http/app.js';
import type { EdgePolicy, HttpDeps, McpFastPathSwitch } from '../http/http-deps.js';
import { firstRunPending, firstRunSetup, isPristine, type FirstRunReport } from './first-run.js';
import { RequestMonitor } from './request-monitor.js';
import { RestServer, type RestEndpoint } from './rest-server.js';
import { endpointUrl, listenProblem, type Endpoint } from './listening-server.js';
import { UI_DIR, WindowServer } from './window-server.js';
import { getPreference, savePreference } from '../domain/preferences/preference.service.js';
import type { RestOverride, RestState, WindowDeps } from '../window/window-deps.js';
import { saveSettings, type ServerName, type ServerPlaces } from './settings-save.js';
import { APP_VERSION } from './version.js';
import { openStores, type Stores } from './system-store.js';
import { SharedChangeListener } from './shared-change-listener.js';
import { DatabaseHealth } from './database-health.js';
import type { StorageChoice } from '../db/database-config.js';
import { readMachineId } from './machine-identity.js';
import { lockWaitOf } from '../db/lock-wait.js';

export interface ApplicationOptions {
  dataDir: string;
  clock?: Clock;
  /** Overrides of rest.host / rest.port for this run only (port 0: any free port). */
  restOverride?: { host?: string; port?: number };
  /** Overrides of ui.host / ui.port for this run only (port 0: any free port). */
  uiOverride?: { host?: string; port?: number };
  /** Run without the window's server (headless, `pim start --no-ui`). */
  noUi?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** Password for the first-run admin; random when absent. */
  adminPassword?: string;
  /** Timeouts and the connection cap of the REST server (defaults in http/app.ts). */
  httpLimits?: Partial<HttpLimits>;
  /** MCP's tools/call fast path over HTTP (default on); off, the SDK answers every request. */
  mcpFastPath?: boolean;
  /** Tests only: see McpFastPathSwitch.rewriteSdkAnswer. */
  rewriteMcpSdkAnswer?: McpFastPathSwitch['rewriteSdkAnswer'];
  /** How often to look for settings saved by another process (the CLI), in ms. */
  settingsPollMs?: number;
  /** Team mode: how long to wait before reconnecting the notification listener, in ms (default 1000). */
  listenerRetryMs?: number;
  /** The storage to use instead of the data folder's choice (PIM_DATABASE_URL, `pim setup`). */
  storage?: StorageChoice;
  /**
   * How long a write waits for a workspace's lock that another process holds before it answers
   * 503 DATABASE_BUSY, in ms (default 5000; db/lock-wait.ts). Tests shorten it.
   */
  lockWaitMs?: number;
}

export interface StartReport {
  firstRun?: FirstRunReport;
  workspaceProblem?: string;
  rest?: RestEndpoint;
  /** Where the application window is served, unless headless. */
  window?: Endpoint;
  /** Why the window could not be served (its port is taken), if so. */
  windowProblem?: string;
  /** Why the REST server, enabled, could not start. */
  restProblem?: string;
  /** Set when the REST server is reachable from other machines by anyone (rest.allow empty). */
  exposureWarning?: string;
  /** Set when the window is served beyond this machine (ui.host not loopback). */
  windowExposureWarning?: string;
}

/**
 * The application shell: system database, services, the open workspace and the REST
 * server, which follows the settings while the application runs.
 */
export class Application {
  /** This instance's identity (a file in the data folder): sessions carry it. */
  readonly machineId: string;
  readonly users: UserService;
  readonly sessions: SessionService;
  readonly settings: SettingsService;
  readonly workspaces: WorkspaceService;
  readonly jobs: JobService;
  readonly monitor = new RequestMonitor();
  readonly rest: RestServer;
  readonly window: WindowServer;
  /** Why the REST server does not run although enabled (the port was taken), if so. */
  private restProblem: string | undefined;
  private poller: NodeJS.Timeout | undefined;
  /** Whether the shared database answers (team mode), for the window's status bar. */
  private readonly health: DatabaseHealth;
  /** Team mode: hears of sessions ended and users changed by other instances. */
  private listener: SharedChangeListener | undefined;
  private dataVersion = 0;
  private stopped = false;
  private edgePolicy: EdgePolicy = { loopbackOnly: true };

  private constructor(
    readonly stores: Stores,
    readonly clock: Clock,
    private readonly options: ApplicationOptions,
  ) {
    this.machineId = readMachineId(options.dataDir);
    this.users = new UserService(stores.shared, clock);
    this.sessions = new SessionService(stores.shared, clock, { machineId: this.machineId });
    this.users.useSessions(this.sessions);
    this.settings = new SettingsService(stores.local.db);
    // Jobs are the team's: every instance sees them (the shared database in team mode).
    this.jobs = new JobService(stores.shared, clock, this.machineId);
    const dataVersion = stores.local.raw.prepare('PRAGMA data_version').pluck();
    this.readDataVersion = () => Number(dataVersion.get());
    this.workspaces = new WorkspaceService(stores.shared, clock, options.dataDir, {
      changeProbe: this.readDataVersion,
      local: stores.local.db,
      storage: stores.workspaces,
    });
    this.health = new DatabaseHealth(stores.choice);
    this.mcpFastPath = {
      enabled: options.mcpFastPath ?? true,
      answered: 0,
      refused: 0,
      rewriteSdkAnswer: options.rewriteMcpSdkAnswer,
    };
    this.rest = new RestServer(this.httpDeps(), options.logger ?? false, options.httpLimits);
    this.window = new WindowServer(this.windowDeps(), options.logger ?? false, () => this.windowLoopbackOnly);
  }

  static async open(options: ApplicationOptions): Promise<Application> {
    const stores = await openStores(options.dataDir, options.storage, lockWaitOf(options.lockWaitMs));
    return new Application(stores, options.clock ?? systemClock, options);
  }

  /** The context of the machine's owner (CLI commands, first run): every right, the open workspace. */
  ownerContext(): RequestContext {
    return systemContext(this.clock, this.workspaces.current());
  }

  /** The services every adapter gets. */
  private services() {
    const { clock, sessions, users, settings, workspaces, jobs } = this;
    return { clock, sessions, users, settings, workspaces, jobs };
  }

  /** MCP's tools/call fast path over HTTP: on unless the options say otherwise, with its count. */
  readonly mcpFastPath: McpFastPathSwitch;

  httpDeps(): HttpDeps {
    return {
      ...this.services(),
      edgePolicy: () => this.edgePolicy,
      onRequestDone: (entry) => this.monitor.record(entry),
      mcpFastPath: this.mcpFastPath,
    };
  }

  private windowLoopbackOnly = true;

  windowDeps(): WindowDeps {
    return {
      ...this.services(),
      monitor: this.monitor,
      preferences: {
        get: (ctx, name) => getPreference(this.stores.shared, ctx, name),
        save: (ctx, name, value) => savePreference(this.stores.shared, ctx, name, value),
      },
      machineId: this.machineId,
      version: APP_VERSION,
      uiDir: UI_DIR,
      restState: () => this.restState(),
      restOverride: () => this.restOverride(),
      databaseState: () => this.health.state(),
      saveRestSettings: (ctx, changes) =>
        saveSettings({ settings: this.settings, servers: this.serverPlaces() }, ctx, changes),
    };
  }

  /** The servers as this process runs them, for saving settings in the window. */
  private serverPlaces(): ServerPlaces {
    return {
      listening: (server) => (server === 'rest' ? this.rest.address() : this.window.address()),
      target: (server, settings) => this.serverTarget(server, settings),
      // REST only: the window's own server must not be moved (closed) from inside one of its requests.
      apply: () => this.applySettings({ throwOnRestFailure: true, restOnly: true }),
    };
  }

  /** Where a server listens with `settings`: the start's --port or --host while they last, else the settings. */
  private serverTarget(server: ServerName, settings: Settings): Endpoint {
    const overridden = this.overridesLasting(settings, { proposed: true });
    if (server === 'rest') {
      const starts = this.options.restOverride;
      return {
        host: overridden('rest.host', starts?.host) ?? settings['rest.host'],
        port: overridden('rest.port', starts?.port) ?? settings['rest.port'],
      };
    }
    const starts = this.options.uiOverride;
    return {
      host: overridden('ui.host', starts?.host) ?? settings['ui.host'],
      port: overridden('ui.port', starts?.port) ?? settings['ui.port'],
    };
  }

  /** The REST server as the window's status bar and settings show it. */
  restState(): RestState {
    const endpoint = this.rest.address();
    const wanted = this.wantedRest;
    return {
      enabled: wanted !== undefined,
      running: endpoint !== undefined,
      host: endpoint?.host ?? wanted?.host ?? '127.0.0.1',
      port: endpoint?.port ?? wanted?.port ?? 0,
      ...(endpoint ? { url: `${endpointUrl(endpoint)}/api` } : {}),
      ...(this.restProblem ? { problem: this.restProblem } : {}),
    };
  }

  private wantedRest: Endpoint | undefined;

  /**
   * The start's --port and --host that hold while rest.port and rest.host are as stored, where
   * they differ from those settings: the window says so instead of showing the stored values as
   * if they applied.
   */
  async restOverride(): Promise<RestOverride> {
    const settings = await this.settings.getAll();
    const overridden = this.overridesLasting(settings);
    const port = overridden('rest.port', this.options.restOverride?.port);
    const host = overridden('rest.host', this.options.restOverride?.host);
    return {
      ...(port !== undefined && port !== settings['rest.port'] ? { port } : {}),
      ...(host !== undefined && host !== settings['rest.host'] ? { host } : {}),
    };
  }

  /** First-run setup if the data folder is pristine (or a first run did not finish), reopen the last workspace, start REST as configured. */
  async start(): Promise<StartReport> {
    const report: StartReport = {};
    const firstRun = async () =>
      firstRunPending(this.options.dataDir) || (await isPristine(this, this.ownerContext()))
        ? firstRunSetup({
            ctx: this.ownerContext(),
            users: this.users,
            workspaces: this.workspaces,
            settings: this.settings,
            clock: this.clock,
            dataDir: this.options.dataDir,
            adminPassword: this.options.adminPassword,
          })
        : undefined;
    // Team mode: desktops started at once on an empty database take turns, so that one does the
    // first run and the others find its admin and workspace (the check and the setup together).
    const shared = this.stores.postgres;
    report.firstRun = shared ? await exclusively(shared, 'first-run', firstRun) : await firstRun();
    if (!report.firstRun) {
      const reopened = await this.workspaces.reopenLast();
      report.workspaceProblem = reopened.problem;
    }
    // Headless, a REST server that cannot start is fatal; with a window, the window says why.
    // Quiet: the start's report says what could not be served, once.
    await this.applySettings({ throwOnRestFailure: this.options.noUi === true, quiet: true });
    report.rest = this.rest.address();
    report.restProblem = this.restProblem;
    report.window = this.window.address();
    report.windowProblem = this.windowProblem;
    if (report.rest) {
      const settings = await this.settings.getAll();
      report.exposureWarning = exposureWarning({ ...settings, 'rest.host': report.rest.host });
    }
    if (report.window)
      report.windowExposureWarning = windowExposureWarning({ 'ui.host': report.window.host });
    if (this.stores.choice.kind === 'postgres') {
      this.listener = new SharedChangeListener(
        this.stores.choice.url,
        (userId) => this.sessions.forgetUser(userId),
        () => this.sessions.distrustCache(),
        () => this.sessions.trustCacheAgain(),
        this.options.listenerRetryMs,
      );
      await this.listener.start();
      this.health.start();
    }
    this.dataVersion = this.readDataVersion();
    this.poller = setInterval(() => void this.pollSettings(), this.options.settingsPollMs ?? 1000);
    this.poller.unref();
    return report;
  }

  private windowProblem: string | undefined;

  /**
   * Makes the REST server and the window's server follow the saved settings: takes effect at
   * once, no restart. A port that cannot be bound leaves that server stopped and says why
   * (restState, windowProblem); with throwOnRestFailure the REST server's error is thrown.
   */
  async applySettings(
    options: { throwOnRestFailure?: boolean; restOnly?: boolean; quiet?: boolean } = {},
  ): Promise<void> {
    if (this.stopped) return;
    const settings = await this.settings.getAll();
    const overridden = this.overridesLasting(settings);
    const override = {
      host: overridden('rest.host', this.options.restOverride?.host),
      port: overridden('rest.port', this.options.restOverride?.port),
    };
    const host = override.host ?? settings['rest.host'];
    // Before the server moves: a new allow list applies to the very next request.
    this.edgePolicy = { allows: allowMatcher(settings['rest.allow']), loopbackOnly: isLoopbackHost(host) };
    this.wantedRest = settings['rest.enabled']
      ? { host, port: override.port ?? settings['rest.port'] }
      : undefined;
    const before = this.rest.address();
    try {
      await this.rest.reconcile(this.wantedRest);
      this.restProblem = undefined;
      if (!options.quiet) announceRestMove(before, this.rest.address());
    } catch (error) {
      this.restProblem = describeListenError(error);
      // In one sentence, as the window says it; the code stays for callers that tell causes apart.
      if (options.throwOnRestFailure)
        throw Object.assign(new Error(`the REST server could not start: ${this.restProblem}`), {
          code: (error as NodeJS.ErrnoException).code,
          cause: error,
        });
      if (!options.quiet)
        console.error(`pim: the REST server ${stillServing(this.rest.address(), this.restProblem)}`);
    }
    if (this.options.noUi || options.restOnly) return;
    const ui = {
      host: overridden('ui.host', this.options.uiOverride?.host),
      port: overridden('ui.port', this.options.uiOverride?.port),
    };
    const uiHost = ui.host ?? settings['ui.host'];
    this.windowLoopbackOnly = isLoopbackHost(uiHost);
    try {
      await this.window.reconcile({ host: uiHost, port: ui.port ?? settings['ui.port'] });
      this.windowProblem = undefined;
    } catch (error) {
      this.windowProblem = describeListenError(error);
      if (!options.quiet)
        console.error(
          `pim: the application window ${stillServing(this.window.address(), this.windowProblem)}`,
        );
    }
  }

  /** The settings the start's overrides (--port, --host, --ui-port) replaced, as they were then. */
  private overriddenSettings: Settings | undefined;
  /** Settings changed since the start: their overrides have ended, even if changed back later. */
  private readonly overridesEnded = new Set<SettingKey>();

  /**
   * A start's override lasts until the setting it replaces is changed (in the window, with `pim
   * settings set`): then the user's choice is applied, not the override of the command line, also
   * when the user later chooses the value the start replaced. Settings only `proposed` (to probe
   * where saving them would put a server) end nothing: a save that is refused leaves the override.
   */
  private overridesLasting(settings: Settings, { proposed = false } = {}) {
    const then = (this.overriddenSettings ??= settings);
    return <K extends 'rest.host' | 'rest.port' | 'ui.host' | 'ui.port'>(
      key: K,
      value: Settings[K] | undefined,
    ): Settings[K] | undefined => {
      const changed = settings[key] !== then[key];
      if (changed && !proposed) this.overridesEnded.add(key);
      return changed || this.overridesEnded.has(key) ? undefined : value;
    };
  }

  /** PRAGMA data_version changes when another connection (the CLI, `pim mcp`) committed to the system database. */
  private readonly readDataVersion: () => number;

  private async pollSettings(): Promise<void> {
    if (this.stopped) return;
    const version = this.readDataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.sessions.clearCache();
    try {
      await this.applySettings();
    } catch (error) {
      console.error(
        `pim: could not apply the new REST settings: ${error instanceof Error ? error.message : error}`,
      );
    }
  }

  /** Graceful stop: in-flight requests finish, then the databases close. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    await this.listener?.stop();
    await this.health.stop();
    await this.rest.stop();
    await this.window.stop();
    // Jobs this process runs end before their workspaces close: failed, their transactions rolled back.
    await this.jobs.stopAll();
    await this.workspaces.closeAll();
    await this.stores.close();
  }
}

/** What became of a server that could not follow its settings: stopped, or still where it was. */
function stillServing(endpoint: Endpoint | undefined, problem: string): string {
  return endpoint
    ? `stays on ${endpointUrl(endpoint)}, because with the new settings ${problem}`
    : `could not start: ${problem}`;
}

/**
 * A listen error in one line: "port 8765 on 127.0.0.1 is in use by another program"; a host
 * name that does not resolve has no port ("the address nosuch.example cannot be bound: ...").
 */
function describeListenError(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string };
  if (!e.code) return e.message ?? String(error);
  const where = e.port
    ? `port ${e.port}${e.address ? ` on ${e.address}` : ''}`
    : `the address${e.hostname ? ` ${e.hostname}` : ''}`;
  return `${where} ${listenProblem(e.code)}`;
}

/**
 * Says on standard output, for the person who started pim, where the REST server went when saved
 * settings moved, started or stopped it (the start's banner says it the first time).
 */
function announceRestMove(before: Endpoint | undefined, after: Endpoint | undefined): void {
  if (before?.host === after?.host && before?.port === after?.port) return;
  console.log(
    after ? `REST API listening on ${endpointUrl(after)}/api` : 'REST server stopped (rest.enabled is false)',
  );
}
