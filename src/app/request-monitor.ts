import type { RequestRecord } from '../http/http-deps.js';
import type { MonitorEntry } from '../window/window-api.types.js';
import type { MonitorFeed } from '../window/window-deps.js';

function toEntry(record: RequestRecord): MonitorEntry {
  const { at, ...rest } = record;
  return { ...rest, timestamp: new Date(at).toISOString() };
}

/**
 * The REST API monitor: the latest requests in a ring buffer. Recording is constant and
 * cheap (it runs for every request); timestamps are formatted only when entries are read.
 */
export class RequestMonitor implements MonitorFeed {
  private readonly buffer: (RequestRecord | undefined)[];
  private next = 0;
  private size = 0;
  private total = 0;
  private readonly listeners = new Set<(entry: MonitorEntry) => void>();

  constructor(private readonly capacity = 1000) {
    this.buffer = new Array<RequestRecord | undefined>(capacity);
  }

  record(record: RequestRecord): void {
    this.buffer[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    this.total++;
    if (this.listeners.size === 0) return;
    const entry = toEntry(record);
    for (const listener of this.listeners) listener(entry);
  }

  /** The newest `limit` entries, oldest first. */
  latest(limit = this.capacity): MonitorEntry[] {
    const count = Math.min(limit, this.size);
    const result: MonitorEntry[] = [];
    for (let i = count; i > 0; i--) {
      result.push(toEntry(this.buffer[(this.next - i + this.capacity) % this.capacity]!));
    }
    return result;
  }

  /**
   * How many requests were recorded since the start: the newest entry is number `recorded`, so
   * a reader can number entries (the window's stream does, to never show one twice).
   */
  get recorded(): number {
    return this.total;
  }

  subscribe(listener: (entry: MonitorEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
