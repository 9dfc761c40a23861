import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { massEditRest } from './mass-edit.fixtures.js';

/**
 * A search of one or two characters follows every way a supplierPid or a short text changes. On
 * PostgreSQL such a term is answered from product_search_string, a string per product kept by triggers
 * (migration 0022), so each write path is one that could leave it behind; SQLite reads the texts
 * themselves. Each test searches for characters only its own products hold.
 */
const file = serverPerFile();
const rest = () => massEditRest(file.server, () => file.token);

let next = 0x4e00 + Math.floor(Math.random() * 8000);
/** A character no other test's product holds (CJK, a new one each call). */
const rare = () => String.fromCodePoint(next++);

/** The ids a search finds, variants included, in id order. */
async function found(q: string): Promise<number[]> {
  const res = await rest().call<{ id: number }[]>('GET', `/api/product?all=true&q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!.map((p) => p.id);
}

async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await rest().call<T>(method, path, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body.data as T;
}

const create = (body: Record<string, unknown>) =>
  ok<{ id: number }>('POST', '/api/product', body).then((p) => p.id);

describe('a search of one or two characters', () => {
  it('follows short texts added, replaced and deleted, in any language, ignoring ASCII case', async () => {
    const [a, b, c] = [rare(), rare(), rare()];
    const id = await create({ supplierPid: `SU-${a}`, name: `Bohrer ${b}x` });
    expect(await found(`${b}X`)).toEqual([id]);
    expect(await found(a)).toEqual([id]);
    await ok('PUT', `/api/product/${id}/texts/short/eng`, { value: `drill ${c}` });
    expect(await found(c)).toEqual([id]);
    expect(await found(`${b}x`)).toEqual([id]);
    await ok('PUT', `/api/product/${id}/texts/short/eng`, { value: 'drill' });
    expect(await found(c)).toEqual([]);
    await ok('DELETE', `/api/product/${id}/texts/short/deu`);
    expect(await found(b)).toEqual([]);
    expect(await found(a)).toEqual([id]);
    // A long text is no short text: never searched.
    await ok('PUT', `/api/product/${id}/texts/long/deu`, { value: `lang ${c}` });
    expect(await found(c)).toEqual([]);
  });

  it('follows a changed supplierPid, and never matches across two parts of a product', async () => {
    const [a, b, c, d] = [rare(), rare(), rare(), rare()];
    const id = await create({ supplierPid: `P${a}`, name: `${b}n`, language: 'deu' });
    await ok('PUT', `/api/product/${id}/texts/short/eng`, { value: `e${c}` });
    await ok('PUT', `/api/product/${id}/texts/short/fra`, { value: `${d}f` });
    // The supplierPid ends in a, the German name begins with b: "ab" is in no single part.
    expect(await found(`${a}${b}`)).toEqual([]);
    expect(await found(`${c}${d}`)).toEqual([]);
    expect(await found(`${b}n`)).toEqual([id]);
    await ok('PUT', `/api/product/${id}`, { supplierPid: `Q${c}` });
    expect(await found(a)).toEqual([]);
    expect(await found(`q${c}`)).toEqual([id]);
  });

  it('follows variants, the bulk upsert, a mass edit and deletes', async () => {
    const [a, b, c, d] = [rare(), rare(), rare(), rare()];
    const main = await create({ supplierPid: `M-${a}` });
    const variant = await ok<{ id: number }>('POST', `/api/product/${main}/variants`, {
      supplierPid: `V-${a}`,
      name: `${b}v`,
    }).then((p) => p.id);
    expect(await found(a)).toEqual([main, variant]);
    expect(await found(`${b}V`)).toEqual([variant]);

    const [x, y] = await rest().seed([
      { supplierPid: `B1-${c}`, shortTexts: [{ lang: 'deu', value: `${d}1` }] },
      { supplierPid: `B2-${c}`, shortTexts: [{ lang: 'eng', value: `${d}2` }] },
    ]);
    expect(await found(d)).toEqual([x, y]);
    await rest().seed([{ supplierPid: `B1-${c}`, shortTexts: [{ lang: 'deu', value: 'ohne' }] }]);
    expect(await found(d)).toEqual([y]);

    const job = await rest().run({
      select: { ids: [x!, main] },
      action: { setText: { kind: 'short', lang: 'ita', value: `${d}${d}` } },
    });
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    expect(await found(`${d}${d}`)).toEqual([main, x]);
    expect(await found(d)).toEqual([main, x, y]);

    await ok('DELETE', `/api/product/${main}`);
    expect(await found(a)).toEqual([]);
    expect(await found(`${b}v`)).toEqual([]);
    expect(await found(d)).toEqual([x, y]);
  });
});
