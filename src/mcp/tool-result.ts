import { Type } from '@sinclair/typebox';
import { DomainError } from '../domain/errors.js';
import { ErrorCode, ErrorSentence } from '../domain/error.schemas.js';
import { domainErrorOf } from '../domain/domain-error-of.js';
import { errorStatus, type ErrorCodeName } from '../domain/error-codes.js';

/**
 * The structuredContent of a tool error: REST's sentence and code, and the status REST answers.
 * Every tool's advertised outputSchema allows it beside the tool's own result (mcp-server.ts).
 */
export const ToolErrorContent = Type.Object(
  {
    error: ErrorSentence,
    code: ErrorCode,
    status: Type.Integer({
      minimum: 400,
      maximum: 599,
      description: 'The HTTP status the REST interface answers for the same failure',
    }),
  },
  { additionalProperties: false, title: 'ToolError' },
);

/** A tools/call result as MCP defines it: structured content and the same JSON as text. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A tool's result that is JSON text already (written by the database): passed on as the text
 * content as it is, and parsed into structuredContent only when someone reads it (the SDK does;
 * the HTTP fast path splices the text into its answer instead). `T` is the shape it encodes.
 */
export class EncodedJson<T = unknown> {
  declare readonly shape?: T;
  constructor(readonly text: string) {}
}

/** The JSON text of a result's structuredContent when it came as EncodedJson (see above). */
const encodings = new WeakMap<ToolResult, string>();

export function encodedStructuredContent(result: ToolResult): string | undefined {
  return encodings.get(result);
}

export function toolSuccess(value: unknown): ToolResult {
  if (!(value instanceof EncodedJson)) {
    const structured = value as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }
  const text = value.text;
  let parsed: Record<string, unknown> | undefined;
  const result = { content: [{ type: 'text' as const, text }] } as ToolResult;
  Object.defineProperty(result, 'structuredContent', {
    enumerable: true,
    get: () => (parsed ??= JSON.parse(text) as Record<string, unknown>),
  });
  encodings.set(result, text);
  return result;
}

/** What an agent can do about an error, where the domain's sentence cannot say it (REST has its own hints). */
const MCP_HINTS: Partial<Record<ErrorCodeName, string>> = {
  NO_WORKSPACE_OPEN: 'open one with the tool open_workspace (list_workspaces shows them)',
};

/** The tool error of a failure and the status REST answers for it (the request monitor shows it). */
export interface ToolFailure {
  result: ToolResult;
  status: number;
}

/**
 * The one mapping of errors to MCP tool errors: a domain error becomes a result with isError,
 * the sentence REST puts in `error` (with an agent's hint where REST gives a REST one) and
 * `{error, code, status}` with the status REST would answer (`unreachable`: the tool's answer
 * to an unreachable database, as its REST route's). Anything else is an internal error whose
 * detail goes to `log` only.
 */
export function toolFailure(
  thrown: unknown,
  log: (error: unknown) => void,
  unreachable?: (cause: unknown) => DomainError,
): ToolFailure {
  const error = domainErrorOf(thrown, unreachable) ?? thrown;
  let code: ErrorCodeName = 'INTERNAL';
  let message = 'Internal server error';
  if (error instanceof DomainError) {
    code = error.detailCode;
    const hint = MCP_HINTS[code];
    message = hint ? `${error.message}: ${hint}` : error.message;
    if (error.cause !== undefined) log(error.cause);
  } else {
    log(error);
  }
  const status = errorStatus(code);
  const structured = { error: message, code, status };
  return {
    status,
    result: { content: [{ type: 'text', text: message }], structuredContent: structured, isError: true },
  };
}
