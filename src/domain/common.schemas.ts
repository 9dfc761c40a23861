import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the request and response schemas. Each schema is written once, in the
 * domain beside the data it describes, and serves every adapter: REST validation and OpenAPI,
 * MCP tool input and output schemas, the window's endpoints, and the static types.
 */

/** A string or null, as one JSON-Schema type array (fast to serialise, valid OpenAPI 3.1). */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** Database ids: positive integers within JavaScript's safe range. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });

/** No query parameters: an unknown one answers 400, as on every route. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const LanguageCode = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'ISO 639-2 code, /B or /T form, case-insensitive (ger is stored as deu)',
  examples: ['deu', 'eng', 'fra'],
});
