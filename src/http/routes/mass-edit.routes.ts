import { Type } from '@sinclair/typebox';
import { NoQuery } from '../../domain/common.schemas.js';
import { JobDto } from '../../domain/jobs/job.schemas.js';
import { MassEditPreview, MassEditRequest } from '../../domain/mass-edit/mass-edit.schemas.js';
import { previewMassEdit, startMassEdit } from '../../domain/mass-edit/mass-edit.service.js';
import { ok } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { requestContext } from '../request-context.js';
import { Envelope, errorResponses, HEADERS } from '../response.schemas.js';
import { CATALOGUE_EDIT } from '../route-access.js';

/**
 * `POST /api/product/mass-edit`: one action on every product of a selection, as a job (issue 36,
 * docs/mass-edits.md); with dryRun the count and a preview. Not in the spec: pim's addition.
 */
export function massEditRoutes(app: PimApp, deps: HttpDeps): void {
  app.post(
    '/api/product/mass-edit',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'massEditProducts',
        tags: ['product', 'job'],
        summary: 'Change many products at once (one action on a selection), as a job',
        description:
          'The selection is `ids` or the product grid\u2019s filters (`{}`: every product; `includeVariants` adds ' +
          'the variants of the selected main products). Everything is checked before a job starts: an unknown id ' +
          'or group answers 404, a bad language or an action that is not exactly one 400, and nothing is written. ' +
          'Answers 202 with the job (kind mass-edit) and Location: /api/job/{id}; follow it there. It works in ' +
          'chunks of 1,000 products in id order, each committed on its own (change counter, updatedAt, revision ' +
          'and ETags change as for single edits; products the action does not change are not touched). A job ' +
          'cancelled or failed halfway keeps the chunks committed, and its report (partial: true) names exactly ' +
          'the products changed; POST /api/job/{id}/undo restores them. With dryRun: true the answer is 200 with ' +
          'the count and the first 5 products before and after; nothing is written.',
        querystring: NoQuery,
        body: MassEditRequest,
        response: {
          200: Envelope(MassEditPreview),
          202: Type.Object(Envelope(JobDto).properties, {
            additionalProperties: false,
            description: 'Accepted: the job in data, its path in Location',
            headers: { Location: HEADERS.Location },
          }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      if (request.body.dryRun === true) return ok(await previewMassEdit(ctx, request.body));
      const { job } = await startMassEdit(ctx, deps.jobs, request.body);
      return reply.code(202).header('Location', `/api/job/${job.id}`).send(ok(job));
    },
  );
}
