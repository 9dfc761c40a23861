import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../domain/common.schemas.js';
import {
  MassEditRequest,
  type MassEditPreviewValue,
  type MassEditReportValue,
  type MassEditRequestValue,
  type MassEditUndoReportValue,
} from '../../domain/mass-edit/mass-edit.schemas.js';
import { previewMassEdit, startMassEdit } from '../../domain/mass-edit/mass-edit.service.js';
import { startUndo } from '../../domain/mass-edit/mass-edit-undo.service.js';
import { ok } from '../../http/envelope.js';
import type {
  MassEditPreviewView,
  MassEditReportView,
  MassEditRequestView,
  MassEditUndoReportView,
} from '../mass-edit-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import type { WindowEvents } from '../window-events.js';
import { windowContext } from '../window-context.js';

// The contract the front end imports and the domain's shapes are one: these fail to compile otherwise.
const _requestMatches: (request: MassEditRequestView) => MassEditRequestValue = (request) => request;
const _previewMatches: (preview: MassEditPreviewValue) => MassEditPreviewView = (preview) => preview;
const _reportMatches: (report: MassEditReportValue) => MassEditReportView = (report) => report;
const _undoMatches: (report: MassEditUndoReportValue) => MassEditUndoReportView = (report) => report;
void [_requestMatches, _previewMatches, _reportMatches, _undoMatches];

/**
 * A selection of up to 100,000 ids (SELECTION_IDS_MAX) at up to 7 digits and a comma each: the
 * window's usual 64 KiB would refuse a large picked selection ("all matching" sends filters instead).
 */
const MASS_EDIT_BODY_LIMIT = 1024 * 1024;

/**
 * The grid's mass edit dialog: the preview (dryRun: the count and a few products before and after)
 * or the job itself (202), and the undo of a finished one, the same services as REST's
 * POST /api/product/mass-edit and POST /api/job/{id}/undo with the desktop session's context (they
 * check the right to edit). The job's progress reaches the window as `job` events, as an import's.
 */
export function massEditRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.post<{ Body: MassEditRequestValue }>(
    '/ui/api/mass-edit',
    { bodyLimit: MASS_EDIT_BODY_LIMIT, schema: { body: MassEditRequest } },
    async (request, reply) => {
      const ctx = windowContext(request, deps);
      if (request.body.dryRun === true) return ok(await previewMassEdit(ctx, request.body));
      const { job } = await startMassEdit(ctx, deps.jobs, request.body);
      return reply.code(202).send(ok(events.reads.withRead(job)));
    },
  );

  app.post<{ Params: { id: number } }>(
    '/ui/api/jobs/:id/undo',
    { schema: { params: IdParams } },
    async (request, reply) => {
      const { job } = await startUndo(windowContext(request, deps), deps.jobs, request.params.id);
      return reply.code(202).send(ok(events.reads.withRead(job)));
    },
  );
}
