import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';
import {
  deserializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';

/**
 * The lines of stdin on their way to the SDK's stdio transport. The SDK drops a line that is not
 * JSON, or not a JSON-RPC message (an id of 1.5), with a note on stderr and no answer: a client
 * that sent it waits for ever. Over HTTP the same message is answered. This guard answers such a
 * line as JSON-RPC says (-32700 parse error, -32600 invalid request, with the id when there is a
 * usable one) and passes every other line on unchanged.
 */
export class StdioLineGuard extends Transform {
  private pending = '';
  /** Keeps a character split between two chunks whole. */
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly answer: (message: JSONRPCMessage) => void) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let end: number;
    while ((end = this.pending.indexOf('\n')) !== -1) {
      const line = this.pending.slice(0, end + 1);
      this.pending = this.pending.slice(end + 1);
      this.check(line);
    }
    // A line longer than the SDK accepts goes on as it is: the SDK reports it and closes.
    if (this.pending.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.push(Buffer.from(this.pending));
      this.pending = '';
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.pending += this.decoder.end();
    if (this.pending !== '') this.push(Buffer.from(this.pending));
    done();
  }

  private check(line: string): void {
    const text = line.replace(/\r?\n$/, '');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.answer(error(null, -32700, 'Parse error: the line is not valid JSON'));
      return;
    }
    try {
      deserializeMessage(text);
    } catch {
      const id = (parsed as { id?: unknown } | null)?.id;
      const usable = typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
      this.answer(error(usable ? id : null, -32600, 'Invalid Request: not a JSON-RPC 2.0 message'));
      return;
    }
    this.push(Buffer.from(line));
  }
}

function error(id: string | number | null, code: number, message: string): JSONRPCMessage {
  // id null is what JSON-RPC prescribes when the request's id cannot be known.
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}
