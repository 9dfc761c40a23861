import { describe, expect, it } from 'vitest';
import { ManualClock, OnceClock, onceClock } from '../../src/domain/clock.js';
import { RIGHTS, SYSTEM_ACTOR, useWorkspace } from '../../src/domain/context.js';
import type { OpenWorkspace } from '../../src/domain/workspaces/open-workspace.js';

/**
 * One instant per unit of work: every stamp a catalogue write makes must be alike, so that its
 * commit can move exactly those stamps (db/catalogue/change-counter-sql.ts).
 */
describe('one instant per unit of work', () => {
  it('OnceClock answers the first reading of its source ever after', () => {
    const source = new ManualClock(new Date('2026-01-15T10:00:00.000Z'));
    const clock = new OnceClock(source);
    source.advance(5);
    const first = clock.now().toISOString();
    source.advance(1000);
    expect(clock.now().toISOString()).toBe(first);
    expect(first).toBe('2026-01-15T10:00:00.005Z');
    expect(onceClock(clock)).toBe(clock);
  });

  it('a checked context and the contexts made from it for its transaction share the instant', () => {
    const source = new ManualClock(new Date('2026-01-15T10:00:00.000Z'));
    // Not a database: these contexts only carry it; nothing here reads or writes.
    const workspace = { id: 1, db: {} } as unknown as OpenWorkspace;
    const ctx = useWorkspace({ actor: SYSTEM_ACTOR, clock: source, workspace }, RIGHTS.edit);
    const at = ctx.clock.now().toISOString();
    source.advance(7);
    const inner = useWorkspace({ ...ctx, trx: {} as never }, RIGHTS.edit);
    expect(inner.clock.now().toISOString()).toBe(at);
    expect(useWorkspace(inner, RIGHTS.read).clock.now().toISOString()).toBe(at);
    // A new service call on the request's context gets an instant of its own.
    const next = useWorkspace({ actor: SYSTEM_ACTOR, clock: source, workspace }, RIGHTS.edit);
    expect(next.clock.now().toISOString()).toBe('2026-01-15T10:00:00.007Z');
  });
});
