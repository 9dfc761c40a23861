/**
 * Where the window rows' time goes: each action once more, on the benchmark catalogue, with V8's
 * CPU profile of the page (the main thread) and the page's requests (Resource Timing: the wait for
 * the server's first byte, the whole request). Prints, per action, the time on screen, the
 * requests started after the action, and the page's CPU by function.
 *
 *   node --import tsx bench/window-profile.ts [--quick] [--only=open,editor,...,scroll]
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser.js';
import { ADMIN, SIZES } from './config.js';
import { prepareRunData } from './generate.js';
import { startPimForWindow } from './lib/processes.js';
import { measureScroll, openTimed, SCENARIOS, type Timed } from './lib/window/scenarios.js';
import { logIn, NAME_SHIM, onSettledPage, VIEWPORT } from './lib/window/window-bench.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (ms), the largest first. */
function selfTimes(profile: Profile): [string, number][] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    const file = frame.url.split('/').pop() || '';
    const name = `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

interface RequestTiming {
  name: string;
  startTime: number;
  requestStart: number;
  responseStart: number;
  responseEnd: number;
}

async function requestsSince(page: Page, since: number): Promise<string[]> {
  const entries = await page.evaluate<RequestTiming[]>(
    'performance.getEntriesByType("resource").map((e) => e.toJSON())',
  );
  return entries
    .filter((e) => e.startTime >= since)
    .map(
      (e) =>
        `    +${Math.round(e.startTime - since)} ms ${e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 90)}: ` +
        `first byte after ${Math.round(e.responseStart - e.requestStart)} ms, done at +${Math.round(e.responseEnd - since)} ms`,
    );
}

/** `fromNavigation`: the requests of the page's load count too (the opening). */
async function profiled(page: Page, work: () => Promise<Timed>, fromNavigation = false): Promise<void> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const since = fromNavigation ? 0 : await page.evaluate<number>('performance.now()');
  await cdp.send('Profiler.start');
  const timed = await work();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  const times = selfTimes(profile);
  const busy = times.filter(([name]) => name !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`  on screen after ${Math.round(timed.ms)} ms; page CPU ${Math.round(busy)} ms while profiled`);
  for (const line of await requestsSince(page, since)) console.log(line);
  for (const [name, ms] of times.slice(0, 14)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${name}`);
}

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const only = args.only?.split(',');
const data = await prepareRunData(args.quick ? SIZES.quick : SIZES.full);
const pim = await startPimForWindow(data.dataDir, join(data.root, 'pim-window.log'));
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ locale: 'en-US', viewport: VIEWPORT });
  context.setDefaultTimeout(15_000);
  await context.addInitScript({ content: NAME_SHIM });
  await logIn(context, pim.windowUrl, ADMIN.username, ADMIN.password);
  for (const scenario of SCENARIOS.filter((s) => !only || only.includes(s.key))) {
    console.log(`\n${scenario.label}`);
    if (scenario.key === 'open') {
      const page = await context.newPage();
      // A page of the same origin first: the profiler stays with the renderer through the navigation.
      await page.goto(`${pim.windowUrl}ui/api/session`);
      await profiled(page, () => openTimed(page, pim.windowUrl), true);
      await page.close();
      continue;
    }
    // Run 3: not the warm-up's search term, position or product.
    await onSettledPage(context, pim.windowUrl, scenario.hash, (page) =>
      profiled(page, () => scenario.run!(page, 3)),
    );
  }
  if (!only || only.includes('scroll')) {
    console.log('\nscrolling 2,000 rows (in milliseconds on screen: the longest task)');
    await onSettledPage(context, pim.windowUrl, '#/?sort=id', (page) =>
      profiled(page, async () => ({ ms: (await measureScroll(page, 2_000)).longestTaskMs })),
    );
  }
} finally {
  await browser.close();
  await pim.stop();
  rmSync(data.root, { recursive: true, force: true });
}
