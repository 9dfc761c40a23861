import { expect } from 'vitest';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import type { McpSession as Session } from '../helpers/mcp-session.js';

/**
 * Shared data and REST reads of the group tool tests (group-tools-*.test.ts). Those test the group
 * tools of the agent interface, black box: a real server, data made through the tools or REST, every
 * result checked against what REST answers for the same data or the same mistake.
 */

export interface ProductDto {
  id: number;
  supplierPid: string;
  name: string;
  masterProductId: number | null;
}

export interface Page {
  items: ProductDto[];
  nextCursor: string | null;
}

export async function restGroup(s: Session, id: number, query = ''): Promise<GroupDto> {
  const res = await s.rest<GroupDto>('GET', `/api/group/${id}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

export async function restGroups(s: Session): Promise<GroupDto[]> {
  const res = await s.rest<GroupDto[]>('GET', '/api/group');
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

export async function restTree(s: Session, query = ''): Promise<NodeDto> {
  const res = await s.rest<NodeDto>('GET', `/api/group/tree${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

export async function restMembers(s: Session, groupId: number): Promise<number[]> {
  const res = await s.rest<ProductDto[]>('GET', `/api/group/${groupId}/products`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!.map((p) => p.id);
}

let pidCounter = 0;

export async function product(s: Session, masterProductId?: number): Promise<ProductDto> {
  pidCounter += 1;
  const res = await s.rest<ProductDto>('POST', '/api/product', {
    supplierPid: `MG-${pidCounter}`,
    name: `Produkt ${pidCounter}`,
    masterProductId,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

export function createGroup(
  s: Session,
  name: string,
  parentId?: number,
  language?: string,
): Promise<GroupDto> {
  return ok<GroupDto>(s.client, 'create_group', { name, parentId, language });
}

/** A tree A (1) > A1 (1.1) > A11 (1.1.1), B (2), with a product in A, one in A11, one ungrouped. */
export async function sampleTree(s: Session) {
  const a = await createGroup(s, 'A');
  const a1 = await createGroup(s, 'A1', a.id);
  const a11 = await createGroup(s, 'A11', a1.id);
  const b = await createGroup(s, 'B');
  const [pa, pa11, loose] = [await product(s), await product(s), await product(s)];
  await ok(s.client, 'assign_products', { groupId: a.id, productIds: [pa.id] });
  await ok(s.client, 'assign_products', { groupId: a11.id, productIds: [pa11.id] });
  return { a, a1, a11, b, pa, pa11, loose };
}
