/**
 * The benchmark catalogue: a data folder set up through the application's own services,
 * its workspace database filled directly with prepared statements in big transactions.
 * The filled database is cached under bench/.data/<size> and copied per run.
 *
 *   node --import tsx bench/generate.ts [--quick] [--force]
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Application } from '../src/app/application.js';
import { ADMIN, GENERATOR_VERSION, SIZES, WORKSPACE_NAME, type CatalogueSize } from './config.js';
import { insertFeatureDefs } from './generate/features.js';
import { insertGroups } from './generate/groups.js';
import { insertProducts, type ProductCounts } from './generate/products.js';
import { Random } from './generate/random.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE_ROOT = join(ROOT, 'bench', '.data');
const DB_FILE = 'workspace.sqlite';

export interface Manifest extends ProductCounts {
  version: string;
  size: CatalogueSize['label'];
  groups: number;
  groupDepth: number;
  featureDefs: number;
  /** Product ids run from 1 to `products`. */
  firstId: number;
  generatedAt: string;
  generationSeconds: number;
}

export interface PreparedData {
  /** Temporary folder holding this run's data folder and workspace; remove it after the run. */
  root: string;
  dataDir: string;
  manifest: Manifest;
  /** True when the catalogue came from the cache. */
  cached: boolean;
}

/**
 * The generator version: the constant plus a hash of the generator's sources and the schema, the
 * migration steps' files included (a new step changes the schema without touching the list's file).
 */
function versionKey(): string {
  const hash = createHash('sha256');
  const files = [
    join(ROOT, 'src/db/workspace.migrations.ts'),
    ...readdirSync(join(ROOT, 'src/db/migrations')).map((f) => join(ROOT, 'src/db/migrations', f)),
    fileURLToPath(import.meta.url),
    ...readdirSync(join(ROOT, 'bench/generate')).map((f) => join(ROOT, 'bench/generate', f)),
    join(ROOT, 'bench/config.ts'),
  ];
  for (const file of files.sort()) hash.update(readFileSync(file));
  return `${GENERATOR_VERSION}-${hash.digest('hex').slice(0, 12)}`;
}

/** A data folder with the admin user, the workspace (empty, or a copy of `dbFile`) opened, REST enabled. */
async function createDataFolder(root: string, dbFile?: string): Promise<{ dataDir: string; dbPath: string }> {
  const dataDir = join(root, 'data');
  const workspacePath = join(root, 'workspace');
  const app = await Application.open({ dataDir });
  try {
    await app.users.add(app.ownerContext(), {
      username: ADMIN.username,
      role: 'ADMIN',
      password: ADMIN.password,
    });
    const ws = await app.workspaces.create(app.ownerContext(), {
      name: WORKSPACE_NAME,
      path: workspacePath,
      language: 'deu',
    });
    const dbPath = join(workspacePath, DB_FILE);
    if (dbFile) {
      for (const suffix of ['-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
      copyFileSync(dbFile, dbPath);
    }
    await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
    await app.settings.update(app.ownerContext(), { 'rest.enabled': true });
    return { dataDir, dbPath };
  } finally {
    await app.stop();
  }
}

/** Fills the (new, empty) workspace database; the fill needs no journal: a failed fill is thrown away. */
function fill(
  dbPath: string,
  size: CatalogueSize,
): Omit<Manifest, 'version' | 'generatedAt' | 'generationSeconds'> {
  const db = new Database(dbPath);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    db.pragma('foreign_keys = OFF');
    const random = new Random(20240101);
    const timestamp = new Date(Date.UTC(2024, 0, 1)).toISOString();
    const groups = insertGroups(db, size.groups, timestamp);
    const featureClasses = insertFeatureDefs(db);
    const counts = insertProducts(db, {
      count: size.products,
      leafIds: groups.leafIds,
      featureClasses,
      random,
    });
    const violations = db.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0) throw new Error(`generated data breaks ${violations.length} foreign keys`);
    db.pragma('journal_mode = WAL');
    return {
      ...counts,
      size: size.label,
      groups: groups.count,
      groupDepth: groups.depth,
      featureDefs: featureClasses.flat().length,
      firstId: 1,
    };
  } finally {
    db.close();
  }
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The cached catalogue of this size, generated first when missing or of another generator version. */
export async function ensureCatalogue(
  size: CatalogueSize,
  force = false,
): Promise<{ dir: string; manifest: Manifest; cached: boolean }> {
  const dir = join(CACHE_ROOT, size.label);
  const version = versionKey();
  const existing = readManifest(dir);
  if (!force && existing?.version === version && existsSync(join(dir, DB_FILE))) {
    return { dir, manifest: existing, cached: true };
  }
  const started = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), 'pim-bench-gen-'));
  try {
    const { dbPath } = await createDataFolder(scratch);
    const facts = fill(dbPath, size);
    const manifest: Manifest = {
      ...facts,
      version,
      generatedAt: new Date().toISOString(),
      generationSeconds: Math.round((performance.now() - started) / 10) / 100,
    };
    mkdirSync(CACHE_ROOT, { recursive: true });
    const staging = mkdtempSync(join(CACHE_ROOT, `${size.label}.tmp-`));
    renameSync(dbPath, join(staging, DB_FILE));
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return { dir, manifest, cached: false };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A fresh data folder for one run, in a temporary folder, on a copy of the cached catalogue. */
export async function prepareRunData(size: CatalogueSize): Promise<PreparedData> {
  const { dir, manifest, cached } = await ensureCatalogue(size);
  const root = mkdtempSync(join(tmpdir(), 'pim-bench-run-'));
  const { dataDir } = await createDataFolder(root, join(dir, DB_FILE));
  return { root, dataDir, manifest, cached };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = process.argv.includes('--quick') ? SIZES.quick : SIZES.full;
  const { dir, manifest, cached } = await ensureCatalogue(size, process.argv.includes('--force'));
  console.log(
    cached
      ? `catalogue ${size.label} is cached in ${dir}`
      : `catalogue ${size.label} generated in ${manifest.generationSeconds} s: ${dir}`,
  );
  console.log(JSON.stringify(manifest, null, 2));
}
