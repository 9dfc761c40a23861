import type { FastifyReply } from 'fastify';

/** An open server-sent-events stream to one window. */
export interface EventStream {
  send(event: string, data: unknown): void;
  /** Ends the stream (the browser reconnects unless told otherwise by the event before). */
  end(): void;
  readonly closed: boolean;
}

const KEEP_ALIVE_MS = 15_000;
/**
 * A client that stops reading must not make the server queue without bound: past this many
 * unsent bytes its stream is ended (a window that reconnects gets the latest state again).
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * The open streams of one window server: ended together when the desktop session ends (no
 * stream outlives the session that opened it) and when the server closes (open streams would
 * keep it from closing).
 */
export class EventStreams {
  private readonly streams = new Set<EventStream>();

  /**
   * Turns a reply into a server-sent-events stream (the window's server push: status, the end
   * of the desktop session, monitor entries). `onClose` runs once when it ends, for any reason.
   */
  open(reply: FastifyReply, onClose: () => void): EventStream {
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
    const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    const finish = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      this.streams.delete(stream);
      onClose();
    };
    const write = (text: string) => {
      if (closed) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        stream.end();
        return;
      }
      res.write(text);
    };
    const stream: EventStream = {
      send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      end: () => {
        if (closed) return;
        finish();
        res.end();
      },
      get closed() {
        return closed;
      },
    };
    this.streams.add(stream);
    // A write to a connection that broke is reported here; the stream is simply over.
    res.on('error', finish);
    res.on('close', finish);
    return stream;
  }

  /** Ends every open stream, but those in `except` (their owner ends them itself). */
  endAll(except?: ReadonlySet<EventStream>): void {
    for (const stream of [...this.streams]) if (!except?.has(stream)) stream.end();
  }
}
