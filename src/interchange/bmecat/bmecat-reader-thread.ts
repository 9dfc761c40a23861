import { Worker } from 'node:worker_threads';
import { errorFromWire, type FromReader, type ToReader } from './bmecat-read-messages.js';
import type { BmecatEvent } from './bmecat-reader.js';

/**
 * readBmecat in a worker thread (issue 35: parse and write in parallel): the same events in the
 * same order, the same errors (class, message, line and column), while this thread writes. The
 * bytes are read here (so a caller's progress wrapper sees them) and handed over chunk by chunk;
 * the reading thread stops asking for more while MAX_QUEUED events wait here, so memory holds a
 * bounded stretch of the file whatever its size. Breaking off the loop ends the thread.
 */
/** A batch and a half of the importer's (200 products): enough to write while the next is read. */
const MAX_QUEUED = 300;

/**
 * The worker thread: the build's JavaScript, or, when pim runs from its TypeScript sources (the
 * tests, `node --import tsx`), the source loaded through tsx, registered in the thread itself
 * (a worker does not inherit a loader the process registered).
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./bmecat-read.worker.js', import.meta.url));
  const source = new URL('./bmecat-read.worker.ts', import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`,
    { eval: true, execArgv: [] },
  );
}

export async function* readBmecatInWorker(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<BmecatEvent> {
  const worker = startWorker();
  const source = bytes[Symbol.asyncIterator]();
  let queue: BmecatEvent[] = [];
  let head = 0;
  let wantsChunk = false;
  let sending = false;
  let finished = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const fail = (error: unknown) => {
    if (finished) return;
    failure = error;
    finished = true;
    notify();
  };
  const post = (message: ToReader) => {
    if ('chunk' in message) worker.postMessage(message, [message.chunk.buffer as ArrayBuffer]);
    else worker.postMessage(message);
  };
  // Hands the worker its next chunk when it has asked for one and the events read are not piling up.
  const feed = async () => {
    if (!wantsChunk || sending || finished || queue.length - head > MAX_QUEUED) return;
    wantsChunk = false;
    sending = true;
    try {
      const next = await source.next();
      // A copy of its own, whose memory moves to the worker (the stream's buffer may be shared).
      post(next.done ? { end: true } : { chunk: new Uint8Array(next.value) });
    } catch (error) {
      fail(error);
    } finally {
      sending = false;
    }
  };
  worker.on('message', (message: FromReader) => {
    for (const event of JSON.parse(message.events) as BmecatEvent[]) queue.push(event);
    if ('next' in message) {
      wantsChunk = true;
      void feed();
    } else if ('error' in message) fail(errorFromWire(message.error));
    else finished = true;
    notify();
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('Reading the file failed: its thread ended early')));

  try {
    for (;;) {
      if (head < queue.length) {
        const event = queue[head++]!;
        if (head >= 1_024) {
          queue = queue.slice(head);
          head = 0;
        }
        void feed();
        yield event;
        continue;
      }
      if (finished) {
        if (failure !== undefined) throw failure;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    finished = true;
    await worker.terminate();
    await source.return?.();
  }
}
