import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/**
 * decisions.md: a feature value without language (a number, a code) is stored under `zxx`, and
 * a one-language read of a feature falls back to it when the language asked for has none.
 */
describe('the language-neutral value (zxx) of a feature', () => {
  const shared = serverPerFile();
  const call = (method: string, path: string, body?: unknown) =>
    shared.server.request(method, path, { token: shared.token, body });

  async function productWith(values: { lang: string; value: string }[]): Promise<string> {
    const created = await call('POST', '/api/product', { supplierPid: `ZXX-${Math.random()}` });
    expect(created.status, created.text).toBe(201);
    const base = `/api/product/${(created.body.data as { id: number }).id}/features/WEIGHT`;
    const put = await call('PUT', base, { ftidref: 'WEIGHT', funit: 'KGM', values });
    expect(put.status, put.text).toBe(200);
    return base;
  }

  it('answers every language without a value of its own with the zxx value, as zxx', async () => {
    const base = await productWith([
      { lang: 'zxx', value: '4.2' },
      { lang: 'deu', value: 'vier Komma zwei' },
    ]);
    expect((await call('GET', `${base}/deu`)).body).toEqual({
      success: true,
      data: { lang: 'deu', value: 'vier Komma zwei' },
    });
    for (const lang of ['eng', 'fre', 'zxx']) {
      const res = await call('GET', `${base}/${lang}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ success: true, data: { lang: 'zxx', value: '4.2' } });
    }
  });

  it('does not fall back for deletes, nor once the zxx value is gone', async () => {
    const base = await productWith([{ lang: 'zxx', value: '7' }]);
    const deleteOther = await call('DELETE', `${base}/eng`);
    expect(deleteOther.status).toBe(404);
    expect(deleteOther.body.code).toBe('FEATURE_VALUE_NOT_FOUND');
    expect((await call('GET', `${base}/eng`)).body.data).toEqual({ lang: 'zxx', value: '7' });
    expect((await call('DELETE', `${base}/zxx`)).status).toBe(200);
    const gone = await call('GET', `${base}/eng`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('FEATURE_VALUE_NOT_FOUND');
  });

  it('a feature without a zxx value still answers 404 for a missing language', async () => {
    const base = await productWith([{ lang: 'deu', value: 'rot' }]);
    const res = await call('GET', `${base}/eng`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'FEATURE_VALUE_NOT_FOUND' });
  });
});
