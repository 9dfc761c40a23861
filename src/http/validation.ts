import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { BLANK_NAME_PATTERN, blankNameMessage } from '../domain/names.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  // Unknown fields are rejected (removeAdditional false), not silently dropped.
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

/** Bodies are not coerced: `"supplierPid": 12` is a wrong type, not "12". Path and query strings are. */
const bodyAjv = makeAjv(false);
const stringAjv = makeAjv(true);

/** Top-level properties of an object schema whose type is integer. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.keys(properties).filter((key) => properties[key]?.type === 'integer');
}

const DECIMAL_INTEGER = /^-?\d+$/;

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? bodyAjv : stringAjv).compile(schema as object);
  // Ajv coerces path and query strings with Number(), which reads "1e3" as 1000 and "0x10"
  // as 16; an id is written in plain decimal digits, anything else is a bad id (400).
  const integers = httpPart === 'body' ? [] : integerProperties(schema);
  return (data: unknown) => {
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
    return validate(data) ? { value: data } : { error: validate.errors as unknown as Error };
  };
};

function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function describe(error: ErrorObject | FastifySchemaValidationError, part: string): string {
  const params = error.params as Record<string, unknown>;
  const base = fieldName(error.instancePath);
  const where = part === 'body' ? '' : part === 'params' ? 'Path parameter ' : 'Query parameter ';
  const field = (name: string) => `${where}${name}`;
  switch (error.keyword) {
    case 'required': {
      const name = base ? `${base}.${String(params.missingProperty)}` : String(params.missingProperty);
      return `${field(name)} is required`;
    }
    case 'additionalProperties': {
      const name = base ? `${base}.${String(params.additionalProperty)}` : String(params.additionalProperty);
      return `Unknown ${part === 'body' ? 'field' : 'parameter'} '${name}'`;
    }
    case 'type': {
      if (!base && part === 'body') return `Request body must be a JSON ${String(params.type)}`;
      // Nullable fields have a list of types: "integer,null" reads "an integer or null".
      const types = String(params.type)
        .split(',')
        .map((t) => (t === 'integer' ? 'an integer' : t === 'null' ? 'null' : `a ${t}`));
      return `${field(base)} must be ${types.join(' or ')}`;
    }
    case 'minLength':
      return Number(params.limit) === 1
        ? `${field(base)} must not be empty`
        : `${field(base)} must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `${field(base)} must be at most ${String(params.limit)} characters`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field(base)} must be ${String(params.comparison)} ${String(params.limit)}`;
    case 'minItems':
      return `${field(base)} must have at least ${String(params.limit)} item(s)`;
    case 'maxItems':
      return `${field(base)} must have at most ${String(params.limit)} items`;
    case 'pattern':
      // The one pattern pim's schemas use: names that are not blank (domain/names.ts).
      return params.pattern === BLANK_NAME_PATTERN
        ? blankNameMessage(field(base))
        : `${field(base)} must match ${String(params.pattern)}`;
    case 'format':
      return `${field(base)} must be a valid ${String(params.format)}`;
    case 'enum':
      return `${field(base)} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${field(base)} must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${field(base) || 'Request'} is invalid: ${error.message ?? error.keyword}`;
  }
}

/** Turns the first schema violation into one English sentence naming the field. */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const first = errors[0];
  return new Error(first ? describe(first, dataVar) : `Invalid ${dataVar}`);
}
