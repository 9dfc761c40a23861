import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // What a test waits for on screen or across processes may take longer than vitest's 1 s while
    // chromium, servers and other test files share two cores; the condition itself is unchanged.
    expect: { poll: { timeout: 5_000 } },
  },
});
