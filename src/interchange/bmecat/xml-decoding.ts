import { TextDecoder } from 'node:util';

/**
 * The characters of an XML file as its bytes declare them: a byte order mark (UTF-8, UTF-16), else
 * the XML declaration's `encoding` (UTF-8, UTF-16, ISO-8859-1, windows-1252 and the other labels the
 * WHATWG Encoding Standard knows), else UTF-8 (XML 1.0, 4.3.3). Streaming: a character split over
 * two chunks stays whole. A byte sequence that is not valid in the declared encoding is an error
 * rather than U+FFFD, so that a wrongly declared file is refused instead of imported garbled.
 *
 * Note: TextDecoder reads `iso-8859-1` as windows-1252 (as every browser does); the two differ only
 * in 0x80-0x9F, which ISO-8859-1 gives to C1 control characters no catalogue means to send.
 */
export class XmlEncodingError extends Error {}

/** How many bytes are looked at for the declaration: it must stand at the very start of the file. */
const SNIFF_BYTES = 1024;

export async function* decodeXml(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let head: Uint8Array = new Uint8Array(0);
  let decoder: TextDecoder | undefined;
  for await (const chunk of bytes) {
    if (!decoder) {
      head = concat(head, chunk);
      if (head.length < SNIFF_BYTES) continue;
      decoder = decoderFor(head);
      yield decode(decoder, head, true);
      continue;
    }
    yield decode(decoder, chunk, true);
  }
  if (!decoder) {
    decoder = decoderFor(head);
    yield decode(decoder, head, true);
  }
  yield decode(decoder, new Uint8Array(0), false);
}

function decode(decoder: TextDecoder, bytes: Uint8Array, stream: boolean): string {
  try {
    return decoder.decode(bytes, { stream });
  } catch {
    throw new XmlEncodingError(
      `The file holds bytes that are not valid ${decoder.encoding.toUpperCase()}, the encoding it declares`,
    );
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The decoder the file's first bytes ask for; the BOM, if any, is dropped by the decoder. */
export function decoderFor(head: Uint8Array): TextDecoder {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return fatal('utf-8');
  if (head[0] === 0xfe && head[1] === 0xff) return fatal('utf-16be');
  if (head[0] === 0xff && head[1] === 0xfe) return fatal('utf-16le');
  // UTF-16 without a BOM: `<?` as two-byte characters.
  if (head[0] === 0x00 && head[1] === 0x3c && head[2] === 0x00 && head[3] === 0x3f) return fatal('utf-16be');
  if (head[0] === 0x3c && head[1] === 0x00 && head[2] === 0x3f && head[3] === 0x00) return fatal('utf-16le');
  const declared = declaredEncoding(head);
  if (declared === undefined) return fatal('utf-8');
  // A declaration of UTF-16 read as single bytes names the family; its BOM was checked above.
  const label = /^utf-?16$/i.test(declared) ? 'utf-16le' : declared;
  try {
    return fatal(label);
  } catch {
    throw new XmlEncodingError(
      `The file declares the encoding '${declared}', which pim cannot read (UTF-8, UTF-16, ISO-8859-1 and windows-1252 it can)`,
    );
  }
}

function fatal(label: string): TextDecoder {
  return new TextDecoder(label, { fatal: true });
}

/** The `encoding` of an XML declaration written in ASCII-compatible bytes, if the file starts with one. */
function declaredEncoding(head: Uint8Array): string | undefined {
  const text = new TextDecoder('latin1').decode(head.subarray(0, Math.min(head.length, 200)));
  if (!text.startsWith('<?xml')) return undefined;
  const end = text.indexOf('?>');
  const declaration = end < 0 ? text : text.slice(0, end);
  return /\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(declaration)?.[1];
}
