import { BmecatError } from './bmecat-reader.js';
import { XmlEncodingError } from './xml-decoding.js';
import { XmlSyntaxError } from './xml-records.js';

/**
 * What the BMEcat reading thread and the thread that imports say to each other
 * (bmecat-reader-thread.ts): the file's bytes one way, its events and the end the other.
 */
export type ToReader = { chunk: Uint8Array } | { end: true };

/**
 * The events read since the last message, as JSON text (BmecatEvent[]: plain data; V8's structured
 * clone took about twice as long to read back here as JSON.parse, and the importing thread is the
 * one that pays it); then either a request for the next chunk, the end of the file, or the error
 * that stopped the reading (after the events read before it).
 */
export type FromReader =
  { events: string; next: true } | { events: string; done: true } | { events: string; error: WireError };

/** An error as it crosses the threads: its class by name, its message and place. */
export interface WireError {
  kind: 'bmecat' | 'syntax' | 'encoding' | 'other';
  message: string;
  line: number;
  column: number;
}

export function errorToWire(error: unknown): WireError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof BmecatError)
    return { kind: 'bmecat', message, line: error.line, column: error.column };
  if (error instanceof XmlSyntaxError)
    return { kind: 'syntax', message, line: error.line, column: error.column };
  if (error instanceof XmlEncodingError) return { kind: 'encoding', message, line: 0, column: 0 };
  return { kind: 'other', message, line: 0, column: 0 };
}

/** The same error as the reader threw in its thread: the same class, message and place. */
export function errorFromWire(wire: WireError): Error {
  switch (wire.kind) {
    case 'bmecat':
      return new BmecatError(wire.message, wire.line, wire.column);
    case 'syntax':
      return new XmlSyntaxError(wire.message, wire.line, wire.column);
    case 'encoding':
      return new XmlEncodingError(wire.message);
    default:
      return new Error(`Reading the file failed: ${wire.message}`);
  }
}
