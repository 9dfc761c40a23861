import { expect } from 'vitest';
import type { McpSession as Session } from '../helpers/mcp-session.js';

/**
 * Shared data and REST reads of the text and feature tool tests (text-feature-tools-*.test.ts).
 * Those test the text and feature tools of the agent interface, black box: a real server, products
 * made through REST, every change checked through the REST text and feature endpoints, every error
 * checked against what REST answers for the same mistake.
 */

export interface Entry {
  lang: string;
  value: string;
}

export interface Feature {
  ftidref: string;
  funit: string | null;
  names: Entry[];
  values: Entry[];
}

let pidCounter = 0;

/** A product without any text. */
export async function product(s: Session): Promise<number> {
  pidCounter += 1;
  const res = await s.rest<{ id: number }>('POST', '/api/product', { supplierPid: `TF-${pidCounter}` });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

export async function restTexts(s: Session, id: number, kind: 'short' | 'long'): Promise<Entry[]> {
  const res = await s.rest<Entry[]>('GET', `/api/product/${id}/texts/${kind}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

export async function restFeatures(s: Session, id: number): Promise<Feature[]> {
  const res = await s.rest<Feature[]>('GET', `/api/product/${id}/features`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

export const enc = encodeURIComponent;
export const ECLASS = '0173-1#02-AAF040#004';
