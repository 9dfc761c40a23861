import { Type, type TSchema } from '@sinclair/typebox';
import { EmptyEnvelope, Envelope, ErrorEnvelope } from './envelope.js';
import { STATUS_DESCRIPTIONS } from './error-status.js';

/** The error statuses a route can answer, each with the error envelope, for OpenAPI. */
export function errorResponses(...statuses: number[]) {
  const result: Record<number, TSchema> = {};
  for (const status of statuses) {
    result[status] = Type.Object(ErrorEnvelope.properties, {
      additionalProperties: false,
      description: STATUS_DESCRIPTIONS[status] ?? 'Error',
    });
  }
  return result;
}

/** Statuses every authenticated route can answer. */
export const AUTHENTICATED_ERRORS = [401, 500] as const;
/** Statuses every workspace route can answer besides its own. */
export const WORKSPACE_ERRORS = [400, 401, 403, 404, 409, 500] as const;

export { Envelope, EmptyEnvelope };
