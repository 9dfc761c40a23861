import { readFileSync, writeFileSync } from 'node:fs';

export interface RssReading {
  /** Resident set size when the watch started, in MB. */
  beforeMb: number;
  /** Peak resident set size during the watch, in MB. */
  peakMb: number;
  /** 'VmHWM': the kernel's exact peak (reset at start); 'sampled': the highest VmRSS polled. */
  source: 'VmHWM' | 'sampled';
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets the kernel's peak RSS of the process (Linux: clear_refs 5); false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Watches the resident memory of a server process from /proc while a load runs. */
export class RssWatch {
  private peak = 0;
  private readonly before: number;
  private readonly exact: boolean;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs: number,
  ) {
    this.before = statusField(pid, 'VmRSS') ?? 0;
    this.exact = resetPeak(pid);
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    this.peak = Math.max(this.peak, statusField(this.pid, 'VmRSS') ?? 0);
  }

  private reading: RssReading | undefined;

  /** Ends the watch; later calls return the same reading. */
  stop(): RssReading {
    if (this.reading) return this.reading;
    clearInterval(this.timer);
    this.sample();
    const hwm = this.exact ? statusField(this.pid, 'VmHWM') : undefined;
    const peak = Math.max(this.peak, hwm ?? 0);
    this.reading = {
      beforeMb: Math.round(this.before),
      peakMb: Math.round(peak),
      source: hwm !== undefined ? 'VmHWM' : 'sampled',
    };
    return this.reading;
  }
}
