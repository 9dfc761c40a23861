import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { domainErrorOf } from '../../src/domain/domain-error-of.js';
import { errorStatus } from '../../src/domain/error-codes.js';
import { DatabaseReadOnlyError } from '../../src/domain/errors.js';
import { PG_SERVER_URL, TEST_BACKEND } from '../helpers/backend.js';

/**
 * A database that refuses writes at run time (its medium became read-only, a PostgreSQL standby)
 * is DATABASE_READ_ONLY (503) in every adapter, not an internal error: checked on the errors the
 * drivers really raise.
 */
function expectReadOnly(error: unknown): void {
  const mapped = domainErrorOf(error);
  expect(mapped).toBeInstanceOf(DatabaseReadOnlyError);
  expect(mapped!.detailCode).toBe('DATABASE_READ_ONLY');
  expect(errorStatus(mapped!.detailCode)).toBe(503);
  expect(mapped!.cause).toBe(error);
}

describe('a database that refuses writes', () => {
  it('SQLite: SQLITE_READONLY becomes DATABASE_READ_ONLY', () => {
    const db = new Database(':memory:');
    db.pragma('query_only = 1');
    let thrown: unknown;
    try {
      db.exec('CREATE TABLE t (x)');
    } catch (error) {
      thrown = error;
    }
    db.close();
    expect((thrown as { code?: string }).code).toMatch(/^SQLITE_READONLY/);
    expectReadOnly(thrown);
  });

  it.runIf(TEST_BACKEND === 'postgres')(
    'PostgreSQL: a read-only transaction (25006) becomes DATABASE_READ_ONLY',
    async () => {
      const client = new pg.Client({ connectionString: PG_SERVER_URL });
      await client.connect();
      let thrown: unknown;
      try {
        await client.query('BEGIN READ ONLY');
        await client.query('CREATE TABLE pim_read_only_probe (x int)');
      } catch (error) {
        thrown = error;
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      }
      expect((thrown as { code?: string }).code).toBe('25006');
      expectReadOnly(thrown);
    },
  );

  it('other errors stay unmapped (an internal error)', () => {
    expect(
      domainErrorOf(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })),
    ).toBeUndefined();
  });
});
