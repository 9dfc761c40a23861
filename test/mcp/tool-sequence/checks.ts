import { expect } from 'vitest';
import type { NodeDto } from '../../helpers/group-dto.js';
import { call } from '../../helpers/mcp.js';
import {
  expectedFeatures,
  expectedGroupDto,
  expectedProductDto,
  expectedSheet,
  expectedTree,
} from './expected-dtos.js';
import { sortedEntries, type Model } from './model.js';
import type { Session } from './session.js';

/** The server's state, read through REST (and get_product at the end), against the model. */

/**
 * The product list, the flat group list and the group tree, as REST answers them, against the
 * model. `leeway`: products whose updatedAt may have moved to `now` (a write that changed nothing).
 */
export async function checkState(
  session: Session,
  model: Model,
  what: string,
  leeway: number[] = [],
  now = '',
): Promise<void> {
  const list = await session.api<Record<string, unknown>[]>('GET', '/api/product?all=true');
  expect(list.status, list.text).toBe(200);
  const actual = list.body.data ?? [];
  for (const id of leeway) {
    const dto = actual.find((p) => p.id === id);
    if (dto?.updatedAt === now) model.products.get(id)!.updatedAt = now;
  }
  expect(actual, `${what}: GET /api/product?all=true`).toEqual(
    model.productList().map((p) => expectedProductDto(model, p)),
  );
  const groups = await session.api('GET', '/api/group');
  expect(groups.body.data, `${what}: GET /api/group`).toEqual(
    model.groupList().map((g) => expectedGroupDto(model, g)),
  );
  const tree = await session.api<NodeDto>('GET', '/api/group/tree');
  expect(tree.status, tree.text).toBe(200);
  expect(tree.body.data, `${what}: GET /api/group/tree`).toEqual(expectedTree(model));
}

/** Texts and features of products, as REST answers them; a product not in the model must be gone. */
export async function checkDetails(
  session: Session,
  model: Model,
  ids: Iterable<number>,
  what: string,
): Promise<void> {
  for (const id of new Set(ids)) {
    const p = model.products.get(id);
    const short = await session.api('GET', `/api/product/${id}/texts/short`);
    if (!p) {
      expect(short.status, `${what}: product ${id} should be gone`).toBe(404);
      continue;
    }
    const long = await session.api('GET', `/api/product/${id}/texts/long`);
    const features = await session.api('GET', `/api/product/${id}/features`);
    expect(short.body.data, `${what}: short texts of ${id}`).toEqual(sortedEntries(p.texts.short));
    expect(long.body.data, `${what}: long texts of ${id}`).toEqual(sortedEntries(p.texts.long));
    expect(features.body.data, `${what}: features of ${id}`).toEqual(expectedFeatures(p));
  }
}

/** At the end of a sequence: every product's texts and features through REST, its sheet through get_product. */
export async function checkEverything(session: Session, model: Model): Promise<void> {
  await checkDetails(session, model, model.products.keys(), 'end of sequence');
  for (const p of model.productList()) {
    const outcome = await call(session.client, 'get_product', { id: p.id });
    if (process.env.SEQ_DEBUG) console.log('DEBUG get_product', p.id, outcome.text.slice(0, 300));
    expect(outcome.isError, outcome.text).toBe(false);
    expect(outcome.data, `get_product ${p.id}`).toEqual(expectedSheet(model, p));
  }
}
