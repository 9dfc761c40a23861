import type { FastifyReply } from 'fastify';

/** An open server-sent-events stream to one window. */
export interface EventStream {
  send(event: string, data: unknown): void;
  /** Ends the stream (the browser reconnects unless told otherwise by the event before). */
  end(): void;
  readonly closed: boolean;
}

const KEEP_ALIVE_MS = 15_000;
const open = new Set<EventStream>();

/**
 * Turns a reply into a server-sent-events stream (the window's server push: status, the end of
 * the desktop session, monitor entries). `onClose` runs once when the browser goes away or the
 * stream is ended.
 */
export function openEventStream(reply: FastifyReply, onClose: () => void): EventStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  res.write(': connected\n\n');
  let closed = false;
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  const stream: EventStream = {
    send(event, data) {
      if (!closed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!closed) res.end();
    },
    get closed() {
      return closed;
    },
  };
  open.add(stream);
  res.on('close', () => {
    closed = true;
    clearInterval(keepAlive);
    open.delete(stream);
    onClose();
  });
  return stream;
}

/** Ends every open stream (the server is closing: open streams would keep it from closing). */
export function endAllStreams(): void {
  for (const stream of [...open]) stream.end();
}
