import { expect } from 'vitest';
import type { FileServer } from '../helpers/file-server.js';
import type { ApiResponse } from '../helpers/server.js';
import type { GroupDto } from '../helpers/group-dto.js';

/**
 * Shared helpers of the group tree tests over REST (groups-*.test.ts). Each test file has its own
 * server (serverPerFile) and binds these helpers to it.
 */

/** The REST helpers of the group tests, bound to a test file's server and token (read at each call, so binding them at module level is safe). */
export function groupRest(file: FileServer) {
  function api<T = GroupDto>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    return file.server.request<T>(method, path, { token: file.token, body });
  }

  async function create(name: string, parentId?: number | null, language?: string): Promise<GroupDto> {
    const res = await api('POST', '/api/group', { name, parentId, language });
    expect(res.status, res.text).toBe(201);
    return res.body.data as GroupDto;
  }

  async function get(id: number, query = ''): Promise<GroupDto> {
    const res = await api('GET', `/api/group/${id}${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as GroupDto;
  }

  async function list(): Promise<GroupDto[]> {
    const res = await api<GroupDto[]>('GET', '/api/group');
    expect(res.status).toBe(200);
    return res.body.data as GroupDto[];
  }

  return { api, create, get, list };
}

/** The root-level number of a group created at root level. */
export function rootNumber(group: GroupDto): number {
  expect(group.groupId).toMatch(/^[1-9]\d*$/);
  return Number(group.groupId);
}
