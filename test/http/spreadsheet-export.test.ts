import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvStrict } from '../helpers/csv.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readXlsx } from '../helpers/xlsx.js';

/**
 * GET /api/export?format=csv|xlsx: a view of the catalogue as a spreadsheet, read back strictly
 * (RFC 4180; the XLSX's sheet XML) with every value exact, formula starts neutralised in CSV,
 * selection and columns honoured, and every refusal in the envelope before a byte of the file.
 */
const ECLASS = '0173-1#02-AAF040#004';
const AWKWARD = [
  'a, comma',
  'a "quote"',
  'line\nbreak',
  'CR\r\nLF',
  '  leading and trailing  ',
  'Größe ∅ — 日本語 😀',
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1)',
  '\tTAB',
  '\rCR first',
  "'quoted",
  '_x0041_ looks escaped',
  'bell \u0007 control',
];

let server: TestServer;
let token: string;
let groupId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
  const group = await server.request<{ id: number }>('POST', '/api/group', {
    token,
    body: { name: 'Bohrer' },
  });
  groupId = group.body.data!.id;
  const docs = [
    {
      supplierPid: 'P-1',
      ean: '4008190397111',
      shortTexts: [
        { lang: 'deu', value: 'Bohrer, 5 mm' },
        { lang: 'eng', value: 'Drill "5 mm"' },
      ],
      longTexts: [{ lang: 'deu', value: 'Zeile 1\nZeile 2' }],
      features: [
        {
          ftidref: ECLASS,
          funit: 'V',
          values: [
            { lang: 'deu', value: '18' },
            { lang: 'eng', value: 'eighteen' },
          ],
        },
      ],
      groupId,
    },
    { supplierPid: 'P-1-A', masterSupplierPid: 'P-1', shortTexts: [{ lang: 'deu', value: 'Variante' }] },
    ...AWKWARD.map((value, i) => ({
      supplierPid: `W-${i}`,
      manufacturerName: value,
      shortTexts: [{ lang: 'deu', value }],
      features: [{ ftidref: 'plain', values: [{ lang: 'deu', value }] }],
    })),
  ];
  const bulk = await server.request<{ id: number; supplierPid: string; status: number }[]>(
    'POST',
    '/api/product/bulk',
    {
      token,
      body: docs,
    },
  );
  expect(bulk.status, bulk.text).toBe(200);
  for (const r of bulk.body.data!) {
    expect(r.status, JSON.stringify(r)).toBeLessThan(300);
    ids[r.supplierPid] = r.id;
  }
});
afterAll(() => server.stop());

const get = (query: string, bearer: string | null = token) =>
  fetch(`${server.baseUrl}/api/export${query}`, {
    headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
  });

