import { parentPort } from 'node:worker_threads';
import { errorToWire, type FromReader, type ToReader } from './bmecat-read-messages.js';
import { readBmecat, type BmecatEvent } from './bmecat-reader.js';

/**
 * The thread that parses a BMEcat file for an import (bmecat-reader-thread.ts): it receives the
 * file's bytes chunk by chunk, and each time the parser wants the next chunk it sends the events
 * read so far and asks for it, so that it holds no more than a chunk ahead of what it was given.
 */
const port = parentPort!;
const inbox: (Uint8Array | null)[] = [];
let wake: (() => void) | undefined;
port.on('message', (message: ToReader) => {
  inbox.push('chunk' in message ? message.chunk : null);
  wake?.();
});

let events: BmecatEvent[] = [];
const send = (message: FromReader) => {
  port.postMessage(message);
  events = [];
};
const read = () => JSON.stringify(events);

async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    send({ events: read(), next: true });
    while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    const chunk = inbox.shift()!;
    if (chunk === null) return;
    yield chunk;
  }
}

try {
  for await (const event of readBmecat(chunks())) events.push(event);
  send({ events: read(), done: true });
} catch (error) {
  send({ events: read(), error: errorToWire(error) });
}
// The thread stays (its port listening) until the importing thread ends it: so its last message is
// never raced by its exit.
