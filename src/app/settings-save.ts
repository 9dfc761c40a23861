import type { RequestContext } from '../domain/context.js';
import { ValidationError } from '../domain/errors.js';
import type {
  SettingChanges,
  SettingKey,
  Settings,
  SettingsService,
} from '../domain/settings/settings.service.js';
import { listenProblem, type Endpoint } from './listening-server.js';
import { probePort } from './port-probe.js';

/** The servers that follow the settings: the REST server (rest.*) and the window's (ui.*). */
export type ServerName = 'rest' | 'ui';

const PLACE_KEYS: Record<ServerName, SettingKey[]> = {
  rest: ['rest.enabled', 'rest.port', 'rest.host'],
  ui: ['ui.port', 'ui.host'],
};

/** What the process that saves settings knows of the servers that follow them. */
export interface ServerPlaces {
  /** Where the server listens now, as far as this process knows (`saved`: the settings as saved). */
  listening(server: ServerName, saved: Settings): Endpoint | undefined;
  /** Where the server will listen with `settings`: a start's --port or --host that outlasts them applied. */
  target(server: ServerName, settings: Settings): Endpoint;
  /**
   * Makes the servers follow the saved settings now, throwing the listen error (with its code)
   * when the REST server cannot. Absent where another process applies them (`pim start` sees
   * a commit of the CLI within a second).
   */
  apply?(): Promise<void>;
}

/** A port that cannot be bound, as the window shows it beside its field and in the user's language. */
function portRefused({ host, port }: Endpoint, code: string): ValidationError {
  const error = new ValidationError(`Port ${port} on ${host} ${listenProblem(code)}`, 'PORT_IN_USE');
  return Object.assign(error, {
    field: code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? 'host' : 'port',
    params: { port, host, reason: code },
  });
}

/**
 * Refuses a server's new place that cannot be bound now, before anything is saved. On the port
 * the server holds, a probe would find pim itself ("in use by another program") and refuse
 * narrowing 0.0.0.0 to 127.0.0.1: the listener moves that itself (closing the old endpoint
 * first, serving it again if the new one fails). Port 0 (--port 0) takes any free port.
 */
async function probeTarget(target: Endpoint, running: Endpoint | undefined): Promise<void> {
  const moves = !running || running.port !== target.port || running.host !== target.host;
  const samePort = running !== undefined && running.port === target.port;
  if (!moves || samePort || target.port === 0) return;
  const problem = await probePort(target.host, target.port);
  if (problem) throw portRefused(target, problem);
}

/**
 * Saving settings, from the window (Settings › Rest API) or `pim settings set`: the right and
 * the values first, then whether each server whose place changes can listen there (a busy port
 * is refused before anything is saved), then saved and applied; settings the servers cannot
 * follow after all (a port taken between the probe and the start) are put back as they were.
 */
export async function saveSettings(
  deps: { settings: SettingsService; servers: ServerPlaces },
  ctx: RequestContext,
  changes: SettingChanges,
): Promise<void> {
  const parsed = deps.settings.check(ctx, changes);
  const saved = await deps.settings.getAll();
  const next = { ...saved, ...Object.fromEntries(parsed) } as Settings;
  const changed = new Set(parsed.map(([key]) => key));
  let restTarget: Endpoint | undefined;
  for (const server of ['rest', 'ui'] as const) {
    if (!PLACE_KEYS[server].some((key) => changed.has(key))) continue;
    if (server === 'rest' && !next['rest.enabled']) continue;
    // Where the server will listen: a start option (--port, --host) stays in force while the
    // setting it replaces is saved unchanged, so that endpoint is probed, not the stored one.
    const target = deps.servers.target(server, next);
    if (server === 'rest') restTarget = target;
    await probeTarget(target, deps.servers.listening(server, saved));
  }
  const before = await deps.settings.update(ctx, changes);
  if (!deps.servers.apply) return;
  try {
    await deps.servers.apply();
  } catch (error) {
    const back = Object.fromEntries([...changed].map((key) => [key, before[key]])) as SettingChanges;
    await deps.settings.update(ctx, back);
    await deps.servers.apply().catch(() => undefined);
    if (!restTarget) throw error;
    throw portRefused(restTarget, (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN');
  }
}
