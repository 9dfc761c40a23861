import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import { GridPreferencesSchema, type GridPreferences } from '../grid-preferences.schemas.js';
import type { WindowDeps } from '../window-deps.js';
import { windowContext } from '../window-context.js';

/** The user's own window choices (no right needed: each user reaches only their own). */
export function preferencesRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get('/ui/api/preferences/grid', async (request) =>
    ok({ value: await deps.preferences.get(windowContext(request, deps), 'grid') }),
  );

  app.put<{ Body: GridPreferences }>(
    '/ui/api/preferences/grid',
    { schema: { body: GridPreferencesSchema } },
    async (request) => {
      await deps.preferences.save(windowContext(request, deps), 'grid', request.body);
      return ok({ value: request.body });
    },
  );
}
