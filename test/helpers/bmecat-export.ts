import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Application } from '../../src/app/application.js';
import type { RequestContext } from '../../src/domain/context.js';
import { getCatalogueOutline } from '../../src/domain/catalogue/catalogue-export.service.js';
import { getGroupTree } from '../../src/domain/groups/group.service.js';
import { getProductSheet } from '../../src/domain/products/product-sheet.service.js';
import { listProducts } from '../../src/domain/products/product.service.js';
import {
  exportBmecat,
  newExportReport,
  type ExportOptions,
} from '../../src/interchange/bmecat/bmecat-export.js';
import { BMECAT_XSD } from '../../src/interchange/bmecat/bmecat-schema-check.js';

/** The schema pim bundles (schemas/bmecat/, the shared sample's copy, unchanged). */
export { BMECAT_XSD };

/** The whole export as text, with its report. */
export async function exportText(ctx: RequestContext, options: ExportOptions = {}) {
  const report = newExportReport(options.format ?? '2005');
  let xml = '';
  for await (const chunk of exportBmecat(ctx, options, report)) xml += chunk;
  return { xml, report };
}

/**
 * Validates a document against the BMEcat 2005.1 schema with xmllint (Debian's libxml2-utils, which
 * CI installs). A 2005 document is validated after its root namespace is swapped for 2005.1's.
 * Returns xmllint's complaints (empty when valid).
 */
export async function schemaProblems(xml: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pim-xsd-'));
  try {
    const file = join(dir, 'catalogue.xml');
    await writeFile(
      file,
      xml.replace('xmlns="http://www.bmecat.org/bmecat/2005"', 'xmlns="http://www.bmecat.org/bmecat/2005.1"'),
    );
    try {
      await promisify(execFile)('xmllint', ['--noout', '--stream', '--schema', BMECAT_XSD, file], {
        maxBuffer: 64 * 1024 * 1024,
      });
      return '';
    } catch (error) {
      return String((error as { stderr?: string }).stderr ?? error);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A second workspace of the application, with the owner's context on it (the first stays open). */
export async function otherWorkspace(app: Application, name: string): Promise<RequestContext> {
  const owner = app.ownerContext();
  await app.workspaces.create(owner, { name, language: 'deu' });
  const workspace = await app.workspaces.workspaceFor(owner, { workspaceName: name });
  return { ...owner, workspace };
}

/**
 * Everything a workspace holds of its catalogue, without what a database assigns (ids, times): the
 * group tree by names, and each product's sheet by supplierPid with its main product and groups by
 * name. Two workspaces holding the same catalogue give equal values.
 */
export async function catalogueOf(ctx: RequestContext) {
  // The tree's root (id 0) stands for the workspace: its name is the workspace's.
  const tree = await getGroupTree(ctx);
  const outline = new Map((await getCatalogueOutline(ctx)).groups.map((g) => [g.id, g]));
  const paths = new Map<number, string>();
  const walk = (node: typeof tree, path: string): unknown => {
    const here = node.id === 0 ? path : `${path}/${node.name}`;
    if (node.id !== 0) paths.set(node.id, here);
    return {
      names: node.id === 0 ? null : outline.get(node.id)!.names,
      kept: node.id === 0 ? null : outline.get(node.id)!.kept,
      products: node.productCount,
      children: node.children.map((c) => walk(c, here)),
    };
  };
  const groups = walk(tree, '');
  const products = await listProducts(ctx, { all: true });
  const pids = new Map(products.map((p) => [p.id, p.supplierPid]));
  const sheets: Record<string, unknown> = {};
  for (const p of products) {
    const sheet = await getProductSheet(ctx, p.id);
    const { id: _id, createdAt: _c, updatedAt: _u, masterProductId, ...product } = sheet.product;
    sheets[p.supplierPid] = {
      ...sheet,
      product: { ...product, main: masterProductId === null ? null : pids.get(masterProductId) },
      group: sheet.group === null ? null : paths.get(sheet.group.id),
      groups: sheet.groups.map((g) => paths.get(g.id)),
      variants: sheet.variants.map((v) => v.supplierPid),
    };
  }
  return { groups, sheets };
}
