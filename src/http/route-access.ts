import type { DomainError } from '../domain/errors.js';
import { RIGHTS, type Right } from '../domain/users/roles.js';

/**
 * What a route demands, declared on the route itself (`config`) and enforced by the auth hook on
 * the route the router matched, never on the URL as written: a path spelled another way
 * (`/%61pi/...`, absolute form) matches the same route and meets the same demands.
 * Every route needs a token unless it says `public`.
 */
export interface RouteAccess {
  /** Answers without a token (login, the API description, CORS preflights). */
  public?: boolean;
  /** The right a user needs (403 without it). */
  right?: Right;
  /** The route works on the open workspace (409 while none is open). */
  workspace?: boolean;
  /**
   * A foreign `Origin` is refused with 403 before the token is even looked at (the MCP endpoint:
   * DNS-rebinding protection, as the MCP specification requires). Own and loopback origins pass.
   */
  sameOriginOnly?: boolean;
  /**
   * The answer instead of 503 DATABASE_UNAVAILABLE when the database cannot be reached at any
   * step of the request, the token check included (the auth hook reads an uncached token from
   * the database): where the spec names another one, as for opening a workspace (400).
   */
  unreachable?: (cause: unknown) => DomainError;
}

declare module 'fastify' {
  // Declaration merging: Fastify's route config gains RouteAccess's fields.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends RouteAccess {}
}

export const PUBLIC: RouteAccess = { public: true };
/** Any logged-in user (logout). */
export const AUTHENTICATED: RouteAccess = {};
export const CATALOGUE_READ: RouteAccess = { right: RIGHTS.read, workspace: true };
export const CATALOGUE_EDIT: RouteAccess = { right: RIGHTS.edit, workspace: true };
/** The MCP endpoint: a token, no right of its own (each tool checks its own), no foreign Origin. */
export const MCP_ENDPOINT: RouteAccess = { sameOriginOnly: true };
