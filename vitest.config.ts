import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * One run, four projects (`npx vitest run --project NAME` runs one; `npm test` runs all):
 * - unit: test/unit and the domain tests that make their own SQLite databases. They never read the
 *   test backend, so they run once; test/helpers/backend.ts refuses to load in this project, so a
 *   file that starts to depend on the backend fails here instead of never running on PostgreSQL.
 * - browser: the window's front end in Chromium (layout, keyboard, language, menus), once, on
 *   SQLite; the endpoints they call run on both backends in window-api, window-settings-api and
 *   the team tests.
 * - sqlite and postgres: the black-box tests, on the backend the project names (PIM_TEST_BACKEND);
 *   team mode's tests (test/team) only in postgres, and SQLITE_ONLY only in sqlite. A new file in
 *   their folders runs on both until someone decides otherwise here.
 */
/** Domain tests that open SQLite files of their own, whichever backend the run is on. */
const SQLITE_ONLY_DOMAIN = [
  'service-authorization',
  'sessions-desktop',
  'sessions-machine-id',
  'sessions-machines',
  'sessions-user-admin',
  'workspace-upgrade',
].map((name) => `test/domain/${name}.test.ts`);

/** The browser tests of the window's front end (they drive Debian's chromium with playwright-core). */
const BROWSER = [
  'product-grid-ui',
  'catalogue-ui',
  'group-tree-ui',
  'window-connection',
  'window-errors-de',
  'window-help',
  'window-interchange-ui',
  'window-keyboard',
  'window-monitor',
  'window-opening-early',
  'window-narrow',
  'window-rights-ui',
  'window-session-end',
  'window-settings-override',
  'window-settings-ui',
  'window-ui',
  'window-users-ui',
  'window-views-url',
  'product-editor-ui',
  'mass-edit-ui',
  'spreadsheet-ui',
].map((name) => `test/window/${name}.test.ts`);

/**
 * A browser test that also runs on PostgreSQL: a session ended by another process reaches a running
 * pim through `PRAGMA data_version` on SQLite but LISTEN/NOTIFY on PostgreSQL, and the window must
 * name the reason either way.
 */
const BROWSER_ON_POSTGRES = ['test/window/window-session-end.test.ts'];

/**
 * Black-box tests that run on SQLite only: what they check does not depend on the storage (the
 * command line's parsing, help, ports and settings, which live in the data folder on either
 * backend; HTTP's and MCP's framing, routing, validation and descriptions, all decided before a
 * service asks the database), or they always make SQLite data folders of their own. Not here:
 * anything whose answer passes through SQL (the fuzzers and any-input: PostgreSQL refuses some
 * strings SQLite stores), sessions and users seen across processes, first runs and stops.
 */
const SQLITE_ONLY = [
  ...[
    'access-log',
    'data-dir',
    'db-move-running',
    'help',
    'settings',
    'setup-running',
    'start-ports',
    'storage',
    'user-password-input',
    'user-usage',
    'validate',
  ].map((name) => `test/cli/${name}.test.ts`),
  ...[
    'auth-route-spellings',
    'body-utf8',
    'edges',
    'error-catalogue',
    'groups-openapi',
    'http-behaviour',
    'no-body',
    'openapi',
    'products-openapi',
    'query-repeated',
  ].map((name) => `test/http/${name}.test.ts`),
  ...[
    'agent-setup-config',
    'http-transport',
    'inspector',
    'stdio-options',
    'text-feature-tools-validation',
    'tools-list',
  ].map((name) => `test/mcp/${name}.test.ts`),
  'test/window/window-edges.test.ts',
  'test/app/workspace-safety.test.ts',
];

const BLACK_BOX = ['app', 'cli', 'domain', 'fuzz', 'http', 'mcp', 'window'].map(
  (dir) => `test/${dir}/**/*.test.ts`,
);

/** Options of every project (a project does not inherit the root's test options). */
function project(
  name: string,
  test: Pick<NonNullable<TestProjectInlineConfiguration['test']>, 'include' | 'exclude' | 'globalSetup'> & {
    backend: 'none' | 'sqlite' | 'postgres';
  },
): TestProjectInlineConfiguration {
  const { backend, ...files } = test;
  return {
    test: {
      name,
      ...files,
      exclude: [...configDefaults.exclude, ...(files.exclude ?? [])],
      // Cheap password hashes (src/domain/users/password.ts): the tests of the cost turn them off.
      env: { PIM_TEST_BACKEND: backend, PIM_TEST_WEAK_PASSWORD_HASHES: '1' },
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // What a test waits for on screen or across processes may take longer than vitest's 1 s while
      // chromium, servers and other test files share two cores; the condition itself is unchanged.
      expect: { poll: { timeout: 5_000 } },
    },
  };
}

export default defineConfig({
  test: {
    // Runs once per run, whichever projects run (the projects do not inherit it).
    globalSetup: ['test/cli-global-setup.ts'],
    projects: [
      project('unit', { include: ['test/unit/**/*.test.ts', ...SQLITE_ONLY_DOMAIN], backend: 'none' }),
      project('browser', { include: BROWSER, backend: 'sqlite' }),
      project('sqlite', {
        include: BLACK_BOX,
        exclude: [...SQLITE_ONLY_DOMAIN, ...BROWSER],
        backend: 'sqlite',
      }),
      project('postgres', {
        include: [...BLACK_BOX, 'test/team/**/*.test.ts'],
        exclude: [
          ...SQLITE_ONLY_DOMAIN,
          ...BROWSER.filter((file) => !BROWSER_ON_POSTGRES.includes(file)),
          ...SQLITE_ONLY,
        ],
        backend: 'postgres',
        // Fails the run when PostgreSQL cannot be reached: CI must never skip this project.
        globalSetup: ['test/postgres-global-setup.ts'],
      }),
    ],
    // The projects share one pool of workers. vitest's default is one file at a time on two cores
    // (CPUs - 1). The files mostly wait (child processes, the browser, PostgreSQL): on the 2-core
    // CI machine one worker took 37.6 minutes for both backends, and CI must finish within 20.
    // Files are independent (port 0, their own data folders and databases), so they may run side
    // by side; three at once on two cores made the monitor's burst test in Chromium miss its wait,
    // two did not.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs file after file of a project in one process and keeps the modules it loaded: a
    // fresh process per file loaded pim's 700 modules again for each of some 340 files (on the
    // 2-core machine 8 files took 130 s so, 43 s without). Files share no state through them: each
    // starts its own applications and data folders, and a file that stubs the environment puts it
    // back in afterAll. The pool reads this from the root only, not from a project.
    poolOptions: { forks: { isolate: false } },
    minWorkers: 1,
    reporters: process.env.PIM_TEST_SLOWEST
      ? ['default', ['./test/slowest-files-reporter.ts', { count: Number(process.env.PIM_TEST_SLOWEST) }]]
      : ['default'],
  },
});
