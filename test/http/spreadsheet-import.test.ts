import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import { xlsxFile } from '../helpers/xlsx-file.js';

/**
 * POST /api/import with a spreadsheet (issue 36, point 7): CSV and XLSX rows keyed by supplierPid,
 * only what differs written, every bad input failing the job with its row and column and writing
 * nothing (unless continueOnError), dry runs counting what would change.
 */
interface Job {
  id: number;
  kind: string;
  state: string;
  processed: number;
  report: Report | null;
  error: { message: string; code: string | null; line: number | null; column: number | null } | null;
}
interface Report {
  format: string;
  dryRun: boolean;
  rows: number;
  created: number;
  changed: number;
  unchanged: number;
  skippedCount: number;
  skipped: {
    row: number;
    column: number;
    columnName: string | null;
    supplierPid: string | null;
    message: string;
  }[];
}
interface Sheet {
  product: { id: number; supplierPid: string; ean: string | null; masterProductId: number | null };
  shortTexts: { lang: string; value: string }[];
  longTexts: { lang: string; value: string }[];
  features: { ftidref: string; funit: string | null; values: { lang: string; value: string }[] }[];
  group: { id: number } | null;
}

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let server: TestServer;
let token: string;
let groupId: number;
beforeAll(async () => {
  server = await startServer();
  token = await server.login();
  const group = await call<{ id: number }>('POST', '/api/group', { name: 'Bohrer' });
  expect(group.status, group.text).toBe(201);
  groupId = group.body.data!.id;
});
afterAll(() => server.stop());

function call<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  return server.request<T>(method, path, { token, body });
}

async function upload(body: string | Buffer, type = CSV, query = ''): Promise<ApiResponse<Job>> {
  return server.request<Job>('POST', `/api/import${query}`, {
    token,
    rawBody: body,
    headers: { 'content-type': type },
  });
}

async function ended(id: number): Promise<Job> {
  let job: Job | undefined;
  await expect
    .poll(async () => {
      job = (await call<Job>('GET', `/api/job/${id}`)).body.data;
      return job?.state;
    })
    .not.toMatch(/^(queued|running)$/);
  return job!;
}

/** Imports a file and answers its job as it ended. */
async function importFile(body: string | Buffer, type = CSV, query = ''): Promise<Job> {
  const res = await upload(body, type, query);
  expect(res.status, res.text).toBe(202);
  expect(res.body.data).toMatchObject({ kind: 'spreadsheet-import' });
  return ended(res.body.data!.id);
}

async function imported(body: string | Buffer, type = CSV, query = ''): Promise<Report> {
  const job = await importFile(body, type, query);
  expect(job.error, JSON.stringify(job.error)).toBeNull();
  expect(job.state).toBe('succeeded');
  return job.report!;
}

const counter = async () =>
  (await call<{ active: boolean; changeCounter: number }[]>('GET', '/api/workspace')).body.data!.find(
    (w) => w.active,
  )!.changeCounter;

async function sheetOf(supplierPid: string): Promise<Sheet | undefined> {
  const list = await call<{ id: number; supplierPid: string }[]>('GET', '/api/product?all=true');
  const found = list.body.data!.find((p) => p.supplierPid === supplierPid);
  if (!found) return undefined;
  return (await call<Sheet>('GET', `/api/product/${found.id}/sheet`)).body.data;
}

async function etags(): Promise<Map<string, string>> {
  const list = await call<{ id: number; supplierPid: string }[]>('GET', '/api/product?all=true');
  const tags = new Map<string, string>();
  for (const p of list.body.data!)
    tags.set(p.supplierPid, (await call('GET', `/api/product/${p.id}`)).headers.get('etag')!);
  return tags;
}

