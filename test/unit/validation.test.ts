import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LoginRequest } from '../../src/domain/sessions/auth.schemas.js';
import { OpenWorkspaceRequest } from '../../src/domain/workspaces/workspace.schemas.js';
import { schemaErrorFormatter, validatorCompiler } from '../../src/http/validation.js';

type Part = 'body' | 'params' | 'querystring';

/** Validates like the server does and returns the one-sentence message, or undefined when valid. */
function message(schema: TSchema, data: unknown, httpPart: Part = 'body'): string | undefined {
  const validate = validatorCompiler({ schema, httpPart, method: 'POST', url: '/x' } as never) as (
    data: unknown,
  ) => { value?: unknown; error?: unknown };
  const result = validate(data);
  if (!result.error) return undefined;
  return schemaErrorFormatter(result.error as FastifySchemaValidationError[], httpPart).message;
}

const Nested = Type.Object(
  {
    values: Type.Array(
      Type.Object({ lang: Type.String(), value: Type.String() }, { additionalProperties: false }),
      { minItems: 1, maxItems: 3 },
    ),
    kind: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    pid: Type.Optional(Type.String({ minLength: 2, maxLength: 4 })),
    when: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

describe('validation messages: one English sentence naming the field', () => {
  it.each([
    [LoginRequest, { password: 'x' }, 'username is required'],
    [LoginRequest, { username: 'a' }, 'password is required'],
    [LoginRequest, { username: 1, password: 'x' }, 'username must be a string'],
    [LoginRequest, { username: '', password: 'x' }, 'username must not be empty'],
    [LoginRequest, { username: 'a', password: 'x', extra: 1 }, "Unknown field 'extra'"],
    [LoginRequest, [], 'Request body must be a JSON object'],
    [LoginRequest, null, 'Request body must be a JSON object'],
    [LoginRequest, 'text', 'Request body must be a JSON object'],
    [OpenWorkspaceRequest, { workspaceId: 'one' }, 'workspaceId must be an integer'],
    [OpenWorkspaceRequest, { workspaceId: 0 }, 'workspaceId must be >= 1'],
    [Nested, { values: [] }, 'values must have at least 1 item(s)'],
    [Nested, { values: [{ lang: 'deu', value: 'x' }, { lang: 'eng' }] }, 'values[1].value is required'],
    [Nested, { values: [{ lang: 'deu', value: 'x', x: 1 }] }, "Unknown field 'values[0].x'"],
    [Nested, { values: [{ lang: 5, value: 'x' }] }, 'values[0].lang must be a string'],
    [Nested, { values: [{ lang: 'a', value: 'b' }], count: 11 }, 'count must be <= 10'],
    [Nested, { values: [{ lang: 'a', value: 'b' }], pid: 'x' }, 'pid must be at least 2 characters'],
    [Nested, { values: [{ lang: 'a', value: 'b' }], pid: 'xxxxx' }, 'pid must be at most 4 characters'],
    [Nested, { values: [{ lang: 'a', value: 'b' }], when: 'yesterday' }, 'when must be a valid date-time'],
  ])('%#: %j gives "%s"', (schema, data, expected) => {
    expect(message(schema, data)).toBe(expected);
  });

  it('accepts valid bodies as they are, without coercing types', () => {
    expect(message(LoginRequest, { username: 'a', password: 'b' })).toBeUndefined();
    expect(message(OpenWorkspaceRequest, { workspaceId: '1' })).toBe('workspaceId must be an integer');
  });

  it('coerces path and query strings, and names them as parameters', () => {
    const Params = Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
    expect(message(Params, { id: '12' }, 'params')).toBeUndefined();
    expect(message(Params, { id: 'abc' }, 'params')).toBe('Path parameter id must be an integer');
    expect(message(Params, { id: '0' }, 'querystring')).toBe('Query parameter id must be >= 1');
    expect(message(Params, { id: '1', other: 'x' }, 'querystring')).toBe("Unknown parameter 'other'");
  });
});

describe('schemaErrorFormatter on nullable fields', () => {
  it('names every allowed type', () => {
    const error = schemaErrorFormatter(
      [
        {
          keyword: 'type',
          instancePath: '/parentId',
          schemaPath: '#',
          params: { type: 'integer,null' },
          message: '',
        },
      ],
      'body',
    );
    expect(error.message).toBe('parentId must be an integer or null');
  });
});
