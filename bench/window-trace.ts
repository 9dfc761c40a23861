/**
 * Where the window's opening spends its time, step by step: Chromium's own trace of N openings of
 * `#/` (logged in, on the benchmark catalogue), each cut at the moments the page passes through:
 * navigation → the document answered → the bundle loaded → the opening request sent → answered →
 * the first rows on screen, with the main thread's work between them by kind (script compile,
 * script run, style, layout, paint, garbage collection) and pim's own time for the request (its
 * access log's responseTime).
 *
 *   node --import tsx bench/window-trace.ts [--quick] [--runs=5] [--root=DIR]
 *
 * --root: run pim from another checkout (built), e.g. an older commit's worktree, on the same data.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../test/helpers/browser.js';
import { ADMIN, SIZES } from './config.js';
import { prepareRunData } from './generate.js';
import { median, round } from './lib/stats.js';
import { startPimForWindow } from './lib/processes.js';
import { openTimed } from './lib/window/scenarios.js';
import { logIn, NAME_SHIM, VIEWPORT } from './lib/window/window-bench.js';
import { openingSteps, type Steps } from './lib/window/trace-steps.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    root: { type: 'string' },
  },
});
const runs = Math.max(1, Number(args.runs));
const data = await prepareRunData(args.quick ? SIZES.quick : SIZES.full);
const logFile = join(data.root, 'pim-window.log');
const pim = await startPimForWindow(data.dataDir, logFile, args.root);
const browser = await launchBrowser();
const all: Steps[] = [];
try {
  const context = await browser.newContext({ locale: 'en-US', viewport: VIEWPORT });
  context.setDefaultTimeout(15_000);
  await context.addInitScript({ content: NAME_SHIM });
  await logIn(context, pim.windowUrl, ADMIN.username, ADMIN.password);
  // One uncounted opening: the first warms the server's and the browser's caches.
  for (let run = 0; run <= runs; run++) {
    const page = await context.newPage();
    await browser.startTracing(page, {
      categories: [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8',
        'v8.execute',
        'blink.user_timing',
        'loading',
      ],
    });
    const timed = await openTimed(page, pim.windowUrl);
    const buffer = await browser.stopTracing();
    if (process.env.TRACE_DUMP) writeFileSync(process.env.TRACE_DUMP, buffer);
    const trace = JSON.parse(buffer.toString()) as { traceEvents: unknown[] };
    await page.close();
    if (run === 0) continue;
    const steps = openingSteps(trace.traceEvents, timed.ms);
    all.push(steps);
    console.log(`run ${run}: ${Math.round(timed.ms)} ms ${JSON.stringify(steps)}`);
  }
  // pim's access log: one JSON line per request, its time in `ms`.
  const served = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('/ui/api/opening'))
    .map((line) => (JSON.parse(line) as { ms?: number }).ms)
    .filter((ms): ms is number => typeof ms === 'number');
  console.log(`\nmedian of ${all.length} openings (ms from navigation; main thread's work by kind):`);
  for (const key of Object.keys(all[0] ?? {}) as (keyof Steps)[]) {
    console.log(`  ${key.padEnd(28)} ${round(median(all.map((s) => s[key]))!, 0)}`);
  }
  console.log(
    served.length
      ? `  pim's time for /ui/api/opening (access log): median ${round(median(served)!, 1)} ms`
      : "  pim's time for /ui/api/opening: not in pim's log",
  );
} finally {
  await browser.close();
  await pim.stop();
  rmSync(data.root, { recursive: true, force: true });
}
