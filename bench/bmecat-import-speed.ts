/**
 * BMEcat import speed (issue 35, point 8): a generated T_NEW_CATALOG of N products (a fifth of them
 * variants; 3 short texts, 2 long texts, keywords, 10 features with values in 3 languages, a MIME
 * entry, prices kept as fragments, every product mapped to a group) imported by importBmecat into
 * a fresh workspace, as `pim import` does. Each measurement runs in a child process of its own so
 * that its peak RSS is its own.
 *
 *   node --import tsx bench/bmecat-import-speed.ts [--products=20000] [--db sqlite|postgres] [--rounds=1]
 *
 * Prints, per round: the parse alone (readBmecat over the file, nothing written), then the whole
 * import; products a second, CPU seconds of the process and its peak RSS; and the load average.
 * The file is cached in bench/.data/bmecat/ (gitignored) by size.
 */
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { Application } from '../src/app/application.js';
import { saveDatabaseUrl } from '../src/db/database-config.js';
import { importBmecat } from '../src/interchange/bmecat/bmecat-import.js';
import { readBmecat } from '../src/interchange/bmecat/bmecat-reader.js';
import { createBenchDatabase, dropBenchDatabase } from './lib/postgres.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'bench', '.data', 'bmecat');
/** Raise when the generated file changes shape. */
const FILE_VERSION = 1;

const LANGS = ['deu', 'eng', 'fra'] as const;
const LONG_LANGS = ['deu', 'eng'] as const;
const FEATURES = 10;
const GROUPS = 200;
const WORDS = [
  'Akku',
  'Bohrer',
  'Schrauber',
  'Klemme',
  'Leiste',
  'Stecker',
  'Kabel',
  'Relais',
  'Modul',
  'Gehäuse',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The PRODUCT of number n (a fifth are variants of the product before them). */
function productXml(n: number): string {
  const pid = `BP-${String(n).padStart(7, '0')}`;
  const isVariant = n % 5 === 4;
  const word = (k: number) => WORDS[(n * 7 + k * 3) % WORDS.length]!;
  const short = LANGS.map(
    (l) => `<DESCRIPTION_SHORT lang="${l}">${word(1)} ${word(2)} ${n} ${l}</DESCRIPTION_SHORT>`,
  );
  const long = LONG_LANGS.map(
    (l) =>
      `<DESCRIPTION_LONG lang="${l}">${esc(`<p>${word(3)} & ${word(4)}: ${'Lorem ipsum dolor sit amet. '.repeat(4)}${n}</p>`)}</DESCRIPTION_LONG>`,
  );
  const keywords = LANGS.slice(0, 2).flatMap((l) => [
    `<KEYWORD lang="${l}">${word(5)}</KEYWORD>`,
    `<KEYWORD lang="${l}">${word(6)}-${l}</KEYWORD>`,
  ]);
  const cls = n % 30;
  const features = Array.from({ length: FEATURES }, (_, f) => {
    const values = LANGS.map((l) => `<FVALUE lang="${l}">${(n * (f + 3)) % 997} ${l}</FVALUE>`).join('');
    return `<FEATURE><FNAME>EF-${cls}-${f}</FNAME><FT_IDREF>EF${String(cls * 100 + f).padStart(6, '0')}</FT_IDREF>${values}<FUNIT>${f % 2 ? 'mm' : 'V'}</FUNIT></FEATURE>`;
  }).join('');
  return (
    `<PRODUCT><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS>${short.join('')}${long.join('')}` +
    `<INTERNATIONAL_PID type="gtin">40${String(n).padStart(11, '0')}</INTERNATIONAL_PID>` +
    `<MANUFACTURER_PID>MPN-${(n * 7919) % 1_000_003}</MANUFACTURER_PID><MANUFACTURER_NAME>ACME</MANUFACTURER_NAME>` +
    `${keywords.join('')}</PRODUCT_DETAILS>` +
    `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>` +
    `<REFERENCE_FEATURE_GROUP_ID>27-${cls}</REFERENCE_FEATURE_GROUP_ID>${features}</PRODUCT_FEATURES>` +
    `<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT><NO_CU_PER_OU>1</NO_CU_PER_OU></PRODUCT_ORDER_DETAILS>` +
    `<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${(n % 1000) + 0.99}</PRICE_AMOUNT>` +
    `<PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>` +
    `<MIME_INFO><MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>img/${pid}.jpg</MIME_SOURCE>` +
    `<MIME_DESCR lang="deu">Bild</MIME_DESCR><MIME_PURPOSE>normal</MIME_PURPOSE></MIME></MIME_INFO>` +
    (isVariant
      ? `<PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>BP-${String(n - 1).padStart(7, '0')}</PROD_ID_TO></PRODUCT_REFERENCE>`
      : '') +
    `</PRODUCT>\n`
  );
}

/** Writes the file of `count` products (cached by size and version); returns its path. */
export async function generate(count: number): Promise<string> {
  const path = join(CACHE, `products-${count}-v${FILE_VERSION}.xml`);
  if (existsSync(path)) return path;
  mkdirSync(CACHE, { recursive: true });
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">' +
      '<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE><LANGUAGE>fra</LANGUAGE>' +
      '<CATALOG_ID>BENCH</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION></CATALOG>' +
      '<SUPPLIER><SUPPLIER_NAME>Bench</SUPPLIER_NAME></SUPPLIER></HEADER><T_NEW_CATALOG>\n<CATALOG_GROUP_SYSTEM>' +
      '<CATALOG_STRUCTURE type="root"><GROUP_ID>R</GROUP_ID><GROUP_NAME>Katalog</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE>',
  );
  for (let g = 0; g < GROUPS; g++) {
    await write(
      `<CATALOG_STRUCTURE type="leaf"><GROUP_ID>G${g}</GROUP_ID><GROUP_NAME lang="deu">Gruppe ${g}</GROUP_NAME>` +
        `<PARENT_ID>R</PARENT_ID><GROUP_ORDER>${g}</GROUP_ORDER></CATALOG_STRUCTURE>`,
    );
  }
  await write('</CATALOG_GROUP_SYSTEM>\n');
  for (let n = 0; n < count; n++) await write(productXml(n));
  for (let n = 0; n < count; n++) {
    await write(
      `<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>BP-${String(n).padStart(7, '0')}</PROD_ID>` +
        `<CATALOG_GROUP_ID>G${Math.floor((n * GROUPS) / count)}</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>\n`,
    );
  }
  await write('</T_NEW_CATALOG></BMECAT>\n');
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
  return path;
}

