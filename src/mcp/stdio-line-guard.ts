import { isUtf8 } from 'node:buffer';
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
 * usable one), refuses a line whose bytes are not UTF-8 (-32700) and passes every other line on
 * unchanged.
 */
export class StdioLineGuard extends Transform {
  /** The bytes of the line under way, in the chunks they came in (joined once the line ends). */
  private pending: Buffer[] = [];
  private pendingLength = 0;

  constructor(private readonly answer: (message: JSONRPCMessage) => void) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let end: number;
    while ((end = bytes.indexOf(0x0a)) !== -1) {
      this.pending.push(bytes.subarray(0, end + 1));
      this.check(this.takeLine());
      bytes = bytes.subarray(end + 1);
    }
    if (bytes.length > 0) {
      this.pending.push(bytes);
      this.pendingLength += bytes.length;
    }
    // A line longer than the SDK accepts goes on as it is: the SDK reports it and closes.
    if (this.pendingLength > STDIO_DEFAULT_MAX_BUFFER_SIZE) this.push(this.takeLine());
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pendingLength > 0) this.push(this.takeLine());
    done();
  }

  private takeLine(): Buffer {
    const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingLength = 0;
    return line;
  }

  private check(line: Buffer): void {
    // Checked as bytes: decoded, stray bytes would each read as U+FFFD, and two different values
    // would be stored alike (HTTP bodies are refused for the same reason).
    if (!isUtf8(line)) {
      this.answer(error(null, -32700, 'Parse error: the line is not valid UTF-8'));
      return;
    }
    const text = line.toString('utf8').replace(/\r?\n$/, '');
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
    this.push(line);
  }
}

function error(id: string | number | null, code: number, message: string): JSONRPCMessage {
  // id null is what JSON-RPC prescribes when the request's id cannot be known.
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}
