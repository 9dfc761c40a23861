/**
 * Times `pim db move` of the benchmark catalogue (100,000 products; --quick: 5,000) into a fresh
 * PostgreSQL database: the README promises under a minute for the full one.
 *
 *   node --import tsx bench/db-move.ts [--quick]
 *
 * The server is PIM_TEST_PG_URL or postgres://postgres@127.0.0.1:5432/postgres (as the tests);
 * the database (pimtest_...) is dropped afterwards. Runs the built bin/pim.js.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SIZES } from './config.js';
import { prepareRunData } from './generate.js';

const SERVER = process.env.PIM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PIM = fileURLToPath(new URL('../bin/pim.js', import.meta.url));

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const env = { ...process.env, PIM_DATABASE_URL: '', PIM_LOG_LEVEL: 'warn' };
delete process.env.PIM_DATABASE_URL;
const size = process.argv.includes('--quick') ? SIZES.quick : SIZES.full;
const data = await prepareRunData(size);
// Named as the tests name theirs (pimtest_<start in base 36>_...): a test run that starts
// meanwhile drops only databases older than six hours.
const name = `pimtest_${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(6).toString('hex')}`;
const url = new URL(SERVER);
url.pathname = `/${name}`;
await onServer(`CREATE DATABASE ${name}`);
try {
  const started = performance.now();
  const move = spawnSync(
    process.execPath,
    [PIM, '--data-dir', data.dataDir, 'db', 'move', '--to', url.toString()],
    {
      env,
      encoding: 'utf8',
    },
  );
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(move.stdout);
  process.stderr.write(move.stderr);
  if (move.status !== 0) throw new Error(`pim db move exited with ${move.status}`);
  console.log(
    `pim db move of ${data.manifest.products} products: ${seconds.toFixed(1)} s (process start to exit)`,
  );
} finally {
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  rmSync(data.root, { recursive: true, force: true });
}
