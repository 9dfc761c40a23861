import { loadavg } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import type { Row } from '../report.js';
import { BUSY_CORES } from '../rows.js';
import { median, round } from '../stats.js';
import { OtherCpuMeter, type OtherCpu } from './other-cpu.js';
import type { ScrollOutcome } from './page-probe.js';
import { measureScroll, SCENARIOS, settle, type Scenario, type Timed } from './scenarios.js';

export interface ScenarioResult {
  key: string;
  label: string;
  goalMs: number;
  samples: Timed[];
  failures: string[];
  /** CPU of processes outside the bench's tree (pim and Chromium excluded) during the runs. */
  cpu?: OtherCpu;
}

export interface WindowResult {
  viewport: { width: number; height: number };
  browser: string;
  scenarios: ScenarioResult[];
  scroll: { rows: number; runs: ScrollOutcome[]; failures: string[]; cpu?: OtherCpu };
  /**
   * The machine's 1-minute load average before and after, for the record only: it counts the
   * bench's own catalogue generation, pim and Chromium too, so it does not decide DISTURBED.
   */
  loadAverage: { before: number; after: number };
}

export interface WindowOptions {
  runs: number;
  scrollRuns: number;
  scrollRows: number;
  username: string;
  password: string;
}

/** A desktop monitor's window: the grid shows about 28 rows. */
export const VIEWPORT = { width: 1920, height: 1080 };

/** esbuild (tsx) wraps named functions in __name(): the page must know it to run the probe's functions. */
export const NAME_SHIM = 'globalThis.__name = (fn) => fn;';

export async function onSettledPage<T>(
  context: BrowserContext,
  url: string,
  hash: string,
  work: (page: Page) => Promise<T>,
): Promise<T> {
  const page = await context.newPage();
  try {
    await page.goto(`${url}${hash}`);
    await settle(page);
    return await work(page);
  } finally {
    await page.close();
  }
}

async function runScenario(
  context: BrowserContext,
  url: string,
  scenario: Scenario,
  runs: number,
): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    key: scenario.key,
    label: scenario.label,
    goalMs: scenario.goalMs,
    samples: [],
    failures: [],
  };
  const meter = new OtherCpuMeter();
  // One run more than counted: the first warms the server's and the browser's caches of the code paths.
  for (let run = 0; run <= runs; run++) {
    try {
      const timed = scenario.measure
        ? await scenario.measure(context, url)
        : await onSettledPage(context, url, scenario.hash, (page) => scenario.run!(page, run));
      if (run > 0) result.samples.push(timed);
    } catch (error) {
      result.failures.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  }
  result.cpu = meter.stop();
  return result;
}

/** Logs in through the login screen once: the context keeps the session's cookie for every page. */
export async function logIn(
  context: BrowserContext,
  url: string,
  username: string,
  password: string,
): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.getByLabel('User name').fill(username);
    await page.getByRole('textbox', { name: 'Password' }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await settle(page);
  } finally {
    await page.close();
  }
}

/**
 * The window rows: Chromium (Debian's, through playwright-core) on the window of a running pim,
 * each user action timed in the page from the input to the frame that shows its result.
 * `url`: the window's address (http://127.0.0.1:PORT/).
 */
