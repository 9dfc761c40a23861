import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * An XML file read as a stream of records: the elements a caller names (a BMEcat PRODUCT, a
 * CATALOG_STRUCTURE) arrive whole, as small trees, and everything around them as start and end
 * events, so that memory holds one record at a time whatever the file's size.
 *
 * Safe by construction: saxes expands the five predefined entities and character references only.
 * A DOCTYPE is tolerated and ignored; an entity it declares is never expanded (a reference to it is
 * an error), and nothing outside the file is ever fetched (no XXE, no billion laughs).
 */

/** An element: its name and namespace, attributes by their written name, children in order. */
export interface XmlElement {
  /**
   * The local name (PRODUCT, not bme:PRODUCT) for an element of the document's own namespaces; for
   * any other, the namespace and local name in Clark notation (`{urn:x}GROUP_NAME`), so that no
   * comparison with one of the document's names can take a foreign element for one of its own.
   */
  name: string;
  /** The written name, with its prefix if it had one. */
  qname: string;
  /** The namespace URI ('' for none). */
  uri: string;
  /** Attributes by their written name, namespace declarations included. */
  attributes: Record<string, string>;
  /** Namespaces this element's attributes bind a prefix to ('' is the default namespace). */
  declares: Record<string, string>;
  children: XmlNode[];
  /** Where the start tag began: line (1-based) and column (1-based). */
  line: number;
  column: number;
}

/** Text (CDATA included, as its characters) or an element. */
export type XmlNode = XmlElement | string;

export type XmlEvent =
  | { type: 'start'; element: XmlElement; path: readonly string[] }
  | { type: 'record'; element: XmlElement; path: readonly string[] }
  | { type: 'end'; name: string; path: readonly string[] };

/** A problem of the file itself: not well-formed XML, with where it was found. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/**
 * The name an element of the document's own namespaces is read under, from its namespace and local
 * name (a dialect's older names can be mapped to current ones here); undefined for an element of
 * another namespace, which is then named in Clark notation (see `XmlElement.name`).
 */
export type OwnName = (uri: string, local: string) => string | undefined;

/**
 * Reads `chunks` (the file's characters) and yields its events in document order. `ownName` names
 * the document's own elements and tells them from others. `isRecord` decides, for each element
 * outside any record, from the names of its ancestors and its own (`path`, the root first),
 * whether it is read whole.
 */
export async function* readXmlRecords(
  chunks: AsyncIterable<string>,
  ownName: OwnName,
  isRecord: (path: readonly string[]) => boolean,
): AsyncGenerator<XmlEvent> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const pending: XmlEvent[] = [];
  const path: string[] = [];
  // The record being built: its open elements, innermost last.
  const open: XmlElement[] = [];
  let error: XmlSyntaxError | undefined;
  // Where the current start tag began (saxes reports the position after it).
  let tagLine = 1;
  let tagColumn = 1;

  parser.on('opentagstart', () => {
    tagLine = parser.line;
    // saxes's column is 0-based and already past `<name` and the character that ended the name.
    tagColumn = parser.column;
  });
  parser.on('opentag', (tag) => {
    const element = elementOf(tag as SaxesTagNS, ownName, tagLine, tagColumn);
    const parent = open.at(-1);
    if (parent) {
      parent.children.push(element);
      open.push(element);
    } else {
      path.push(element.name);
      if (isRecord(path)) open.push(element);
      else pending.push({ type: 'start', element, path: [...path] });
    }
    if (tag.isSelfClosing) close();
  });
  parser.on('closetag', (tag) => {
    if (tag.isSelfClosing) return;
    close();
  });
  const text = (value: string) => {
    const parent = open.at(-1);
    if (!parent) return;
    const last = parent.children.at(-1);
    if (typeof last === 'string') parent.children[parent.children.length - 1] = last + value;
    else parent.children.push(value);
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('error', (e) => {
    error ??= new XmlSyntaxError(syntaxMessage(e.message), parser.line, parser.column + 1);
  });

  function close(): void {
    const element = open.pop();
    if (element && open.length > 0) return;
    if (element) pending.push({ type: 'record', element, path: [...path] });
    else pending.push({ type: 'end', name: path.at(-1) ?? '', path: [...path] });
    path.pop();
  }

  for await (const chunk of chunks) {
    parser.write(chunk);
    if (error) throw error;
    yield* pending.splice(0);
  }
  parser.close();
  if (error) throw error;
  yield* pending.splice(0);
}

function elementOf(tag: SaxesTagNS, ownName: OwnName, line: number, column: number): XmlElement {
  let attributes: Record<string, string> = NONE;
  let declares: Record<string, string> = NONE;
  // Most elements have no attributes: no objects are made for them.
  for (const key in tag.attributes) {
    const attribute = tag.attributes[key]!;
    if (attributes === NONE) attributes = {};
    attributes[attribute.name] = attribute.value;
    if (attribute.name === 'xmlns' || attribute.prefix === 'xmlns') {
      if (declares === NONE) declares = {};
      declares[attribute.name === 'xmlns' ? '' : attribute.local] = attribute.value;
    }
  }
  return {
    name: ownName(tag.uri, tag.local) ?? `{${tag.uri}}${tag.local}`,
    qname: tag.name,
    uri: tag.uri,
    attributes,
    declares,
    children: [],
    line,
    column: Math.max(1, column - tag.name.length - 1),
  };
}

/** The attributes and declarations of an element that has none (shared: never written to). */
const NONE: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** saxes's messages start with the position ("1:5: ..."), which the error carries apart. */
function syntaxMessage(message: string): string {
  const text = message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
  return `The file is not well-formed XML: ${text}`;
}

/** The element children of `element` with a name (see `XmlElement.name`), in order. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string' && c.name === name);
}

/** The element children of `element`, in order. */
export function elementChildren(element: XmlElement): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string');
}

/** The text of an element: its characters and those of its descendants. */
export function textOf(element: XmlElement): string {
  return element.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}
