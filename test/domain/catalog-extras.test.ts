import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/domain/context.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../src/domain/errors.js';
import { getCatalogHeader, setCatalogHeader } from '../../src/domain/catalogue/catalog-header.service.js';
import { findGroupByCatalogId, setCatalogGroupId } from '../../src/domain/groups/catalog-group-id.service.js';
import { createGroup } from '../../src/domain/groups/group.service.js';
import { rightsOf } from '../../src/domain/users/roles.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * What a catalogue carries beside its products (the product model): a group's GROUP_ID and the
 * header's content pim does not model, through their services, on the backend of the project (sqlite or postgres).
 */
let server: TestServer;
let owner: RequestContext;
let viewer: RequestContext;

beforeAll(async () => {
  server = await startServer();
  owner = server.app.ownerContext();
  viewer = { ...owner, actor: { id: 99, username: 'v', role: 'VIEWER', rights: rightsOf('VIEWER') } };
});
afterAll(() => server.stop());

describe("a group's catalogue GROUP_ID", () => {
  it('is kept, shown in the product sheet, found again, and removed with null', async () => {
    const group = await createGroup(owner, { name: 'Ableiter' });
    await setCatalogGroupId(owner, group.id, '27130805');
    expect(await findGroupByCatalogId(owner, '27130805')).toBe(group.id);
    const token = await server.login();
    const product = await server.request<{ id: number }>('POST', '/api/product', {
      token,
      body: { supplierPid: 'GID-1' },
    });
    await server.request('POST', `/api/group/${group.id}/products`, {
      token,
      body: { productIds: [product.body.data!.id] },
    });
    const sheet = await server.request<{ groups: { catalogGroupId: string | null }[] }>(
      'GET',
      `/api/product/${product.body.data!.id}/sheet`,
      { token },
    );
    expect(sheet.body.data!.groups.map((g) => g.catalogGroupId)).toEqual(['27130805']);
    await setCatalogGroupId(owner, group.id, null);
    expect(await findGroupByCatalogId(owner, '27130805')).toBeUndefined();
  });

  it('refuses an unknown group, an empty id and a VIEWER', async () => {
    const group = await createGroup(owner, { name: 'Zwei' });
    await expect(setCatalogGroupId(owner, 999_999, 'X')).rejects.toBeInstanceOf(NotFoundError);
    await expect(setCatalogGroupId(owner, group.id, '')).rejects.toBeInstanceOf(ValidationError);
    await expect(setCatalogGroupId(viewer, group.id, 'X')).rejects.toBeInstanceOf(ForbiddenError);
    expect(await findGroupByCatalogId(owner, 'X')).toBeUndefined();
  });
});

describe("the catalogue header's kept content", () => {
  it('is replaced as a whole and read back in order, byte for byte', async () => {
    const fragments = [
      { place: 'HEADER', xml: '<GENERATOR_INFO>Weidmueller XSLT</GENERATOR_INFO>' },
      { place: 'HEADER/CATALOG', xml: '<DATETIME type="generation_date"><DATE>2016-11-08</DATE></DATETIME>' },
      { place: 'HEADER', xml: '<SUPPLIER><SUPPLIER_NAME>Ä &amp; Ö</SUPPLIER_NAME></SUPPLIER>' },
    ];
    await setCatalogHeader(owner, fragments);
    expect(await getCatalogHeader(viewer)).toEqual(fragments);
    await setCatalogHeader(owner, fragments.slice(1));
    expect(await getCatalogHeader(owner)).toEqual(fragments.slice(1));
  });

  it('refuses a VIEWER and a fragment without place, changing nothing', async () => {
    const before = await getCatalogHeader(owner);
    await expect(setCatalogHeader(viewer, [])).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setCatalogHeader(owner, [{ place: '', xml: '<A/>' }])).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await getCatalogHeader(owner)).toEqual(before);
  });
});
