import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Where in its input a job failed (a file's line and column), when it knows. */
export const JobError = Type.Object(
  {
    message: Type.String({ description: 'What went wrong, in one sentence' }),
    code: Nullable(Type.String({ description: 'Machine-readable code from the error catalogue, if any' })),
    line: Nullable(Type.Integer({ description: 'Line of the input (1-based), if the job reads a file' })),
    column: Nullable(Type.Integer({ description: 'Column of the input (1-based), if the job reads a file' })),
  },
  { title: 'JobError', additionalProperties: false },
);

export const JobDto = Type.Object(
  {
    id: Id,
    kind: Type.String({
      description: 'What the job does: bmecat-import, bmecat-export, mass-edit, mass-edit-undo',
    }),
    state: Type.Union(
      JOB_STATES.map((s) => Type.Literal(s)),
      {
        description:
          'queued, running, succeeded, failed or cancelled. A job whose process stopped before it finished ' +
          '(a crash, a kill) reads as failed; an import writes in one transaction, so it then wrote nothing; a ' +
          'mass edit commits chunks of 1,000 products, and the chunks committed stay (its report names them)',
      },
    ),
    workspaceId: Nullable(Type.Integer({ description: 'The workspace it works on' })),
    processed: Type.Integer({ minimum: 0, description: 'Items done so far (products, for an import)' }),
    total: Nullable(Type.Integer({ minimum: 0, description: 'Items in all, when known beforehand' })),
    createdBy: Type.String({ description: 'The user who started it' }),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
    startedAt: Nullable(Type.String({ format: 'date-time' })),
    finishedAt: Nullable(Type.String({ format: 'date-time' })),
    cancelRequested: Type.Boolean({ description: 'A cancel was asked for and the job has not ended yet' }),
    input: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What it was started with (file name, options)',
    }),
    // Any JSON (null before the job ends): Nullable needs a schema with a type.
    report: Type.Unknown({
      description:
        "A finished job's report (an import's counts and skipped products; a mass edit's MassEditReport, its " +
        "undo's MassEditUndoReport); null before it ends. A mass edit cancelled or failed halfway has one too, " +
        'with partial: true: exactly the products its committed chunks changed, which its undo can restore',
    }),
    error: Nullable(JobError),
  },
  { title: 'JobDto', additionalProperties: false },
);

export type JobDtoValue = Static<typeof JobDto>;
export type JobErrorValue = Static<typeof JobError>;
