import { markRunning } from '../../app/running-processes.js';
import { Application, type StartReport } from '../../app/application.js';
import { endpointUrl } from '../../app/listening-server.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../main.js';

function parsePort(value: unknown, flag = '--port'): number | undefined {
  if (value === undefined) return undefined;
  const port = /^\d+$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port > 65535)
    throw new UsageError(`${flag} must be a number from 0 to 65535, not '${String(value)}'`);
  return port;
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

export async function startCommand({ dataDir, positionals, values, out }: CommandInput): Promise<void> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const restOverride = { port: parsePort(values.port), host: values.host as string | undefined };
  const uiOverride = { port: parsePort(values['ui-port'], '--ui-port') };
  // The application runs even with the REST server off, as the desktop window would.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const stopped = stopSignal(out);
  try {
    const app = await Application.open({
      dataDir,
      restOverride,
      uiOverride,
      noUi: values['no-ui'] === true,
      logger: { level: process.env.PIM_LOG_LEVEL ?? 'info' },
      adminPassword: process.env.PIM_ADMIN_PASSWORD,
    });
    // `pim db move` refuses while this runs (running-processes.ts).
    const release = markRunning(dataDir, 'start');
    try {
      const report = await app.start();
      banner(report, dataDir, out);
      if (report.exposureWarning) process.stderr.write(`pim: ${report.exposureWarning}\n`);
      await stopped;
    } finally {
      await app.stop();
      release();
    }
  } finally {
    clearInterval(keepAlive);
  }
  out('pim: stopped');
}
