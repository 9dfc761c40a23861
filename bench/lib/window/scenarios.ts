import type { BrowserContext, Page } from 'playwright-core';
import {
  armInPage,
  idleInPage,
  outcomeInPage,
  scrollFractionInPage,
  scrollInPage,
  settledInPage,
  type Arm,
  type ScrollOutcome,
} from './page-probe.js';

/**
 * The user's actions the window rows time, each on a page of its own (a fresh window: nothing
 * in its client-side cache), opened on the catalogue and settled before the action. `run` is the
 * run's number: each run picks another position, search term, group or product.
 */
export interface Scenario {
  key: string;
  label: string;
  goalMs: number;
  /** The address to open, e.g. '#/'. */
  hash: string;
  /** The action on a page opened on `hash` and settled; absent: `measure` does it all. */
  run?(page: Page, run: number): Promise<Timed>;
  measure?(context: BrowserContext, url: string): Promise<Timed>;
}

export interface Timed {
  ms: number;
  /** What else one run tells (e.g. the time from the grid's appearance). */
  detail?: Record<string, number>;
}

const TIMEOUT_MS = 15_000;

async function outcome(page: Page): Promise<Timed> {
  const result = await page.evaluate(outcomeInPage);
  if ('failed' in result) throw new Error(result.failed);
  return { ms: result.ms, detail: result.gridMs === undefined ? undefined : { gridMs: result.gridMs } };
}

/** Arms the probe, does the user's action, and returns the time until the result was on screen. */
async function timed(
  page: Page,
  arm: Omit<Arm, 'timeoutMs'>,
  action: () => Promise<unknown>,
): Promise<Timed> {
  await page.evaluate(armInPage, { ...arm, timeoutMs: TIMEOUT_MS });
  await action();
  return outcome(page);
}

/** Rows, count and tree loaded, then an idle moment (nothing of the opening left to run). */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(settledInPage, undefined, { timeout: TIMEOUT_MS });
  await page.evaluate(idleInPage);
}

const countText = (page: Page) =>
  page
    .getByTestId('grid-count')
    .textContent()
    .then((t) => t ?? '');
const cell = (page: Page, row: number, column: number) =>
  page
    .locator(`[role="grid"] [role="row"][aria-rowindex="${row + 2}"] [role="gridcell"]`)
    .nth(column)
    .textContent()
    .then((t) => t ?? '');

/** The first row the window's endpoint answers for these grid parameters (to check what was shown). */
async function expectedFirstId(page: Page, params: string): Promise<string> {
  const id = await page.evaluate(async (query) => {
    const response = await fetch(`/ui/api/products/rows?${query}&limit=1`, {
      headers: { 'x-pim-window': '1' },
    });
    const body = (await response.json()) as { data?: { rows: { id: number }[] } };
    return body.data?.rows[0]?.id;
  }, params);
  return id === undefined ? '' : String(id);
}

async function checkFirstRow(page: Page, params: string, what: string): Promise<void> {
  const [shown, expected] = [await cell(page, 0, 0), await expectedFirstId(page, params)];
  if (shown !== expected)
    throw new Error(`${what}: the first row shows ${shown}, the server's first is ${expected}`);
}

/** Distinct per run: a term a cached answer cannot serve (German, English and French nouns of the catalogue). */
const SEARCHES = [
  ['schraube', 'kabel', 'handschuh', 'bohr', 'rohr', 'leuchte', 'klebe', 'schlauch', 'steckdose'],
  ['schleif', 'kugel', 'scheibe', 'gewinde', 'station', 'clamp', 'glove', 'cable', 'drill'],
];
const searchTerm = (variant: 0 | 1, run: number) => {
  const terms = SEARCHES[variant]!;
  return terms[run % terms.length]!;
};

/** Two characters each, distinct per run. */
const SHORT_SEARCHES = ['ka', 'sc', 'ro', 'le', 'st', 'dr', 'gl', 'ku', 'ge'];

/** Positions the scrollbar is dropped at: the middle first, then others. */
const DROPS = [0.5, 0.37, 0.81, 0.23, 0.66, 0.09, 0.94, 0.45, 0.58];

