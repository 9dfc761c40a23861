import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests whose checks do not depend on the storage, left out of the PostgreSQL pass: both passes
 * must fit CI's 30 minutes on a 2-core machine. The browser tests of the window's front end
 * (layout, keyboard, language, menus: the endpoints they call run on PostgreSQL in window-api,
 * window-settings-api and the team tests), and the command line's parsing, help, ports and
 * settings (settings live in the data folder on either backend).
 */
const STORAGE_INDEPENDENT = [
  ...[
    'window-errors-de',
    'window-help',
    'window-keyboard',
    'window-monitor',
    'window-narrow',
    'window-rights-ui',
    'window-settings-override',
    'window-settings-ui',
    'window-ui',
    'window-users-ui',
    'window-views-url',
  ].map((name) => `test/window/${name}.test.ts`),
  ...['help', 'data-dir', 'settings', 'start-ports'].map((name) => `test/cli/${name}.test.ts`),
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.PIM_TEST_BACKEND === 'postgres' ? STORAGE_INDEPENDENT : []),
    ],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // vitest's default is one file at a time on two cores (CPUs - 1). The files mostly wait (child
    // processes, the browser, PostgreSQL): on the 2-core CI machine one worker took 37.6 minutes
    // for both passes, over CI's 30. Files are independent (port 0, their own data folders and
    // databases), so they may run side by side; three at once on two cores made the monitor's
    // burst test in Chromium miss its wait, two did not.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // What a test waits for on screen or across processes may take longer than vitest's 1 s while
    // chromium, servers and other test files share two cores; the condition itself is unchanged.
    expect: { poll: { timeout: 5_000 } },
  },
});
