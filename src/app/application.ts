import type { FastifyServerOptions } from 'fastify';
import type { SqliteHandle } from '../db/sqlite.js';
import type { SystemDatabase } from '../db/system.schema.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { systemContext, type RequestContext } from '../domain/context.js';
import { SessionService } from '../domain/sessions/session.service.js';
import { SettingsService } from '../domain/settings/settings.service.js';
import { UserService } from '../domain/users/user.service.js';
import { WorkspaceService } from '../domain/workspaces/workspace.service.js';
import { allowMatcher, exposureWarning, isLoopbackHost } from '../domain/settings/address-allow.js';
import type { HttpLimits } from '../http/app.js';
import type { EdgePolicy, HttpDeps } from '../http/http-deps.js';
import { firstRunSetup, isPristine, type FirstRunReport } from './first-run.js';
import { RequestMonitor } from './request-monitor.js';
import { RestServer, type RestEndpoint } from './rest-server.js';
import { openSystemStore } from './system-store.js';

export interface ApplicationOptions {
  dataDir: string;
  clock?: Clock;
  /** Overrides of rest.host / rest.port for this run only (port 0: any free port). */
  restOverride?: { host?: string; port?: number };
  logger?: FastifyServerOptions['logger'];
  /** Password for the first-run admin; random when absent. */
  adminPassword?: string;
  /** Timeouts and the connection cap of the REST server (defaults in http/app.ts). */
  httpLimits?: Partial<HttpLimits>;
  /** How often to look for settings saved by another process (the CLI), in ms. */
  settingsPollMs?: number;
}

export interface StartReport {
  firstRun?: FirstRunReport;
  workspaceProblem?: string;
  rest?: RestEndpoint;
  /** Set when the REST server is reachable from other machines by anyone (rest.allow empty). */
  exposureWarning?: string;
}

/**
 * The application shell: system database, services, the open workspace and the REST
 * server, which follows the settings while the application runs.
 */
export class Application {
  readonly users: UserService;
  readonly sessions: SessionService;
  readonly settings: SettingsService;
  readonly workspaces: WorkspaceService;
  readonly monitor = new RequestMonitor();
  readonly rest: RestServer;
  private poller: NodeJS.Timeout | undefined;
  private dataVersion = 0;
  private stopped = false;
  private edgePolicy: EdgePolicy = { loopbackOnly: true };

  private constructor(
    private readonly system: SqliteHandle<SystemDatabase>,
    readonly clock: Clock,
    private readonly options: ApplicationOptions,
  ) {
    this.users = new UserService(system.db, clock);
    this.sessions = new SessionService(system.db, clock);
    this.settings = new SettingsService(system.db);
    const dataVersion = system.raw.prepare('PRAGMA data_version').pluck();
    this.readDataVersion = () => Number(dataVersion.get());
    this.workspaces = new WorkspaceService(system.db, clock, options.dataDir, this.readDataVersion);
    this.rest = new RestServer(this.httpDeps(), options.logger ?? false, options.httpLimits);
  }

  static async open(options: ApplicationOptions): Promise<Application> {
    const system = await openSystemStore(options.dataDir);
    return new Application(system, options.clock ?? systemClock, options);
  }

  /** The context of the machine's owner (CLI commands, first run): every right, the open workspace. */
  ownerContext(): RequestContext {
    return systemContext(this.clock, this.workspaces.current());
  }

  httpDeps(): HttpDeps {
    return {
      clock: this.clock,
      sessions: this.sessions,
      users: this.users,
      settings: this.settings,
      workspaces: this.workspaces,
      edgePolicy: () => this.edgePolicy,
      onRequestDone: (entry) => this.monitor.record(entry),
    };
  }

  /** First-run setup if the data folder is pristine, reopen the last workspace, start REST as configured. */
  async start(): Promise<StartReport> {
    const report: StartReport = {};
    if (await isPristine(this, this.ownerContext())) {
      report.firstRun = await firstRunSetup({
        ctx: this.ownerContext(),
        users: this.users,
        workspaces: this.workspaces,
        settings: this.settings,
        clock: this.clock,
        dataDir: this.options.dataDir,
        adminPassword: this.options.adminPassword,
      });
    } else {
      const reopened = await this.workspaces.reopenLast();
      report.workspaceProblem = reopened.problem;
    }
    await this.applySettings();
    report.rest = this.rest.address();
    if (report.rest) {
      const settings = await this.settings.getAll();
      report.exposureWarning = exposureWarning({ ...settings, 'rest.host': report.rest.host });
    }
    this.dataVersion = this.readDataVersion();
    this.poller = setInterval(() => void this.pollSettings(), this.options.settingsPollMs ?? 1000);
    this.poller.unref();
    return report;
  }

  /** Makes the REST server follow the saved settings: takes effect at once, no restart. */
  async applySettings(): Promise<void> {
    if (this.stopped) return;
    const settings = await this.settings.getAll();
    const override = this.options.restOverride ?? {};
    const host = override.host ?? settings['rest.host'];
    // Before the server moves: a new allow list applies to the very next request.
    this.edgePolicy = { allows: allowMatcher(settings['rest.allow']), loopbackOnly: isLoopbackHost(host) };
    await this.rest.reconcile(
      settings['rest.enabled'] ? { host, port: override.port ?? settings['rest.port'] } : undefined,
    );
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
    await this.rest.stop();
    await this.workspaces.closeAll();
    await this.system.close();
  }
}