async function csvOf(query: string): Promise<string[][]> {
  const res = await get(`?format=csv${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="products.csv"');
  return parseCsvStrict(await res.text());
}

async function xlsxOf(query: string): Promise<string[][]> {
  const res = await get(`?format=xlsx${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="products.xlsx"');
  const { rows } = readXlsx(new Uint8Array(await res.arrayBuffer()));
  const width = rows[0]!.length;
  return rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
}

const unquoted = (cell: string) => (/^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell);
const byPid = (rows: string[][]) => {
  const header = rows[0]!;
  return new Map(
    rows
      .slice(1)
      .map((r) => [r[header.indexOf('supplierPid')]!, Object.fromEntries(header.map((h, i) => [h, r[i]!]))]),
  );
};

describe('GET /api/export?format=csv|xlsx', () => {
  it('writes every product with the default columns, values exact, formulas neutralised in CSV', async () => {
    const csv = await csvOf('');
    const header = csv[0]!;
    expect(header.slice(0, 4)).toEqual(['id', 'supplierPid', 'masterSupplierPid', 'groupId']);
    expect(header).toContain('updatedAt');
    expect(header.filter((h) => /^(short|long)\[/.test(h))).toEqual([
      'short[deu]',
      'short[eng]',
      'long[deu]',
      'long[eng]',
    ]);
    expect(header.filter((h) => h.startsWith('feature['))).toEqual([
      `feature[${ECLASS}].unit`,
      `feature[${ECLASS}][deu]`,
      `feature[${ECLASS}][eng]`,
      'feature[plain].unit',
      'feature[plain][deu]',
    ]);
    expect(csv.slice(1).map((r) => Number(r[0]))).toEqual(Object.values(ids).sort((a, b) => a - b));
    const rows = byPid(csv);
    const main = rows.get('P-1')!;
    expect(main).toMatchObject({
      groupId: String(groupId),
      ean: '4008190397111',
      masterSupplierPid: '',
      'short[deu]': 'Bohrer, 5 mm',
      'short[eng]': 'Drill "5 mm"',
      'long[deu]': 'Zeile 1\nZeile 2',
      [`feature[${ECLASS}].unit`]: 'V',
      [`feature[${ECLASS}][eng]`]: 'eighteen',
    });
    expect(rows.get('P-1-A')).toMatchObject({
      masterSupplierPid: 'P-1',
      groupId: '',
      'short[deu]': 'Variante',
    });
    AWKWARD.forEach((value, i) => {
      const row = rows.get(`W-${i}`)!;
      for (const column of ['manufacturerName', 'short[deu]', 'feature[plain][deu]']) {
        expect(unquoted(row[column]!), `${column} of ${JSON.stringify(value)}`).toBe(value);
        expect(/^[=+\-@\t\r]/.test(row[column]!), `${JSON.stringify(row[column])} is neutralised`).toBe(
          false,
        );
      }
    });
    expect(rows.get('W-12')!['short[deu]']).toBe("''quoted");
  });

  it('writes the same view as XLSX: string cells only, every value exact, none neutralised', async () => {
    const csv = await csvOf('');
    const xlsx = await xlsxOf('');
    expect(xlsx.map((r) => r.map(unquoted))).toEqual(csv.map((r) => r.map(unquoted)));
    const rows = byPid(xlsx);
    AWKWARD.forEach((value, i) => expect(rows.get(`W-${i}`)!['short[deu]']).toBe(value));
  });

  it('honours the selection, the columns and the languages', async () => {
    const columns = `supplierPid,short[eng],feature[${ECLASS}][deu],feature[${ECLASS}].unit`;
    expect(
      await csvOf(`&groupId=${groupId}&includeVariants=true&columns=${encodeURIComponent(columns)}`),
    ).toEqual([
      ['supplierPid', 'short[eng]', `feature[${ECLASS}][deu]`, `feature[${ECLASS}].unit`],
      ['P-1', 'Drill "5 mm"', '18', 'V'],
      ['P-1-A', '', '', ''],
    ]);
    expect(await xlsxOf(`&ids=${ids['W-1']},${ids['P-1']}&columns=supplierPid,short[deu]`)).toEqual([
      ['supplierPid', 'short[deu]'],
      ['P-1', 'Bohrer, 5 mm'],
      ['W-1', 'a "quote"'],
    ]);
    const q = await csvOf('&q=P-1&mainOnly=true&languages=eng');
    expect(q[0]!.filter((h) => h.includes('['))).toEqual([
      'short[eng]',
      'long[eng]',
      `feature[${ECLASS}].unit`,
      `feature[${ECLASS}][eng]`,
    ]);
    expect(q.slice(1).map((r) => r[1])).toEqual(['P-1']);
  });

  it('begins with a byte-order mark on request', async () => {
    const res = await get('?format=csv&bom=true&columns=supplierPid&ids=' + ids['P-1']);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(
      new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('supplierPid\r\nP-1\r\n')]),
    );
  });

  it('is a read: a VIEWER exports too', async () => {
    await server.addUser('vera', 'VIEWER', 'viewer-password-1');
    const res = await get(
      '?format=csv&columns=supplierPid&mainOnly=true&q=P-1',
      await server.login('vera', 'viewer-password-1'),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('supplierPid\r\nP-1\r\n');
  });

  it('refuses a bad parameter in the envelope, before a byte of the file', async () => {
    const cases: [string, number, string, string?][] = [
      ['?format=csv&columns=nope', 400, 'VALIDATION_FAILED', 'columns'],
      ['?format=csv&columns=short[xx]', 400, 'VALIDATION_FAILED', 'columns'],
      ['?format=xlsx&columns=feature[undefined][deu]', 400, 'VALIDATION_FAILED', 'columns'],
      ['?format=csv&columns=supplierPid,supplierPid', 400, 'VALIDATION_FAILED', 'columns'],
      ['?format=csv&columns=short[eng]&languages=deu', 400, 'VALIDATION_FAILED', 'columns'],
      ['?format=csv&languages=xx', 400, 'VALIDATION_FAILED'],
      ['?format=csv&groupId=99999', 404, 'GROUP_NOT_FOUND'],
      ['?format=xlsx&ids=99999,1', 404, 'PRODUCT_NOT_FOUND'],
      ['?format=csv&ids=1&q=x', 400, 'VALIDATION_FAILED', 'q'],
      ['?format=csv&includeSubgroups=true', 400, 'VALIDATION_FAILED', 'groupId'],
      ['?format=csv&ids=1,x', 400, 'VALIDATION_FAILED'],
      ['?format=xlsx&bom=true', 400, 'VALIDATION_FAILED', 'bom'],
      ['?format=csv&strict=true', 400, 'VALIDATION_FAILED', 'strict'],
      ['?columns=supplierPid', 400, 'VALIDATION_FAILED', 'columns'],
      ['?format=2005.1&mainOnly=true', 400, 'VALIDATION_FAILED', 'mainOnly'],
      ['?format=ods', 400, 'VALIDATION_FAILED'],
    ];
    for (const [query, status, code, field] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(status);
      expect(res.headers.get('content-type'), query).toBe('application/json; charset=utf-8');
      const body = (await res.json()) as { success: boolean; code: string; error: string };
      expect(body.success).toBe(false);
      expect(body.code, query).toBe(code);
      if (field) expect(body.error, query).toContain(field);
    }
    expect((await get('?format=csv', null)).status).toBe(401);
  });

  it('writes a feature language while a first occurrence uses it: added by a single edit, gone with its last value', async () => {
    const header = async () => (await csvOf(''))[0]!;
    const column = `feature[${ECLASS}][spa]`;
    const path = `/api/product/${ids['P-1']}/features/${encodeURIComponent(ECLASS)}/spa`;
    expect(await header()).not.toContain(column);
    const put = await server.request('PUT', path, { token, body: { value: 'dieciocho' } });
    expect(put.status, put.text).toBe(200);
    const rows = byPid(await csvOf(''));
    expect(rows.get('P-1')![column]).toBe('dieciocho');
    const removed = await server.request('DELETE', path, { token });
    expect(removed.status, removed.text).toBe(200);
    expect(await header()).not.toContain(column);
    // The feature's other languages stay: other products' and this one's values still use them.
    expect(await header()).toContain(`feature[${ECLASS}][eng]`);
  });

  it('writes the columns the catalogue has now: a feature language added since the last export shows', async () => {
    // Last in the file: it adds a product. The export before it must not answer its columns again.
    expect((await csvOf(''))[0]).not.toContain('feature[later][fra]');
    const bulk = await server.request('POST', '/api/product/bulk', {
      token,
      body: [
        { supplierPid: 'LATER', features: [{ ftidref: 'later', values: [{ lang: 'fra', value: 'oui' }] }] },
      ],
    });
    expect(bulk.status, bulk.text).toBe(200);
    const rows = byPid(await csvOf(''));
    expect(rows.get('LATER')!['feature[later][fra]']).toBe('oui');
  });
});
