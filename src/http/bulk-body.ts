import { errorCodes, type FastifyRequest } from 'fastify';
import { ValidationError } from '../domain/errors.js';
import { bodyRefusal, NOT_UTF8_MESSAGE } from './body-checks.js';

/**
 * Request bodies of the bulk routes. `application/x-ndjson` (one document per line) is parsed as
 * it arrives, a line at a time, so that only the documents and one line are ever held.
 * `application/json` (an array) is read whole, up to the route's limit, and parsed by V8's
 * native parser, which is faster than any incremental JSON parser written in JavaScript.
 */
export function parseNdjson(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<unknown[]> {
  const refusal = bodyRefusal(request);
  if (refusal) return Promise.reject(refusal);
  const limit = request.routeOptions.bodyLimit ?? 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const documents: unknown[] = [];
  let received = 0;
  let line = 1;
  let rest = '';
  const take = (text: string) => {
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
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new ValidationError(NOT_UTF8_MESSAGE, 'INVALID_JSON');
    }
  };
  return new Promise((resolve, reject) => {
    let refused: unknown;
    payload.on('data', (chunk: Buffer) => {
      // After a refusal the rest of the body is read and dropped, and the answer given at its end:
      // the client, still sending, then reads it (answering at once left the connection hanging).
      if (refused !== undefined) return;
      try {
        received += chunk.length;
        // Fastify checks the limit only for bodies it reads itself.
        if (received > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
        const text = decode(chunk);
        // Only the new text is searched: a long line arriving in many chunks is not scanned again and again.
        let start = 0;
        for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
          take(rest + text.slice(start, end));
          rest = '';
          start = end + 1;
        }
        rest += text.slice(start);
      } catch (error) {
        refused = error;
        rest = '';
      }
    });
    payload.on('end', () => {
      try {
        if (refused !== undefined) throw refused;
        take(rest + decode());
        resolve(documents);
      } catch (error) {
        reject(error);
      }
    });
    payload.once('error', reject);
  });
}
