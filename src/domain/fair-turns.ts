/**
 * Long reads (the streamed full list) give way between chunks. Each waiting reader used to
 * schedule its own setImmediate, so ten lists computed ten chunks in one turn of the event loop
 * before new requests were even read: a GET by id waited for all of them. Here one waiting reader
 * is let go per turn, and the loop polls for I/O (new requests, sockets ready) between any two
 * chunks. With nothing else to do, the turns follow each other at once: the lists lose nothing.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  scheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // Scheduled from within the check phase, the next immediate runs in the next turn of the loop.
  setImmediate(releaseOne);
}

/** Resolves in a later turn of the event loop, after the readers that asked before. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/**
 * How long synchronous work (an import's records, a bulk batch's checks and plan) may keep the
 * event loop before it gives other requests a turn. A read during a bulk load waits about this
 * long plus its own work: at 20 ms its median was 25 ms, at 10 ms 14 ms, at 5 ms 8 ms, with the
 * load's rate 1,084-1,108, 1,050 and 992 products a second (docs/performance.md, 2026-11-29).
 */
export const TURN_SLICE_MS = 10;

/**
 * A long loop's turns: `await turns.take()` once per step gives the event loop a turn (nextTurn)
 * once TURN_SLICE_MS have passed since the last one, and costs nothing else.
 */
export class Turns {
  #since = performance.now();

  async take(): Promise<void> {
    if (performance.now() - this.#since <= TURN_SLICE_MS) return;
    await nextTurn();
    this.#since = performance.now();
  }
}
