import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCodeName } from '../domain/error-codes.js';
import { ErrorCode, ErrorSentence } from '../domain/error.schemas.js';

/**
 * The spec's response envelope `{success, data, error}`, written in this one place:
 * response schemas, success bodies and error bodies all come from here.
 */
export function Envelope<T extends TSchema>(data: T, description = describeData(data)) {
  return Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false, description });
}

/** "Success: ProductDto in data", or "an array of ProductDto", from the schema's title. */
function describeData(data: TSchema): string {
  const items = (data as { items?: TSchema }).items;
  const what =
    data.title ??
    (items?.title ? `an array of ${items.title}` : data.type === 'array' ? 'an array' : 'the result');
  return `Success: ${what} in data`;
}

export const EmptyEnvelope = Type.Object(
  { success: Type.Literal(true) },
  { additionalProperties: false, description: 'Success without data (delete, logout)' },
);

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: ErrorSentence,
    code: ErrorCode,
  },
  { additionalProperties: false, $id: 'ErrorEnvelope', title: 'ErrorEnvelope' },
);

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

export function okEmpty(): { success: true } {
  return { success: true };
}

export function failure(
  error: string,
  code: ErrorCodeName,
): { success: false; error: string; code: ErrorCodeName } {
  return { success: false, error, code };
}

/** The content type of JSON answers sent as text (the serialiser sets the same). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The success envelope, as text, around data that is JSON already. */
export function okJson(dataJson: string): string {
  return `{"success":true,"data":${dataJson}}`;
}

const ARRAY_OPEN = '{"success":true,"data":[';
const ARRAY_CLOSE = ']}';
const ARRAY_OPEN_BYTES = Buffer.from(ARRAY_OPEN);
const ARRAY_CLOSE_BYTES = Buffer.from(ARRAY_CLOSE);

/** The success envelope around array items that are JSON already (joined by commas, UTF-8; null: none). */
export function okJsonArrayBytes(items: Uint8Array | null): Buffer {
  return Buffer.concat(
    items === null ? [ARRAY_OPEN_BYTES, ARRAY_CLOSE_BYTES] : [ARRAY_OPEN_BYTES, items, ARRAY_CLOSE_BYTES],
  );
}

/**
 * The success envelope around an array whose items arrive as chunks of JSON text (items
 * joined by commas): the first bytes leave before the first chunk is read.
 */
export async function* streamArrayEnvelope(
  chunks: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<string | Uint8Array> {
  yield ARRAY_OPEN;
  let first = true;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    if (!first) yield ',';
    yield chunk;
    first = false;
  }
  yield ARRAY_CLOSE;
}
