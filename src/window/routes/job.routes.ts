import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../domain/common.schemas.js';
import { ok } from '../../http/envelope.js';
import type { WindowDeps } from '../window-deps.js';
import type { WindowEvents } from '../window-events.js';
import { windowContext } from '../window-context.js';

/**
 * A job as the window follows it (its import dialog): read it (after a reconnect, when pushed
 * events may have been missed) and cancel it. The service's rules: a user's own jobs, an ADMIN's
 * every job; cancelling needs the right to edit.
 */
export function jobRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get<{ Params: { id: number } }>('/ui/api/jobs/:id', { schema: { params: IdParams } }, async (request) =>
    ok(events.reads.withRead(await deps.jobs.get(windowContext(request, deps), request.params.id))),
  );

  app.post<{ Params: { id: number } }>(
    '/ui/api/jobs/:id/cancel',
    { schema: { params: IdParams } },
    async (request) =>
      ok(events.reads.withRead(await deps.jobs.cancel(windowContext(request, deps), request.params.id))),
  );
}
