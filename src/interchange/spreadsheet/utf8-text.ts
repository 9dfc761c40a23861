import { isUtf8 } from 'node:buffer';

/**
 * The CSV reader's bytes checked as UTF-8 chunk by chunk: a chunk that is valid (the whole file,
 * normally) passes as it is; in one that is not, each byte that begins no valid sequence becomes
 * INVALID, and `found.invalid` says so from then on. A sequence cut by a chunk's end waits for the
 * next chunk. INVALID is U+FFFF, a noncharacter Unicode keeps for a program's own use (a lone
 * surrogate would not survive the parser's own UTF-8): once a file showed bytes that are not
 * UTF-8, a cell holding it is named as such (a real U+FFFF in such a file is reported alike).
 */
export const INVALID = '\uFFFF';

/** The length of the sequence `lead` begins; 0: it begins none. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Where a sequence cut by the end of `bytes` begins (bytes.length: none is cut). */
function cutAt(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) return sequenceLength(byte) > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function decodeMarked(bytes: Buffer): string {
  let text = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes[i]!);
    if (n === 1) i++;
    else if (n > 0 && i + n <= bytes.length && isUtf8(bytes.subarray(i, i + n))) i += n;
    else {
      text += bytes.toString('utf8', start, i) + INVALID;
      start = ++i;
    }
  }
  return text + bytes.toString('utf8', start, i);
}

export async function* markedUtf8(
  chunks: AsyncIterable<Buffer>,
  found: { invalid: boolean },
): AsyncGenerator<Buffer> {
  let carry = Buffer.alloc(0);
  const marked = (body: Buffer) => {
    found.invalid = true;
    return Buffer.from(decodeMarked(body), 'utf8');
  };
  for await (const chunk of chunks) {
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const end = cutAt(bytes);
    carry = Buffer.from(bytes.subarray(end));
    const body = bytes.subarray(0, end);
    yield isUtf8(body) ? body : marked(body);
  }
  if (carry.length > 0) yield isUtf8(carry) ? carry : marked(carry);
}
