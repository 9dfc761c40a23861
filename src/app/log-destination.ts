import { hostname } from 'node:os';
import sonicBoom from 'sonic-boom';
import { formatForTerminal } from './log-terminal-format.js';

/** Log bytes held for a reader that does not keep up; lines beyond are dropped and counted. */
export const LOG_BUFFER_BYTES = 1024 * 1024;
/** How long an orderly stop waits for the reader to take the last lines. */
export const LOG_STOP_WAIT_MS = 5_000;
/** How long an exit without an orderly stop (a crash) tries to hand its last lines over. */
const EXIT_FLUSH_MS = 1_000;
/**
 * Lines are handed over together, at most this long after the first of them or once this many
 * bytes wait: one write per line (each a trip through libuv's thread pool) cost more CPU per
 * request than the synchronous write it replaces. 10 ms is not seen on a terminal.
 */
const BATCH_MS = 10;
const BATCH_BYTES = 16 * 1024;

export interface LogDestination {
  /** One pino line (JSON with its newline); never blocks, dropped when the buffer is full. */
  write(line: string): void;
  /**
   * Waits until every line written so far reached the reader, at most `timeoutMs`, then writes no
   * more. False when lines were still waiting (the reader did not read in time).
   */
  close(timeoutMs?: number): Promise<boolean>;
}

export interface LogDestinationOptions {
  /** Default: standard error. */
  fd?: number;
  /** Short readable lines instead of JSON. Default: whether standard error is a terminal. */
  terminal?: boolean;
  /** Default LOG_BUFFER_BYTES. */
  maxBytes?: number;
}

/**
 * The log written without ever making the server wait for its reader: a slow terminal, a full pipe
 * or a loaded journal used to stop every answer while a line was written synchronously. Lines go
 * through sonic-boom asynchronously (the write runs in libuv's thread pool and is retried on
 * EAGAIN); at most `maxBytes` wait in memory, the rest are dropped, and once the reader caught up
 * one line says how many. sonic-boom directly rather than pino.destination(): pino's exit handler
 * would flush synchronously with no limit, so a reader that never reads would keep pim from ending.
 */
export function openLogDestination(options: LogDestinationOptions = {}): LogDestination {
  // Reading process.stderr opens its handle, which also puts a pipe or socket into non-blocking
  // mode: a write to a reader that does not read then fails with EAGAIN (retried later) instead of
  // holding a thread of the pool, and the exit's synchronous flush below can give up.
  const terminal = options.terminal ?? process.stderr.isTTY === true;
  let pending = 0;
  let dropped = 0;
  let closed = false;
  let broken = false;
  let exitDeadline = 0;
  const waiters: (() => void)[] = [];
  let batch = '';
  let batchTimer: NodeJS.Timeout | undefined;
  // The package is CommonJS: its class is a property of what it exports.
  const sonic = new sonicBoom.SonicBoom({
    fd: options.fd ?? 2,
    sync: false,
    maxLength: options.maxBytes ?? LOG_BUFFER_BYTES,
    // Running: try again later. Closed: give up. Exiting: keep trying until the deadline.
    retryEAGAIN: () => (exitDeadline ? Date.now() < exitDeadline : !closed),
  });

  const flushBatch = () => {
    clearTimeout(batchTimer);
    batchTimer = undefined;
    if (batch === '' || closed || broken) return;
    const text = batch;
    batch = '';
    const before = dropped;
    sonic.write(text);
    if (dropped === before) pending += Buffer.byteLength(text);
  };

  const write = (line: string) => {
    if (closed || broken) return;
    batch += terminal ? formatForTerminal(line) : line;
    if (batch.length >= BATCH_BYTES) flushBatch();
    else batchTimer ??= setTimeout(flushBatch, BATCH_MS);
  };

  // A batch that does not fit is dropped whole: its lines are counted.
  sonic.on('drop', (text: string) => (dropped += lineCount(text)));
  sonic.on('write', (n: number) => (pending -= n));
  sonic.on('drain', () => {
    // Nothing waits in the buffer: the reader caught up.
    pending = 0;
    if (dropped > 0 && !closed) {
      const count = dropped;
      dropped = 0;
      write(droppedNotice(count));
      flushBatch();
      return;
    }
    if (batch !== '') return;
    for (const resolve of waiters.splice(0)) resolve();
  });
  sonic.on('error', (error: NodeJS.ErrnoException) => {
    // EAGAIN after close (given up), or the reader is gone (EPIPE) or standard error closed: the
    // log cannot be written any more, and the server must not fail for it.
    if (error.code !== 'EAGAIN') broken = true;
    for (const resolve of waiters.splice(0)) resolve();
  });

  const onExit = () => {
    if (closed || broken || (pending <= 0 && dropped === 0 && batch === '')) return;
    exitDeadline = Date.now() + EXIT_FLUSH_MS;
    const count = dropped;
    dropped = 0;
    if (count > 0) write(droppedNotice(count));
    flushBatch();
    try {
      // A batch already on its way through the thread pool is not part of this: it may land after
      // the lines written here (pino's flushSync does the same), and no line twice.
      sonic.flushSync();
    } catch {
      // The reader did not take the lines within the deadline: they are lost, the exit goes on.
    }
  };
  process.on('exit', onExit);

  return {
    write,
    async close(timeoutMs = LOG_STOP_WAIT_MS) {
      if (closed) return true;
      // Lines dropped while nothing waits: no drain will come to say so, so say it now.
      if (dropped > 0 && pending <= 0) {
        const count = dropped;
        dropped = 0;
        write(droppedNotice(count));
      }
      flushBatch();
      let timer: NodeJS.Timeout | undefined;
      // The reader gone (broken) took nothing more: that is lines not written too.
      const settled = broken
        ? false
        : pending <= 0 && dropped === 0
          ? true
          : await Promise.race([
              new Promise<boolean>((resolve) => waiters.push(() => resolve(!broken))),
              new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
            ]);
      clearTimeout(timer);
      // No sonic-boom destroy(): with a write in flight it would loop on empty writes for ever. A
      // write still waiting is given up at its next EAGAIN (retryEAGAIN), so nothing keeps pim
      // alive; a reader that reads again meanwhile still gets it.
      closed = true;
      process.off('exit', onExit);
      return settled;
    },
  };
}

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The line that says lines were dropped, in pino's shape (level 40: warn). */
function droppedNotice(count: number): string {
  const msg = `${count} log line${count === 1 ? '' : 's'} dropped: standard error was not read fast enough`;
  return `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, hostname: hostname(), dropped: count, msg })}\n`;
}
