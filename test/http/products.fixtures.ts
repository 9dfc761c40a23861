import { expect } from 'vitest';
import type { FileServer } from '../helpers/file-server.js';
import type { ApiResponse } from '../helpers/server.js';

/**
 * Shared helpers of the product tests over REST (products-*.test.ts). Each test file has its own
 * server (serverPerFile) and binds these helpers to it.
 */

export interface Product {
  id: number;
  supplierPid: string;
  supplierIdRef: string | null;
  name: string;
  ean: string | null;
  manufacturerPid: string | null;
  masterProduct: boolean;
  variantCount: number;
  masterProductId: number | null;
  createdAt: string;
  updatedAt: string;
}

let seq = 0;
export const pid = (label = 'P') => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

/** The REST helpers of the product tests, bound to a test file's server and token (read at each call, so binding them at module level is safe). */
export function productRest(file: FileServer) {
  const call = <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    tok = file.token,
  ): Promise<ApiResponse<T>> => file.server.request<T>(method, path, { token: tok, body });

  async function create(body: Record<string, unknown> = {}): Promise<Product> {
    const res = await call<Product>('POST', '/api/product', { supplierPid: pid(), ...body });
    expect(res.status, res.text).toBe(201);
    return res.body.data!;
  }

  async function get(id: number, query = ''): Promise<Product> {
    const res = await call<Product>('GET', `/api/product/${id}${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data!;
  }

  return { call, create, get };
}
