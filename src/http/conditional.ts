import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { getCatalogueVersion, type CatalogueVersion } from '../domain/changes/change-counter.service.js';
import { ValidationError } from '../domain/errors.js';
import type { ExpectedRevision, ProductVersion } from '../domain/products/product.service.js';
import type { HttpDeps } from './http-deps.js';
import { requestContext } from './request-context.js';
import { CATALOGUE_READ } from './route-access.js';
import { HEADERS, errorResponses } from './response.schemas.js';

/**
 * Conditional requests (RFC 9110, section 13; docs/conditional-requests.md). The versions come from
 * the database, never from hashing a body: a product's revision for GET /api/product/{id}, the
 * workspace's change counter for every other catalogue read. ETags are weak: `W/"w1-p42-r17-deu"`
 * (workspace, product, revision, language of the name) and `W/"w1-c815-1x2y3z"` (workspace,
 * counter, hash of the request's path and query, which name the representation).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Where the ETag of the route's 200 comes from: 'catalogue', the workspace's change counter
     * (read and compared before the handler runs); 'product', the handler's own (product.routes.ts).
     */
    etag?: 'catalogue' | 'product';
    /** The route honours If-Match (the handler passes it to the service): documented with 412. */
    ifMatch?: boolean;
  }
}

/** `*`, or the opaque tags of a list of entity tags (the text between the quotes; W/ is dropped). */
export type EntityTags = '*' | string[];

const LIST_ELEMENT = /[\s,]*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;

/** Parses If-Match or If-None-Match (`*` or 1#entity-tag); null when the value is malformed. */
export function parseEntityTags(value: string): EntityTags | null {
  const text = value.trim();
  if (text === '*') return '*';
  const tags: string[] = [];
  let at = 0;
  while (at < text.length) {
    LIST_ELEMENT.lastIndex = at;
    const match = LIST_ELEMENT.exec(text);
    if (!match) {
      if (/^[\s,]*$/.test(text.slice(at))) break;
      return null;
    }
    tags.push(match[1]!);
    at = LIST_ELEMENT.lastIndex;
  }
  return tags.length > 0 ? tags : null;
}

/** The opaque tag of one of our ETags (`W/"x"` → `x`). */
function opaque(etag: string): string {
  return etag.slice(etag.indexOf('"') + 1, -1);
}

/** Weak comparison (RFC 9110, 8.8.3.2) of a list against an ETag; `*` matches any current representation. */
export function matchesWeakly(tags: EntityTags, etag: string): boolean {
  return tags === '*' || tags.includes(opaque(etag));
}

export function productEtag(version: ProductVersion): string {
  return `W/"w${version.workspaceId}-p${version.productId}-r${version.revision}-${version.language}"`;
}

/** FNV-1a of the request target: which representation (path, ?lang=, paging, filters). Not a secret. */
function targetHash(url: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) hash = Math.imul(hash ^ url.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

export function catalogueEtag(version: CatalogueVersion, url: string): string {
  return `W/"w${version.workspaceId}-c${version.counter}-${targetHash(url)}"`;
}

const PRODUCT_TAG = /^w(\d+)-p(\d+)-r(\d+)-[a-z]{3}$/;

function header(request: FastifyRequest, name: 'if-match' | 'if-none-match'): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * If-None-Match of a read; a malformed one is ignored (the read is answered in full), as
 * a cache or proxy may send what it likes and a read changes nothing.
 */
function ifNoneMatch(request: FastifyRequest): EntityTags | undefined {
  const value = header(request, 'if-none-match');
  return value === undefined ? undefined : (parseEntityTags(value) ?? undefined);
}

/**
 * If-Match of a change to product `productId` as the service's condition: `*` (the product
 * exists) or the revisions named by its ETags (of any language). Tags of other products or
 * workspaces, or of lists, name no revision of it. A malformed value is refused with 400
 * INVALID_PRECONDITION: a change must not go ahead, or be refused, on a condition nobody can read.
 */
export function expectedRevision(
  request: FastifyRequest,
  workspaceId: number | undefined,
  productId: number,
): ExpectedRevision | undefined {
  const value = header(request, 'if-match');
  return value === undefined ? undefined : expectedRevisionOf(value, workspaceId, productId);
}

/** expectedRevision of an If-Match value (the window's editor sends the product's ETag in its body). */
export function expectedRevisionOf(
  value: string,
  workspaceId: number | undefined,
  productId: number,
): ExpectedRevision {
  const tags = parseEntityTags(value);
  if (tags === null) {
    throw new ValidationError(
      'If-Match must be * or a comma-separated list of entity tags, such as W/"w1-p42-r7-deu" from an ETag',
      'INVALID_PRECONDITION',
    );
  }
  if (tags === '*') return 'any';
  const revisions: number[] = [];
  for (const tag of tags) {
    const match = PRODUCT_TAG.exec(tag);
    if (match && Number(match[1]) === workspaceId && Number(match[2]) === productId) {
      revisions.push(Number(match[3]));
    }
  }
  return revisions;
}

function notModified(reply: FastifyReply, etag: string): FastifyReply {
  return reply.code(304).header('ETag', etag).send();
}

/**
 * Answers 304 when If-None-Match names the current version, which `current` looks up cheaply
 * (without building the representation); false when the read must be answered in full. Only
 * listed tags are checked here: `*` depends on whether the resource exists, which the full
 * read finds out (the onSend hook answers it).
 */
export async function answeredNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  current: () => Promise<string | undefined>,
): Promise<boolean> {
  const tags = ifNoneMatch(request);
  if (tags === undefined || tags === '*') return false;
  const etag = await current();
  if (etag === undefined || !matchesWeakly(tags, etag)) return false;
  notModified(reply, etag);
  return true;
}

