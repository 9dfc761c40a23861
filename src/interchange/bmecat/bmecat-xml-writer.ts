import { BMECAT_LIMITS, overLimit, type LimitedElement } from './bmecat-limits.js';
import { escapeAttribute, escapeText } from './xml-serialize.js';

/**
 * What an export could not write as the model holds it (a value over BMEcat's length, a character
 * XML 1.0 cannot carry, a part the schema requires and pim lacks), per product. The first
 * `keep` are kept with their product; all are counted.
 */
export class ExportProblems {
  readonly list: { supplierPid: string | null; message: string }[] = [];
  count = 0;

  constructor(private readonly keep = 1_000) {}

  add(supplierPid: string | null, message: string): void {
    this.count++;
    if (this.list.length < this.keep) this.list.push({ supplierPid, message });
  }
}

/** Characters XML 1.0 cannot carry at all, even as references (C0 controls but tab, LF, CR; U+FFFE/F). */
// eslint-disable-next-line no-control-regex -- these very characters are what is looked for
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ALL_NOT_XML = new RegExp(NOT_XML.source, 'g');
/** What needs any work in a text: characters XML cannot carry, or must be escaped (escapeText). */
// eslint-disable-next-line no-control-regex -- as NOT_XML
const SPECIAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF&<>\r]/;

/**
 * `<name attributes>value</name>`, escaped. A value longer than its element's limit in the 2005.1
 * schema (bmecat-limits.ts) is written whole and reported; characters XML cannot carry are left out
 * and reported, since writing them would make the whole file unreadable.
 */
export function xmlElement(
  name: string,
  value: string,
  attributes: Record<string, string> | undefined,
  report: (message: string) => void,
): string {
  let head = name;
  if (attributes) for (const key in attributes) head += ` ${key}="${escapeAttribute(attributes[key]!)}"`;
  return `<${head}>${checkedText(name, value, report)}</${name}>`;
}

/** xmlElement with one `lang` attribute or none: the form of most of a product's elements. */
export function xmlLangElement(
  name: string,
  value: string,
  lang: string | undefined,
  report: (message: string) => void,
): string {
  const text = checkedText(name, value, report);
  return lang === undefined
    ? `<${name}>${text}</${name}>`
    : `<${name} lang="${escapeAttribute(lang)}">${text}</${name}>`;
}

/** The value escaped as element content, checked against its element's limit and XML's characters. */
function checkedText(name: string, value: string, report: (message: string) => void): string {
  let text = value;
  // Most values need nothing: one scan tells.
  if (SPECIAL.test(text)) {
    if (NOT_XML.test(text)) {
      report(`${name}: characters XML 1.0 cannot carry (control characters) are left out`);
      text = text.replace(ALL_NOT_XML, '');
    }
    const over = overLimitOf(name, text);
    if (over !== undefined) report(over);
    return escapeText(text);
  }
  const over = overLimitOf(name, text);
  if (over !== undefined) report(over);
  return text;
}

function overLimitOf(name: string, text: string): string | undefined {
  const max = (BMECAT_LIMITS as Record<string, number | undefined>)[name];
  return max === undefined || text.length <= max ? undefined : overLimit(name as LimitedElement, text);
}
