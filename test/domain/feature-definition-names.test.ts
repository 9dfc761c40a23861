import { describe, expect, it } from 'vitest';
import * as features from '../../src/domain/features/feature.service.js';
import * as products from '../../src/domain/products/product.service.js';
import { workspaceApplicationPerTest } from '../helpers/workspace-app.js';

/**
 * A definition's names are one JSON list in its row (docs/storage.md, "Feature values"), read,
 * merged and written back: definitions of one feature at the same moment (imports, the demo)
 * must each keep the others' names. On PostgreSQL they run side by side.
 */
const context = workspaceApplicationPerTest('pim-feature-names-', 'Names');

describe('feature definition names', () => {
  it('keep every language when many definitions of one feature run at once', async () => {
    const langs = ['deu', 'eng', 'fra', 'ita', 'spa', 'nld', 'pol', 'ces', 'dan', 'swe', 'fin', 'por'];
    await features.defineFeature(context.owner(), { ftidref: 'WIDTH', defaultUnit: 'mm' });
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        langs.map((lang) =>
          features.defineFeature(context.owner(), {
            ftidref: 'WIDTH',
            names: [{ lang, name: `${lang}-${round}` }],
          }),
        ),
      );
    }
    const id = (await products.createProduct(context.owner(), { supplierPid: 'P-1' })).id;
    await features.setFeature(context.owner(), id, 'WIDTH', { values: [{ lang: 'deu', value: '10' }] });
    const feature = await features.getFeature(context.owner(), id, 'WIDTH');
    expect(feature.names).toEqual([...langs].sort().map((lang) => ({ lang, value: `${lang}-2` })));
    expect(feature.funit).toBe('mm');
  });
});
