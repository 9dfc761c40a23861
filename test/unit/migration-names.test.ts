import { describe, expect, it } from 'vitest';
import type { LegacyMigrationNames } from '../../src/db/postgres.js';
import { systemMigrations } from '../../src/db/system.migrations.js';
import {
  systemLegacyNamesPostgres,
  systemMigrationsPostgres,
} from '../../src/db/system.migrations.postgres.js';
import { workspaceMigrations } from '../../src/db/workspace.migrations.js';
import {
  workspaceLegacyNamesPostgres,
  workspaceMigrationsPostgres,
} from '../../src/db/workspace.migrations.postgres.js';

/**
 * Both dialects list the same migrations under the same names, in the same order: a new migration
 * is added under one name to both lists (a no-op on the dialect that does not need it).
 */
describe('migration names', () => {
  it('are the same for a workspace on SQLite and PostgreSQL', () => {
    expect(Object.keys(workspaceMigrationsPostgres)).toEqual(Object.keys(workspaceMigrations));
  });

  it('are the same for the system database on SQLite and PostgreSQL', () => {
    expect(Object.keys(systemMigrationsPostgres)).toEqual(Object.keys(systemMigrations));
  });

  it('are listed in the order they run (Kysely sorts them by name)', () => {
    for (const migrations of [workspaceMigrations, systemMigrations]) {
      const names = Object.keys(migrations);
      expect(names).toEqual([...names].sort());
    }
  });
});

/**
 * The names PostgreSQL schemas recorded before, renamed on open: every prefix of the old list
 * must stand for a prefix of today's list, or Kysely refuses the schema.
 */
describe.each([
  ['workspace', workspaceMigrationsPostgres, workspaceLegacyNamesPostgres],
  ['system', systemMigrationsPostgres, systemLegacyNamesPostgres],
] as const)('legacy PostgreSQL names of the %s', (_, migrations, legacyNames: LegacyMigrationNames) => {
  const names = Object.keys(migrations);
  const renamed = new Set(Object.values(legacyNames).flat());
  const oldNames = [...names.filter((name) => !renamed.has(name)), ...Object.keys(legacyNames)].sort();

  it('are no longer in the list, and stand for names of the list, each once', () => {
    for (const name of Object.keys(legacyNames)) expect(names).not.toContain(name);
    const targets = Object.values(legacyNames).flat();
    for (const name of targets) expect(names).toContain(name);
    expect(new Set(targets).size).toBe(targets.length);
  });

  it('stand, for every prefix of the old list, for a prefix of today’s', () => {
    for (let n = 0; n <= oldNames.length; n++) {
      const now = oldNames.slice(0, n).flatMap((name) => legacyNames[name] ?? [name]);
      expect(now).toEqual(names.slice(0, now.length));
    }
  });
});
