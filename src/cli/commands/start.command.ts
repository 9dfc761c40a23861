import { LOG_STOP_WAIT_MS, openLogDestination } from '../../app/log-destination.js';
import { firstRunShown } from '../../app/first-run.js';
import { markRunning } from '../../app/running-processes.js';
import { claimStart } from '../../app/start-lock.js';
import { Application, type StartReport } from '../../app/application.js';
import { endpointUrl } from '../../app/listening-server.js';
import { isConnectionFailure } from '../../db/connection-errors.js';
import { SETTING_DEFINITIONS } from '../../domain/settings/settings.service.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';

/**
 * --port and --ui-port by the rules of the settings rest.port and ui.port they override (ports
 * below 1024 are the system's), and 0: any free port.
 */
function parsePort(value: unknown, flag: '--port' | '--ui-port'): number | undefined {
  if (value === undefined) return undefined;
  if (/^0+$/.test(String(value))) return 0;
  const key = flag === '--port' ? 'rest.port' : 'ui.port';
  try {
    return SETTING_DEFINITIONS[key].parse(value);
  } catch (error) {
    const rule = (error as Error).message.replace(`${key} must be `, '');
    throw new UsageError(`${flag} must be 0 (any free port) or ${rule}`);
  }
}

/** --host by the rules of the setting rest.host it overrides. */
function parseHostFlag(value: unknown): string {
  try {
    return SETTING_DEFINITIONS['rest.host'].parse(value);
  } catch (error) {
    throw new UsageError(`--host ${(error as Error).message.replace(/^rest\.host /, '')}`);
  }
}

