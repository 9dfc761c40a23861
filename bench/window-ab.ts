/**
 * The window rows of two builds, paired: `node --import tsx bench/window-ab.ts --a=DIR [--b=DIR]
 * [--only=open,editor] [--rounds=7] [--quick]`. DIR is a checkout, built (`npm run build` there),
 * e.g. an older commit's worktree; --b defaults to this one. Two pim processes (one from each
 * checkout) on two copies of the benchmark catalogue, one Chromium with a context logged in to
 * each; every round runs each chosen action once on A and once on B, the order alternating, so
 * that both meet the same disturbance from other processes (whose CPU each turn is printed: on a
 * shared machine a run of each side apart moves by more than a regression would).
 * --browser-ui=A (or B): that side's pages in a Chromium that runs its omnibox popup as it does by
 * default (test/helpers/browser.ts); with --b=DIR the same as --a, this measures what it costs.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser.js';
import { ADMIN, SIZES } from './config.js';
import { prepareRunData } from './generate.js';
import { REPO_ROOT, startPimForWindow, type Server } from './lib/processes.js';
import { median, round } from './lib/stats.js';
import { OtherCpuMeter } from './lib/window/other-cpu.js';
import { SCENARIOS, type Scenario } from './lib/window/scenarios.js';
import { logIn, NAME_SHIM, onSettledPage, VIEWPORT } from './lib/window/window-bench.js';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    only: { type: 'string', default: 'open,editor' },
    rounds: { type: 'string', default: '7' },
    quick: { type: 'boolean', default: false },
    'browser-ui': { type: 'string' },
  },
});
if (!args.a) throw new Error('--a=DIR: the checkout to compare with (built)');
const rounds = Math.max(1, Number(args.rounds));
const only = args.only.split(',');
const scenarios = SCENARIOS.filter((s) => only.includes(s.key));
if (!scenarios.length) throw new Error(`--only: of ${SCENARIOS.map((s) => s.key).join(', ')}`);

interface Side {
  label: string;
  root: string;
  pim?: Server & { windowUrl: string };
  context?: BrowserContext;
  /** Per scenario key, the runs' ms. */
  ms: Map<string, number[]>;
  /** Other processes' cores during each of this side's turns. */
  other: number[];
}

const sides: Side[] = [
  { label: 'A', root: resolve(args.a), ms: new Map(), other: [] },
  { label: 'B', root: resolve(args.b ?? REPO_ROOT), ms: new Map(), other: [] },
];
const size = args.quick ? SIZES.quick : SIZES.full;
const data = [await prepareRunData(size), await prepareRunData(size)];
const browser = await launchBrowser();
const withUi = args['browser-ui'] ? await launchBrowser({ browserUi: true }) : undefined;

async function once(side: Side, scenario: Scenario, run: number): Promise<number> {
  const url = side.pim!.windowUrl;
  const timed = scenario.measure
    ? await scenario.measure(side.context!, url)
    : await onSettledPage(side.context!, url, scenario.hash, (page) => scenario.run!(page, run));
  return timed.ms;
}

try {
  for (const [i, side] of sides.entries()) {
    side.pim = await startPimForWindow(data[i]!.dataDir, join(data[i]!.root, 'pim-window.log'), side.root);
    const own = side.label === args['browser-ui'] && withUi ? withUi : browser;
    side.context = await own.newContext({ locale: 'en-US', viewport: VIEWPORT });
    side.context.setDefaultTimeout(15_000);
    await side.context.addInitScript({ content: NAME_SHIM });
    await logIn(side.context, side.pim.windowUrl, ADMIN.username, ADMIN.password);
    console.log(`${side.label}: ${side.root}${own === withUi ? ' (Chromium with its omnibox popup)' : ''}`);
  }
  // Round 0 is not counted: it warms both servers' and the browser's caches.
  for (let round = 0; round <= rounds; round++) {
    const line: string[] = [];
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const meter = new OtherCpuMeter();
      const times: string[] = [];
      for (const scenario of scenarios) {
        const ms = await once(side, scenario, round);
        times.push(`${scenario.key} ${Math.round(ms)}`);
        if (round > 0) side.ms.set(scenario.key, [...(side.ms.get(scenario.key) ?? []), ms]);
      }
      const other = meter.stop()?.other;
      if (round > 0 && other !== undefined) side.other.push(other);
      line.push(`${side.label} ${times.join(', ')} (others ${other ?? '?'} cores)`);
    }
    console.log(`round ${round}${round === 0 ? ' (warm-up)' : ''}: ${line.join(' | ')}`);
  }
  console.log(`\nmedian of ${rounds} rounds, ms (A: ${sides[0]!.root}, B: ${sides[1]!.root})`);
  for (const scenario of scenarios) {
    const [a, b] = sides.map((side) => median(side.ms.get(scenario.key) ?? [])!);
    console.log(
      `  ${scenario.key.padEnd(14)} A ${round(a!, 0)}  B ${round(b!, 0)}  B/A ${round(b! / a!, 2)}`,
    );
  }
  for (const side of sides) {
    const other = side.other;
    console.log(
      `  other processes during ${side.label}'s turns: median ${median(other)} cores, max ${Math.max(...other)}`,
    );
  }
} finally {
  await browser.close();
  await withUi?.close();
  await Promise.all(sides.map((side) => side.pim?.stop()));
  for (const d of data) rmSync(d.root, { recursive: true, force: true });
}
