import { chromium, type Browser } from 'playwright-core';

/**
 * Chromium 156's headless mode runs the browser's own UI too: every new page (a window) gets its
 * omnibox popup, a WebUI page in a renderer of its own that loads about 200 chrome:// modules,
 * about a second of CPU on one core and more on its workers, while the page under test loads.
 * Nobody looks at it here; on a 2-core machine it took the page's CPU (bench/window-trace.ts).
 */
const NO_BROWSER_UI = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'PreloadTopChromeWebUI',
];

/**
 * Debian's Chromium, driven by playwright-core (no browser download; `.ci/run` installs the
 * package). CHROMIUM_PATH overrides the path. --no-sandbox: CI runs as root. `browserUi`: with
 * the omnibox popup as Chromium runs it by default (to measure what it costs).
 */
export function launchBrowser(options: { browserUi?: boolean } = {}): Promise<Browser> {
  const ui = options.browserUi ? [] : [`--disable-features=${NO_BROWSER_UI.join(',')}`];
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', ...ui],
  });
}
