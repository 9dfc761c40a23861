import { describe, expect, it } from 'vitest';
import { fieldKeyOf, withValue } from '../../src/ui/components/catalogue/product-editor-model.js';

describe("the product editor's form model", () => {
  const sent = {
    shortTexts: [
      { lang: 'deu', value: 'a' },
      { lang: 'eng', value: 'b' },
    ],
    longTexts: [{ lang: 'fra', value: 'c' }],
    features: [
      {
        ftidref: 'F',
        funit: null,
        values: [
          { lang: 'deu', value: 'x' },
          { lang: 'zxx', value: '1' },
        ],
      },
    ],
  };

  it("maps the server's paths to the form's fields", () => {
    expect(fieldKeyOf('sheet.product.supplierPid', sent)).toBe('supplierPid');
    expect(fieldKeyOf('supplierPid', sent)).toBe('supplierPid');
    expect(fieldKeyOf('sheet.shortTexts.1.value', sent)).toBe('short.eng');
    expect(fieldKeyOf('sheet.longTexts.0.lang', sent)).toBe('long.fra');
    expect(fieldKeyOf('sheet.features.0.values.1.value', sent)).toBe('feature.0.zxx');
    expect(fieldKeyOf('sheet.features.0.funit', sent)).toBe('feature.0.funit');
    expect(fieldKeyOf('allFeatures.0.ftidref', { allFeatures: sent.features })).toBe('feature.0.ftidref');
    expect(fieldKeyOf('revision', sent)).toBeUndefined();
    expect(fieldKeyOf(undefined, sent)).toBeUndefined();
  });

  it('edits the first value of a language and keeps the others', () => {
    const feature = {
      ftidref: 'F',
      funit: null,
      values: [
        { lang: 'deu', value: 'eins' },
        { lang: 'deu', value: 'zwei' },
      ],
    };
    expect(withValue(feature, 'deu', 'EINS').values).toEqual([
      { lang: 'deu', value: 'EINS' },
      { lang: 'deu', value: 'zwei' },
    ]);
    expect(withValue(feature, 'deu', '').values).toEqual([{ lang: 'deu', value: 'zwei' }]);
    expect(withValue(feature, 'ara', 'x').values[0]).toEqual({ lang: 'ara', value: 'x' });
  });
});