export const SCENARIOS: Scenario[] = [
  {
    key: 'open',
    label: 'first rows after the window opens',
    goalMs: 500,
    hash: '#/',
    measure: measureOpening,
  },
  {
    key: 'drop',
    label: 'rows after the scrollbar is dropped',
    goalMs: 200,
    hash: '#/',
    async run(page, run) {
      const fraction = DROPS[run % DROPS.length]!;
      const result = await timed(
        page,
        { check: { kind: 'rows' }, trigger: 'now', scrollFraction: fraction },
        () => Promise.resolve(),
      );
      const at = await page.evaluate(scrollFractionInPage);
      if (Math.abs(at - fraction) > 0.01) throw new Error(`the scrollbar is at ${at}, not at ${fraction}`);
      return result;
    },
  },
  {
    key: 'search-enter',
    label: 'a search answered (typed, then Enter)',
    goalMs: 300,
    hash: '#/',
    async run(page, run) {
      const q = searchTerm(0, run);
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.fill(q);
      const before = await countText(page);
      const result = await timed(
        page,
        { check: { kind: 'answered', countBefore: before, q }, trigger: 'keydown' },
        () => box.press('Enter'),
      );
      await checkFirstRow(page, `sort=id&dir=asc&q=${encodeURIComponent(q)}&main=false`, `q=${q}`);
      return result;
    },
  },
  {
    // A term of two characters: the trigram index (PostgreSQL) and FTS5's trigram tokenizer (SQLite)
    // need three, so this search reads every product's texts (docs/catalogue-grid.md): the limit's figure.
    key: 'search-short',
    label: 'a search of two characters answered (typed, then Enter)',
    goalMs: 300,
    hash: '#/',
    async run(page, run) {
      const q = SHORT_SEARCHES[run % SHORT_SEARCHES.length]!;
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.fill(q);
      const before = await countText(page);
      const result = await timed(
        page,
        { check: { kind: 'answered', countBefore: before, q }, trigger: 'keydown' },
        () => box.press('Enter'),
      );
      await checkFirstRow(page, `sort=id&dir=asc&q=${encodeURIComponent(q)}&main=false`, `q=${q}`);
      return result;
    },
  },
  {
    key: 'search-typed',
    label: 'a search answered (typed, no Enter: 150 ms pause first)',
    goalMs: 300,
    hash: '#/',
    async run(page, run) {
      const q = searchTerm(1, run);
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.focus();
      const before = await countText(page);
      const result = await timed(
        page,
        { check: { kind: 'answered', countBefore: before, q }, trigger: 'lastKeydown' },
        // A fast typist: 60 ms between keys, under the 150 ms the search waits for.
        () => box.pressSequentially(q, { delay: 60 }),
      );
      await checkFirstRow(page, `sort=id&dir=asc&q=${encodeURIComponent(q)}&main=false`, `q=${q}`);
      return result;
    },
  },
  {
    key: 'filter',
    label: 'a filter answered (main products only)',
    goalMs: 300,
    hash: '#/',
    async run(page) {
      await page.getByTestId('grid-filters').click();
      const toggle = page.getByRole('switch', { name: 'Main products only' });
      await toggle.waitFor();
      const before = await countText(page);
      const result = await timed(
        page,
        { check: { kind: 'answered', countBefore: before }, trigger: 'click' },
        () => toggle.click(),
      );
      await checkFirstRow(page, 'sort=id&dir=asc&main=true', 'main=true');
      return result;
    },
  },
  {
    key: 'editor',
    label: 'a product opened in the editor (Enter on its row)',
    goalMs: 200,
    hash: '#/',
    async run(page, run) {
      const index = 2 + run;
      const supplierPid = await cell(page, index, 1);
      await page.locator(`[role="grid"] [role="row"][aria-rowindex="${index + 2}"]`).click();
      return timed(page, { check: { kind: 'editor', supplierPid }, trigger: 'keydown' }, () =>
        page.keyboard.press('Enter'),
      );
    },
  },
  {
    key: 'tree',
    label: 'a tree level opened',
    goalMs: 100,
    hash: '#/',
    async run(page, run) {
      const items = page.locator('[role="tree"] [role="treeitem"][aria-level="2"][aria-expanded="false"]');
      const item = items.nth(run % (await items.count()));
      const testId = (await item.getAttribute('data-testid'))!;
      return timed(page, { check: { kind: 'treeLevel', testId }, trigger: 'click' }, () =>
        item.locator('span[aria-hidden]').first().click(),
      );
    },
  },
  {
    key: 'sort-name',
    label: 'a sort by name: first rows',
    goalMs: 300,
    // The sort in the address wins over the user's saved one, so every run starts by id.
    hash: '#/?sort=id',
    async run(page) {
      const firstIdBefore = await cell(page, 0, 0);
      const header = page.getByRole('columnheader', { name: 'Name', exact: true });
      const result = await timed(
        page,
        { check: { kind: 'sorted', column: 'Name', firstIdBefore }, trigger: 'click' },
        () => header.getByRole('button').click(),
      );
      await checkFirstRow(page, 'sort=name&dir=asc&main=false', 'sort=name');
      return result;
    },
  },
];

/** The first rows after opening the window: the probe runs before the page's own scripts. */
async function measureOpening(context: BrowserContext, url: string): Promise<Timed> {
  const page = await context.newPage();
  try {
    return await openTimed(page, url);
  } finally {
    await page.close();
  }
}

/** Opens the catalogue on a new page and times it from the navigation's start to the first rows. */
export async function openTimed(page: Page, url: string): Promise<Timed> {
  const arm: Arm = { check: { kind: 'rows' }, trigger: 'navigation', timeoutMs: TIMEOUT_MS };
  await page.addInitScript(armInPage, arm);
  await page.goto(`${url}#/`);
  return outcome(page);
}

/** Scrolls 10,000 rows from the top in bursts (a wheel turned fast) and reports the long tasks. */
export async function measureScroll(page: Page, rows: number): Promise<ScrollOutcome> {
  return page.evaluate(scrollInPage, { rows, rowsPerFrame: 20, framesPerBurst: 15, pauseMs: 100 });
}
