import { join } from 'node:path';
import { sql, type Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupedWrite } from '../../src/db/group-commit.js';
import { openSqlite, type SqliteHandle } from '../../src/db/sqlite.js';
import { removeDir, tempDir } from '../helpers/temp.js';

interface Db {
  item: { id: Generated<number>; label: string };
}

describe('group commit', () => {
  let dir: string;
  let handle: SqliteHandle<Db>;

  beforeEach(async () => {
    dir = tempDir();
    handle = openSqlite<Db>(join(dir, 'group.sqlite'));
    await sql`CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)`.execute(handle.db);
  });
  afterEach(async () => {
    await handle.close();
    removeDir(dir);
  });

  const insert = (label: string) =>
    groupedWrite(handle.db, async (trx) => {
      await trx.insertInto('item').values({ label }).execute();
      return label;
    });
  const labels = async () =>
    (await handle.db.selectFrom('item').select('label').orderBy('id').execute()).map((r) => r.label);

  it('writes concurrent writes in one transaction, a refused one rolled back alone', async () => {
    const commits: number[] = [];
    // The data version a second connection sees moves once per commit of another connection.
    const watcher = openSqlite<Db>(join(dir, 'group.sqlite'));
    const version = () => watcher.raw.pragma('data_version', { simple: true }) as number;
    const before = version();
    const results = await Promise.allSettled([insert('a'), insert('b'), insert('a'), insert('c')]);
    commits.push(version() - before);
    await watcher.close();
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await labels()).toEqual(['a', 'b', 'c']);
    expect(commits).toEqual([1]);
  });

  it('answers no write of a group whose transaction is gone, and keeps none of them', async () => {
    const results = await Promise.allSettled([
      insert('a'),
      insert('b'),
      groupedWrite(handle.db, async (trx) => {
        await trx.insertInto('item').values({ label: 'x' }).execute();
        // What SQLite does itself on a full disk or an I/O error: the whole transaction rolled back.
        await sql`ROLLBACK`.execute(trx);
        throw new Error('disk full');
      }),
      insert('c'),
    ]);
    expect(results.slice(0, 3).map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // The write after the failure runs in a group of its own.
    expect(results[3]!.status).toBe('fulfilled');
    expect(await labels()).toEqual(['c']);
  });
});
