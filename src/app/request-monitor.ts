export interface MonitorEntry {
  method: string;
  path: string;
  status: number;
  timestamp: string;
  durationMs: number;
}

/** The REST API monitor: the latest requests in a ring buffer (constant cost per request). */
export class RequestMonitor {
  private readonly buffer: (MonitorEntry | undefined)[];
  private next = 0;
  private size = 0;
  private readonly listeners = new Set<(entry: MonitorEntry) => void>();

  constructor(private readonly capacity = 1000) {
    this.buffer = new Array<MonitorEntry | undefined>(capacity);
  }

  record(entry: MonitorEntry): void {
    this.buffer[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    for (const listener of this.listeners) listener(entry);
  }

  /** The newest `limit` entries, oldest first. */
  latest(limit = this.capacity): MonitorEntry[] {
    const count = Math.min(limit, this.size);
    const result: MonitorEntry[] = [];
    for (let i = count; i > 0; i--) {
      result.push(this.buffer[(this.next - i + this.capacity) % this.capacity]!);
    }
    return result;
  }

  subscribe(listener: (entry: MonitorEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
