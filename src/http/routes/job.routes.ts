import { Type } from '@sinclair/typebox';
import { IdParams, NoQuery } from '../../domain/common.schemas.js';
import { JobDto } from '../../domain/jobs/job.schemas.js';
import { startUndo } from '../../domain/mass-edit/mass-edit-undo.service.js';
import { RIGHTS } from '../../domain/users/roles.js';
import { ok } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { requestContext } from '../request-context.js';
import { Envelope, errorResponses, HEADERS } from '../response.schemas.js';
import { CATALOGUE_EDIT } from '../route-access.js';

/**
 * Jobs (imports now; exports and mass edits next): their state, progress and report, and cancel.
 * Not part of the spec: pim's addition, in its style (docs/bmecat.md, "Jobs"). A user sees their
 * own jobs, an ADMIN every job.
 */
export function jobRoutes(app: PimApp, deps: HttpDeps): void {
  app.get(
    '/api/job',
    {
      config: { right: RIGHTS.read },
      schema: {
        operationId: 'listJobs',
        tags: ['job'],
        summary: 'Recent jobs, newest first (at most 100): your own, or every job for an ADMIN',
        querystring: NoQuery,
        response: { 200: Envelope(Type.Array(JobDto)), ...errorResponses(400, 401, 403, 500) },
      },
    },
    async (request) => ok(await deps.jobs.list(requestContext(request, deps))),
  );

  app.get(
    '/api/job/:id',
    {
      config: { right: RIGHTS.read },
      schema: {
        operationId: 'getJob',
        tags: ['job'],
        summary: 'A job: state, products processed, total when known, its report or error',
        description:
          'state is queued, running, succeeded, failed or cancelled. A job whose process stopped before it ' +
          'ended reads as failed. 404 for a job that does not exist or is another user\u2019s (unless ADMIN).',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Envelope(JobDto), ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => ok(await deps.jobs.get(requestContext(request, deps), request.params.id)),
  );

  app.post(
    '/api/job/:id/cancel',
    {
      config: { right: RIGHTS.edit },
      schema: {
        operationId: 'cancelJob',
        tags: ['job'],
        summary:
          'Ask a running job to stop: it ends as cancelled (an import writes nothing; a mass edit keeps its committed chunks)',
        description:
          'Answers the job as it stands: cancelRequested is true until the work has stopped (at its next ' +
          'progress, well within a second), then the state is cancelled. 409 JOB_FINISHED for a job that ' +
          'has ended.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Envelope(JobDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => ok(await deps.jobs.cancel(requestContext(request, deps), request.params.id)),
  );

  app.post(
    '/api/job/:id/undo',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'undoMassEdit',
        tags: ['job'],
        summary: 'Undo a finished mass edit, as a new job (kind mass-edit-undo)',
        description:
          'Restores what the mass edit changed (all of it, or what a cancelled or failed one committed) to the ' +
          'state before it, in chunks like the edit. A product changed by someone else since is left alone and ' +
          'named in the report (skipped); deleted products come back under their old ids with their variants. ' +
          'Answers 202 with the new job and Location: /api/job/{id}. 409 JOB_NOT_MASS_EDIT (another kind of job, ' +
          'or a mass edit of another workspace), JOB_RUNNING (it or its undo still runs), MASS_EDIT_UNDONE, ' +
          'NOTHING_TO_UNDO, UNDO_EXPIRED (a workspace keeps the undo data of its newest 20 mass edits).',
        params: IdParams,
        querystring: NoQuery,
        response: {
          202: Type.Object(Envelope(JobDto).properties, {
            additionalProperties: false,
            description: 'Accepted: the undo job in data, its path in Location',
            headers: { Location: HEADERS.Location },
          }),
          ...errorResponses(400, 401, 403, 404, 409, 500),
        },
      },
    },
    async (request, reply) => {
      const { job } = await startUndo(requestContext(request, deps), deps.jobs, request.params.id);
      return reply.code(202).header('Location', `/api/job/${job.id}`).send(ok(job));
    },
  );
}
