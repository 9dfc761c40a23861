export interface MonitorEntry {
  method: string;
  path: string;
  status: number;
  timestamp: string;
  durationMs: number;
}

/** The REST API monitor: the latest requests, oldest dropped first. */
export class RequestMonitor {
  private readonly entries: MonitorEntry[] = [];
  private readonly listeners = new Set<(entry: MonitorEntry) => void>();

  constructor(private readonly capacity = 1000) {}

  record(entry: MonitorEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(entry);
  }

  latest(limit = this.capacity): MonitorEntry[] {
    return this.entries.slice(-limit);
  }

  subscribe(listener: (entry: MonitorEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
