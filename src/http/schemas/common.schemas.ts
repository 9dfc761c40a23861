import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { EmptyEnvelope, Envelope, ErrorEnvelope } from '../envelope.js';
import { STATUS_DESCRIPTIONS } from '../error-status.js';

/** A string or null, as one JSON-Schema type array (fast to serialise, valid OpenAPI 3.1). */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** Database ids in paths: positive integers within JavaScript's safe range. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });

export const LanguageCode = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'ISO 639-2 code, /B or /T form, case-insensitive (ger is stored as deu)',
  examples: ['deu', 'eng', 'fra'],
});

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
