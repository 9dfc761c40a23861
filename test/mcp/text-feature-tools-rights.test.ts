import { describe, expect, it } from 'vitest';
import { connectHttp, ok } from '../helpers/mcp.js';
import { sessionPerTest, asToolError, fail } from '../helpers/mcp-session.js';
import { product, restFeatures, restTexts, type Entry } from './text-feature-tools.fixtures.js';

/** The text and feature tools refuse a VIEWER as REST does, and nothing changes. */

/** One fresh application per test. */
const { cleanups, open } = sessionPerTest();

describe('rights', () => {
  it('a VIEWER calling set_texts gets FORBIDDEN (403) as REST answers, and nothing changes', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_texts', { id, kind: 'short', texts: [{ lang: 'deu', value: 'Original' }] });
    await ok(s.client, 'set_feature', { id, ftidref: 'F', values: [{ lang: 'deu', value: 'v' }] });
    await s.server.addUser('v', 'VIEWER');
    const viewerToken = await s.server.login('v', 'v-password');
    const viewer = await connectHttp(s.server.baseUrl, viewerToken);
    cleanups.push(() => viewer.close());

    const listed = (await viewer.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('get_product');
    expect(listed).not.toContain('set_texts');

    const error = await fail(viewer, 'set_texts', {
      id,
      kind: 'short',
      texts: [{ lang: 'deu', value: 'Changed' }],
    });
    expect(error).toEqual({
      error: "Role VIEWER lacks the right 'Bearbeiten' this operation needs",
      code: 'FORBIDDEN',
      status: 403,
    });
    const rest = await s.server.request('PUT', `/api/product/${id}/texts/short/deu`, {
      token: viewerToken,
      body: { value: 'Changed' },
    });
    expect(error).toEqual(asToolError(rest));

    // The right is checked before the arguments, as REST does.
    expect(await fail(viewer, 'set_texts', { id: 0, kind: 'x', texts: 1 })).toEqual(error);
    for (const [name, args] of [
      ['delete_text', { id, kind: 'short', lang: 'deu' }],
      ['set_feature', { id, ftidref: 'F', values: [{ lang: 'deu', value: 'w' }] }],
      ['delete_feature', { id, ftidref: 'F' }],
    ] as const) {
      expect(await fail(viewer, name, args), name).toEqual(error);
    }

    expect(await restTexts(s, id, 'short')).toEqual([{ lang: 'deu', value: 'Original' }]);
    expect(await restFeatures(s, id)).toEqual([
      { ftidref: 'F', funit: null, names: [], values: [{ lang: 'deu', value: 'v' }] },
    ]);
    // Reading stays allowed.
    const sheet = await ok<{ shortTexts: Entry[] }>(viewer, 'get_product', { id });
    expect(sheet.shortTexts).toEqual([{ lang: 'deu', value: 'Original' }]);
  });
});