const csv = (rows: string[][], delimiter = ',') =>
  rows
    .map((cells) =>
      cells.map((c) => (/[",;\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(delimiter),
    )
    .join('\r\n') + '\r\n';

const HEADER = [
  'id',
  'supplierPid',
  'masterSupplierPid',
  'groupId',
  'ean',
  'short[deu]',
  'short[eng]',
  'long[deu]',
  'feature[EF-LEN][deu]',
  'feature[EF-LEN][eng]',
  'feature[EF-LEN].unit',
  'feature[EF-COL][deu]',
  'updatedAt',
];

describe('spreadsheet import: writing only what differs', () => {
  it('creates the products of a CSV file; the same file again changes nothing, not even the change counter', async () => {
    const rows = [
      HEADER,
      [
        '',
        'SI-1',
        '',
        String(groupId),
        '4006381333115',
        'Bohrer',
        'Drill',
        'Ein langer Text',
        '12',
        '12',
        'mm',
        'rot',
        '',
      ],
      ['', 'SI-1-V', 'SI-1', '', '', 'Bohrer klein', '', '', '8', '', 'mm', '', ''],
    ];
    const report = await imported(csv(rows));
    expect(report).toMatchObject({
      format: 'csv',
      dryRun: false,
      rows: 2,
      created: 2,
      changed: 0,
      unchanged: 0,
    });
    const main = await sheetOf('SI-1');
    expect(main).toMatchObject({
      product: { ean: '4006381333115', masterProductId: null },
      shortTexts: [
        { lang: 'deu', value: 'Bohrer' },
        { lang: 'eng', value: 'Drill' },
      ],
      longTexts: [{ lang: 'deu', value: 'Ein langer Text' }],
      group: { id: groupId },
    });
    expect(main!.features).toEqual([
      expect.objectContaining({
        ftidref: 'EF-LEN',
        funit: 'mm',
        values: [
          { lang: 'deu', value: '12' },
          { lang: 'eng', value: '12' },
        ],
      }),
      expect.objectContaining({ ftidref: 'EF-COL', values: [{ lang: 'deu', value: 'rot' }] }),
    ]);
    expect((await sheetOf('SI-1-V'))!.product.masterProductId).toBe(main!.product.id);

    const before = { counter: await counter(), tags: await etags() };
    expect(await imported(csv(rows))).toMatchObject({ rows: 2, created: 0, changed: 0, unchanged: 2 });
    expect(await counter()).toBe(before.counter);
    expect(await etags()).toEqual(before.tags);
  });

  it('writes exactly the cells that differ: a field, a text, a value; empty cells remove', async () => {
    await imported(
      csv([
        [
          'supplierPid',
          'ean',
          'short[deu]',
          'long[deu]',
          'feature[EF-LEN][deu]',
          'feature[EF-LEN][eng]',
          'feature[EF-LEN].unit',
          'feature[EF-COL][deu]',
        ],
        ['SI-2', '111', 'Säge', 'Lang', '5', '5', 'cm', 'blau'],
        ['SI-3', '222', 'Hammer', '', '', '', '', ''],
      ]),
    );
    const tags = await etags();
    const report = await imported(
      csv([
        [
          'supplierPid',
          'ean',
          'short[deu]',
          'long[deu]',
          'feature[EF-LEN][deu]',
          'feature[EF-LEN][eng]',
          'feature[EF-LEN].unit',
          'feature[EF-COL][deu]',
        ],
        ['SI-2', '', 'Säge', '', '6', '', 'cm', ''],
        ['SI-3', '222', 'Hammer', '', '', '', '', ''],
      ]),
    );
    expect(report).toMatchObject({ rows: 2, created: 0, changed: 1, unchanged: 1 });
    const saw = await sheetOf('SI-2');
    expect(saw).toMatchObject({
      product: { ean: null },
      shortTexts: [{ lang: 'deu', value: 'Säge' }],
      longTexts: [],
    });
    expect(saw!.features).toEqual([
      expect.objectContaining({ ftidref: 'EF-LEN', funit: 'cm', values: [{ lang: 'deu', value: '6' }] }),
    ]);
    const after = await etags();
    expect(after.get('SI-3')).toBe(tags.get('SI-3'));
    expect(after.get('SI-2')).not.toBe(tags.get('SI-2'));
  });

  it('leaves the parts of columns the file lacks as they are', async () => {
    const report = await imported(
      csv([
        ['supplierPid', 'short[deu]'],
        ['SI-1', 'Bohrer neu'],
      ]),
    );
    expect(report).toMatchObject({ changed: 1 });
    expect(await sheetOf('SI-1')).toMatchObject({
      product: { ean: '4006381333115' },
      shortTexts: [
        { lang: 'deu', value: 'Bohrer neu' },
        { lang: 'eng', value: 'Drill' },
      ],
      group: { id: groupId },
    });
  });

  it('compares feature values as stored whatever the list holds: escapes, a language without a column', async () => {
    const all = [
      'supplierPid',
      'feature[EF-LEN][deu]',
      'feature[EF-LEN][eng]',
      'feature[EF-LEN][fra]',
      'feature[EF-COL][deu]',
    ];
    const awkward = '5 "x" \\ y\u00e9\u{1f600}';
    await imported(csv([all, ['SI-9', '5', awkward, 'cinq', 'rot']]));
    const tags = await etags();
    // The same cells: the stored lists are the text these rows would store.
    expect(await imported(csv([all, ['SI-9', '5', awkward, 'cinq', 'rot']]))).toMatchObject({
      changed: 0,
      unchanged: 1,
    });
    // No column for French: the stored list holds a value the row does not name, which stays.
    const lacking = ['supplierPid', 'feature[EF-LEN][deu]', 'feature[EF-LEN][eng]', 'feature[EF-COL][deu]'];
    expect(await imported(csv([lacking, ['SI-9', '5', awkward, 'rot']]))).toMatchObject({
      changed: 0,
      unchanged: 1,
    });
    expect((await etags()).get('SI-9')).toBe(tags.get('SI-9'));
    expect(await imported(csv([lacking, ['SI-9', '6', awkward, 'rot']]))).toMatchObject({ changed: 1 });
    expect((await sheetOf('SI-9'))!.features).toEqual([
      expect.objectContaining({
        ftidref: 'EF-LEN',
        values: [
          { lang: 'deu', value: '6' },
          { lang: 'eng', value: awkward },
          { lang: 'fra', value: 'cinq' },
        ],
      }),
      expect.objectContaining({ ftidref: 'EF-COL', values: [{ lang: 'deu', value: 'rot' }] }),
    ]);
  });

  it('a dry run counts created, changed and unchanged and writes nothing', async () => {
    const before = { counter: await counter(), tags: await etags() };
    const job = await importFile(
      csv([
        ['supplierPid', 'short[deu]'],
        ['SI-1', 'Bohrer anders'],
        ['SI-2', 'Säge'],
        ['SI-NEW', 'Neu'],
      ]),
      CSV,
      '?dryRun=true',
    );
    expect(job.report).toMatchObject({ dryRun: true, rows: 3, created: 1, changed: 1, unchanged: 1 });
    expect(await counter()).toBe(before.counter);
    expect(await etags()).toEqual(before.tags);
  });

  it('reads a BOM, the ; delimiter of German Excel, quoted line breaks and the formula guard', async () => {
    const body =
      '\ufeffsupplierPid;short[deu];long[deu];feature[EF-COL][deu]\r\n' +
      'SI-4;"=1+1 ""Text""";"Zeile 1\nZeile 2; mit Semikolon";\'-5\r\n' +
      "SI-5;'=SUM(A1);'nur ein Apostroph;x\r\n";
    expect(await imported(body)).toMatchObject({ rows: 2, created: 2 });
    const four = await sheetOf('SI-4');
    expect(four).toMatchObject({
      shortTexts: [{ lang: 'deu', value: '=1+1 "Text"' }],
      longTexts: [{ lang: 'deu', value: 'Zeile 1\nZeile 2; mit Semikolon' }],
      features: [expect.objectContaining({ values: [{ lang: 'deu', value: '-5' }] })],
    });
    expect(await sheetOf('SI-5')).toMatchObject({
      shortTexts: [{ lang: 'deu', value: '=SUM(A1)' }],
      longTexts: [{ lang: 'deu', value: "'nur ein Apostroph" }],
    });
  });

  it('imports the first worksheet of an XLSX file: inline and shared strings, numbers and booleans as text', async () => {
    for (const shared of [false, true]) {
      const pid = shared ? 'SX-2' : 'SX-1';
      const file = xlsxFile(
        [
          ['supplierPid', 'ean', 'short[deu]', 'feature[EF-LEN][deu]', 'feature[EF-BOOL][deu]'],
          [pid, 4006381333115, 'Zange <groß> & "klein"', 12.5, true],
          [null],
        ],
        { shared },
      );
      expect(await imported(file, XLSX)).toMatchObject({ format: 'xlsx', rows: 1, created: 1 });
      expect(await sheetOf(pid)).toMatchObject({
        product: { ean: '4006381333115' },
        shortTexts: [{ lang: 'deu', value: 'Zange <groß> & "klein"' }],
        features: [
          expect.objectContaining({ ftidref: 'EF-LEN', values: [{ lang: 'deu', value: '12.5' }] }),
          expect.objectContaining({ ftidref: 'EF-BOOL', values: [{ lang: 'deu', value: 'TRUE' }] }),
        ],
      });
    }
  });
});

describe('spreadsheet import: bad input fails with its row and column, writing nothing', () => {
  const long = 'x'.repeat(129);
  const cases: {
    name: string;
    body: string | Buffer;
    type?: string;
    line: number;
    column: number;
    message: RegExp;
  }[] = [
    {
      name: 'an unknown column',
      body: csv([
        ['supplierPid', 'colour'],
        ['SB-1', 'red'],
      ]),
      line: 1,
      column: 2,
      message: /column B \(colour\): unknown column/,
    },
    {
      name: 'a bad language in a header',
      body: csv([
        ['supplierPid', 'short[xx]'],
        ['SB-1', 'a'],
      ]),
      line: 1,
      column: 2,
      message: /'xx' is not an ISO 639-2/,
    },
    {
      name: 'no supplierPid column',
      body: csv([['short[deu]'], ['a']]),
      line: 1,
      column: 1,
      message: /no column supplierPid/,
    },
    {
      name: 'a value too long',
      body: csv([
        ['supplierPid', 'ean'],
        ['SB-1', 'e'],
        ['SB-2', long],
      ]),
      line: 3,
      column: 2,
      message: /row 3, column B \(ean\): ean must be at most 128/,
    },
    {
      name: 'a row with the wrong number of cells',
      body: 'supplierPid,ean\r\nSB-1,1\r\nSB-2,2,3\r\n',
      line: 3,
      column: 3,
      message: /the row has 3 cells; the header row has 2/,
    },
    {
      name: 'an unknown groupId',
      body: csv([
        ['supplierPid', 'groupId'],
        ['SB-1', '999999'],
      ]),
      line: 2,
      column: 2,
      message: /groupId 999999: no group/,
    },
    {
      name: 'a masterSupplierPid that differs from the stored one',
      body: csv([
        ['supplierPid', 'masterSupplierPid'],
        ['SB-1', ''],
        ['SI-1-V', ''],
      ]),
      line: 3,
      column: 2,
      message: /masterSupplierPid '' differs from the stored one \('SI-1'/,
    },
    {
      name: 'a duplicate supplierPid',
      body: csv([
        ['supplierPid', 'ean'],
        ['SB-1', '1'],
        ['SB-1', '2'],
      ]),
      line: 3,
      column: 1,
      message: /'SB-1' is the key of an earlier row/,
    },
    {
      name: 'bytes that are not UTF-8',
      body: Buffer.concat([
        Buffer.from('supplierPid,short[deu]\r\nSB-1,ok\r\nSB-2,'),
        Buffer.from('Gr\xf6\xdfe\r\n', 'latin1'),
      ]),
      line: 3,
      column: 2,
      message: /row 3, column B \(short\[deu\]\): the bytes are not UTF-8/,
    },
    { name: 'an empty file', body: '', line: 1, column: 1, message: /empty/ },
    {
      name: 'a file that is not CSV',
      body: xlsxFile([['supplierPid'], ['SB-1']]),
      line: 1,
      column: 1,
      message: /zip archive/,
    },
    {
      name: 'a file that is not XLSX',
      body: 'supplierPid\r\nSB-1\r\n',
      type: XLSX,
      line: 1,
      column: 1,
      message: /not an XLSX workbook/,
    },
    {
      name: 'a broken CSV quote',
      body: 'supplierPid,ean\r\nSB-1,"12\r\n',
      line: 2,
      column: 2,
      message: /not valid CSV/,
    },
  ];

  it.each(cases)('$name', async ({ body, type, line, column, message }) => {
    const before = { counter: await counter(), tags: await etags() };
    const job = await importFile(body, type ?? CSV);
    expect(job.state).toBe('failed');
    expect(job.error).toMatchObject({ code: 'SPREADSHEET_INVALID', line, column });
    expect(job.error!.message).toMatch(message);
    expect(await counter()).toBe(before.counter);
    expect(await etags()).toEqual(before.tags);
  });

  it('refuses a CSV declared in another charset before storing it, starting no job', async () => {
    const jobs = (await call<Job[]>('GET', '/api/job')).body.data!.length;
    const res = await upload('supplierPid\r\nSB-1\r\n', 'text/csv; charset=iso-8859-1');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'SPREADSHEET_INVALID',
      error: expect.stringMatching(/iso-8859-1/),
    });
    expect((await upload('supplierPid\r\nSB-1\r\n', 'text/csv; charset=UTF-8', '?dryRun=true')).status).toBe(
      202,
    );
    expect((await call<Job[]>('GET', '/api/job')).body.data!.length).toBe(jobs + 1);
  });

  it('with continueOnError skips the bad rows, reports each with row and column, and imports the others', async () => {
    const body = Buffer.concat([
      Buffer.from(
        csv([
          ['supplierPid', 'groupId', 'ean', 'masterSupplierPid'],
          ['SC-1', '', '1', ''],
          ['SC-2', 'zwei', '2', ''],
          ['SC-1', '', '3', ''],
          ['SC-3', '', 'x'.repeat(200), ''],
          ['SC-4', '', '4', 'NO-SUCH-MAIN'],
          ['SC-5', '', '5', ''],
        ]),
      ),
      Buffer.from('SC-6,,\xff,\r\nSC-7,,7\r\n', 'latin1'),
    ]);
    const report = await imported(body, CSV, '?continueOnError=true');
    expect(report).toMatchObject({ rows: 8, created: 2, skippedCount: 6 });
    expect(report.skipped.map((s) => [s.row, s.column, s.columnName])).toEqual([
      [3, 2, 'groupId'],
      [4, 1, 'supplierPid'],
      [5, 3, 'ean'],
      [6, 1, 'supplierPid'],
      [8, 3, 'ean'],
      [9, 4, 'masterSupplierPid'],
    ]);
    expect(report.skipped.find((s) => s.row === 6)).toMatchObject({
      supplierPid: 'SC-4',
      message: expect.stringMatching(/NO-SUCH-MAIN/),
    });
    expect((await sheetOf('SC-1'))!.product.ean).toBe('1');
    expect((await sheetOf('SC-5'))!.product.ean).toBe('5');
    for (const pid of ['SC-2', 'SC-3', 'SC-4', 'SC-6', 'SC-7']) expect(await sheetOf(pid)).toBeUndefined();
  });
});
