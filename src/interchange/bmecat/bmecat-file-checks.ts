import { lookupLanguage } from '../../domain/languages/language.js';
import { overLimit, type LimitedElement } from './bmecat-limits.js';
import { NO_LANGUAGE, type BmecatProduct } from './bmecat-product.js';
import { BmecatError, readBmecat } from './bmecat-reader.js';
import { XmlEncodingError } from './xml-decoding.js';
import { XmlSyntaxError } from './xml-records.js';

/**
 * pim's own checks of a BMEcat file, beyond its schema (`pim validate`): what an import would refuse
 * or a receiver would trip over. Streaming, like the import: languages pim does not know, references
 * to products and groups the file lacks, SUPPLIER_PIDs and GROUP_IDs given twice, and values over
 * BMEcat 2005.1's length limits. Each problem with the line and column of its element (a product's
 * start for what is inside a product).
 */
export interface FileProblem {
  line: number;
  column: number;
  message: string;
}

export async function checkBmecatFile(
  bytes: AsyncIterable<Uint8Array>,
  options: { lengths: boolean } = { lengths: true },
): Promise<FileProblem[]> {
  const problems: FileProblem[] = [];
  const at: At = (place, message) => {
    problems.push({ line: place.line, column: place.column, message });
  };
  at.lengths = options.lengths;
  const products = new Map<string, { line: number; column: number }>();
  const groups = new Set<string>();
  const parents: { parentId: string; line: number; column: number; groupId: string }[] = [];
  const references: { pid: string; what: string; line: number; column: number }[] = [];
  let transaction = '';
  try {
    for await (const event of readBmecat(bytes)) {
      switch (event.kind) {
        case 'header':
          for (const lang of event.languages)
            if (!lookupLanguage(lang))
              at(
                { line: 1, column: 1 },
                `The HEADER's LANGUAGE '${lang}' is not an ISO 639-2 code pim knows`,
              );
          break;
        case 'transaction':
          transaction = event.name;
          break;
        case 'group':
          if (event.groupId === null) at(event, 'A CATALOG_STRUCTURE without GROUP_ID');
          else if (groups.has(event.groupId)) at(event, `GROUP_ID '${event.groupId}' is given twice`);
          else groups.add(event.groupId);
          if (event.groupId !== null && event.parentId !== null && event.type !== 'root')
            parents.push({
              parentId: event.parentId,
              line: event.line,
              column: event.column,
              groupId: event.groupId,
            });
          for (const name of event.names) checkValue(at, event, 'GROUP_NAME', name.value, name.lang);
          break;
        case 'product':
          checkProduct(at, event.product, products, references);
          break;
        case 'mapping':
          if (event.supplierPid !== null)
            references.push({
              pid: event.supplierPid,
              what: 'PRODUCT_TO_CATALOGGROUP_MAP',
              line: event.line,
              column: event.column,
            });
          if (event.groupId !== null && event.groupId !== '0')
            parents.push({ parentId: event.groupId, line: event.line, column: event.column, groupId: '' });
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (error instanceof BmecatError || error instanceof XmlSyntaxError) at(error, error.message);
    else if (error instanceof XmlEncodingError) at({ line: 1, column: 1 }, error.message);
    else throw error;
    return sorted(problems);
  }
  for (const p of parents) {
    if (p.parentId === '0' || groups.has(p.parentId)) continue;
    at(
      p,
      p.groupId === ''
        ? `PRODUCT_TO_CATALOGGROUP_MAP names the group '${p.parentId}', which the file's CATALOG_GROUP_SYSTEM does not hold`
        : `The group '${p.groupId}' names the parent '${p.parentId}', which the file does not hold`,
    );
  }
  // A T_UPDATE_PRODUCTS file may name products stored before it; a whole catalogue must hold them.
  if (transaction === 'T_NEW_CATALOG')
    for (const r of references)
      if (!products.has(r.pid)) at(r, `${r.what} names the product '${r.pid}', which the file does not hold`);
  return sorted(problems);
}

/** Reports a problem; a language pim does not know is reported at its first use only. */
interface At {
  (place: { line: number; column: number }, message: string): void;
  unknownLanguages?: Set<string>;
  /** Whether lengths are checked here (not when the schema check ran: it reports them itself). */
  lengths?: boolean;
}

function checkProduct(
  at: At,
  product: BmecatProduct,
  products: Map<string, { line: number; column: number }>,
  references: { pid: string; what: string; line: number; column: number }[],
): void {
  const pid = product.supplierPid;
  if (pid === undefined) {
    at(product, 'A PRODUCT without SUPPLIER_PID: every product needs one');
    return;
  }
  const first = products.get(pid);
  if (first) at(product, `SUPPLIER_PID '${pid}' is given twice (first at line ${first.line})`);
  else products.set(pid, { line: product.line, column: product.column });
  const value = (name: LimitedElement, text: string | null, lang?: string) => {
    if (text !== null) checkValue(at, product, name, text, lang, pid);
  };
  value('SUPPLIER_PID', pid);
  value('SUPPLIER_IDREF', product.supplierIdRef);
  value('INTERNATIONAL_PID', product.ean);
  value('MANUFACTURER_PID', product.manufacturerPid);
  value('MANUFACTURER_NAME', product.manufacturerName);
  for (const t of product.shortTexts) value('DESCRIPTION_SHORT', t.value, t.lang);
  for (const t of product.longTexts) value('DESCRIPTION_LONG', t.value, t.lang);
  for (const k of product.keywords) value('KEYWORD', k.value, k.lang);
  if (product.shortTexts.length === 0)
    at(product, `Product '${pid}' has no DESCRIPTION_SHORT, which BMEcat requires`);
  for (const f of product.features) {
    value('FT_IDREF', f.ftidref);
    value('FUNIT', f.funit);
    for (const v of f.values) value('FVALUE', v.value, v.lang);
    for (const ref of f.details?.valueIdrefs ?? []) value('VALUE_IDREF', ref);
    for (const d of f.details?.valueDetails ?? []) value('FVALUE_DETAILS', d.value, d.lang);
  }
  for (const m of product.media) {
    value('MIME_SOURCE', m.source);
    value('MIME_TYPE', m.type);
    for (const d of m.descriptions) value('MIME_DESCR', d.value, d.lang);
  }
  if (product.masterSupplierPid !== undefined)
    references.push({
      pid: product.masterSupplierPid,
      what: `Product '${pid}''s base_product`,
      line: product.line,
      column: product.column,
    });
}

function checkValue(
  at: At,
  place: { line: number; column: number },
  name: LimitedElement,
  text: string,
  lang?: string,
  pid?: string,
): void {
  const prefix = pid === undefined ? '' : `Product '${pid}': `;
  const over = at.lengths === false ? undefined : overLimit(name, text);
  if (over) at(place, `${prefix}${over}${lang && lang !== NO_LANGUAGE ? ` (${lang})` : ''}`);
  if (lang !== undefined && lang !== NO_LANGUAGE && !lookupLanguage(lang)) {
    const seen = (at.unknownLanguages ??= new Set());
    if (seen.has(lang)) return;
    seen.add(lang);
    at(
      place,
      `${prefix}${name} in language '${lang}', which is not an ISO 639-2 code pim knows (its first use)`,
    );
  }
}

function sorted(problems: FileProblem[]): FileProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}
