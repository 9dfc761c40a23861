import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { BLANK_NAME_PATTERN, blankNameMessage } from '../names.js';
import { ValidationError } from '../errors.js';
import {
  UNSTORABLE_KEYWORD,
  unstorableCharacterError,
  unstorableCharacterRule,
} from './unstorable-character.js';

/**
 * Input checked against the TypeBox schemas, with one English sentence naming the first field
 * at fault. Every adapter validates with this: REST bodies, path and query strings (through
 * http/validation.ts), MCP tool arguments and the window's requests get the same sentences.
 */

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
    // The failing schema with each error: a pattern's sentence gives the schema's example (below).
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

/** JSON documents are not coerced: `"supplierPid": 12` is a wrong type, not "12". Path and query strings are. */
export const documentAjv = makeAjv(false);
export const stringAjv = makeAjv(true);

/**
 * A query parameter given more than once (`?limit=1&limit=2`): the query string parser makes it
 * an array, which the schema would call a wrong type ("must be an integer").
 */
export const REPEATED_KEYWORD = 'repeatedParameter';

/** Where the input came from: a JSON document (body, tool arguments) or a path or query string. */
export type InputPart = 'body' | 'params' | 'querystring' | string;

function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

export function describeSchemaError(error: ErrorObject, part: InputPart): string {
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
        .map((t) => (t === 'null' ? 'null' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`));
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
    case 'pattern': {
      // Names that are not blank (domain/names.ts); else the schema's example, which reads better
      // than the expression.
      if (params.pattern === BLANK_NAME_PATTERN) return blankNameMessage(field(base));
      const example = (error.parentSchema as { examples?: unknown[] } | undefined)?.examples?.[0];
      return example === undefined
        ? `${field(base)} must match ${String(params.pattern)}`
        : `${field(base)} must look like ${String(example)}, not ${JSON.stringify(error.data)}`;
    }
    case 'format':
      return `${field(base)} must be a valid ${String(params.format)}`;
    case 'enum':
      return `${field(base)} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${field(base)} must be ${JSON.stringify(params.allowedValue)}`;
    case REPEATED_KEYWORD:
      return `${field(base)} is given ${String(params.count)} times: send it once`;
    case UNSTORABLE_KEYWORD:
      return `${field(base) || (part === 'body' ? 'Request body' : 'Request')} ${unstorableCharacterRule(params.character)}`;
    default:
      return `${field(base) || 'Request'} is invalid: ${error.message ?? error.keyword}`;
  }
}

/**
 * A validator of JSON documents (defaults applied in place); throws ValidationError with the
 * sentence REST answers for the same mistake in a body.
 */
export function documentValidator<T>(schema: TSchema): (data: unknown) => T {
  const validate = documentAjv.compile(schema);
  return (data) => {
    if (validate(data)) {
      const unstorable = unstorableCharacterError(data);
      if (unstorable === undefined) return data as T;
      throw new ValidationError(describeSchemaError(unstorable as ErrorObject, 'body'));
    }
    const first = validate.errors?.[0];
    throw new ValidationError(first ? describeSchemaError(first, 'body') : 'The input is invalid');
  };
}
