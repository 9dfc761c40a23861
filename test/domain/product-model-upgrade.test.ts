import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { storageChoice } from '../../src/db/database-config.js';
import { migratePostgres, openPostgres } from '../../src/db/postgres.js';
import { migrate, openSqlite } from '../../src/db/sqlite.js';
import { SHEET_FIELDS } from '../../src/db/catalogue/product-fields.js';
import { workspaceMigrations } from '../../src/db/workspace.migrations.js';
import { workspaceMigrationsPostgres } from '../../src/db/workspace.migrations.postgres.js';
import type { WorkspaceDatabase } from '../../src/db/workspace.schema.js';
import { ManualClock } from '../../src/domain/clock.js';
import {
  insertInitialMeta,
  removeDatabaseFiles,
  workspaceDbPath,
} from '../../src/domain/workspaces/open-workspace.js';
import { newDataDir, removeDataDir, TEST_BACKEND } from '../helpers/backend.js';
import type { NodeDto } from '../helpers/group-dto.js';
import { connectHttp, ok } from '../helpers/mcp.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';
import {
  BEFORE_0008_META,
  BEFORE_0008_ROWS,
  EXPECTED_NAMES,
  LONG,
} from './feature-values-upgrade.fixture.js';

/**
 * A workspace written by the release before 0008_product_model (migrated up to
 * 0007_feature_values_json) is opened by this one, on the test backend (SQLite, or PostgreSQL in
 * the postgres project): the migration turns every feature into its first occurrence without details,
 * and the catalogue reads as it did through REST and MCP, the model's new parts empty
 * (feature-values-upgrade.fixture.ts holds the workspace).
 */
const before0008 = <T>(migrations: Record<string, T>) =>
  Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0008'));

const AT = '2026-01-01T00:00:00.000Z';
const F1_NAMES = JSON.parse(EXPECTED_NAMES[0]!.names_json) as unknown[];
const COLOUR = '0173-1#02-AAF040#004';

/** The tables 0008 added, and the one whose key it changed. */
const NEW_TABLES = [
  'product_keyword',
  'product_media',
  'product_extra_group',
  'product_fragment',
  'catalog_fragment',
] as const;

/** LONG as itself and inside JSON text. */
const LONG_JSON = JSON.stringify(LONG).slice(1, -1);

/**
 * A value with LONG shortened to a mark, and any other long string to its length and hash, so
 * that a failure prints a readable difference (LONG is 250,000 characters).
 */
function brief(value: unknown): unknown {
  if (typeof value === 'string') {
    const marked = value.split(LONG_JSON).join('<LONG as JSON>');
    const shorter = marked === value ? value.split(LONG).join('<LONG>') : marked;
    return shorter.length > 2000
      ? `<${shorter.length} characters, sha256 ${createHash('sha256').update(shorter).digest('hex')}>`
      : shorter;
  }
  if (Array.isArray(value)) return value.map(brief);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, brief(v)]));
  return value;
}

/** Writes the fixture's rows into a workspace database at 0007, in their foreign keys' order. */
async function seed(db: Kysely<WorkspaceDatabase>): Promise<void> {
  await insertInitialMeta(db, 'deu');
  for (const [table, rows] of Object.entries(BEFORE_0008_ROWS)) {
    await db
      .insertInto(table as keyof WorkspaceDatabase)
      .values(rows as never)
      .execute();
  }
  await db
    .updateTable('meta')
    .set({ value: BEFORE_0008_META.next_root_group_seq })
    .where('key', '=', 'next_root_group_seq')
    .execute();
  await db
    .updateTable('change_counter')
    .set({ value: BEFORE_0008_META.change_value, stamp: BEFORE_0008_META.change_stamp })
    .execute();
}

/** The names of the migrations a workspace database has run, in order. */
async function migrationNames(db: Kysely<WorkspaceDatabase>): Promise<string[]> {
  const result = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return result.rows.map((r) => r.name);
}

/**
 * Runs `work` on the workspace database of folder `rootpath` (schema `schema` on PostgreSQL),
 * opened from outside the application as a support tool would.
 */
async function onWorkspaceDatabase<T>(
  dataDir: string,
  where: { rootpath: string; schema: string | null },
  work: (db: Kysely<WorkspaceDatabase>, dialect: 'sqlite' | 'postgres') => Promise<T>,
): Promise<T> {
  if (TEST_BACKEND === 'sqlite') {
    const handle = openSqlite<WorkspaceDatabase>(workspaceDbPath(where.rootpath));
    try {
      return await work(handle.db, 'sqlite');
    } finally {
      await handle.close();
    }
  }
  const choice = storageChoice(dataDir, {});
  if (choice.kind !== 'postgres') throw new Error(`${dataDir} is not set up for PostgreSQL`);
  const handle = openPostgres<WorkspaceDatabase>(choice.url, where.schema!, { max: 2 });
  try {
    return await work(handle.db, 'postgres');
  } finally {
    await handle.close();
  }
}

