import { join } from 'node:path';
import { ADMIN } from '../../config.js';
import { waitForQuiet } from '../cpu.js';
import { startPimForWindow } from '../processes.js';
import { measureWindow, type WindowResult } from './window-bench.js';

/**
 * The window rows of `npm run bench`: pim started as a user starts it (default log level, its log
 * in `<run folder>/pim-window.log`), on the catalogue as generated, and Chromium on its window.
 */
export async function measureWindowRows(
  dataDir: string,
  runRoot: string,
  quick: boolean,
): Promise<WindowResult> {
  const logFile = join(runRoot, 'pim-window.log');
  console.log(`window rows: pim start (default log level, log in ${logFile}) and Chromium`);
  const pim = await startPimForWindow(dataDir, logFile);
  try {
    await waitForQuiet(pim.pid, quick ? 0 : 20_000);
    return await measureWindow(pim.windowUrl, {
      runs: quick ? 3 : 7,
      scrollRuns: quick ? 1 : 3,
      scrollRows: quick ? 2_000 : 10_000,
      username: ADMIN.username,
      password: ADMIN.password,
    });
  } finally {
    await pim.stop();
  }
}
