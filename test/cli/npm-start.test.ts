import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { pollUntil, refusesConnections } from '../helpers/http.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dataDir: string | undefined;

afterEach(async () => {
  if (dataDir) await removeDataDir(dataDir);
  dataDir = undefined;
});

// `npm start` runs the built package (bin/pim.js, then dist/), as users do, unlike the other tests
// that start pim (test/helpers/cli.ts): it keeps the packaging working, and needs `npm run build`.
it('npm start passes SIGTERM to the application, which stops gracefully', async () => {
  dataDir = await newDataDir('pim-npm-start-');
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0', '--ui-port', '0'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PIM_DATA_DIR: dataDir,
      PIM_ADMIN_PASSWORD: 'npm-start-password',
      PIM_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await pollUntil(
      'pim started',
      () => /REST API listening on http:\/\/[^:]+:(\d+)\/api/.test(output),
      20_000,
    );
    const port = Number(/REST API listening on http:\/\/[^:]+:(\d+)\/api/.exec(output)![1]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('pim: SIGTERM received, shutting down');
    expect(output).toContain('pim: stopped');
    expect(await refusesConnections(port)).toBe(true);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