/**
 * A data folder whose open workspace "Old" is the fixture's at 0007, made as the older release
 * left it: the workspace is created by the application (registry, folder, schema name), then its
 * database is replaced by one migrated only up to 0007 holding the fixture's rows.
 */
async function dataFolderBefore0008(): Promise<{ dataDir: string; rootpath: string; schema: string | null }> {
  const dataDir = await newDataDir('pim-upgrade-0008-');
  const clock = new ManualClock(new Date('2026-01-15T10:00:00.000Z'));
  const prep = await Application.open({ dataDir, clock });
  let where: { rootpath: string; schema: string | null };
  try {
    await prep.users.add(prep.ownerContext(), { username: 'admin', role: 'ADMIN', password: ADMIN_PASSWORD });
    const ws = await prep.workspaces.create(prep.ownerContext(), { name: 'Old', language: 'deu' });
    await prep.workspaces.open(prep.ownerContext(), { workspaceId: ws.id });
    await prep.settings.update(prep.ownerContext(), { 'rest.enabled': true });
    const row = await prep.stores.shared
      .selectFrom('workspace')
      .select('db_schema')
      .where('id', '=', ws.id)
      .executeTakeFirstOrThrow();
    where = { rootpath: ws.rootpath, schema: row.db_schema };
  } finally {
    await prep.stop();
  }

  if (TEST_BACKEND === 'sqlite') {
    removeDatabaseFiles(where.rootpath);
    const handle = openSqlite<WorkspaceDatabase>(workspaceDbPath(where.rootpath));
    try {
      await migrate(handle, before0008(workspaceMigrations));
      await seed(handle.db);
    } finally {
      await handle.close();
    }
  } else {
    await onWorkspaceDatabase(dataDir, where, async (db) => {
      await sql`DROP SCHEMA ${sql.id(where.schema!)} CASCADE`.execute(db);
    });
    const choice = storageChoice(dataDir, {});
    const handle = openPostgres<WorkspaceDatabase>(
      choice.kind === 'postgres' ? choice.url : '',
      where.schema!,
      {
        max: 2,
      },
    );
    try {
      await migratePostgres(handle, before0008(workspaceMigrationsPostgres));
      await seed(handle.db);
      // As the older release left them: its identities past the ids it gave.
      for (const table of ['product', 'product_group', 'feature_def']) {
        await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT max(id) FROM ${sql.table(table)}))`.execute(
          handle.db,
        );
      }
    } finally {
      await handle.close();
    }
  }
  return { dataDir, ...where };
}

/** ProductDto of the fixture's products, as the older release answered them (read with ?lang= absent). */
const PRODUCTS = [
  {
    id: 1,
    supplierPid: 'A',
    supplierIdRef: null,
    name: 'Zange',
    ean: '4006381333115',
    manufacturerPid: 'M-A',
    masterProduct: true,
    variantCount: 1,
    masterProductId: null,
    createdAt: AT,
    updatedAt: AT,
  },
  {
    id: 2,
    supplierPid: 'B',
    supplierIdRef: null,
    name: 'Werkzeugkasten',
    ean: null,
    manufacturerPid: null,
    masterProduct: true,
    variantCount: 0,
    masterProductId: null,
    createdAt: AT,
    updatedAt: AT,
  },
  {
    id: 3,
    supplierPid: 'C',
    supplierIdRef: null,
    name: '',
    ean: null,
    manufacturerPid: null,
    masterProduct: true,
    variantCount: 0,
    masterProductId: null,
    createdAt: AT,
    updatedAt: AT,
  },
  {
    id: 4,
    supplierPid: 'A-1',
    supplierIdRef: null,
    name: 'Zange klein',
    ean: null,
    manufacturerPid: null,
    masterProduct: false,
    variantCount: 0,
    masterProductId: 1,
    createdAt: AT,
    updatedAt: AT,
  },
];

/** FeatureDto of each product, in its order (the unit: the product's, else the definition's). */
const FEATURES: Record<number, unknown[]> = {
  1: [
    { ftidref: 'F2', funit: null, names: [], values: [{ lang: 'zxx', value: LONG }] },
    {
      ftidref: 'F1',
      funit: 'cm',
      names: F1_NAMES,
      values: [
        { lang: 'deu', value: '12,5' },
        { lang: 'eng', value: '12.5' },
      ],
    },
  ],
  2: [{ ftidref: 'F1', funit: 'mm', names: F1_NAMES, values: [] }],
  3: [
    {
      ftidref: COLOUR,
      funit: null,
      names: [{ lang: 'eng', value: 'Colour' }],
      values: [
        { lang: 'deu', value: 'rot' },
        { lang: 'eng', value: 'red' },
        { lang: 'zxx', value: 'RAL 3000' },
      ],
    },
    { ftidref: 'F1', funit: 'mm', names: F1_NAMES, values: [{ lang: 'zxx', value: '7' }] },
  ],
  4: [{ ftidref: 'F1', funit: 'm', names: F1_NAMES, values: [{ lang: 'zxx', value: '0.1' }] }],
};

const GROUP_OF: Record<number, { id: number; groupId: string; name: string } | null> = {
  1: { id: 2, groupId: '1.1', name: 'Zangen' },
  2: { id: 1, groupId: '1', name: 'Werkzeug' },
  3: null,
  4: null,
};

const TEXTS: Record<number, { short: unknown[]; long: unknown[] }> = {
  1: {
    short: [
      { lang: 'deu', value: 'Zange' },
      { lang: 'eng', value: 'Pliers' },
    ],
    long: [{ lang: 'deu', value: '<p>Eine Zange</p>' }],
  },
  2: { short: [{ lang: 'deu', value: 'Werkzeugkasten' }], long: [] },
  3: { short: [], long: [] },
  4: { short: [{ lang: 'deu', value: 'Zange klein' }], long: [] },
};

/** The sheet the upgraded workspace must answer: every feature one occurrence without details, new parts empty. */
function expectedSheet(id: number) {
  const group = GROUP_OF[id]!;
  return {
    product: PRODUCTS[id - 1],
    shortTexts: TEXTS[id]!.short,
    longTexts: TEXTS[id]!.long,
    features: FEATURES[id]!.map((f) => ({ ...(f as object), details: null })),
    group,
    groups: group ? [{ ...group, catalogGroupId: null }] : [],
    ...Object.fromEntries(SHEET_FIELDS.map((f) => [f.key, null])),
    keywords: [],
    media: [],
    fragments: [],
    variants: id === 1 ? [{ id: 4, supplierPid: 'A-1', name: 'Zange klein' }] : [],
  };
}

describe(`upgrading a workspace across 0008_product_model (${TEST_BACKEND})`, () => {
  let dataDir: string | undefined;
  let server: TestServer | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await server?.stop();
    server = undefined;
    await removeDataDir(dataDir);
    dataDir = undefined;
  });

  it('reads every product as before, each feature one occurrence without details, the new parts empty', async () => {
    const where = await dataFolderBefore0008();
    dataDir = where.dataDir;
    const before = await onWorkspaceDatabase(dataDir, where, async (db) => {
      const names = await migrationNames(db);
      const features = await db
        .selectFrom('product_feature')
        .select(['product_id', 'feature_id', 'funit', 'position', sql<string>`values_json`.as('values_json')])
        .orderBy('product_id')
        .orderBy('feature_id')
        .execute();
      return { names, features };
    });
    expect(before.names.at(-1)).toBe('0007_feature_values_json');

    // The application opens the workspace (it was open) and brings it up to date.
    server = await startServer({ dataDir });
    const token = await server.login();
    const get = async <T = unknown>(path: string): Promise<T> => {
      const res = await server!.request<T>('GET', path, { token });
      expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
      return res.body.data as T;
    };

    // The database: the migration ran, each feature became occurrence 1 without details, its
    // values and unit as they were; the new columns and tables hold nothing.
    const after = await onWorkspaceDatabase(dataDir, where, async (db, dialect) => {
      const text = dialect === 'postgres' ? sql`::text` : sql``;
      const features = await sql<Record<string, unknown>>`SELECT product_id, feature_id, occurrence, funit,
          position, values_json${text} AS values_json, details_json${text} AS details_json
        FROM product_feature ORDER BY product_id, feature_id, occurrence`.execute(db);
      const counts: Record<string, number> = {};
      for (const table of NEW_TABLES) {
        const result = await sql<{
          n: number | string;
        }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
        counts[table] = Number(result.rows[0]!.n);
      }
      const named = await sql<{ n: number | string }>`SELECT count(*) AS n FROM product
        WHERE manufacturer_name IS NOT NULL`.execute(db);
      const catalogued = await sql<{ n: number | string }>`SELECT count(*) AS n FROM product_group
        WHERE catalog_group_id IS NOT NULL`.execute(db);
      return {
        names: await migrationNames(db),
        features: features.rows,
        counts,
        manufacturerNames: Number(named.rows[0]!.n),
        catalogGroupIds: Number(catalogued.rows[0]!.n),
      };
    });
    // Every step ran, this one and those after it.
    expect(after.names).toEqual(Object.keys(workspaceMigrations));
    expect(brief(after.features)).toEqual(
      brief(before.features.map((f) => ({ ...f, occurrence: 1, details_json: null }))),
    );
    const seeded = [...BEFORE_0008_ROWS.product_feature].sort(
      (a, b) => a.product_id - b.product_id || a.feature_id - b.feature_id,
    );
    expect(brief(after.features.map((f) => f.values_json))).toEqual(brief(seeded.map((f) => f.values_json)));
    expect(after.counts).toEqual(Object.fromEntries(NEW_TABLES.map((t) => [t, 0])));
    expect(after.manufacturerNames).toBe(0);
    expect(after.catalogGroupIds).toBe(0);

    // REST's routes of the older release answer as they did.
    expect(await get('/api/product?all=true')).toEqual(PRODUCTS);
    for (const product of PRODUCTS) {
      const { id } = product;
      expect(await get(`/api/product/${id}`)).toEqual(product);
      expect(brief(await get(`/api/product/${id}/features`))).toEqual(brief(FEATURES[id]));
      for (const feature of FEATURES[id]! as Array<{ ftidref: string }>) {
        const path = `/api/product/${id}/features/${encodeURIComponent(feature.ftidref)}`;
        expect(brief(await get(path))).toEqual(brief(feature));
      }
      expect(await get(`/api/product/${id}/texts/short`)).toEqual(TEXTS[id]!.short);
      expect(await get(`/api/product/${id}/texts/long`)).toEqual(TEXTS[id]!.long);
    }
    const tree = await get<NodeDto>('/api/group/tree');
    const shape = (node: NodeDto): unknown => ({
      id: node.id,
      groupId: node.groupId,
      children: node.children.map(shape),
    });
    expect(shape(tree)).toMatchObject({
      children: [
        { id: 1, groupId: '1', children: [{ id: 2, groupId: '1.1', children: [] }] },
        { id: 3, groupId: '2', children: [] },
      ],
    });
    const members = async (groupId: number) =>
      (await get<Array<{ id: number }>>(`/api/group/${groupId}/products`)).map((p) => p.id);
    expect(await members(1)).toEqual([2]);
    expect(await members(2)).toEqual([1]);
    expect(await members(3)).toEqual([]);

    // The sheet, over REST and MCP: one occurrence per feature with details null, the group as
    // `groups`, and keywords, media, fragments empty and no manufacturer name.
    client = await connectHttp(server.baseUrl, token);
    for (const { id } of PRODUCTS) {
      const sheet = await get(`/api/product/${id}/sheet`);
      expect(brief(sheet)).toEqual(brief(expectedSheet(id)));
      expect(brief(await ok(client, 'get_product', { id }))).toEqual(brief(sheet));
    }

    // A sheet read back unchanged writes nothing new, and the single feature routes still
    // address the one occurrence there is.
    const sheet = await get<Record<string, unknown>>('/api/product/1/sheet');
    const put = await server.request('PUT', '/api/product/1/sheet', { token, body: sheet });
    expect(put.status, put.text).toBe(200);
    const { product: _p, ...rest } = put.body.data as Record<string, unknown>;
    const { product: _q, ...expected } = expectedSheet(1);
    expect(brief(rest)).toEqual(brief(expected));
    const set = await server.request('PUT', '/api/product/1/features/F1', {
      token,
      body: { values: [{ lang: 'fra', value: '12,5' }] },
    });
    expect(set.status, set.text).toBe(200);
    const features = await get<Array<{ ftidref: string; values: unknown[] }>>('/api/product/1/sheet').then(
      (s) => (s as unknown as { features: Array<{ ftidref: string; values: unknown[] }> }).features,
    );
    expect(features.map((f) => f.ftidref)).toEqual(['F2', 'F1']);
    expect(features[1]!.values).toEqual([
      { lang: 'deu', value: '12,5' },
      { lang: 'eng', value: '12.5' },
      { lang: 'fra', value: '12,5' },
    ]);
  }, 60_000);
});
