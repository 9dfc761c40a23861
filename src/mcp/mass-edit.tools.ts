import { Type } from '@sinclair/typebox';
import { IdParams } from '../domain/common.schemas.js';
import { JobDto } from '../domain/jobs/job.schemas.js';
import { startUndo } from '../domain/mass-edit/mass-edit-undo.service.js';
import { MassEditPreview, MassEditRequest } from '../domain/mass-edit/mass-edit.schemas.js';
import { previewMassEdit, startMassEdit } from '../domain/mass-edit/mass-edit.service.js';
import { RIGHTS } from '../domain/users/roles.js';
import { defineTool } from './tool.js';

const MassEditOutcome = Type.Object(
  {
    job: Type.Optional(JobDto),
    preview: Type.Optional(MassEditPreview),
  },
  { additionalProperties: false, description: 'The job started, or with dryRun the preview' },
);

/** Mass edits (REST's POST /api/product/mass-edit and POST /api/job/{id}/undo): docs/mass-edits.md. */
export const massEditTools = [
  defineTool({
    name: 'mass_edit',
    title: 'Change many products at once',
    description:
      'One action on every product of a selection, as a job. select: {ids: [...]} or the product grid\u2019s ' +
      'filters ({q, groupId, includeSubgroups, mainOnly, updatedSince, textLang+text, ftidref+feature}; {} is ' +
      'every product), includeVariants adds the variants of selected main products. action: exactly one of ' +
      'setText {kind short|long, lang, value}, setFeature {ftidref, funit?, values [{lang, value}]}, removeFeature ' +
      '{ftidref}, assignGroup {groupId}, unassignGroup {}, delete {} (with variants). With dryRun: true returns ' +
      '{preview}: the count and the first 5 products before and after, writing nothing; run it first. Otherwise ' +
      'returns {job} at once; follow it with get_job: its report has changed (ids as ranges), unchanged, missing ' +
      'and partial (a cancelled or failed job keeps the chunks of 1,000 it committed, exactly those named). ' +
      'undo_mass_edit restores it.',
    input: MassEditRequest,
    output: MassEditOutcome,
    effect: 'delete',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 202,
    run: async (ctx, input, deps) => {
      if (input.dryRun === true) return { preview: await previewMassEdit(ctx, input) };
      const { job } = await startMassEdit(ctx, deps.jobs, input);
      return { job };
    },
  }),
  defineTool({
    name: 'undo_mass_edit',
    title: 'Undo a mass edit',
    description:
      'Starts the undo of a finished (or cancelled, or failed) mass edit as a job; returns the job at once, ' +
      'follow it with get_job. Each product gets back what the edit changed; a product someone changed since is ' +
      'left alone and named in the report (skipped, with id and supplierPid); deleted products come back with ' +
      'their old ids and variants. Refused (409) for a job that is not a mass edit, still runs, was undone, ' +
      'changed nothing, or is older than the newest 20 mass edits of the workspace.',
    input: Type.Object({ jobId: IdParams.properties.id }, { additionalProperties: false }),
    output: JobDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 202,
    run: async (ctx, input, deps) => (await startUndo(ctx, deps.jobs, input.jobId)).job,
  }),
];
