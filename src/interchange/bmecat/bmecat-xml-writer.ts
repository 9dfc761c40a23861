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
  let text = value;
  if (NOT_XML.test(text)) {
    report(`${name}: characters XML 1.0 cannot carry (control characters) are left out`);
    text = text.replace(ALL_NOT_XML, '');
  }
  const over = name in BMECAT_LIMITS ? overLimit(name as LimitedElement, text) : undefined;
  if (over !== undefined) report(over);
  let head = name;
  if (attributes)
    for (const [key, v] of Object.entries(attributes)) head += ` ${key}="${escapeAttribute(v)}"`;
  return `<${head}>${escapeText(text)}</${name}>`;
}
