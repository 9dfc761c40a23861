import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BodyRefusal } from './error-handler.js';

const UTF8 = /^"?utf-?8"?$/i;

/**
 * What every body parser checks before it reads: pim reads bodies as they are, in UTF-8 (RFC
 * 8259). A Content-Encoding (gzip) or another charset would be read as something else than was
 * sent: 415, never a body read wrongly.
 */
export function bodyRefusal(request: FastifyRequest): BodyRefusal | undefined {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return new BodyRefusal(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Encoding ${encoding} is not supported: send the body uncompressed`,
    );
  }
  // Node decodes chunked only, and passes a body sent as 'gzip, chunked' on as it came.
  const transfer = request.headers['transfer-encoding']?.trim().toLowerCase();
  if (transfer && transfer !== 'chunked') {
    return new BodyRefusal(
      'UNSUPPORTED_MEDIA_TYPE',
      `Transfer-Encoding ${transfer} is not supported: send the body uncompressed, chunked or with Content-Length`,
    );
  }
  const charset = /;\s*charset\s*=\s*([^;\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !UTF8.test(charset)) {
    return new BodyRefusal(
      'UNSUPPORTED_MEDIA_TYPE',
      `Request body must be UTF-8: charset=${charset} is not supported`,
    );
  }
  return undefined;
}

/** A key JSON.parse accepts but the parser refuses (it could reach an object's prototype). */
export const POISON_KEY_REFUSAL = new BodyRefusal(
  'VALIDATION_FAILED',
  'Request body must not contain the key __proto__, nor a key constructor holding prototype',
);

/**
 * A body that is not UTF-8. Decoded as it came, its stray bytes would each read as U+FFFD, so two
 * different values (supplierPids `CT\xff10` and `CT\xfe10`) would be stored alike: refused instead.
 */
export const NOT_UTF8_MESSAGE = 'Request body is not valid UTF-8';
export const NOT_UTF8_REFUSAL = new BodyRefusal('INVALID_JSON', NOT_UTF8_MESSAGE);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one body parser of pim's HTTP servers (REST and the window): JSON only, any other content
 * type answers 415. The checks of `bodyRefusal` first; bytes that are not UTF-8 are refused (the
 * body is read as bytes and checked in one native pass before it is decoded); an empty JSON body
 * reads as no body, because many clients send the header on every request; a poison key is a
 * validation error. Refusals are BodyRefusal errors, which each server's error handler answers
 * with their code (on /mcp as a JSON-RPC parse error).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    const refusal = bodyRefusal(request);
    if (refusal) return done(refusal, undefined);
    if (!isUtf8(body)) return done(NOT_UTF8_REFUSAL, undefined);
    parseJsonText(parseJson, request, body.toString(), done);
  });
}

/** Fastify's JSON parser, refusing keys that could reach a prototype (`getDefaultJsonParser('error', 'error')`). */
export type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

/**
 * The decoded text of a JSON body, answered as the one body parser answers it: whitespace only is
 * no body; a poison key is named as such.
 */
export function parseJsonText(
  parseJson: JsonParser,
  request: FastifyRequest,
  text: string,
  done: (error: Error | null, value: unknown) => void,
): void {
  if (text.trim() === '') return done(null, undefined);
  parseJson(request, text, (error, value) => {
    // The parser refuses __proto__ and constructor.prototype as "not JSON": say what it is.
    if (error && isJson(text)) return done(POISON_KEY_REFUSAL, undefined);
    done(error ?? null, value);
  });
}
