import { okEmpty, ok } from '../envelope.js';
import { AUTHENTICATED, PUBLIC } from '../route-access.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { EmptyEnvelope, Envelope, errorResponses } from '../response.schemas.js';
import { LoginRequest, LoginResult } from '../../domain/sessions/auth.schemas.js';
import { NoQuery } from '../../domain/common.schemas.js';

/** The login body's limit: a user name and a password, with room to spare. */
export const LOGIN_BODY_LIMIT = 16 * 1024;

export function authRoutes(app: PimApp, deps: HttpDeps): void {
  app.post(
    '/api/auth/login',
    {
      config: PUBLIC,
      // Two short strings: a large body here is never a real login.
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary: 'Log in and receive a bearer token valid 24 hours',
        description:
          'A token is valid on the pim instance that issued it. A user who holds a live token or ' +
          'desktop session issued by another pim instance on the same system database (another ' +
          'machine) gets 401 `LOGGED_IN_ELSEWHERE` until that session ends; logins on this ' +
          'instance are allowed from any client address. A disabled user gets 401 `USER_DISABLED`.',
        security: [],
        querystring: NoQuery,
        body: LoginRequest,
        response: { 200: Envelope(LoginResult), ...errorResponses(400, 401, 413, 415, 429, 500, 503) },
      },
    },
    async (request) =>
      ok(
        await deps.sessions.login(request.body.username, request.body.password, {
          address: request.ip,
          origin: request.headers.origin,
        }),
      ),
  );

  app.post(
    '/api/auth/logout',
    {
      config: AUTHENTICATED,
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'End the token for good',
        description:
          'No request body is needed; a JSON body, if sent, is ignored. When the caller is the ' +
          "instance's active desktop user, the desktop session (the application window) ends too.",
        querystring: NoQuery,
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 413, 415, 500) },
      },
    },
    async (request) => {
      await deps.sessions.logout(request.user!);
      return okEmpty();
    },
  );
}
