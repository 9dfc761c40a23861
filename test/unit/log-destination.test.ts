import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The log destination at a process's exit without an orderly stop (log-destination.ts): the lines
 * still waiting are written synchronously, but for a bounded time only, so a reader that never
 * reads cannot keep the process from ending. Each case runs in a process of its own, its standard
 * error a pipe this test reads (or not).
 */

const started: ChildProcess[] = [];
// A process that failed to end (the failure this file is about) must not outlive its test.
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const MODULE = fileURLToPath(new URL('../../src/app/log-destination.ts', import.meta.url));

/** A process that writes `count` log lines of about `size` bytes, then calls process.exit at once. */
function writeThenExit(count: number, size: number) {
  const script = `
    import { openLogDestination } from ${JSON.stringify(MODULE)};
    const log = openLogDestination({ terminal: false });
    const pad = 'x'.repeat(${size});
    for (let i = 0; i < ${count}; i++) log.write(JSON.stringify({ level: 30, n: i, pad }) + '\\n');
    process.exit(0);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exited, stderr: () => stderr };
}

describe('the log at an exit without an orderly stop', () => {
  it('writes the lines still waiting before the process ends', async () => {
    const proc = writeThenExit(2_000, 100);
    expect(await proc.exited).toBe(0);
    const lines = proc.stderr().split('\n').filter(Boolean);
    expect(lines).toHaveLength(2_000);
    // Each once. Not necessarily in order: a batch already on its way through the thread pool when
    // the exit came can land after the ones the exit writes itself (as with pino's own flushSync).
    const numbers = lines.map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers.sort((a, b) => a - b)).toEqual([...Array(2_000).keys()]);
  });

  it('ends even when nobody reads its standard error', async () => {
    // 3 MB: more than the pipe and the 1 MiB the log holds; nobody reads until the process ended.
    const proc = writeThenExit(2_000, 1_500);
    proc.child.stderr.pause();
    const exit = new Promise<number | null>((resolve) => proc.child.on('exit', resolve));
    expect(await exit).toBe(0);
    proc.child.stderr.resume();
    await proc.exited;
    const lines = proc.stderr().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(2_000);
  });
});
