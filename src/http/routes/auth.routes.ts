import { okEmpty, ok } from '../envelope.js';
import { AUTHENTICATED, PUBLIC } from '../route-access.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../app.js';
import { EmptyEnvelope, Envelope, errorResponses } from '../response.schemas.js';
import { LoginRequest, LoginResult } from '../../domain/sessions/auth.schemas.js';

export function authRoutes(app: PimApp, deps: HttpDeps): void {
  app.post(
    '/api/auth/login',
    {
      config: PUBLIC,
      schema: {
        tags: ['auth'],
        summary: 'Log in and receive a bearer token valid 24 hours',
        security: [],
        body: LoginRequest,
        response: { 200: Envelope(LoginResult), ...errorResponses(400, 401, 413, 415, 429, 500) },
      },
    },
    async (request) =>
      ok(await deps.sessions.login(request.body.username, request.body.password, request.ip)),
  );

  app.post(
    '/api/auth/logout',
    {
      config: AUTHENTICATED,
      schema: {
        tags: ['auth'],
        summary: 'End the token for good',
        description: 'No request body is needed; a JSON body, if sent, is ignored.',
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 413, 415, 500) },
      },
    },
    async (request) => {
      await deps.sessions.logout(request.user!);
      return okEmpty();
    },
  );
}
