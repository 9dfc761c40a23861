import { afterAll, beforeAll, expect } from 'vitest';
import { Application } from '../../src/app/application.js';
import type { ManualClock } from '../../src/domain/clock.js';
import type { RequestContext } from '../../src/domain/context.js';
import { createGroup } from '../../src/domain/groups/group.service.js';
import { newDataDir, removeDataDir } from './backend.js';
import { productState, type ProductState } from './product-state.js';

/** One of two workspaces that start equal, and the path that writes into it. */
export interface PairedSide<W> {
  dir: string;
  app: Application;
  write: W;
}

/**
 * Two applications on one clock, each with a workspace made by the same calls (`prepare`, then the
 * groups named, in order), for comparing two paths that must store the same: `groupIds` holds the
 * groups' ids, the same on both sides (checked), so that what a test sends names a group by id.
 */
export function pairedWorkspaces<W>(options: {
  dirPrefix: string;
  clock: ManualClock;
  writes: readonly [W, W];
  groups: readonly (readonly [string] | readonly [string, number])[];
  prepare?: (owner: RequestContext) => Promise<void>;
}): { sides: PairedSide<W>[]; groupIds: number[] } {
  const sides: PairedSide<W>[] = [];
  const groupIds: number[] = [];
  async function openSide(write: W): Promise<PairedSide<W>> {
    const dir = await newDataDir(options.dirPrefix);
    const app = await Application.open({ dataDir: dir, clock: options.clock });
    const ws = await app.workspaces.create(app.ownerContext(), { name: 'Paired', language: 'deu' });
    await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
    const owner = app.ownerContext();
    await options.prepare?.(owner);
    const ids: number[] = [];
    for (const [name, parent] of options.groups) {
      const parentId = parent === undefined ? undefined : ids[parent];
      ids.push((await createGroup(owner, { name, parentId })).id);
    }
    if (groupIds.length === 0) groupIds.push(...ids);
    // Both workspaces were made by the same calls in the same order.
    expect(ids).toEqual(groupIds);
    return { dir, app, write };
  }
  beforeAll(async () => {
    for (const write of options.writes) sides.push(await openSide(write));
  }, 60_000);
  afterAll(async () => {
    for (const side of sides) {
      await side.app.stop();
      await removeDataDir(side.dir);
    }
  });
  return { sides, groupIds };
}

/** What one side held of a run's products before and after its write, and the write's results. */
export interface PairedOutcome<R> {
  before: ProductState;
  after: ProductState;
  results: R;
}

/** Sends `input` through each side's path; each side's state of `prefix`'s products around it. */
export async function writeOnBoth<I, R>(
  sides: readonly PairedSide<(ctx: RequestContext, input: I) => Promise<R>>[],
  prefix: string,
  input: I,
): Promise<[PairedOutcome<R>, PairedOutcome<R>]> {
  const outcome: PairedOutcome<R>[] = [];
  for (const side of sides) {
    const before = await productState(side.app, prefix);
    const results = await side.write(side.app.ownerContext(), input);
    outcome.push({ before, after: await productState(side.app, prefix), results });
  }
  return outcome as [PairedOutcome<R>, PairedOutcome<R>];
}
