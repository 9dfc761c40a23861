import type { Clock } from '../domain/clock.js';
import type { RequestContext } from '../domain/context.js';
import type { JobService } from '../domain/jobs/job.service.js';
import type { SessionService } from '../domain/sessions/session.service.js';
import type { SettingsService } from '../domain/settings/settings.service.js';
import type { UserService } from '../domain/users/user.service.js';
import type { WorkspaceService } from '../domain/workspaces/workspace.service.js';
import type { DatabaseState, MonitorEntry, RestOverride, RestState } from './window-api.types.js';

export type { RestOverride, RestState } from './window-api.types.js';

/** The REST API monitor as the window reads it: the latest requests, then each new one. */
export interface MonitorFeed {
  /** The newest entries, oldest first. */
  latest(): MonitorEntry[];
  /** How many requests were recorded since the start: the newest entry is number `recorded`. */
  readonly recorded: number;
  /** Calls `listener` with every entry as it is recorded; returns the unsubscribe. */
  subscribe(listener: (entry: MonitorEntry) => void): () => void;
}

/** The user's own window choices, kept per user in the system database (domain/preferences). */
export interface WindowPreferences {
  get(ctx: RequestContext, name: string): Promise<unknown>;
  save(ctx: RequestContext, name: string, value: unknown): Promise<void>;
}

/** Settings › Rest API as the window saves it. */
export interface RestSettingsChange {
  'rest.enabled': boolean;
  'rest.port': number;
  'rest.host': string;
}

/**
 * What the window's server needs from the application: services, a few facts and the use cases
 * it offers, as interfaces of its own (the application provides them when it assembles the
 * window), no storage.
 */
export interface WindowDeps {
  clock: Clock;
  sessions: SessionService;
  users: UserService;
  settings: SettingsService;
  workspaces: WorkspaceService;
  /** Long work (imports): started, followed and cancelled from File › Import BMEcat…. */
  jobs: JobService;
  monitor: MonitorFeed;
  preferences: WindowPreferences;
  machineId: string;
  version: string;
  /** Folder of the built window (index.html and assets/). */
  uiDir: string;
  restState(): RestState;
  /** The start's --port/--host that replace rest.port/rest.host as stored. */
  restOverride(): Promise<RestOverride>;
  /** Whether the database answers (team mode's shared PostgreSQL may not). */
  databaseState(): DatabaseState;
  /**
   * Saves the REST server's settings for the user and applies them at once: a port that cannot
   * be bound is refused (PORT_IN_USE, `field` and `params` for the window) and nothing stays saved.
   */
  saveRestSettings(ctx: RequestContext, changes: RestSettingsChange): Promise<void>;
}
