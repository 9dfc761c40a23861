import { describe, expect, it } from 'vitest';
import { INVALID, markedUtf8 } from '../../src/interchange/spreadsheet/utf8-text.js';

/** The CSV reader's UTF-8 check: valid bytes pass unchanged however the chunks cut them, others are marked. */
async function through(chunks: Buffer[]): Promise<{ text: string; invalid: boolean }> {
  const found = { invalid: false };
  async function* source() {
    yield* chunks;
  }
  const out: Buffer[] = [];
  for await (const chunk of markedUtf8(source(), found)) out.push(chunk);
  return { text: Buffer.concat(out).toString('utf8'), invalid: found.invalid };
}

describe('markedUtf8', () => {
  it('passes valid UTF-8 cut anywhere, a sequence split over chunks included', async () => {
    const bytes = Buffer.from('Größe ∅ 日本 😀 \uFFFD', 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { text, invalid } = await through([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(text).toBe('Größe ∅ 日本 😀 \uFFFD');
      expect(invalid).toBe(false);
    }
  });

  it('marks each byte that begins no valid sequence, also at the very end', async () => {
    const latin1 = Buffer.from('Gr\xf6\xdfe', 'latin1');
    expect(await through([latin1])).toEqual({ text: `Gr${INVALID}${INVALID}e`, invalid: true });
    expect(await through([Buffer.from('ok\xe2\x82', 'latin1')])).toEqual({
      text: `ok${INVALID}${INVALID}`,
      invalid: true,
    });
  });
});
