import type { ErrorObject } from 'ajv';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import {
  describeSchemaError,
  documentAjv,
  REPEATED_KEYWORD,
  stringAjv,
} from '../domain/validation/schema-validation.js';
import { unstorableCharacterError } from '../domain/validation/unstorable-character.js';

type Properties = Record<string, { type?: unknown }>;

/** Top-level properties of an object schema whose type is integer. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Properties }).properties ?? {};
  return Object.keys(properties).filter((key) => properties[key]?.type === 'integer');
}

/**
 * The first parameter of the schema given more than once, as the error naming it. Every query
 * parameter pim declares takes one value; an unknown one stays an unknown parameter.
 */
function repeatedParameter(schema: unknown, data: unknown): object | undefined {
  const properties = (schema as { properties?: Properties }).properties ?? {};
  for (const [key, value] of Object.entries((data ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(value) || !Object.hasOwn(properties, key)) continue;
    return {
      keyword: REPEATED_KEYWORD,
      instancePath: `/${key}`,
      schemaPath: '#',
      params: { count: value.length },
    };
  }
  return undefined;
}

const DECIMAL_INTEGER = /^-?\d+$/;

/** Bodies are not coerced; path and query strings are (domain/validation/schema-validation.ts). */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? documentAjv : stringAjv).compile(schema as object);
  // Ajv coerces path and query strings with Number(), which reads "1e3" as 1000 and "0x10"
  // as 16; an id is written in plain decimal digits, anything else is a bad id (400).
  const integers = httpPart === 'body' ? [] : integerProperties(schema);
  const query = httpPart === 'querystring';
  return (data: unknown) => {
    const repeated = query ? repeatedParameter(schema, data) : undefined;
    if (repeated) return { error: [repeated] as unknown as Error };
    for (const key of integers) {
      const raw = (data as Record<string, unknown> | undefined)?.[key];
      if (typeof raw === 'string' && !DECIMAL_INTEGER.test(raw)) {
        const error = {
          keyword: 'type',
          instancePath: `/${key}`,
          schemaPath: '#',
          params: { type: 'integer' },
        };
        return { error: [error] as unknown as Error };
      }
    }
    if (!validate(data)) return { error: validate.errors as unknown as Error };
    const unstorable = unstorableCharacterError(data);
    return unstorable === undefined ? { value: data } : { error: [unstorable] as unknown as Error };
  };
};

/** Turns the first schema violation into one English sentence naming the field. */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const first = errors[0];
  return new Error(first ? describeSchemaError(first as ErrorObject, dataVar) : `Invalid ${dataVar}`);
}
