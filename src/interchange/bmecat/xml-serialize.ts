import type { XmlElement, XmlNode } from './xml-records.js';

/**
 * Writes an element read by xml-records.ts back as XML text: the content pim keeps verbatim
 * (fragments), so that an export puts back what an import did not model. Elements of the
 * catalogue's own namespace (`isOwn`) are written without a prefix and without a namespace
 * declaration, so that they take the namespace of the document they are written into (a 2005.1
 * export of a 2005 file). Elements of other namespaces (a UDX extension's) keep their prefix, and
 * the fragment declares every such prefix it uses, since it is cut from the declarations around it.
 * Text and attribute values are escaped as XML 1.0 requires; CDATA becomes escaped text (the same
 * characters).
 */
export function serializeXml(element: XmlElement, isOwn: (uri: string) => boolean): string {
  const needed = new Map<string, string>();
  collectForeign(element, isOwn, needed, {});
  return write(element, isOwn, needed, true);
}

function collectForeign(
  element: XmlElement,
  isOwn: (uri: string) => boolean,
  needed: Map<string, string>,
  inScope: Record<string, string>,
): void {
  const scope = { ...inScope, ...element.declares };
  if (!isOwn(element.uri)) {
    const prefix = prefixOf(element.qname);
    if (scope[prefix] !== element.uri) needed.set(prefix, element.uri);
  }
  for (const child of element.children) {
    if (typeof child !== 'string') collectForeign(child, isOwn, needed, scope);
  }
}

function prefixOf(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? '' : qname.slice(0, colon);
}

function write(
  element: XmlElement,
  isOwn: (uri: string) => boolean,
  needed: Map<string, string>,
  root: boolean,
): string {
  const own = isOwn(element.uri);
  const name = own ? element.name : element.qname;
  const attributes: string[] = [];
  if (root) {
    for (const [prefix, uri] of needed) {
      attributes.push(`${prefix === '' ? 'xmlns' : `xmlns:${prefix}`}="${escapeAttribute(uri)}"`);
    }
  }
  for (const [key, value] of Object.entries(element.attributes)) {
    // The catalogue's own namespace is the document's: its declarations are not carried along.
    if ((key === 'xmlns' || key.startsWith('xmlns:')) && isOwn(value)) continue;
    if (root && (key === 'xmlns' ? needed.has('') : needed.has(key.slice(6)))) continue;
    attributes.push(`${key}="${escapeAttribute(value)}"`);
  }
  const head = attributes.length > 0 ? `${name} ${attributes.join(' ')}` : name;
  if (element.children.length === 0) return `<${head}/>`;
  const body = element.children.map((child: XmlNode) =>
    typeof child === 'string' ? escapeText(child) : write(child, isOwn, needed, false),
  );
  return `<${head}>${body.join('')}</${name}>`;
}

/** Text content; a carriage return as a reference, since a parser would read a bare one as a line feed. */
export function escapeText(value: string): string {
  // Most texts hold none of them: testing first spares replace's copy and calls.
  return TEXT_SPECIAL.test(value) ? value.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!) : value;
}

const TEXT_SPECIAL = /[&<>\r]/;

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

export function escapeAttribute(value: string): string {
  return ATTRIBUTE_SPECIAL.test(value) ? value.replace(/[&<>"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]!) : value;
}

const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/;

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
