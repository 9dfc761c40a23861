import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { ManualClock } from '../../src/domain/clock.js';
import { runInTransaction, type Actor, type RequestContext } from '../../src/domain/context.js';
import { ForbiddenError, NoWorkspaceError } from '../../src/domain/errors.js';
import * as features from '../../src/domain/features/feature.service.js';
import * as groups from '../../src/domain/groups/group.service.js';
import * as productJson from '../../src/domain/products/product-json.service.js';
import * as sheets from '../../src/domain/products/product-sheet.service.js';
import * as products from '../../src/domain/products/product.service.js';
import * as texts from '../../src/domain/texts/text.service.js';
import { RIGHTS, rightsOf, type Role } from '../../src/domain/users/roles.js';

/**
 * The services decide rights and the open workspace themselves, whichever adapter calls them:
 * here they are called directly, with no HTTP in front, as MCP, the window and the CLI will.
 */

let dir: string;
let app: Application;
let owner: RequestContext;
let productId: number;
let groupId: number;

function actor(role: Role): Actor {
  return { id: 99, username: role.toLowerCase(), role, rights: rightsOf(role) };
}

function as(role: Role, ctx: RequestContext = owner): RequestContext {
  return { ...ctx, actor: actor(role) };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pim-service-auth-'));
  app = await Application.open({ dataDir: dir, clock: new ManualClock(new Date('2026-05-01T00:00:00Z')) });
  const ws = await app.workspaces.create(app.ownerContext(), { name: 'Auth', language: 'deu' });
  await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
  owner = app.ownerContext();
  productId = (await products.createProduct(owner, { supplierPid: 'P-1', name: 'Eins' })).id;
  await texts.setText(owner, productId, 'DESCRIPTIONLONG', 'deu', 'lang');
  await features.setFeature(owner, productId, 'COLOR', { values: [{ lang: 'deu', value: 'rot' }] });
  groupId = (await groups.createGroup(owner, { name: 'Gruppe' })).id;
});

