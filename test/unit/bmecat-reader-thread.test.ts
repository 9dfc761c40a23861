import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBmecatInWorker } from '../../src/interchange/bmecat/bmecat-reader-thread.js';
import { readBmecat, type BmecatEvent } from '../../src/interchange/bmecat/bmecat-reader.js';
import { BMECAT_SAMPLES, BMECAT_SAMPLE_FILES, featureCatalogue } from '../helpers/bmecat-samples.js';

/** The bytes in chunks of `size`, as a file stream hands them over. */
async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Every event a reader yields, and the error it ended with (undefined: none). */
async function outcome(
  read: (bytes: AsyncIterable<Uint8Array>) => AsyncIterable<BmecatEvent>,
  bytes: Uint8Array,
  size = 4096,
): Promise<{
  events: BmecatEvent[];
  error?: { type: string; message: string; line?: number; column?: number };
}> {
  const events: BmecatEvent[] = [];
  try {
    for await (const event of read(chunks(bytes, size))) events.push(event);
    // Plain data: compared as the JSON it is (a property holding undefined and an absent one alike).
    return { events: JSON.parse(JSON.stringify(events)) as BmecatEvent[] };
  } catch (e) {
    const error = e as Error & { line?: number; column?: number };
    return {
      events: JSON.parse(JSON.stringify(events)) as BmecatEvent[],
      error: { type: error.constructor.name, message: error.message, line: error.line, column: error.column },
    };
  }
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('the BMEcat reader in a worker thread', () => {
  it.each(BMECAT_SAMPLE_FILES)('%s: the same events as the reader in this thread', async (file) => {
    const bytes = readFileSync(join(BMECAT_SAMPLES, file));
    const inline = await outcome(readBmecat, bytes);
    expect(inline.events.some((e) => e.kind === 'product')).toBe(true);
    expect(await outcome(readBmecatInWorker, bytes)).toEqual(inline);
  });

  it('reads a file far longer than it may hold ahead, in order, chunk sizes notwithstanding', async () => {
    // 1,500 products: five times the events the thread may have waiting before it stops reading.
    const bytes = encode(featureCatalogue(1_500));
    const inline = await outcome(readBmecat, bytes);
    const threaded = await outcome(readBmecatInWorker, bytes, 1_000);
    expect(threaded.events.filter((e) => e.kind === 'product')).toHaveLength(1_500);
    expect(threaded).toEqual(inline);
  });

  it.each([
    [
      'not well-formed',
      featureCatalogue(50).replace('<PRODUCT><SUPPLIER_PID>J-40<', '<PRODUCT><SUPPLIER_PID>J-40</X><'),
    ],
    [
      'refused by the reader',
      featureCatalogue(50).replace('<HEADER>', '<T_NEW_CATALOG></T_NEW_CATALOG><HEADER>'),
    ],
    ['a root that is not BMECAT', '<?xml version="1.0"?><CATALOG/>'],
  ])('ends with the same error, after the same events, for a file %s', async (_name, text) => {
    const inline = await outcome(readBmecat, encode(text));
    expect(inline.error).toBeDefined();
    expect(await outcome(readBmecatInWorker, encode(text))).toEqual(inline);
  });

  it('ends with the same error for bytes the declared encoding does not allow', async () => {
    const bytes = Buffer.concat([encode(featureCatalogue(5).slice(0, 300)), Buffer.from([0xff, 0xfe, 0x41])]);
    const inline = await outcome(readBmecat, bytes);
    expect(inline.error).toMatchObject({ type: 'XmlEncodingError' });
    expect(await outcome(readBmecatInWorker, bytes)).toEqual(inline);
  });

  it("passes on the byte source's own error as it is", async () => {
    const broken = new Error('the disk went away');
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield encode(featureCatalogue(10).slice(0, 500));
      throw broken;
    }
    await expect(async () => {
      for await (const _ of readBmecatInWorker(failing())) void _;
    }).rejects.toBe(broken);
  });

  it('closes the byte source when the caller stops reading early', async () => {
    let closed = false;
    const bytes = encode(featureCatalogue(2_000));
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield* chunks(bytes, 4096);
      } finally {
        closed = true;
      }
    }
    let products = 0;
    for await (const event of readBmecatInWorker(source())) {
      if (event.kind === 'product' && ++products === 3) break;
    }
    expect(closed).toBe(true);
  });
});
