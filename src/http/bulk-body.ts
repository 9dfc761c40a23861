import { errorCodes, type FastifyRequest } from 'fastify';
import { ValidationError } from '../domain/errors.js';
import {
  bodyRefusal,
  NOT_UTF8_MESSAGE,
  NOT_UTF8_REFUSAL,
  parseJsonText,
  type JsonParser,
} from './body-checks.js';
import { JsonArraySplitter } from './json-array-splitter.js';

/**
 * Request bodies of the bulk routes, parsed as they arrive so that no single parse holds the event
 * loop: `application/x-ndjson` (one document per line) a line at a time, holding only the documents
 * and one line; `application/json` (an array) an element at a time (JsonArraySplitter), each by
 * Fastify's JSON parser as any body. The JSON body's text is kept until its end (as the whole-body
 * parser held it): one that is not a plain array is then parsed whole, as every other route's, so
 * that it is answered exactly as before.
 */

/**
 * Reads a body up to the route's limit, decoding it as UTF-8 (a stray byte refuses it), and hands
 * each decoded piece to `take`, then the end to `finish`. After a refusal the rest of the body is
 * read and dropped, and the answer given at its end: the client, still sending, then reads it
 * (answering at once left the connection hanging).
 */
function readBodyText<T>(
  request: FastifyRequest,
  payload: NodeJS.ReadableStream,
  notUtf8: Error,
  take: (text: string) => void,
  finish: () => T,
): Promise<T> {
  const refusal = bodyRefusal(request);
  if (refusal) return Promise.reject(refusal);
  const limit = request.routeOptions.bodyLimit ?? 0;
  // ignoreBOM: a byte-order mark stays in the text, which JSON then refuses, as for every body.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let received = 0;
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw notUtf8;
    }
  };
  return new Promise((resolve, reject) => {
    let refused: unknown;
    payload.on('data', (chunk: Buffer) => {
      if (refused !== undefined) return;
      try {
        received += chunk.length;
        // Fastify checks the limit only for bodies it reads itself.
        if (received > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
        take(decode(chunk));
      } catch (error) {
        refused = error;
      }
    });
    payload.on('end', () => {
      try {
        if (refused !== undefined) throw refused;
        take(decode());
        resolve(finish());
      } catch (error) {
        reject(error);
      }
    });
    payload.once('error', reject);
  });
}

export function parseNdjson(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<unknown[]> {
  const documents: unknown[] = [];
  let line = 1;
  let rest = '';
  const parseLine = (text: string) => {
    const trimmed = text.trim();
    if (trimmed !== '') {
      try {
        documents.push(JSON.parse(trimmed));
      } catch {
        throw new ValidationError(`Line ${line} of the body is not valid JSON`, 'INVALID_JSON');
      }
    }
    line += 1;
  };
  return readBodyText(
    request,
    payload,
    new ValidationError(NOT_UTF8_MESSAGE, 'INVALID_JSON'),
    (text) => {
      // Only the new text is searched: a long line arriving in many chunks is not scanned again and again.
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        parseLine(rest + text.slice(start, end));
        rest = '';
        start = end + 1;
      }
      rest += text.slice(start);
    },
    () => {
      parseLine(rest);
      return documents;
    },
  );
}

/**
 * A JSON body read element by element while it is a plain array (see above); otherwise, and when
 * an element does not parse, the whole text through `parseJsonText`, as any route's body.
 */
export function parseJsonArray(
  parseJson: JsonParser,
  request: FastifyRequest,
  payload: NodeJS.ReadableStream,
): Promise<unknown> {
  const texts: string[] = [];
  const splitter = new JsonArraySplitter();
  let elements: unknown[] | undefined = [];
  /** An element's value, or undefined when the parser refused it (or did not answer at once). */
  const parseElement = (text: string): { value: unknown } | undefined => {
    // The parser drops a byte-order mark that begins its text: in an element it is not JSON.
    if (text.charCodeAt(0) === 0xfeff) return undefined;
    let parsed: { value: unknown } | undefined;
    parseJson(request, text, (error, value) => {
      if (!error) parsed = { value };
    });
    return parsed;
  };
  return readBodyText(
    request,
    payload,
    NOT_UTF8_REFUSAL,
    (text) => {
      texts.push(text);
      if (elements === undefined) return;
      const done = splitter.push(text);
      if (done === false) {
        elements = undefined;
        return;
      }
      for (const element of done) {
        const parsed = parseElement(element);
        // A refused element sends the whole text down the common path, which says why.
        if (parsed === undefined) {
          elements = undefined;
          return;
        }
        elements.push(parsed.value);
      }
    },
    () => (elements !== undefined && splitter.end() ? elements : undefined),
  ).then(
    (array) =>
      array ??
      new Promise<unknown>((resolve, reject) =>
        parseJsonText(parseJson, request, texts.join(''), (error, value) =>
          error ? reject(error) : resolve(value),
        ),
      ),
  );
}