afterEach(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const WRITES: Array<[string, (ctx: RequestContext) => Promise<unknown>]> = [
  ['createProduct', (ctx) => products.createProduct(ctx, { supplierPid: 'P-2' })],
  ['createVariant', (ctx) => products.createVariant(ctx, productId, { supplierPid: 'P-2' })],
  ['updateProduct', (ctx) => products.updateProduct(ctx, productId, { ean: '1' })],
  ['deleteProduct', (ctx) => products.deleteProduct(ctx, productId)],
  ['setText', (ctx) => texts.setText(ctx, productId, 'DESCRIPTIONSHORT', 'eng', 'x')],
  ['deleteText', (ctx) => texts.deleteText(ctx, productId, 'DESCRIPTIONLONG', 'deu')],
  [
    'setFeature',
    (ctx) => features.setFeature(ctx, productId, 'SIZE', { values: [{ lang: 'deu', value: 'L' }] }),
  ],
  ['setFeatureValue', (ctx) => features.setFeatureValue(ctx, productId, 'COLOR', 'eng', 'red')],
  ['deleteFeature', (ctx) => features.deleteFeature(ctx, productId, 'COLOR')],
  ['deleteFeatureValue', (ctx) => features.deleteFeatureValue(ctx, productId, 'COLOR', 'deu')],
  ['createGroup', (ctx) => groups.createGroup(ctx, { name: 'Neu' })],
  ['renameGroup', (ctx) => groups.renameGroup(ctx, groupId, { name: 'Anders' })],
  ['moveGroup', (ctx) => groups.moveGroup(ctx, groupId, { parentId: null })],
  ['deleteGroup', (ctx) => groups.deleteGroup(ctx, groupId)],
  ['assignProducts', (ctx) => groups.assignProducts(ctx, groupId, [productId])],
  ['removeProduct', (ctx) => groups.removeProduct(ctx, groupId, productId)],
];

const READS: Array<[string, (ctx: RequestContext) => Promise<unknown>]> = [
  ['getProduct', (ctx) => products.getProduct(ctx, productId)],
  ['listProducts', (ctx) => products.listProducts(ctx, { all: true })],
  ['listVariantsJson', (ctx) => products.listVariantsJson(ctx, productId)],
  ['getTexts', (ctx) => texts.getTexts(ctx, productId, 'DESCRIPTIONLONG')],
  ['listFeatures', (ctx) => features.listFeatures(ctx, productId)],
  ['listFeaturesJson', (ctx) => features.listFeaturesJson(ctx, productId)],
  ['getProductJson', (ctx) => productJson.getProductJson(ctx, productId)],
  ['getProductSheetJson', (ctx) => sheets.getProductSheetJson(ctx, productId)],
  ['listGroups', (ctx) => groups.listGroups(ctx)],
  ['getGroupTree', (ctx) => groups.getGroupTree(ctx)],
  ['listGroupProductsPage', (ctx) => groups.listGroupProductsPage(ctx, groupId, { limit: 10 })],
];

async function snapshot(): Promise<string> {
  return JSON.stringify([
    await products.listProducts(owner, { all: true }),
    await texts.getTexts(owner, productId, 'DESCRIPTIONLONG'),
    await features.listFeatures(owner, productId),
    await groups.listGroups(owner),
  ]);
}

describe('services check rights themselves', () => {
  it.each(WRITES)('%s refuses a VIEWER with FORBIDDEN and changes nothing', async (_name, call) => {
    const before = await snapshot();
    await expect(call(as('VIEWER'))).rejects.toBeInstanceOf(ForbiddenError);
    expect(await snapshot()).toBe(before);
  });

  it.each(READS)('%s serves a VIEWER', async (_name, call) => {
    await expect(call(as('VIEWER'))).resolves.toBeDefined();
  });

  it.each([...WRITES, ...READS])('%s refuses with NO_WORKSPACE_OPEN when none is open', async (_n, call) => {
    await expect(call({ ...as('ADMIN'), workspace: undefined })).rejects.toBeInstanceOf(NoWorkspaceError);
  });

  it('an EDITOR may write the catalogue', async () => {
    const created = await products.createProduct(as('EDITOR'), { supplierPid: 'P-E' });
    expect(created.supplierPid).toBe('P-E');
  });

  it('workspaces and users check their rights too', async () => {
    await expect(app.workspaces.list(as('VIEWER'))).resolves.toHaveLength(1);
    await expect(app.workspaces.create(as('VIEWER'), { name: 'No' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(app.workspaces.open(as('VIEWER'), { workspaceName: 'Auth' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(app.users.list(as('EDITOR'))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      app.users.add(as('EDITOR'), { username: 'x', role: 'ADMIN', password: 'secret-1' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect((await app.workspaces.list(owner)).map((w) => w.name)).toEqual(['Auth']);
  });

  it('settings are saved one way, with a context: the right Einstellungen, which the owner holds', async () => {
    await expect(app.settings.update(as('EDITOR'), { 'rest.port': 9000 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await app.settings.get('rest.port')).toBe(8765);
    // As the command line gives it: text, parsed by the setting's rules.
    await app.settings.update(owner, { 'rest.port': '9000' });
    expect(await app.settings.get('rest.port')).toBe(9000);
  });
});

describe('service calls in the caller’s transaction', () => {
  it('commit together', async () => {
    await runInTransaction(owner, RIGHTS.edit, async (ctx) => {
      const a = await products.createProduct(ctx, { supplierPid: 'T-1', name: 'A' });
      await texts.setText(ctx, a.id, 'DESCRIPTIONLONG', 'eng', 'long');
      // Reads inside the transaction see its own writes.
      expect((await products.getProduct(ctx, a.id)).name).toBe('A');
      await products.createVariant(ctx, a.id, { supplierPid: 'T-2' });
    });
    const all = await products.listProducts(owner, { all: true });
    expect(all.map((p) => p.supplierPid)).toEqual(['P-1', 'T-1', 'T-2']);
  });

  it('roll back together when one call fails', async () => {
    const before = await snapshot();
    await expect(
      runInTransaction(owner, RIGHTS.edit, async (ctx) => {
        await products.createProduct(ctx, { supplierPid: 'T-1' });
        await texts.setText(ctx, productId, 'DESCRIPTIONLONG', 'deu', 'changed');
        await groups.assignProducts(ctx, groupId, [productId]);
        await products.createProduct(ctx, { supplierPid: 'P-1' }); // taken: 409
      }),
    ).rejects.toMatchObject({ detailCode: 'SUPPLIER_PID_TAKEN' });
    expect(await snapshot()).toBe(before);
  });

  it('are refused without the right before anything runs', async () => {
    let ran = false;
    await expect(
      runInTransaction(as('VIEWER'), RIGHTS.edit, async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(ran).toBe(false);
  });
});
