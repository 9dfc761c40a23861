import fc from 'fast-check';
import { BLANK_NAME_PATTERN } from '../../src/domain/names.js';

const VISIBLE = new RegExp(BLANK_NAME_PATTERN, 'u');

/** The part of JSON Schema the API description uses. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  examples?: unknown[];
}

const LANGUAGES = ['deu', 'eng', 'fra', 'ger', 'ENG', 'ita'];
const ODD_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  '\ud800',
  'ä€𝄞',
  '<script>alert(1)</script>',
  "'; DROP TABLE product; --",
  '../../etc/passwd',
  '%00',
  '0173-1#02-AAF040#004',
  '__proto__',
  'constructor',
];
const ODD_NUMBERS = [0, -0, -1, 1.5, 2 ** 53 + 1, -(2 ** 53) - 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER];

/** Values valid for `schema`, mostly small and plausible (a language where a language is asked for). */
export function validValue(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => validValue(s, name)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
  return fc.oneof(...types.map((type) => validOfType(schema, type, name)));
}

function validOfType(schema: JsonSchema, type: string, name: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = schema.minimum ?? -1000;
      const max = Math.min(schema.maximum ?? 1000, 1000);
      // Small numbers mostly: ids in bodies (productIds, parentId, masterProductId) then name real rows.
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.integer({
            min: Math.max(min, 1),
            max: Math.max(Math.min(max, 12), Math.max(min, 1)),
          }),
        },
        { weight: 1, arbitrary: fc.integer({ min, max }) },
      );
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'array':
      return fc.array(validValue(schema.items ?? {}, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return validObject(schema);
    default: {
      if (/lang/i.test(name)) return fc.constantFrom(...LANGUAGES);
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      // The one pattern the schemas use: names that are not blank (src/domain/names.ts).
      const notBlank = schema.pattern === BLANK_NAME_PATTERN;
      const text = fc.string({ minLength: Math.max(schema.minLength ?? 0, notBlank ? 1 : 0), maxLength });
      return notBlank ? text.filter((s) => VISIBLE.test(s)) : text;
    }
  }
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) record[key] = validValue(property, key);
  return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
}

/** Values a schema refuses or that sit on its edges: wrong types, missing and extra fields, odd strings and numbers. */
export function oddValue(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  const edges: Array<fc.Arbitrary<unknown>> = [
    fc.constantFrom(...ODD_STRINGS),
    fc.constantFrom(...ODD_NUMBERS),
    fc.constantFrom(null, true, false, [], {}, [null], { a: 1 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
  ];
  if (schema.maxLength !== undefined) {
    edges.push(fc.constantFrom('x'.repeat(schema.maxLength), 'x'.repeat(schema.maxLength + 1)));
  }
  if (schema.maximum !== undefined) edges.push(fc.constantFrom(schema.maximum, schema.maximum + 1));
  if (schema.minimum !== undefined) edges.push(fc.constantFrom(schema.minimum, schema.minimum - 1));
  if (schema.maxItems !== undefined) {
    edges.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, (_, i) => i + 1)));
  }
  if (schema.properties) edges.push(oddObject(schema));
  return fc.oneof(validValue(schema, name), ...edges);
}

function oddObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys) record[key] = oddValue(properties[key]!, key);
  return fc
    .tuple(
      fc.record(record, { requiredKeys: [] }),
      fc.option(fc.constantFrom('unknownField', '__proto__', 'constructor', 'id'), { nil: undefined }),
    )
    .map(([value, extra]) => (extra === undefined ? value : { ...value, [extra]: 'surprise' }));
}

/** A request body: valid for the schema, or odd, or not the JSON the schema asks for at all. */
export function bodyText(schema: JsonSchema): fc.Arbitrary<string> {
  return fc.oneof(
    // Mostly valid, so that requests reach the handlers and their writes; then edges and nonsense.
    { weight: 6, arbitrary: validValue(schema).map((v) => JSON.stringify(v)) },
    { weight: 4, arbitrary: oddValue(schema).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[1,', '{"a":1}{', '\ufeff{}', '{"value":"\\ud800"}') },
    { weight: 1, arbitrary: fc.constant(`{"value":"${'v'.repeat(1_100_000)}"}`) },
  );
}
