import { describe, expect, it } from 'vitest';
import { nextTurn } from '../../src/domain/fair-turns.js';

describe('nextTurn', () => {
  it('lets one waiting reader go per turn of the event loop, in order, other work in between', async () => {
    const events: string[] = [];
    const waits = ['a', 'b', 'c'].map((name) => nextTurn().then(() => events.push(name)));
    // Work that arrives meanwhile (a new request, in the server) gets its turn between the readers.
    setImmediate(() => events.push('other'));
    await Promise.all(waits);
    expect(events).toEqual(['a', 'other', 'b', 'c']);
  });
});
