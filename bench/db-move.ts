/**
 * Times `pim db move` of the benchmark catalogue (100,000 products; --quick: 5,000) into a fresh
 * PostgreSQL database: its target is under a minute for the full one (docs/performance.md). (`npm run bench --
 * --db postgres` times it too, on its way to measuring the REST API on PostgreSQL.)
 *
 *   node --import tsx bench/db-move.ts [--quick]
 *
 * The server is PIM_BENCH_PG_URL or postgres://postgres@127.0.0.1:5432/postgres; the database
 * (pimbench_...) is dropped afterwards. Runs the built bin/pim.js.
 */
import { rmSync } from 'node:fs';
import { SIZES } from './config.js';
import { prepareRunData } from './generate.js';
import { createBenchDatabase, dropBenchDatabase, moveToPostgres } from './lib/postgres.js';

const size = process.argv.includes('--quick') ? SIZES.quick : SIZES.full;
const data = await prepareRunData(size);
const database = await createBenchDatabase(Date.now().toString(36));
try {
  const move = moveToPostgres(data.dataDir, database.url);
  console.log(move.output);
  console.log(`pim db move of ${data.manifest.products} products: ${move.seconds} s (process start to exit)`);
} finally {
  await dropBenchDatabase(database.name);
  rmSync(data.root, { recursive: true, force: true });
}
