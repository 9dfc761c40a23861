import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startWalCheckpoints,
  WRITER_AUTOCHECKPOINT_PAGES,
  type WalCheckpoints,
} from '../../src/db/wal-checkpoints.js';
import { LARGE_TRANSACTION_ROWS } from '../../src/db/sqlite-dialect.js';
import { openSqlite, type SqliteHandle } from '../../src/db/sqlite.js';
import { removeDir, tempDir } from '../helpers/temp.js';

const PAGE = 4096;

/** A writer as a workspace's: WAL, synchronous NORMAL. */
function openWriter(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
  return db;
}

const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

describe('WAL checkpoints in a thread of their own', () => {
  let dir: string;
  let file: string;
  let writer: Database.Database | undefined;
  let checkpoints: WalCheckpoints | undefined;
  const errors: string[] = [];

  beforeEach(() => {
    dir = tempDir();
    file = join(dir, 'workspace.sqlite');
    errors.length = 0;
  });
  afterEach(async () => {
    await checkpoints?.stop();
    writer?.close();
    removeDir(dir);
  });

  it('copies committed pages into the database file without the writer checkpointing', async () => {
    writer = openWriter(file);
    const insert = writer.prepare('INSERT INTO blob (data) VALUES (?)');
    // 2 MB in 8 commits: far below the writer's own checkpoint, so only the thread can move them.
    for (let i = 0; i < 8; i++) insert.run(randomBytes(256 * 1024));
    expect(statSync(file).size).toBeLessThan(1024 * 1024);
    checkpoints = await startWalCheckpoints(writer, file, (message) => errors.push(message));
    await expect.poll(() => statSync(file).size).toBeGreaterThan(2 * 1024 * 1024);
    // A reader of the database file alone (the WAL moved out of the way) sees every row.
    expect(writer.prepare('SELECT count(*) AS n FROM blob').get()).toEqual({ n: 8 });
    expect(errors).toEqual([]);
  });

  /**
   * `commits` transactions of `commit` bytes each through the dialect, with a turn of the event loop
   * between them as a server's writes have, the WAL's checkpoints started by `start`.
   */
  async function writeThroughDialect(
    start: (writer: Database.Database) => Promise<WalCheckpoints>,
    commit: number,
    commits: number,
  ): Promise<{ largestWal: number; rows: unknown; databaseBytes: number }> {
    const handle = openSqlite<{ blob: { id: Generated<number>; data: Buffer } }>(file);
    handle.raw.exec('CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
    try {
      checkpoints = await start(handle.raw);
      let largestWal = 0;
      for (let i = 0; i < commits; i++) {
        await handle.db.transaction().execute((trx) =>
          trx
            .insertInto('blob')
            .values({ data: randomBytes(commit) })
            .execute(),
        );
        largestWal = Math.max(largestWal, walSize(file));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const rows = handle.raw.prepare('SELECT count(*) AS n FROM blob').get();
      return { largestWal, rows, databaseBytes: statSync(file).size };
    } finally {
      await checkpoints?.stop();
      await handle.close();
    }
  }

  it('keeps the WAL within its bound under sustained writes through the dialect', async () => {
    const limit = WRITER_AUTOCHECKPOINT_PAGES * PAGE;
    const bound = 2 * limit;
    const commit = 64 * 1024;
    // Four times the writer's own checkpoint. The thread's checkpoints alone seldom let the WAL start
    // over (the writer keeps appending while they copy), and the writer's own checkpoint is skipped
    // while the thread's runs: on a loaded machine the WAL outgrew twice the writer's bound (64 MB).
    // Past `bound` a write waits for the thread's copy before it begins, so the WAL holds at most the
    // bound and the one transaction that passed it.
    const commits = (4 * limit) / commit;
    const written = await writeThroughDialect(
      (writer) =>
        startWalCheckpoints(writer, file, (message) => errors.push(message), undefined, undefined, bound),
      commit,
      commits,
    );
    // One transaction's frames: its pages with their frame headers, under twice its data.
    expect(written.largestWal).toBeLessThanOrEqual(bound + 2 * commit);
    expect(written.rows).toEqual({ n: commits });
    expect(errors).toEqual([]);
  });

  it('has a write past the bound ask the thread for a copy and wait for it, when none runs', async () => {
    const bound = 256 * 1024;
    const commit = 16 * 1024;
    // Neither the thread's timer nor the writer's own checkpoint ever copies here: only the wait does.
    const written = await writeThroughDialect(
      (writer) =>
        startWalCheckpoints(writer, file, (message) => errors.push(message), 3_600_000, 1 << 20, bound),
      commit,
      40,
    );
    expect(written.largestWal).toBeLessThanOrEqual(bound + 2 * commit);
    expect(written.databaseBytes).toBeGreaterThan(bound);
    expect(errors).toEqual([]);
  });
});

describe('a large transaction through the dialect', () => {
  let dir: string;
  let handle: SqliteHandle<{ blob: { id: Generated<number>; data: Buffer } }> | undefined;
  let checkpoints: WalCheckpoints | undefined;
  const errors: string[] = [];
  /** The writer's own checkpoint from 16 pages (64 KB) on; the thread's timer never fires here. */
  const WRITER_PAGES = 16;
  /** A write waits for a large commit's copy from a WAL of 256 KB on. */
  const WAIT_BYTES = 256 * 1024;
  const file = () => join(dir, 'workspace.sqlite');
  /** Past the rows of a large transaction, 640 KB: far past the writer's 16 pages. */
  const writeLarge = (trx: Kysely<{ blob: { id: Generated<number>; data: Buffer } }>) =>
    sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${LARGE_TRANSACTION_ROWS})
      INSERT INTO blob (data) SELECT randomblob(${(640 * 1024) / LARGE_TRANSACTION_ROWS}) FROM n`.execute(
      trx,
    );

  beforeEach(async () => {
    dir = tempDir();
    errors.length = 0;
    handle = openSqlite(file());
    handle.raw.exec('CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
    checkpoints = await startWalCheckpoints(
      handle.raw,
      join(dir, 'workspace.sqlite'),
      (message) => errors.push(message),
      3_600_000,
      WRITER_PAGES,
      WAIT_BYTES,
    );
  });
  afterEach(async () => {
    await checkpoints?.stop();
    await handle?.close();
    removeDir(dir);
  });

  const fileSize = () => statSync(file()).size;
  const autocheckpoint = () => handle!.raw.pragma('wal_autocheckpoint', { simple: true });

  it('commits without the writer copying the WAL, then the thread copies it and the writer checkpoints again', async () => {
    const before = fileSize();
    await handle!.db.transaction().execute(writeLarge);
    // The writer's checkpoint would have copied the 640 KB into the file within the commit.
    expect(fileSize()).toBeLessThan(before + 64 * 1024);
    await expect.poll(fileSize).toBeGreaterThan(before + 640 * 1024);
    await expect.poll(autocheckpoint).toBe(WRITER_PAGES);
    expect(errors).toEqual([]);
  });

  it('has the next write wait for that copy once the WAL is past its bound, so the WAL starts over', async () => {
    const before = fileSize();
    await handle!.db.transaction().execute(writeLarge);
    const walAfterOne = walSize(file());
    expect(walAfterOne).toBeGreaterThan(WAIT_BYTES);
    let fileAtBegin = 0;
    // Begun at once: the thread's answer has not arrived yet.
    await handle!.db.transaction().execute(async (trx) => {
      fileAtBegin = fileSize();
      await writeLarge(trx);
    });
    // The first transaction was in the database file before the second began...
    expect(fileAtBegin).toBeGreaterThan(before + 640 * 1024);
    // ...and the second wrote the WAL from its start instead of after the first.
    expect(walSize(file())).toBeLessThan(walAfterOne + 64 * 1024);
    expect(errors).toEqual([]);
  });

  it('leaves a small transaction to the writer own checkpoint, within its commit', async () => {
    const before = fileSize();
    await handle!.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('blob')
        .values({ data: randomBytes(640 * 1024) })
        .execute();
    });
    expect(fileSize()).toBeGreaterThan(before + 640 * 1024);
    expect(autocheckpoint()).toBe(WRITER_PAGES);
  });
});
