import { describe, expect, it } from 'vitest';
import { asToolError, fail, sessionPerFile, type ToolError } from '../helpers/mcp-session.js';
import { ECLASS, enc, product, restFeatures, restTexts } from './text-feature-tools.fixtures.js';

/** The arguments of the text and feature tools, refused in the sentences REST answers for the same bodies. */

/** One application for the file: each test makes its own product, and every call here is refused. */
const { open } = sessionPerFile();

describe('argument validation, as REST bodies', () => {
  const V = (error: string): ToolError => ({ error, code: 'VALIDATION_FAILED', status: 400 });

  it.each([
    ['unknown field', { kind: 'short', texts: [], x: 1 }, V("Unknown field 'x'")],
    [
      'unknown field in an entry',
      { kind: 'short', texts: [{ lang: 'deu', value: 'v', note: 1 }] },
      V("Unknown field 'texts[0].note'"),
    ],
    ['texts missing', { kind: 'short' }, V('texts is required')],
    ['kind missing', { texts: [] }, V('kind is required')],
    [
      'texts of wrong type',
      { kind: 'short', texts: { lang: 'deu', value: 'v' } },
      V('texts must be an array'),
    ],
    ['entry of wrong type', { kind: 'short', texts: ['deu'] }, V('texts[0] must be an object')],
    [
      'value of wrong type',
      { kind: 'short', texts: [{ lang: 'deu', value: 5 }] },
      V('texts[0].value must be a string'),
    ],
    [
      'value null',
      { kind: 'short', texts: [{ lang: 'deu', value: null }] },
      V('texts[0].value must be a string'),
    ],
    ['value missing', { kind: 'short', texts: [{ lang: 'deu' }] }, V('texts[0].value is required')],
    [
      'lang empty',
      { kind: 'short', texts: [{ lang: '', value: 'v' }] },
      V('texts[0].lang must not be empty'),
    ],
  ])('set_texts: %s answers VALIDATION_FAILED (400) and writes nothing', async (_case, args, expected) => {
    const s = await open();
    const id = await product(s);
    expect(await fail(s.client, 'set_texts', { id, ...args })).toEqual(expected);
    expect(await restTexts(s, id, 'short')).toEqual([]);
  });

  describe('ids', () => {
    // An application of their own, where no call but these refused ones reaches product 1: the
    // product a '1' taken as a number, or 1.5 rounded, would write to.
    const ids = sessionPerFile();

    it.each([
      [0, 'id must be >= 1'],
      [-1, 'id must be >= 1'],
      [1.5, 'id must be an integer'],
      ['1', 'id must be an integer'],
      [null, 'id must be an integer'],
    ])('id %j answers VALIDATION_FAILED (400) for every text and feature tool', async (id, sentence) => {
      const s = await ids.open();
      await product(s);
      const product1 = 1;
      expect((await s.rest('GET', `/api/product/${product1}`)).status).toBe(200);
      for (const [name, args] of [
        ['set_texts', { kind: 'short', texts: [{ lang: 'deu', value: 'v' }] }],
        ['delete_text', { kind: 'short', lang: 'deu' }],
        ['set_feature', { ftidref: 'F', values: [{ lang: 'deu', value: 'v' }] }],
        ['delete_feature', { ftidref: 'F' }],
      ] as const) {
        expect(await fail(s.client, name, { id, ...args }), name).toEqual(V(sentence));
      }
      expect(await restTexts(s, product1, 'short')).toEqual([]);
      expect(await restFeatures(s, product1)).toEqual([]);
    });
  });

  it('an unknown kind is refused', async () => {
    const s = await open();
    const id = await product(s);
    const error = await fail(s.client, 'set_texts', { id, kind: 'medium', texts: [] });
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.error).toMatch(/^kind /);
    const del = await fail(s.client, 'delete_text', { id, kind: 'DESCRIPTIONSHORT', lang: 'deu' });
    expect(del).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it.each([
    ['unknown field', { values: [], x: 1 }, "Unknown field 'x'"],
    [
      'unknown field in a value',
      { values: [{ lang: 'deu', value: '1', extra: true }] },
      "Unknown field 'values[0].extra'",
    ],
    ['values missing', { funit: 'mm' }, 'values is required'],
    ['values not an array', { values: 'x' }, 'values must be an array'],
    ['value of wrong type', { values: [{ lang: 'deu', value: 1 }] }, 'values[0].value must be a string'],
    ['lang missing', { values: [{ value: '1' }] }, 'values[0].lang is required'],
    ['funit of wrong type', { funit: 5, values: [] }, 'funit must be a string or null'],
  ])(
    'set_feature: %s answers VALIDATION_FAILED (400) in the sentence REST answers',
    async (_case, body, sentence) => {
      const s = await open();
      const id = await product(s);
      const error = await fail(s.client, 'set_feature', { id, ftidref: ECLASS, ...body });
      expect(error).toEqual(
        asToolError(await s.rest('PUT', `/api/product/${id}/features/${enc(ECLASS)}`, body)),
      );
      expect(error).toEqual(V(sentence));
      expect(await restFeatures(s, id)).toEqual([]);
    },
  );

  it('set_feature and delete_feature refuse an empty, too long or missing ftidref', async () => {
    const s = await open();
    const id = await product(s);
    expect(await fail(s.client, 'set_feature', { id, ftidref: '', values: [] })).toEqual(
      V('ftidref must not be empty'),
    );
    expect(await fail(s.client, 'set_feature', { id, ftidref: 'x'.repeat(257), values: [] })).toEqual(
      V('ftidref must be at most 256 characters'),
    );
    expect(await fail(s.client, 'set_feature', { id, values: [] })).toEqual(V('ftidref is required'));
    expect(await fail(s.client, 'delete_feature', { id })).toEqual(V('ftidref is required'));
    expect(await fail(s.client, 'delete_feature', { id, ftidref: 'F', lang: 5 })).toEqual(
      V('lang must be a string'),
    );
    expect(await restFeatures(s, id)).toEqual([]);
  });
});
