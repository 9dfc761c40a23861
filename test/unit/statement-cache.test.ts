import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/db/sqlite.js';

describe('withStatementCache', () => {
  it('reuses a statement for the same SQL and keeps at most `size` statements', () => {
    const raw = new Database(':memory:');
    const cached = withStatementCache(raw, 2);
    const first = cached.prepare('SELECT 1');
    expect(cached.prepare('SELECT 1')).toBe(first);
    cached.prepare('SELECT 2');
    cached.prepare('SELECT 3');
    // 'SELECT 1' was the oldest and has been dropped: a new statement is prepared.
    expect(cached.prepare('SELECT 1')).not.toBe(first);
    raw.close();
  });

  it('gives statements that still see schema changes made after they were prepared', () => {
    const raw = new Database(':memory:');
    const cached = withStatementCache(raw);
    raw.exec('CREATE TABLE t (a INTEGER)');
    cached.prepare('INSERT INTO t (a) VALUES (?)').run([1]);
    expect(cached.prepare('SELECT * FROM t').all([])).toEqual([{ a: 1 }]);
    raw.exec('ALTER TABLE t ADD COLUMN b TEXT');
    // The cached statement, prepared before the ALTER, is recompiled by SQLite.
    expect(cached.prepare('SELECT * FROM t').all([])).toEqual([{ a: 1, b: null }]);
    raw.close();
  });
});
