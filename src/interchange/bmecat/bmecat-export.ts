import type { RequestContext } from '../../domain/context.js';
import {
  exportLanguages,
  getCatalogueOutline,
  getExportPage,
} from '../../domain/catalogue/catalogue-export.service.js';
import { ValidationError } from '../../domain/errors.js';
import { Turns } from '../../domain/fair-turns.js';
import { getGroup } from '../../domain/groups/group.service.js';
import { NO_LANGUAGE } from './bmecat-product.js';
import {
  catalogueStartXml,
  documentStart,
  DOCUMENT_END,
  headerXml,
  mappingXml,
  type BmecatFormat,
} from './bmecat-catalogue-writer.js';
import { productXml } from './bmecat-product-writer.js';
import { ExportProblems } from './bmecat-xml-writer.js';

/**
 * The open workspace as a BMEcat T_NEW_CATALOG, streamed (docs/bmecat.md, "Exporting"): the
 * header, the feature definitions and the group system, every main product, then every variant
 * (an import needs a variant's main product first), then the products' groups. Reads through the
 * services page by page, so memory holds a page and the mappings' short lines. Each product is
 * read in one statement and agrees with itself; a product changed while the export runs shows in
 * the state it had when its page was read.
 */

export interface ExportOptions {
  format?: BmecatFormat;
  /** Texts, names and values of these languages only (ISO 639-2); all when absent. */
  languages?: readonly string[];
  /** Only this group, its subgroups and their products. */
  groupId?: number;
  /** Fail (BmecatExportError) at the first value BMEcat cannot take as it is, instead of reporting it. */
  strict?: boolean;
  /** Called after each page with the products written so far. */
  onProgress?: (products: number) => void | Promise<void>;
  /** Products per page. */
  pageSize?: number;
}

export interface ExportReport {
  format: BmecatFormat;
  products: number;
  variants: number;
  groups: number;
  /** Values written beyond BMEcat's limits, parts the schema requires and pim lacked (the first 1,000). */
  problems: { supplierPid: string | null; message: string }[];
  problemCount: number;
}

export class BmecatExportError extends ValidationError {}

/**
 * Products a page. 250 rather than 500 (benchmark catalogue, SQLite, two pairs): 12,900-13,700
 * against 10,400-11,100 products a second, peak RSS 446-448 against 476-478 MB, and a GET by id
 * waiting beside the export p50 19 against 38 ms (a page is read without a turn between).
 */
const PAGE_SIZE = 250;

export function newExportReport(format: BmecatFormat): ExportReport {
  return { format, products: 0, variants: 0, groups: 0, problems: [], problemCount: 0 };
}

/** Refuses options that name no group or an unknown language, before a job is started for them. */
export async function checkExportOptions(ctx: RequestContext, options: ExportOptions): Promise<void> {
  if (options.languages !== undefined) exportLanguages(options.languages);
  if (options.groupId !== undefined) await getGroup(ctx, options.groupId);
}

export async function* exportBmecat(
  ctx: RequestContext,
  options: ExportOptions,
  report: ExportReport,
): AsyncGenerator<string> {
  const format = options.format ?? '2005';
  const chosen = options.languages === undefined ? undefined : new Set(exportLanguages(options.languages));
  const stored = await getCatalogueOutline(
    ctx,
    options.groupId === undefined ? {} : { groupId: options.groupId },
  );
  const languages = chosen === undefined ? stored.languages : stored.languages.filter((l) => chosen.has(l));
  if (chosen !== undefined) for (const l of chosen) if (!languages.includes(l)) languages.push(l);
  // The catalogue's default language is the first one exported (the root's name is written in it).
  const outline = { ...stored, defaultLanguage: languages[0] ?? stored.defaultLanguage };
  const wanted = (lang: string) => chosen === undefined || lang === NO_LANGUAGE || chosen.has(lang);
  const problems = new ExportProblems();
  const check = () => {
    report.problems = problems.list;
    report.problemCount = problems.count;
    if (options.strict === true && problems.count > 0) {
      const first = problems.list[0]!;
      throw new BmecatExportError(
        `${first.supplierPid === null ? 'The catalogue' : `Product ${first.supplierPid}`} ${first.message} (--strict)`,
      );
    }
  };

  // Everything that can be refused (an unknown group or language) is before the first chunk, so that
  // an adapter that reads it before answering (GET /api/export) still answers the error in the envelope.
  const groupIds = new Map<number, string>();
  const head =
    documentStart(format) +
    (await headerXml(outline, languages, ctx.clock.now(), problems)) +
    '<T_NEW_CATALOG>\n' +
    (await catalogueStartXml(outline, wanted, groupIds, problems));
  report.groups = outline.groups.length;
  check();
  yield head;

  const mainPids = new Map<number, string>();
  const mappings: string[] = [];
  let outside = 0;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const turns = new Turns();
  const writeOptions = { languages: chosen, mainSupplierPid: (id: number) => mainPids.get(id) };
  for (const kind of ['main', 'variants'] as const) {
    const read = (afterId: number | undefined) => {
      const page = getExportPage(ctx, {
        kind,
        limit: pageSize,
        ...(options.groupId !== undefined ? { groupId: options.groupId } : {}),
        ...(afterId !== undefined ? { afterId } : {}),
      });
      // Awaited below; should the export end first (strict, a consumer gone), its failure is no one's.
      page.catch(() => {});
      return page;
    };
    let next = read(undefined);
    for (;;) {
      const page = await next;
      if (page.lastId === undefined) break;
      // The next page is read while this one is written: PostgreSQL works on it meanwhile (SQLite
      // reads on this thread, so there it simply comes first).
      next = read(page.lastId);
      let chunk = '';
      for (const sheet of page.sheets) {
        // Other requests get turns (a local client reading as fast as it is written never makes
        // the stream wait: the export kept the event loop for its whole length).
        await turns.take();
        const pid = sheet.supplierPid;
        if (kind === 'main') mainPids.set(sheet.id, pid);
        chunk += productXml(sheet, writeOptions, problems);
        const map = (id: number) => {
          const groupId = groupIds.get(id);
          if (groupId === undefined) outside++;
          else mappings.push(mappingXml(pid, groupId));
        };
        if (sheet.groupId !== null) map(sheet.groupId);
        for (const id of sheet.otherGroupIds) map(id);
        report.products++;
        if (kind === 'variants') report.variants++;
      }
      check();
      yield chunk;
      await options.onProgress?.(report.products);
    }
  }
  if (outside > 0)
    problems.add(null, `${outside} group memberships name groups outside the exported group: left out`);
  for (let i = 0; i < mappings.length; i += 1_000) yield mappings.slice(i, i + 1_000).join('');
  check();
  yield '</T_NEW_CATALOG>\n';
  yield DOCUMENT_END;
}
