import { describe, expect, it } from 'vitest';
import type { GridRow, GridRowsPage } from '../../src/window/catalogue-api.types.js';
import { startServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';
import { expectOrder, nameOf, type Model } from './product-grid.fixtures.js';

/**
 * The grid's sort by name over a whole catalogue (no filter: the statements that read the index
 * entries alone, migrations 0011 and 0012) after every kind of write that changes a name or the
 * languages a product has, by cursor and by every `at`.
 */
describe('the grid sorted by name as the catalogue changes', () => {
  it('keeps the whole grid in name order, jumps included, after renames, deletes, variants and sheets', async () => {
    // A catalogue of its own, every product named in deu at first: the sort then reads one arm,
    // and a write that leaves a product without deu (or gives it back) must switch to two and back.
    const own = await startServer({ window: true });
    try {
      const ownToken = await own.login();
      const ownWindow = new WindowClient(own);
      await ownWindow.login();
      const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const res = await own.request<T>(method, path, { token: ownToken, body });
        expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
        return res.body.data as T;
      };
      const created = await call<Array<{ id: number; status: number }>>('POST', '/api/product/bulk', [
        {
          supplierPid: 'N-1',
          shortTexts: [
            { lang: 'deu', value: 'Mango' },
            { lang: 'eng', value: 'Mango' },
          ],
        },
        {
          supplierPid: 'N-2',
          shortTexts: [
            { lang: 'deu', value: 'Apfel' },
            { lang: 'eng', value: 'Apple' },
          ],
        },
        { supplierPid: 'N-3', shortTexts: [{ lang: 'deu', value: 'Zitrone' }] },
        {
          supplierPid: 'N-4',
          shortTexts: [
            { lang: 'deu', value: 'Birne' },
            { lang: 'fra', value: 'Poire' },
          ],
        },
      ]);
      expect(created.every((r) => r.status === 201)).toBe(true);
      const [n1, n2, n3, n4] = created.map((r) => r.id);
      /** The grid of every product by name, by cursor and by `at`, against REST's texts. */
      const expectSorted = async (step: string) => {
        const listed = await call<Array<{ id: number }>>('GET', '/api/product?all=true');
        const made: Model[] = [];
        for (const { id } of listed) {
          const texts = await call<Array<{ lang: string; value: string }>>(
            'GET',
            `/api/product/${id}/texts/short`,
          );
          made.push({
            id,
            supplierPid: '',
            texts: Object.fromEntries(texts.map((t) => [t.lang, t.value])),
            groupId: null,
            masterId: null,
            features: [],
            updatedAt: '',
          });
        }
        for (const lang of ['deu', 'eng', 'ita']) {
          for (const dir of ['asc', 'desc'] as const) {
            const what = `${step}: ${lang} ${dir}`;
            const expected = expectOrder(made, 'name', dir === 'desc', lang);
            const rows: GridRow[] = [];
            let after: string | null = null;
            do {
              const page: { body: { data?: GridRowsPage } } = await ownWindow.request<GridRowsPage>(
                'GET',
                `/products/rows?sort=name&dir=${dir}&lang=${lang}&limit=2${after ? `&after=${after}` : ''}`,
              );
              rows.push(...page.body.data!.rows);
              after = page.body.data!.next;
            } while (after !== null);
            expect(
              rows.map((r) => r.id),
              what,
            ).toEqual(expected);
            const names = expected.map((id) =>
              nameOf(
                made.find((m) => m.id === id)!,
                lang,
              ),
            );
            expect(
              rows.map((r) => r.name),
              what,
            ).toEqual(names);
            for (let at = 0; at <= expected.length; at++) {
              const page = await ownWindow.request<GridRowsPage>(
                'GET',
                `/products/rows?sort=name&dir=${dir}&lang=${lang}&at=${at}&limit=2`,
              );
              expect(
                page.body.data!.rows.map((r) => r.id),
                `${what} at ${at}`,
              ).toEqual(expected.slice(at, at + 2));
            }
          }
        }
      };
      await expectSorted('created');
      const variant = await call<{ id: number }>('POST', `/api/product/${n2}/variants`, {
        supplierPid: 'N-2-S',
        name: 'Apfel klein',
      });
      await expectSorted('a variant');
      const writes: Array<[string, string, unknown?]> = [
        ['PUT', `/api/product/${n3}/texts/short/deu`, { value: 'Aal' }], // renamed: first now
        ['DELETE', `/api/product/${n1}/texts/short/deu`], // n1 lacks deu: its eng name stands in
        ['PUT', `/api/product/${n1}/texts/short/deu`, { value: 'Kiwi' }], // every product has deu again
        ['PUT', `/api/product/${variant.id}/texts/short/deu`, { value: 'Zwetschge' }], // a variant renamed
        ['DELETE', `/api/product/${variant.id}/texts/short/deu`], // a variant without any name
        ['PUT', `/api/product/${n4}/texts/short/fra`, { value: 'Abricot' }], // a language after deu
        ['DELETE', `/api/product/${n4}`],
      ];
      for (const [method, path, body] of writes) {
        await call(method, path, body);
        await expectSorted(`${method} ${path}`);
      }
      // The editor's one write (the sheet): every language replaced at once.
      const loaded = await ownWindow.request<{ revision: string; sheet: { shortTexts: unknown[] } }>(
        'GET',
        `/products/${n2}/sheet`,
      );
      const shortTexts = [
        { lang: 'eng', value: 'Quince' },
        { lang: 'ita', value: 'Mela' },
      ];
      const saved = await ownWindow.request('PUT', `/products/${n2}/sheet`, {
        body: { revision: loaded.body.data!.revision, sheet: { ...loaded.body.data!.sheet, shortTexts } },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await expectSorted('a sheet saved');
    } finally {
      await own.stop();
    }
  });
});
