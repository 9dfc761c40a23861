import { describe, expect, it } from 'vitest';
import { restampResult } from '../../src/domain/changes/restamp-result.js';

const AT = '2026-11-25T10:00:00.000Z';
const STAMP = '2026-11-25T10:00:01.000Z';

describe('restampResult', () => {
  it('moves updatedAt and deletedAt holding the write instant, in nested DTOs and arrays', () => {
    const result = {
      product: { id: 1, updatedAt: AT, createdAt: AT },
      items: [{ deletedAt: AT }, { updatedAt: '2026-11-25T09:00:00.000Z' }],
    };
    expect(restampResult(result, AT, STAMP)).toEqual({
      product: { id: 1, updatedAt: STAMP, createdAt: AT },
      items: [{ deletedAt: STAMP }, { updatedAt: '2026-11-25T09:00:00.000Z' }],
    });
  });

  it('leaves a value equal to the instant under another key, also in JSON text', () => {
    const sheet = JSON.stringify({
      product: { updatedAt: AT, createdAt: AT },
      shortTexts: [{ lang: 'deu', value: AT }],
      variants: [{ id: 2, name: `"updatedAt":"${AT}"` }],
    });
    const moved = JSON.parse(restampResult(sheet, AT, STAMP)) as {
      product: { updatedAt: string; createdAt: string };
      shortTexts: { value: string }[];
      variants: { name: string }[];
    };
    expect(moved.product).toEqual({ updatedAt: STAMP, createdAt: AT });
    expect(moved.shortTexts[0]!.value).toBe(AT);
    expect(moved.variants[0]!.name).toBe(`"updatedAt":"${AT}"`);
  });

  it("keeps a user's value in a DTO byte for byte, even one that looks like a stamp in JSON", () => {
    const looksLikeStamp = `see "updatedAt":"${AT}"`;
    const result = {
      product: { updatedAt: AT, name: looksLikeStamp },
      values: [{ lang: 'zxx', value: `{"deletedAt":"${AT}"}` }],
    };
    expect(restampResult(result, AT, STAMP)).toEqual({
      product: { updatedAt: STAMP, name: looksLikeStamp },
      values: [{ lang: 'zxx', value: `{"deletedAt":"${AT}"}` }],
    });
  });

  it('keeps what is not a plain object or array', () => {
    const date = new Date(AT);
    const buffer = Buffer.from(AT);
    expect(restampResult({ updatedAt: date, b: buffer, n: 1, x: null }, AT, STAMP)).toEqual({
      updatedAt: date,
      b: buffer,
      n: 1,
      x: null,
    });
  });
});
