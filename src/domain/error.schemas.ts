import { Type } from '@sinclair/typebox';
import { ERROR_CODE_NAMES, type ErrorCodeName } from './error-codes.js';

/**
 * What every failure says, on every adapter: REST's error envelope (http/envelope.ts) and the
 * agent interface's tool errors (mcp/tool-result.ts) are built from these.
 */
export const ErrorSentence = Type.String({
  description: 'One English sentence naming the field or resource',
});

export const ErrorCode = Type.Unsafe<ErrorCodeName>({
  type: 'string',
  enum: ERROR_CODE_NAMES,
  description:
    'Machine-readable error code from the catalogue in the API description, e.g. PRODUCT_NOT_FOUND',
});
