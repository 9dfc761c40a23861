import { RIGHTS, runInTransaction, type RequestContext } from '../../domain/context.js';
import { defineFeature } from '../../domain/features/feature.service.js';
import {
  findGroupByCatalogId,
  setCatalogGroupContent,
  setCatalogGroupId,
} from '../../domain/groups/catalog-group-id.service.js';
import {
  createGroup,
  deleteGroup,
  listGroups,
  moveGroup,
  renameGroup,
} from '../../domain/groups/group.service.js';
import { Turns } from '../../domain/fair-turns.js';
import { listProducts } from '../../domain/products/product.service.js';
import { setCatalogHeader } from '../../domain/catalogue/catalog-header.service.js';
import { deleteProducts, upsertProducts } from '../../domain/products/product-bulk.service.js';
import type { BmecatProduct } from './bmecat-product.js';
import { PRICE_ON_REQUEST } from './bmecat-product-writer.js';
import { FeatureNames } from './bmecat-feature-names.js';
import { Memberships } from './bmecat-memberships.js';
import { writePriceBatch } from './bmecat-price-update.js';
import { BmecatError, readBmecat, type BmecatGroup } from './bmecat-reader.js';
import { readBmecatInWorker } from './bmecat-reader-thread.js';

/**
 * A BMEcat file into the open workspace, through the services only (docs/bmecat.md): the group
 * system, feature definitions, products in batches on the bulk path, then their groups, all in one
 * transaction: a refusal writes nothing. T_NEW_CATALOG merges (every product of the file is
 * upserted by SUPPLIER_PID, the others stay); T_UPDATE_PRODUCTS follows each PRODUCT's `mode`.
 */
export interface ImportOptions {
  /**
   * T_NEW_CATALOG: `merge` (default) upserts the file's products and leaves the others; `replace`
   * also deletes every product and group the file does not hold, so that the workspace holds exactly
   * the file's catalogue afterwards.
   */
  mode?: 'merge' | 'replace';
  /** Report what would change and write nothing. */
  dryRun?: boolean;
  /** Skip a product the services refuse and report it, instead of failing the whole import. */
  continueOnError?: boolean;
  /** Called after each batch with the products written so far; a rejection ends the import, rolled back (a job's cancel). */
  onProgress?: (processed: number) => void | Promise<void>;
  /**
   * Parse the file in a worker thread while this one writes (bmecat-reader-thread.ts): worth its
   * start-up (some tens of milliseconds) from about a megabyte on; the job decides by the file's size.
   */
  parseInWorker?: boolean;
}

export interface ImportProblem {
  line: number;
  column: number;
  supplierPid: string | null;
  message: string;
  code?: string;
}

export interface ImportReport {
  transaction: string;
  dryRun: boolean;
  products: number;
  created: number;
  updated: number;
  deleted: number;
  groupsCreated: number;
  groupsDeleted: number;
  skipped: ImportProblem[];
}

/** Products per bulk call; a call also holds at most ROWS_PER_BATCH texts, keywords and values. */
const DOCUMENTS_PER_BATCH = 200;
const ROWS_PER_BATCH = 20_000;

/** Thrown inside the transaction to roll a dry run back once its counts are known. */
class DryRunDone extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run');
  }
}

