/**
 * The product grid's queries on the benchmark catalogue (100,000 products, 5,000 groups):
 * first rows of each sort, a page at row 50,000 (`at`), the next page by cursor, counts and
 * searches, in-process through the service (docs/catalogue-grid.md records the figures).
 *
 *   node --import tsx bench/grid.ts [--postgres]   (--postgres needs `npm run build`: it moves with bin/pim.js)
 */
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { Application } from '../src/app/application.js';
import { countProductGrid, listProductGrid } from '../src/domain/products/product-grid.service.js';
import type { GridRowsFilter } from '../src/domain/products/product-grid.schemas.js';
import { SIZES } from './config.js';
import { prepareRunData } from './generate.js';
import { createBenchDatabase, dropBenchDatabase, moveToPostgres } from './lib/postgres.js';

async function median(work: () => Promise<unknown>, runs = 7): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function measure(dataDir: string, label: string): Promise<void> {
  const app = await Application.open({ dataDir });
  try {
    if (!app.workspaces.current()) {
      const [ws] = await app.workspaces.list(app.ownerContext());
      await app.workspaces.open(app.ownerContext(), { workspaceId: ws!.id });
    }
    const ctx = app.ownerContext();
    const rows = (q: GridRowsFilter) => listProductGrid(ctx, q);
    const report = (what: string, ms: number) => console.log(`${label}\t${what}\t${ms.toFixed(1)} ms`);
    for (const sort of ['id', 'supplierPid', 'name', 'updated'] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        report(`${sort} ${dir}: first 100 rows`, await median(() => rows({ sort, dir })));
        report(`${sort} ${dir}: 100 rows at 50,000`, await median(() => rows({ sort, dir, at: 50_000 })));
        const middle = await rows({ sort, dir, at: 50_000 });
        report(
          `${sort} ${dir}: next 100 by cursor`,
          await median(() => rows({ sort, dir, after: middle.next! })),
        );
      }
    }
    report('name asc lang=fra: first 100 rows', await median(() => rows({ sort: 'name', lang: 'fra' })));
    report(
      'name asc lang=fra: at 50,000',
      await median(() => rows({ sort: 'name', lang: 'fra', at: 50_000 })),
    );
    report(
      'name asc lang=ita (none has it): first 100 rows',
      await median(() => rows({ sort: 'name', lang: 'ita' })),
    );
    report(
      'name asc lang=ita: at 50,000',
      await median(() => rows({ sort: 'name', lang: 'ita', at: 50_000 })),
    );
    report('count, no filter', await median(() => countProductGrid(ctx, {})));
    report('count main=true', await median(() => countProductGrid(ctx, { main: true })));
    for (const q of ['P-0001', 'bohr', 'xyzzy', 'ab']) {
      const n = await countProductGrid(ctx, { q });
      report(`q=${q} (${n}): count`, await median(() => countProductGrid(ctx, { q })));
      report(`q=${q}: first 100 rows by name`, await median(() => rows({ q, sort: 'name' })));
    }
    report(
      'textLang=fra lacks: count',
      await median(() => countProductGrid(ctx, { textLang: 'fra', text: 'lacks' })),
    );
    // The case of a catalogue where some products lack the language: one in ten loses its name in deu.
    // Kept aside and written back after, so that PostgreSQL gets the catalogue as generated.
    const db = app.workspaces.current()!.db;
    const lost = sql`kind = 'DESCRIPTIONSHORT' AND lang = 'deu' AND product_id % 10 = 3`;
    // The columns by name: PostgreSQL's product_text also holds the generated name_key (migration 0012).
    const columns = sql`product_id, kind, lang, value`;
    await sql`CREATE TABLE bench_lost_name AS SELECT ${columns} FROM product_text WHERE ${lost}`.execute(db);
    const started = performance.now();
    await sql`DELETE FROM product_text WHERE ${lost}`.execute(db);
    report('delete deu names of 10 % (10,000 texts)', performance.now() - started);
    const lacking = async (when: string) => {
      for (const dir of ['asc', 'desc'] as const) {
        const sort = 'name';
        report(`${when}: ${sort} ${dir}: first 100 rows`, await median(() => rows({ sort, dir })));
        report(
          `${when}: ${sort} ${dir}: 100 rows at 50,000`,
          await median(() => rows({ sort, dir, at: 50_000 })),
        );
        const middle = await rows({ sort, dir, at: 50_000 });
        report(
          `${when}: ${sort} ${dir}: next 100 by cursor`,
          await median(() => rows({ sort, dir, after: middle.next! })),
        );
      }
    };
    await lacking('10 % lack deu');
    if (label === 'postgres') {
      // Right after the delete (and after the move), index-only scans still visit the table for
      // most entries: the visibility map is set by VACUUM (autovacuum's, once a fifth of a table changed).
      const vacuumed = performance.now();
      for (const table of ['product_text', 'product_fallback_key'])
        await sql`VACUUM ${sql.table(table)}`.execute(db);
      report('VACUUM product_text, product_fallback_key', performance.now() - vacuumed);
      await lacking('10 % lack deu, after VACUUM');
    }
    await sql`INSERT INTO product_text (${columns}) SELECT ${columns} FROM bench_lost_name`.execute(db);
    await sql`DROP TABLE bench_lost_name`.execute(db);
  } finally {
    await app.stop();
  }
}

const data = await prepareRunData(SIZES.full);
try {
  await measure(data.dataDir, 'sqlite');
  if (process.argv.includes('--postgres')) {
    const db = await createBenchDatabase(`grid${Date.now()}`);
    try {
      const moved = moveToPostgres(data.dataDir, db.url);
      console.log(`moved to PostgreSQL in ${moved.seconds.toFixed(1)} s`);
      await measure(data.dataDir, 'postgres');
    } finally {
      await dropBenchDatabase(db.name);
    }
  }
} finally {
  rmSync(data.root, { recursive: true, force: true });
}
