import type { FastifyRequest } from 'fastify';
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
