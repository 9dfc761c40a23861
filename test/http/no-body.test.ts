import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/**
 * Routes that take no body refuse one that says something ("unknown fields in any body: 400",
 * decisions.md), before anything is done: `{"deleteProducts": true}` sent as the body of a group
 * delete used to delete the group and only ungroup its products, answered 200. An empty body and
 * `{}` say nothing and pass.
 */

const file = serverPerFile();

const send = (method: string, path: string, rawBody?: string, token = file.token) =>
  file.server.request(method, path, {
    token,
    rawBody,
    headers: rawBody === undefined ? {} : { 'content-type': 'application/json' },
  });

async function groupWithProduct(name: string): Promise<{ groupId: number; productId: number }> {
  const group = await send('POST', '/api/group', JSON.stringify({ name }));
  const product = await send('POST', '/api/product', JSON.stringify({ supplierPid: `NB-${name}` }));
  const groupId = (group.body.data as { id: number }).id;
  const productId = (product.body.data as { id: number }).id;
  const assigned = await send(
    'POST',
    `/api/group/${groupId}/products`,
    JSON.stringify({ productIds: [productId] }),
  );
  expect(assigned.status, assigned.text).toBe(200);
  return { groupId, productId };
}

describe('a body sent to a route that takes none', () => {
  it('DELETE /api/group/{id} with {"deleteProducts": true}: 400, the group and its product stay', async () => {
    const { groupId, productId } = await groupWithProduct('Kept');
    const res = await send('DELETE', `/api/group/${groupId}`, '{"deleteProducts":true}');
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "Unknown field 'deleteProducts': this request takes no body",
      code: 'VALIDATION_FAILED',
    });
    expect((await send('GET', `/api/group/${groupId}`)).status).toBe(200);
    expect((await send('GET', `/api/product/${productId}`)).status).toBe(200);
    // As a query parameter it does what it says.
    expect((await send('DELETE', `/api/group/${groupId}?deleteProducts=true`)).status).toBe(200);
    expect((await send('GET', `/api/product/${productId}`)).status).toBe(404);
  });

  it.each([
    ['a string', '"str"'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '1'],
  ])('%s as the body of DELETE /api/product/{id}: 400, nothing deleted', async (_, raw) => {
    const created = await send('POST', '/api/product', JSON.stringify({ supplierPid: `NB-${raw}` }));
    const id = (created.body.data as { id: number }).id;
    const res = await send('DELETE', `/api/product/${id}`, raw);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe('This request takes no body: send none, or an empty JSON object');
    expect((await send('GET', `/api/product/${id}`)).status).toBe(200);
  });

  it('POST /api/auth/logout with a field: 400, and the token still works', async () => {
    const token = await file.server.login();
    const res = await send('POST', '/api/auth/logout', '{"x":1}', token);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect((await send('GET', '/api/workspace', undefined, token)).status).toBe(200);
  });

  it('an empty body and {} pass', async () => {
    const { groupId, productId } = await groupWithProduct('Passes');
    expect((await send('DELETE', `/api/group/${groupId}/products/${productId}`, '{}')).status).toBe(200);
    expect((await send('DELETE', `/api/group/${groupId}`, '')).status).toBe(200);
    expect((await send('DELETE', `/api/product/${productId}`, ' {} ')).status).toBe(200);
  });
});
