import zlib from 'node:zlib';
import { Readable } from 'node:stream';

/**
 * The smallest ZIP container an XLSX file needs, written as a stream: small parts stored whole,
 * one large part deflated as it comes, its CRC and sizes in a data descriptor after it (PKZIP's
 * "streamed" form, which Excel, LibreOffice and unzip read), then the central directory. No
 * ZIP64: a part or the file over 4 GiB fails (the sheet of about a million products).
 */

const LIMIT = 0xffff_ffff;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as ZIP uses it; node's own where it has one (20.15 and later), else a table. */
function tableCrc32(data: Uint8Array, value = 0): number {
  let c = ~value >>> 0;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
const crc32: (data: Uint8Array, value?: number) => number =
  (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32 ?? tableCrc32;

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  method: number;
  offset: number;
  flags: number;
}

// 1980-01-01 00:00 in DOS time: the file's parts carry no meaningful time.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];

  /** A part stored as it is, with its local header. */
  stored(name: string, data: Buffer): Buffer {
    const entry = this.entry(name, 0, 0);
    entry.crc = crc32(data);
    entry.size = entry.compressed = data.length;
    return this.count(Buffer.concat([this.localHeader(entry), data]));
  }

  /**
   * A part deflated as its text comes (`source`: strings or UTF-8 bytes), yielded in the
   * compressor's chunks and followed by its data descriptor.
   */
  async *deflated(name: string, source: AsyncIterable<string | Buffer>): AsyncGenerator<Buffer> {
    const entry = this.entry(name, 8, 0x08);
    yield this.count(this.localHeader(entry));
    const counted = (async function* () {
      for await (const chunk of source) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        if (bytes.length === 0) continue;
        entry.crc = crc32(bytes, entry.crc);
        entry.size += bytes.length;
        if (entry.size > LIMIT) throw new Error(`${name} is over 4 GiB: too large for this ZIP writer`);
        yield bytes;
      }
    })();
    const input = Readable.from(counted);
    const deflate = zlib.createDeflateRaw({ level: 3 });
    input.on('error', (error) => deflate.destroy(error));
    input.pipe(deflate);
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      entry.compressed += chunk.length;
      yield this.count(chunk);
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    yield this.count(descriptor);
  }

  /** The central directory and its end: the last bytes of the file. */
  end(): Buffer {
    const start = this.offset;
    const headers = this.entries.map((e) => {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(e.flags | 0x0800, 8);
      h.writeUInt16LE(e.method, 10);
      h.writeUInt16LE(0, 12);
      h.writeUInt16LE(DOS_DATE, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      return Buffer.concat([h, e.name]);
    });
    const directory = Buffer.concat(headers);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    return this.count(Buffer.concat([directory, end]));
  }

  private entry(name: string, method: number, flags: number): Entry {
    const entry = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      compressed: 0,
      size: 0,
      method,
      offset: this.offset,
      flags,
    };
    this.entries.push(entry);
    return entry;
  }

  /** A local header; a streamed part's CRC and sizes are zero here and follow in its descriptor. */
  private localHeader(e: Entry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(e.flags | 0x0800, 6);
    h.writeUInt16LE(e.method, 8);
    h.writeUInt16LE(0, 10);
    h.writeUInt16LE(DOS_DATE, 12);
    const streamed = (e.flags & 0x08) !== 0;
    h.writeUInt32LE(streamed ? 0 : e.crc, 14);
    h.writeUInt32LE(streamed ? 0 : e.compressed, 18);
    h.writeUInt32LE(streamed ? 0 : e.size, 22);
    h.writeUInt16LE(e.name.length, 26);
    return Buffer.concat([h, e.name]);
  }

  private count(bytes: Buffer): Buffer {
    this.offset += bytes.length;
    if (this.offset > LIMIT) throw new Error('The file is over 4 GiB: too large for this ZIP writer');
    return bytes;
  }
}