export async function measureWindow(
  url: string,
  options: WindowOptions,
  only: (key: string) => boolean = () => true,
): Promise<WindowResult> {
  const loadBefore = loadavg()[0]!;
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ locale: 'en-US', viewport: VIEWPORT });
    context.setDefaultTimeout(15_000);
    await context.addInitScript({ content: NAME_SHIM });
    await logIn(context, url, options.username, options.password);
    const scenarios: ScenarioResult[] = [];
    for (const scenario of SCENARIOS.filter((s) => only(s.key))) {
      console.log(`  window: ${scenario.label} (${options.runs} runs)`);
      scenarios.push(await runScenario(context, url, scenario, options.runs));
    }
    const scroll: WindowResult['scroll'] = { rows: options.scrollRows, runs: [], failures: [] };
    if (only('scroll')) {
      console.log(`  window: scrolling ${options.scrollRows} rows (${options.scrollRuns} runs)`);
      const meter = new OtherCpuMeter();
      for (let run = 0; run < options.scrollRuns; run++) {
        try {
          scroll.runs.push(
            await onSettledPage(context, url, '#/?sort=id', (page) =>
              measureScroll(page, options.scrollRows),
            ),
          );
        } catch (error) {
          scroll.failures.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
        }
      }
      scroll.cpu = meter.stop();
    }
    const loadAverage = { before: round(loadBefore, 1), after: round(loadavg()[0]!, 1) };
    return { viewport: VIEWPORT, browser: browser.version(), scenarios, scroll, loadAverage };
  } finally {
    await browser.close();
  }
}

const ms = (value: number) => round(value, 0);

/**
 * Other processes busy during a row (as the REST rows judge it, from /proc): the figures measure
 * the crowd too. The bench's own tree (this runner, pim, Chromium) is the measurement, not a crowd.
 */
function busyNote(cpu: OtherCpu | undefined): string | undefined {
  return cpu && cpu.other > BUSY_CORES
    ? `DISTURBED: other processes used ${cpu.other} cores during the runs (pim, Chromium and the bench ${cpu.bench})`
    : undefined;
}

/** The results table's rows: median (p50 column) and slowest (p99 column) of the runs, against the goal. */
export function windowRows(result: WindowResult): Row[] {
  const rows: Row[] = result.scenarios.map((s) => {
    const busy = busyNote(s.cpu);
    const times = s.samples.map((t) => t.ms);
    const mid = median(times);
    const notes = [`${times.length} runs: ${times.map(ms).join(', ')} ms`];
    const fromGrid = s.samples.map((t) => t.detail?.gridMs).filter((v): v is number => v !== undefined);
    if (s.key === 'open' && fromGrid.length) {
      notes.push(
        `from navigation; from the grid's appearance to its rows: median ${ms(median(fromGrid)!)} ms`,
      );
    }
    if (s.failures.length) notes.push(`FAILED ${s.failures.length}×: ${s.failures[0]}`);
    if (busy) notes.push(busy);
    return {
      endpoint: `window: ${s.label}`,
      p50: mid === undefined ? undefined : round(mid, 1),
      p99: times.length ? round(Math.max(...times), 1) : undefined,
      sequential: true,
      target: `median ≤ ${s.goalMs} ms`,
      verdict: s.failures.length
        ? 'failed'
        : mid === undefined
          ? 'not available'
          : mid <= s.goalMs
            ? 'met'
            : 'missed',
      note: notes.join('; '),
    };
  });
  const { scroll } = result;
  if (scroll.runs.length || scroll.failures.length) {
    const busy = busyNote(scroll.cpu);
    const longest = scroll.runs.map((r) => r.longestTaskMs);
    const worst = longest.length ? Math.max(...longest) : undefined;
    rows.push({
      endpoint: `window: scrolling ${scroll.rows.toLocaleString('en')} rows, longest task`,
      p50: longest.length ? round(median(longest)!, 1) : undefined,
      p99: worst === undefined ? undefined : round(worst, 1),
      sequential: true,
      target: 'no task over 50 ms',
      verdict: scroll.failures.length
        ? 'failed'
        : worst === undefined
          ? 'not available'
          : worst <= 50
            ? 'met'
            : 'missed',
      note: [
        `${scroll.runs.length} runs; long tasks per run: ${scroll.runs.map((r) => r.longTasks).join(', ')}`,
        `blocking ${scroll.runs.map((r) => ms(r.blockingMs)).join(', ')} ms over ${scroll.runs.map((r) => round(r.ms / 1000, 1)).join(', ')} s`,
        ...(scroll.failures.length ? [`FAILED ${scroll.failures.length}×: ${scroll.failures[0]}`] : []),
        ...(busy ? [busy] : []),
      ].join('; '),
    });
  }
  return rows;
}
