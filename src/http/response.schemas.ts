import { Type, type TSchema } from '@sinclair/typebox';
import { EmptyEnvelope, Envelope, ErrorEnvelope } from './envelope.js';
import { STATUS_DESCRIPTIONS } from './error-status.js';

/** Headers of answers, documented on the responses that carry them. */
export const HEADERS = {
  Location: { type: 'string', description: 'Path of the created resource, e.g. /api/product/42' },
  Link: {
    type: 'string',
    description: 'The next page: <url>; rel="next" (paged lists only, while more follow)',
  },
  'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again' },
  Allow: {
    type: 'string',
    description: 'The methods the path answers, comma-separated, e.g. GET, HEAD, PUT, DELETE, OPTIONS',
  },
  ETag: {
    type: 'string',
    description:
      'Weak entity tag of this representation (W/"…"), from the version the data was read at: If-None-Match ' +
      "with it answers 304 while nothing changed; a product's makes a change conditional with If-Match",
  },
  'WWW-Authenticate': {
    type: 'string',
    description: 'Bearer realm="pim", with error="invalid_token" when a sent token is not valid (RFC 6750)',
  },
} as const;

const RESPONSE_HEADERS: Record<number, Record<string, unknown>> = {
  401: { 'WWW-Authenticate': HEADERS['WWW-Authenticate'] },
  405: { Allow: HEADERS.Allow },
  429: { 'Retry-After': HEADERS['Retry-After'] },
  503: { 'Retry-After': HEADERS['Retry-After'] },
};

/** A created resource's answer: the envelope with a Location header (and an ETag, for a product). */
export function Created<T extends TSchema>(data: T, options: { etag?: boolean } = {}) {
  return Type.Object(Envelope(data).properties, {
    additionalProperties: false,
    description:
      `Created: ${data.title ?? 'the resource'} in data, its path in Location` +
      (options.etag ? ', its ETag (as GET would answer it in the language of name)' : ''),
    headers: { Location: HEADERS.Location, ...(options.etag ? { ETag: HEADERS.ETag } : {}) },
  });
}

/** A list that can be paged: the envelope, and a Link header while more pages follow. */
export function PagedList<T extends TSchema>(items: T) {
  return Type.Object(Envelope(Type.Array(items)).properties, {
    additionalProperties: false,
    description: `Success: an array of ${items.title ?? 'items'} in data; with limit, Link names the next page`,
    headers: { Link: HEADERS.Link },
  });
}

/** The error statuses a route can answer, each with the error envelope, for OpenAPI. */
export function errorResponses(...statuses: number[]) {
  const result: Record<number, TSchema> = {};
  for (const status of statuses) {
    const headers = RESPONSE_HEADERS[status];
    result[status] = Type.Object(ErrorEnvelope.properties, {
      additionalProperties: false,
      description: STATUS_DESCRIPTIONS[status] ?? 'Error',
      ...(headers ? { headers } : {}),
    });
  }
  return result;
}

export { Envelope, EmptyEnvelope };
