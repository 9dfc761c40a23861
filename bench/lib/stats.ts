/** Latency samples in milliseconds, recorded at full resolution (autocannon's histogram keeps whole ms). */
export class Samples {
  private values = new Float64Array(1 << 16);
  private length = 0;

  add(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  get count(): number {
    return this.length;
  }

  /** Percentiles (0-100) by nearest rank; undefined without samples. */
  percentiles(...ps: number[]): (number | undefined)[] {
    if (this.length === 0) return ps.map(() => undefined);
    const sorted = this.values.slice(0, this.length).sort();
    return ps.map(
      (p) => sorted[Math.min(this.length - 1, Math.max(0, Math.ceil((p / 100) * this.length) - 1))],
    );
  }
}

export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
