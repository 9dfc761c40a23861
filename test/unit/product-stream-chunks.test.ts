import { describe, expect, it } from 'vitest';
import { nextChunkSize, productsWithin } from '../../src/domain/products/product.service.js';

describe('the streamed product list’s chunks', () => {
  it('grow small chunks to 1,000 products and shrink large ones toward 4 MB, never below one', () => {
    expect(nextChunkSize(20, 6_000)).toBe(40);
    expect(nextChunkSize(800, 300_000)).toBe(1000);
    expect(nextChunkSize(1000, 300_000)).toBe(1000);
    expect(nextChunkSize(1000, 40 * 1024 * 1024)).toBe(100);
    expect(nextChunkSize(100, 400 * 1024 * 1024)).toBe(1);
    expect(nextChunkSize(1, 8 * 1024 * 1024)).toBe(1);
  });

  it('take the products whose bounds fit the budget, in order, never fewer than one', () => {
    expect(productsWithin([10, 10, 10], 100)).toBe(3);
    expect(productsWithin([40, 40, 40], 100)).toBe(2);
    expect(productsWithin([40, 60, 1], 100)).toBe(2);
    expect(productsWithin([500, 1, 1], 100)).toBe(1);
    expect(productsWithin([1, 500, 1], 100)).toBe(1);
    expect(productsWithin([], 100)).toBe(0);
  });
});
