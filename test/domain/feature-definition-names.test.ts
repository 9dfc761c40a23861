import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import type { RequestContext } from '../../src/domain/context.js';
import * as features from '../../src/domain/features/feature.service.js';
import * as products from '../../src/domain/products/product.service.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

/**
 * A definition's names are one JSON list in its row (docs/storage.md, "Feature values"), read,
 * merged and written back: definitions of one feature at the same moment (imports, the demo)
 * must each keep the others' names. On PostgreSQL they run side by side.
 */
let dir: string | undefined;
let app: Application | undefined;
let owner: RequestContext;

beforeEach(async () => {
  dir = await newDataDir('pim-feature-names-');
  app = await Application.open({ dataDir: dir });
  const ws = await app.workspaces.create(app.ownerContext(), { name: 'Names', language: 'deu' });
  await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
  owner = app.ownerContext();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  await removeDataDir(dir);
});

describe('feature definition names', () => {
  it('keep every language when many definitions of one feature run at once', async () => {
    const langs = ['deu', 'eng', 'fra', 'ita', 'spa', 'nld', 'pol', 'ces', 'dan', 'swe', 'fin', 'por'];
    await features.defineFeature(owner, { ftidref: 'WIDTH', defaultUnit: 'mm' });
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        langs.map((lang) =>
          features.defineFeature(owner, { ftidref: 'WIDTH', names: [{ lang, name: `${lang}-${round}` }] }),
        ),
      );
    }
    const id = (await products.createProduct(owner, { supplierPid: 'P-1' })).id;
    await features.setFeature(owner, id, 'WIDTH', { values: [{ lang: 'deu', value: '10' }] });
    const feature = await features.getFeature(owner, id, 'WIDTH');
    expect(feature.names).toEqual([...langs].sort().map((lang) => ({ lang, value: `${lang}-2` })));
    expect(feature.funit).toBe('mm');
  });
});
