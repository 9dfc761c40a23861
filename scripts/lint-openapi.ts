/**
 * Writes the API description the application serves to a temporary file and lints it with
 * Redocly's recommended rules (redocly.yaml). Run by `npm test` through `npm run lint:openapi`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application } from '../src/app/application.js';
import { buildHttpApp } from '../src/http/app.js';

const dir = mkdtempSync(join(tmpdir(), 'pim-openapi-'));
let status = 1;
try {
  const application = await Application.open({ dataDir: join(dir, 'data') });
  const app = await buildHttpApp(application.httpDeps());
  await app.ready();
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(app.swagger(), null, 2));
  await app.close();
  await application.stop();
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const lint = (format: string) =>
    spawnSync('npx', ['redocly', 'lint', file, '--format', format], { env, encoding: 'utf8' });
  // Warnings fail the run too: the description is kept free of both.
  const summary = JSON.parse(lint('json').stdout) as { totals: { errors: number; warnings: number } };
  const { errors, warnings } = summary.totals;
  if (errors + warnings > 0) process.stdout.write(lint('stylish').stdout);
  console.log(`OpenAPI lint (Redocly recommended): ${errors} errors, ${warnings} warnings`);
  status = errors + warnings === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = status;
