import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core (no browser download; `.ci/run` installs the
 * package). CHROMIUM_PATH overrides the path. --no-sandbox: CI runs as root.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}
