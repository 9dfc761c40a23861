import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../src/app/system-store.js';
import {
  databaseUrl,
  dropTestDatabases,
  PG_SERVER_URL,
  TEMPLATE_VARIABLE,
  templateDatabaseName,
  testRunId,
} from './helpers/backend.js';
import pg from 'pg';

/**
 * The postgres project's set-up: name this run (its workers inherit the name through the
 * environment), drop the test databases killed runs left behind, and this run's own at its end.
 * Fails the run at once when the server cannot be reached: CI must not skip the PostgreSQL tests.
 * Then the run's template database: pim's system schema, migrated by pim itself (openStores, as
 * every first start does), which newDataDir copies for each test's data folder.
 */
export default async function setup(): Promise<() => Promise<void>> {
  testRunId();
  try {
    await dropTestDatabases('stale');
  } catch (error) {
    throw new Error(
      `The postgres project needs PostgreSQL at ${PG_SERVER_URL} (PIM_TEST_PG_URL names another): ${String(error)}`,
      { cause: error },
    );
  }
  await createTemplate();
  return () => dropTestDatabases('this-run');
}

async function createTemplate(): Promise<void> {
  const name = templateDatabaseName();
  const client = new pg.Client({ connectionString: PG_SERVER_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  // A data folder of its own for the SQLite side openStores opens beside the shared database.
  const dir = mkdtempSync(join(tmpdir(), 'pim-template-'));
  try {
    const stores = await openStores(dir, { kind: 'postgres', url: databaseUrl(name) });
    // Closed before any copy: PostgreSQL copies a database only while nobody is connected to it.
    await stores.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.env[TEMPLATE_VARIABLE] = name;
}