interface ChildResult {
  mode: 'parse' | 'import';
  products: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** In the child: one measurement, printed as JSON on the last line. */
async function child(mode: 'parse' | 'import', file: string, pgUrl: string | undefined): Promise<void> {
  if (mode === 'parse') {
    const started = performance.now();
    const cpu = process.cpuUsage();
    let products = 0;
    for await (const event of readBmecat(createReadStream(file))) if (event.kind === 'product') products++;
    printResult(mode, products, started, cpu);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'pim-bench-import-'));
  if (pgUrl) saveDatabaseUrl(dataDir, pgUrl);
  const app = await Application.open({ dataDir });
  try {
    const ws = await app.workspaces.create(app.ownerContext(), { name: 'Import bench', language: 'deu' });
    await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
    // Timed from here: the workspace's set-up is not the import's.
    const started = performance.now();
    const cpu = process.cpuUsage();
    const report = await importBmecat(app.ownerContext(), createReadStream(file));
    const products = report.created + report.updated;
    if (report.skipped.length > 0 || products !== report.products)
      throw new Error(`import refused products: ${JSON.stringify(report).slice(0, 500)}`);
    printResult(mode, products, started, cpu);
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printResult(mode: ChildResult['mode'], products: number, started: number, cpu: NodeJS.CpuUsage) {
  const used = process.cpuUsage(cpu);
  const result: ChildResult = {
    mode,
    products,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(JSON.stringify(result));
}

function measure(mode: 'parse' | 'import', file: string, pgUrl: string | undefined): ChildResult {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      `--child=${mode}`,
      `--file=${file}`,
      ...(pgUrl ? [`--pg=${pgUrl}`] : []),
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PIM_LOG_LEVEL: 'warn' }, maxBuffer: 64 * 2 ** 20 },
  );
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !last.startsWith('{'))
    throw new Error(`${mode} failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(last) as ChildResult;
}

function arg(name: string): string | undefined {
  const prefix = `--${name}=`;
  const found = process.argv.find((a) => a.startsWith(prefix));
  if (found) return found.slice(prefix.length);
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const childMode = arg('child');
  if (childMode === 'parse' || childMode === 'import') {
    await child(childMode, arg('file')!, arg('pg'));
    return;
  }
  const count = Number(arg('products') ?? 20_000);
  const rounds = Number(arg('rounds') ?? 1);
  const db = arg('db') ?? 'sqlite';
  const file = await generate(count);
  console.log(`file: ${file} (${count} products), db: ${db}`);
  for (let round = 1; round <= rounds; round++) {
    const before = load();
    const parse = measure('parse', file, undefined);
    let pg: { name: string; url: string } | undefined;
    if (db === 'postgres') pg = await createBenchDatabase(`import_${process.pid}_${round}`);
    let imported: ChildResult;
    try {
      imported = measure('import', file, pg?.url);
    } finally {
      if (pg) await dropBenchDatabase(pg.name);
    }
    const line = (r: ChildResult) =>
      `${r.mode.padEnd(6)} ${String(Math.round(r.products / r.seconds)).padStart(7)} products/s` +
      ` (${r.seconds.toFixed(2)} s), ${Math.round(r.products / r.cpuSeconds)} per CPU second` +
      ` (${r.cpuSeconds.toFixed(2)} s), peak RSS ${r.peakRssMb} MB`;
    console.log(`round ${round}: load average before ${before}, after ${load()}`);
    console.log(`  ${line(parse)}`);
    console.log(`  ${line(imported)}`);
  }
}

// Imported by bench/bmecat-export-speed.ts for its file: run only as a script.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
