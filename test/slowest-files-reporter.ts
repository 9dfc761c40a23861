import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Lists the test files that held a worker longest (import, set-up, tests and hooks), after the
 * summary: where the run's time goes, so that CI stays within its limit. vitest.config.ts adds it
 * when PIM_TEST_SLOWEST says how many to list (`.ci/run` asks for ten). A file that runs in two
 * projects is listed once per project.
 */
export default class SlowestFilesReporter implements Reporter {
  private readonly count: number;

  constructor(options: { count?: number } = {}) {
    this.count = options.count ?? 10;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((module) => {
        const d = module.diagnostic();
        return {
          file: relative(module.project.config.root, module.moduleId),
          project: module.project.name,
          ms:
            d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, this.count);
    if (rows.length === 0) return;
    const lines = rows.map(
      (row) => `${(row.ms / 1000).toFixed(1).padStart(7)} s  ${`[${row.project}]`.padEnd(11)} ${row.file}`,
    );
    process.stdout.write(`\nThe ${rows.length} slowest test files of this run:\n${lines.join('\n')}\n`);
  }
}
