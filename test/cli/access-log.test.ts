import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCliAsync, spawnCli, startCli, type StartedProcess } from '../helpers/cli.js';
import { expectSuccess } from '../helpers/expect-cli.js';
import { apiRequest, pollUntil } from '../helpers/http.js';
import { processesPerTest } from '../helpers/started-processes.js';

/**
 * `pim start`'s log on standard error, as a service manager or a shell reads it (issue 34): JSON
 * lines on a pipe, never a wait for a reader that does not keep up (lines beyond the buffer are
 * dropped and counted), and an orderly stop that still hands over its last lines; standard output
 * stays for people. The log is the same on either backend, so this runs on SQLite only.
 */

const procs = processesPerTest();

/** Standard error alone (the helper's output interleaves stdout), from now on. */
function collect(stream: Readable): { text(): string; lines(): Record<string, unknown>[] } {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    text: () => text,
    // Only whole lines: the last one may still be on its way.
    lines: () =>
      text
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

async function startWithLog(): Promise<StartedProcess> {
  return procs.track(await startCli(procs.dataDir, { PIM_LOG_LEVEL: 'info' }));
}

/** `count` GETs of `path` + a number, `parallel` at a time; the statuses answered. */
async function sendMany(baseUrl: string, path: string, count: number, parallel = 20): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, async (_, i) => {
      const res = await fetch(`${baseUrl}${path}${start + i}`);
      await res.arrayBuffer();
      return res.status;
    });
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

// A long path makes each line about 1.6 kB: a few thousand requests overflow the pipe and the
// 1 MiB the log may hold in memory.
const FILLER = `/api/log-filler-${'x'.repeat(1400)}/`;

describe("pim start's log", () => {
  it('writes one JSON line per request on a pipe, with method, path, status and time', async () => {
    const pim = await startWithLog();
    const stderr = collect(pim.child.stderr!);
    const res = await fetch(`${pim.baseUrl}/api/product?token=SECRET`);
    await res.arrayBuffer();
    await expect
      .poll(() => stderr.lines().find((line) => line.msg === 'request' && line.method === 'GET'))
      .toBeDefined();
    const line = stderr.lines().find((l) => l.msg === 'request')!;
    expect(line).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/api/product?token=***',
      status: res.status,
    });
    expect(typeof line.ms).toBe('number');
    expect(typeof line.reqId).toBe('string');
    expect(stderr.text()).not.toContain('SECRET');
  });

  it('keeps answering while nobody reads standard error, and says how many lines it dropped', async () => {
    const pim = await startWithLog();
    const stderr = collect(pim.child.stderr!);
    // Nobody reads: the pipe fills (about 200 kB with this process's buffer), then pim's buffer.
    pim.child.stderr!.pause();
    const count = 2_000;
    const statuses = await sendMany(pim.baseUrl, FILLER, count);
    expect(statuses).toHaveLength(count);
    expect(new Set(statuses)).toEqual(new Set([statuses[0]]));
    expect(statuses[0]).toBeLessThan(500);

    pim.child.stderr!.resume();
    const fillers = () =>
      stderr.lines().filter((l) => l.msg === 'request' && String(l.path).startsWith(FILLER));
    const dropped = () =>
      stderr
        .lines()
        .filter((l) => typeof l.dropped === 'number')
        .reduce((sum, l) => sum + (l.dropped as number), 0);
    // Every request accounted for: its line written, or counted in a "dropped" line.
    await expect.poll(() => fillers().length + dropped(), { timeout: 15_000 }).toBe(count);
    expect(dropped()).toBeGreaterThan(0);
    const notice = stderr.lines().find((l) => typeof l.dropped === 'number')!;
    expect(notice).toMatchObject({
      level: 40,
      msg: `${notice.dropped} log lines dropped: standard error was not read fast enough`,
    });
    // The lines that were written are whole (each parsed as JSON above), each request's once.
    const numbers = fillers().map((l) => Number(String(l.path).slice(FILLER.length)));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers.every((n) => Number.isInteger(n) && n >= 0 && n < count)).toBe(true);
  });

  it('hands over its last lines on an orderly stop, waiting for a reader that was behind', async () => {
    const pim = await startWithLog();
    const stderr = collect(pim.child.stderr!);
    pim.child.stderr!.pause();
    // More than the pipe holds, less than pim's buffer: lines wait in pim, none is dropped.
    const count = 300;
    await sendMany(pim.baseUrl, FILLER, count);
    const last = await fetch(`${pim.baseUrl}/api/the-last-request`);
    await last.arrayBuffer();
    pim.child.kill('SIGTERM');
    await pim.waitFor(/SIGTERM received, shutting down/);
    pim.child.stderr!.resume();
    expect(await pim.exited).toBe(0);
    expect(pim.output()).toContain('pim: stopped');
    expect(pim.output()).not.toContain('were not written');
    const requests = stderr.lines().filter((l) => l.msg === 'request');
    expect(requests.filter((l) => String(l.path).startsWith(FILLER))).toHaveLength(count);
    expect(requests.at(-1)).toMatchObject({ path: '/api/the-last-request', status: last.status });
    expect(stderr.text()).not.toContain('dropped');
  });

  it('ends an orderly stop even when nobody ever reads standard error again', async () => {
    const pim = await startWithLog();
    pim.child.stderr!.pause();
    await sendMany(pim.baseUrl, FILLER, 300);
    pim.child.kill('SIGTERM');
    // pim waits LOG_STOP_WAIT_MS (5 s) for the reader, then gives up on the lines and ends.
    expect(await pim.exited).toBe(0);
    expect(pim.output()).toContain("pim: the log's last lines were not written");
    expect(pim.output()).toContain('pim: stopped');
  });

  it('keeps standard output for people: the log (JSON lines, requests included) goes to standard error', async () => {
    // A user and REST enabled, as after a first run: no first run's banner on standard output.
    expectSuccess(
      await runCliAsync(procs.dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'admin-pw\n',
      }),
    );
    expectSuccess(await runCliAsync(procs.dataDir, ['settings', 'set', 'rest.enabled', 'true']));
    const proc = procs.track(
      spawnCli(procs.dataDir, ['start', '--port', '0', '--ui-port', '0'], { PIM_LOG_LEVEL: 'info' }),
    );
    let stdout = '';
    let stderr = '';
    proc.child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [, url] = await proc.waitFor(/REST API listening on (http:\/\/\S+)\/api/);
    await proc.waitFor(/pim is running/);
    expect((await apiRequest(url!, 'GET', '/api/openapi.json')).status).toBe(200);
    await pollUntil('the request is logged', async () => stderr.includes('"msg":"request"'));
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(stdout).toMatch(/pim: stopped\n$/);
    expect(stdout.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
    const logged = stderr.split('\n').filter((line) => line.startsWith('{'));
    expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('request');
  });
});