const IfNoneMatchHeader = Type.String({
  description:
    'ETags of representations the client holds (or *): when one is current, the answer is 304 with no body. ' +
    'A malformed value is ignored.',
});
const IfMatchHeader = Type.String({
  description:
    'Optimistic locking: ETags of GET /api/product/{id} (any language) or *. The change is made only while ' +
    'the product is at one of those versions, else 412 PRECONDITION_FAILED and nothing changes. Malformed: 400.',
});
const NotModified = Type.Null({
  description: 'Not modified: the representation named in If-None-Match is current; no body',
  headers: { ETag: HEADERS.ETag },
});

function withEtag(response: TSchema | undefined): TSchema | undefined {
  if (!response) return response;
  const headers = (response as { headers?: Record<string, unknown> }).headers;
  return { ...response, headers: { ...headers, ETag: HEADERS.ETag } };
}

/**
 * Documents a conditional route's answers from its config: ETag, 304 and 412. Its request headers
 * are documented by conditionalRequestHeaders.
 */
function documentConditions(route: RouteOptions): void {
  const config = route.config as { etag?: string; ifMatch?: boolean };
  const schema = (route.schema ??= {});
  const response = { ...(schema.response as Record<number, TSchema> | undefined) };
  if (config.etag) {
    response[200] = withEtag(response[200])!;
    response[304] = NotModified;
  }
  if (config.ifMatch) {
    if (route.method === 'PUT') response[200] = withEtag(response[200])!;
    Object.assign(response, errorResponses(412));
  }
  schema.response = response;
}

/**
 * The request headers a conditional route reads, for the API description only (openapi.ts adds
 * them). In the route's schema Fastify would validate them on every request: Ajv and the scan for
 * unstorable characters over every header, and every later read of request.headers a copy of
 * them all. No value can fail that: Node's parser refuses control characters in a header, a
 * header decoded as Latin-1 holds no surrogate, and the values are read here (a malformed
 * If-None-Match is ignored, a malformed If-Match answered 400 by expectedRevisionOf).
 */
export function conditionalRequestHeaders(config: unknown): TSchema | undefined {
  const { etag, ifMatch } = (config ?? {}) as { etag?: string; ifMatch?: boolean };
  if (!etag && !ifMatch) return undefined;
  return Type.Object({
    ...(etag ? { 'If-None-Match': Type.Optional(IfNoneMatchHeader) } : {}),
    ...(ifMatch ? { 'If-Match': Type.Optional(IfMatchHeader) } : {}),
  });
}

/** The ETag of a catalogue read: the counter, read before the handler reads the data (never newer than it). */
function catalogueEtagHook(deps: HttpDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const version = await getCatalogueVersion(requestContext(request, deps));
    const etag = catalogueEtag(version, request.url);
    reply.header('ETag', etag);
    const tags = ifNoneMatch(request);
    if (tags !== undefined && tags !== '*' && matchesWeakly(tags, etag)) return notModified(reply, etag);
    return undefined;
  };
}

/**
 * No ETag on anything but a 2xx; and a read answered in full although If-None-Match is `*`
 * (known to match only now that the resource turned out to exist) becomes a 304.
 */
function finishConditional(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  const etag = reply.getHeader('etag');
  const status = reply.statusCode;
  if (typeof etag !== 'string' || status === 304) return done(null, payload);
  if (status < 200 || status >= 300) {
    reply.removeHeader('etag');
    return done(null, payload);
  }
  const tags = request.method === 'GET' || request.method === 'HEAD' ? ifNoneMatch(request) : undefined;
  if (status !== 200 || tags === undefined || !matchesWeakly(tags, etag)) return done(null, payload);
  (payload as { destroy?: () => void } | null)?.destroy?.();
  reply.code(304).removeHeader('content-type').removeHeader('content-length');
  done(null, null);
}

/** Adds a hook to one route (once: a GET's HEAD twin passes through onRoute with the GET's hooks). */
function addRouteHook(route: RouteOptions, name: 'preHandler' | 'onSend', hook: unknown): void {
  const existing = route[name] as unknown;
  const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  if (!hooks.includes(hook)) (route as unknown as Record<string, unknown>)[name] = [...hooks, hook];
}

/**
 * Conditional requests on the routes whose config asks for them, and only there (no cost for the
 * others): documentation, the ETag of catalogue reads with their 304, and the onSend rules.
 */
export function installConditionalRequests(app: FastifyInstance, deps: HttpDeps): void {
  const catalogueHook = catalogueEtagHook(deps);
  app.addHook('onRoute', (route) => {
    const config = route.config as { etag?: string; ifMatch?: boolean } | undefined;
    if (!config?.etag && !config?.ifMatch) return;
    documentConditions(route);
    if (config.etag === 'catalogue') addRouteHook(route, 'preHandler', catalogueHook);
    addRouteHook(route, 'onSend', finishConditional);
  });
}

/** The config of a catalogue read whose ETag comes from the workspace's change counter. */
export const VERSIONED_CATALOGUE_READ = { ...CATALOGUE_READ, etag: 'catalogue' } as const;