function banner(report: StartReport, dataDir: string, out: (line: string) => void): void {
  const url = report.rest ? endpointUrl(report.rest) : undefined;
  const first = report.firstRun;
  const windowUrl = report.window ? `${endpointUrl(report.window)}/` : undefined;
  if (first) {
    out('pim: first start of this data folder, set up ready to try.');
    out(`  Data folder:  ${dataDir}`);
    out(`  Admin user:   admin`);
    out(
      first.passwordGenerated
        ? `  Password:     ${first.adminPassword}   (shown only now; set PIM_ADMIN_PASSWORD before the first start to choose it)`
        : '  Password:     from PIM_ADMIN_PASSWORD',
    );
    out(
      `  Workspace:    ${first.workspace.name} (opened; ${first.products} products, ${first.groups} groups) at ${first.workspace.rootpath}`,
    );
    if (windowUrl) out(`  Window:       ${windowUrl}   (log in as admin)`);
  }
  if (windowUrl && !first) out(`Application window on ${windowUrl}`);
  if (report.windowProblem) out(`pim: the application window could not be served: ${report.windowProblem}`);
  if (report.workspaceProblem)
    out(`pim: the last open workspace could not be reopened: ${report.workspaceProblem}`);
  if (url) {
    out(`REST API listening on ${url}/api`);
    out(`  Reference:    ${url}/api/docs (OpenAPI: ${url}/api/openapi.json)`);
    if (first) {
      const password = first.passwordGenerated ? first.adminPassword : '$PIM_ADMIN_PASSWORD';
      out('Try it:');
      out(`  TOKEN=$(curl -s -X POST ${url}/api/auth/login -H 'Content-Type: application/json' \\`);
      out(
        `    -d "{\\"username\\":\\"admin\\",\\"password\\":\\"${password}\\"}" | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
      );
      out(`  curl -s ${url}/api/product -H "Authorization: Bearer $TOKEN"`);
      out('To turn the REST server off: pim settings set rest.enabled false (takes effect at once)');
    }
  } else if (report.restProblem) {
    out(
      `pim: the REST server could not start: ${report.restProblem}; change rest.port or rest.host with pim settings set (takes effect at once)`,
    );
  } else {
    out('REST server is disabled. Enable it with: pim settings set rest.enabled true (takes effect at once)');
  }
  out('pim is running; stop it with Ctrl+C (SIGINT) or SIGTERM.');
}

/**
 * Resolves on the first SIGINT or SIGTERM. Listening starts at once, so a signal that arrives
 * while the application is still starting is not fatal: it stops the application gracefully as
 * soon as it is up. A second signal takes the default action (Ctrl+C twice forces the exit).
 */
function stopSignal(out: (line: string) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      out(`pim: ${signal} received, shutting down`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve();
    };
    const onInt = () => shutdown('SIGINT');
    const onTerm = () => shutdown('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

/** Pause between attempts to reach the shared database at start (each attempt also waits up to its connect timeout). */
const START_RETRY_MS = 2_000;

/**
 * Opens the application; while the shared database (team mode) cannot be reached, says so once
 * and tries again, as a desktop program waits for its server rather than failing: a laptop off
 * the office network, a database restarting. Undefined when a signal stops the wait. Any other
 * failure (a database that answers but cannot be used, a broken data folder) ends the start.
 */
async function openWhenReachable(
  open: () => Promise<Application>,
  stopped: Promise<void>,
  out: (line: string) => void,
): Promise<Application | undefined> {
  let said = false;
  let signalled = false;
  void stopped.then(() => (signalled = true));
  for (;;) {
    try {
      const app = await open();
      if (said) out('pim: the shared database answers; starting');
      if (!signalled) return app;
      await app.stop();
      return undefined;
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      if (!said) {
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(
          `pim: ${message}; trying again every ${START_RETRY_MS / 1000} s (Ctrl+C stops)\n`,
        );
        said = true;
      }
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([stopped, new Promise((resolve) => (timer = setTimeout(resolve, START_RETRY_MS)))]);
    clearTimeout(timer);
    if (signalled) return undefined;
  }
}

/** Starts the opened application and runs it until a signal. */
async function run(app: Application, dataDir: string, stopped: Promise<void>, out: (line: string) => void) {
  // `pim db move` refuses while this runs (running-processes.ts).
  const release = markRunning(dataDir, 'start');
  try {
    const report = await app.start();
    banner(report, dataDir, out);
    if (report.firstRun) firstRunShown(dataDir);
    if (report.exposureWarning) process.stderr.write(`pim: ${report.exposureWarning}\n`);
    if (report.windowExposureWarning) process.stderr.write(`pim: ${report.windowExposureWarning}\n`);
    await stopped;
  } finally {
    await app.stop();
    release();
  }
}

export async function startCommand({ dataDir, positionals, values, out }: CommandInput): Promise<void> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const host = values.host === undefined ? undefined : parseHostFlag(values.host);
  const restOverride = { port: parsePort(values.port, '--port'), host };
  const uiOverride = { port: parsePort(values['ui-port'], '--ui-port') };
  // Before anything is read or written: a second start on this folder ends here, with one line.
  const releaseClaim = claimStart(dataDir);
  // The application runs even with the REST server off, as the desktop window would.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const stopped = stopSignal(out);
  const log = openLogDestination();
  try {
    const open = () =>
      Application.open({
        dataDir,
        restOverride,
        uiOverride,
        noUi: values['no-ui'] === true,
        // The log on stderr (log-destination.ts): stdout is what people read, the banner and its lines.
        logger: { level: process.env.PIM_LOG_LEVEL ?? 'info', stream: log },
        adminPassword: process.env.PIM_ADMIN_PASSWORD,
      });
    const app = await openWhenReachable(open, stopped, out);
    if (app) await run(app, dataDir, stopped, out);
  } finally {
    clearInterval(keepAlive);
    releaseClaim();
    // An orderly stop loses no line: the last ones are handed to the reader, if it reads in time.
    if (!(await log.close()))
      out(
        `pim: the log's last lines were not written: standard error was not read within ${LOG_STOP_WAIT_MS / 1000} s`,
      );
  }
  out('pim: stopped');
}