export async function importBmecat(
  context: RequestContext,
  bytes: AsyncIterable<Uint8Array>,
  options: ImportOptions = {},
): Promise<ImportReport> {
  try {
    return await runInTransaction(context, RIGHTS.edit, async (ctx) => {
      const report = await importInto(ctx, bytes, options);
      if (options.dryRun) throw new DryRunDone(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.report;
    throw error;
  }
}

async function importInto(
  ctx: RequestContext,
  bytes: AsyncIterable<Uint8Array>,
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    transaction: '',
    dryRun: options.dryRun === true,
    products: 0,
    created: 0,
    updated: 0,
    deleted: 0,
    groupsCreated: 0,
    groupsDeleted: 0,
    skipped: [],
  };
  const groups: BmecatGroup[] = [];
  const rootIds = new Set<string>();
  let groupIds: Map<string, number> | undefined;
  let memberships = new Memberships('');
  const header: { place: string; xml: string }[] = [];
  // The file's products: a mapping must name one of them (docs/bmecat.md).
  const supplierPids = new Set<string>();
  let batch: BmecatProduct[] = [];
  let rows = 0;
  const featureNames = new FeatureNames();

  const flush = async () => {
    if (batch.length === 0) return;
    if (report.transaction === 'T_UPDATE_PRICES') {
      report.products += batch.length;
      report.updated += await writePriceBatch(ctx, batch, (product, message, code) =>
        refuse(product, message, code, report, options),
      );
    } else await writeBatch(ctx, batch, report, options, featureNames);
    batch = [];
    rows = 0;
    await options.onProgress?.(report.products);
  };

  const turns = new Turns();
  for await (const event of options.parseInWorker ? readBmecatInWorker(bytes) : readBmecat(bytes)) {
    // Reading holds the event loop as long as the file's chunks are at hand: other users' requests
    // are answered between records (the writes give way on their own: db/sqlite-dialect.ts).
    await turns.take();
    switch (event.kind) {
      case 'header':
        header.push({ place: 'HEADER', xml: event.xml });
        break;
      case 'transaction':
        if (options.mode === 'replace' && event.name !== 'T_NEW_CATALOG')
          throw new BmecatError(
            `The file is a ${event.name}: replace applies to a whole catalogue (T_NEW_CATALOG); import it with merge`,
            event.line,
            event.column,
          );
        report.transaction = event.name;
        memberships = new Memberships(event.name);
        break;
      case 'group':
        // The root stands for the catalogue itself: kept as it is for the export, its children are
        // top-level groups, and a product mapped to it has no group (docs/bmecat.md).
        if (event.type === 'root' && event.groupId !== null) {
          rootIds.add(event.groupId);
          header.push({ place: `${report.transaction}/CATALOG_GROUP_SYSTEM`, xml: event.xml });
        } else groups.push(event);
        break;
      case 'featureDefinition':
        await defineFeature(ctx, {
          ftidref: event.ftidref,
          names: event.names.map((n) => ({ lang: n.lang, name: n.value })),
          ...(event.unit !== null ? { defaultUnit: event.unit } : {}),
        });
        break;
      case 'product': {
        groupIds ??= await createGroups(ctx, groups, report);
        if (event.product.supplierPid === undefined)
          throw new BmecatError(
            'A PRODUCT without SUPPLIER_PID: every product needs one',
            event.product.line,
            event.product.column,
          );
        supplierPids.add(event.product.supplierPid);
        batch.push(event.product);
        rows += rowsOf(event.product);
        if (batch.length >= DOCUMENTS_PER_BATCH || rows >= ROWS_PER_BATCH) await flush();
        break;
      }
      case 'mapping': {
        groupIds ??= await createGroups(ctx, groups, report);
        if (event.groupId !== null && rootIds.has(event.groupId)) break;
        if (event.supplierPid === null || event.groupId === null)
          throw new BmecatError(
            `A PRODUCT_TO_CATALOGGROUP_MAP without ${event.supplierPid === null ? 'PROD_ID' : 'CATALOG_GROUP_ID'}`,
            event.line,
            event.column,
          );
        await memberships.add(
          ctx,
          { ...event, supplierPid: event.supplierPid, groupId: event.groupId },
          groupIds,
        );
        break;
      }
      case 'fragment':
        header.push({ place: event.place, xml: event.xml });
        break;
    }
  }
  await flush();
  groupIds ??= await createGroups(ctx, groups, report);
  await memberships.write(
    ctx,
    supplierPids,
    new Set(report.skipped.map((s) => s.supplierPid)),
    (supplierPid, message, line, column) =>
      skipOrFail({ line, column, supplierPid, message }, report, options),
    DOCUMENTS_PER_BATCH,
  );
  if (report.transaction === 'T_NEW_CATALOG') await setCatalogHeader(ctx, header);
  if (options.mode === 'replace') {
    await placeGroupsAsTheFile(ctx, groups, groupIds);
    await removeTheRest(ctx, supplierPids, new Set(groupIds.values()), report);
  }
  return report;
}

/**
 * `replace`: the file's groups that the workspace held already (found by their GROUP_ID) move under
 * the parent the file gives them (the root when it names none of its groups), as a new import would
 * have placed them; then none is lost with a parent the file no longer holds.
 */
async function placeGroupsAsTheFile(
  ctx: RequestContext,
  groups: readonly BmecatGroup[],
  ids: ReadonlyMap<string, number>,
): Promise<void> {
  const current = new Map((await listGroups(ctx)).map((g) => [g.id, g.parentGroupId]));
  for (const group of groups) {
    const id = ids.get(group.groupId!)!;
    const parentId = (group.parentId === null ? undefined : ids.get(group.parentId)) ?? null;
    if (parentId === id || current.get(id) === parentId) continue;
    await moveGroup(ctx, id, { parentId });
    current.set(id, parentId);
  }
}

/**
 * `replace`: deletes the products (with their variants) and the groups the file does not hold.
 * Groups go top-down: a group whose parent goes too goes with its parent's subtree.
 */
async function removeTheRest(
  ctx: RequestContext,
  supplierPids: ReadonlySet<string>,
  keptGroups: ReadonlySet<number>,
  report: ImportReport,
): Promise<void> {
  const stale = (await listProducts(ctx, { all: true }))
    .filter((p) => !supplierPids.has(p.supplierPid))
    .map((p) => p.id);
  for (let i = 0; i < stale.length; i += 1_000) {
    const results = await deleteProducts(ctx, { ids: stale.slice(i, i + 1_000) });
    report.deleted += results.filter((r) => r.status === 200).length;
  }
  const groups = await listGroups(ctx);
  const going = new Set(groups.filter((g) => !keptGroups.has(g.id)).map((g) => g.id));
  for (const group of groups) {
    if (!going.has(group.id) || (group.parentGroupId !== null && going.has(group.parentGroupId))) continue;
    await deleteGroup(ctx, group.id);
    report.groupsDeleted++;
  }
}

/** Creates the file's groups that no group of the workspace carries yet, parents first. */
async function createGroups(
  ctx: RequestContext,
  groups: readonly BmecatGroup[],
  report: ImportReport,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const byId = new Map(groups.flatMap((g) => (g.groupId === null ? [] : [[g.groupId, g] as const])));
  const ensure = async (group: BmecatGroup, seen: Set<string>): Promise<number> => {
    const groupId = group.groupId!;
    const known = ids.get(groupId) ?? (await findGroupByCatalogId(ctx, groupId));
    if (known !== undefined) {
      // The file's content of a group it names again replaces what an earlier file left.
      if (!ids.has(groupId)) await setCatalogGroupContent(ctx, known, group.kept);
      ids.set(groupId, known);
      return known;
    }
    if (seen.has(groupId))
      throw new BmecatError(
        `The group '${groupId}' is its own ancestor (PARENT_ID)`,
        group.line,
        group.column,
      );
    seen.add(groupId);
    const parent = group.parentId === null ? undefined : byId.get(group.parentId);
    const parentId = parent && parent !== group ? await ensure(parent, seen) : undefined;
    const [name, ...others] = group.names.filter((n) => n.value !== '');
    const created = await createGroup(ctx, {
      name: name?.value || groupId,
      ...(name ? { language: name.lang } : {}),
      ...(parentId !== undefined ? { parentId } : {}),
    });
    for (const other of others)
      await renameGroup(ctx, created.id, { name: other.value, language: other.lang });
    await setCatalogGroupId(ctx, created.id, groupId);
    if (group.kept.length > 0) await setCatalogGroupContent(ctx, created.id, group.kept);
    report.groupsCreated++;
    ids.set(groupId, created.id);
    return created.id;
  };
  for (const group of groups) {
    if (group.groupId === null)
      throw new BmecatError('A CATALOG_STRUCTURE without GROUP_ID', group.line, group.column);
    await ensure(group, new Set());
  }
  return ids;
}

function rowsOf(product: BmecatProduct): number {
  return (
    product.shortTexts.length +
    product.longTexts.length +
    product.keywords.length +
    product.features.reduce((n, f) => n + Math.max(1, f.values.length), 0)
  );
}

/** A product of the file as a bulk document: each part it has replaces the product's part. */
function documentOf(product: BmecatProduct): Record<string, unknown> {
  return {
    supplierPid: product.supplierPid,
    supplierIdRef: product.supplierIdRef,
    ean: product.ean,
    manufacturerPid: product.manufacturerPid,
    manufacturerName: product.manufacturerName,
    orderUnit: product.orderUnit,
    contentUnit: product.contentUnit,
    shortTexts: product.shortTexts,
    longTexts: product.longTexts,
    keywords: product.keywords,
    media: product.media,
    allFeatures: product.features,
    // The price an export writes where pim has none is no content of the product (docs/bmecat.md).
    fragments: product.fragments.filter((f) => !(f.place === 'PRODUCT' && f.xml === PRICE_ON_REQUEST)),
    ...(product.masterSupplierPid !== undefined ? { masterSupplierPid: product.masterSupplierPid } : {}),
  };
}

async function writeBatch(
  ctx: RequestContext,
  batch: readonly BmecatProduct[],
  report: ImportReport,
  options: ImportOptions,
  featureNames: FeatureNames,
): Promise<void> {
  const deletions = batch.filter((p) => p.mode === 'delete');
  const upserts: BmecatProduct[] = [];
  report.products += batch.length;
  // The definitions' names the products bring, before the products: one whose names are refused is
  // not written either.
  for (const product of batch) {
    if (product.mode === 'delete') continue;
    const refusal = await featureNames.apply(ctx, product);
    if (refusal) refuse(product, refusal.message, refusal.code, report, options);
    else upserts.push(product);
  }
  if (upserts.length > 0) {
    const results = await upsertProducts(ctx, upserts.map(documentOf));
    results.forEach((result, i) => {
      if (result.status === 201) report.created++;
      else if (result.status === 200) report.updated++;
      else refuse(upserts[i]!, result.error ?? 'refused', result.code, report, options);
    });
  }
  if (deletions.length > 0) {
    const results = await deleteProducts(ctx, { supplierPids: deletions.map((p) => p.supplierPid!) });
    results.forEach((result, i) => {
      if (result.status === 200) report.deleted++;
      else refuse(deletions[i]!, result.error ?? 'refused', result.code, report, options);
    });
  }
}

function refuse(
  product: BmecatProduct,
  message: string,
  code: string | undefined,
  report: ImportReport,
  options: ImportOptions,
): void {
  skipOrFail(
    {
      line: product.line,
      column: product.column,
      supplierPid: product.supplierPid ?? null,
      message,
      ...(code ? { code } : {}),
    },
    report,
    options,
  );
}

/** A refused product: the import fails (nothing written), or with continueOnError the product is skipped and reported. */
function skipOrFail(problem: ImportProblem, report: ImportReport, options: ImportOptions): void {
  if (!options.continueOnError)
    throw new BmecatError(
      `Product '${problem.supplierPid}': ${problem.message}`,
      problem.line,
      problem.column,
    );
  report.skipped.push(problem);
}
