import { describe, expect, it } from 'vitest';
import { nextChunkSize } from '../../src/domain/products/product.service.js';

describe('the streamed product list’s chunks', () => {
  it('grow small chunks to 1,000 products and shrink large ones toward 4 MB, never below one', () => {
    expect(nextChunkSize(20, 6_000)).toBe(40);
    expect(nextChunkSize(800, 300_000)).toBe(1000);
    expect(nextChunkSize(1000, 300_000)).toBe(1000);
    expect(nextChunkSize(1000, 40 * 1024 * 1024)).toBe(100);
    expect(nextChunkSize(100, 400 * 1024 * 1024)).toBe(1);
    expect(nextChunkSize(1, 8 * 1024 * 1024)).toBe(1);
  });
});
