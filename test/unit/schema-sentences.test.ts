import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { documentValidator } from '../../src/domain/validation/schema-validation.js';

describe('schema sentences', () => {
  const validate = documentValidator(
    Type.Object(
      {
        ids: Type.Array(Type.Integer()),
        entry: Type.Object({ a: Type.String() }),
        count: Type.Integer(),
        label: Type.String(),
      },
      { additionalProperties: false },
    ),
  );
  const message = (data: unknown) => {
    try {
      validate(data);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('names the expected type with the right article', () => {
    const base = { ids: [], entry: { a: '' }, count: 1, label: '' };
    expect(message({ ...base, ids: 'x' })).toBe('ids must be an array');
    expect(message({ ...base, entry: 'x' })).toBe('entry must be an object');
    expect(message({ ...base, count: 'x' })).toBe('count must be an integer');
    expect(message({ ...base, label: 1 })).toBe('label must be a string');
    expect(message(base)).toBeUndefined();
  });
});
