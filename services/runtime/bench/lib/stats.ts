/** Percentile of a sample (nearest rank); NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The 1-, 5- and 15-minute load averages, as `os.loadavg()` reads them. */
export async function loadAverage(): Promise<string> {
  const { loadavg } = await import('node:os');
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}
