/**
 * Statistics of a sweep over seeds: the mean and the 95 % interval of a metric per axis
 * combination and lane, and the paired difference of two lanes. Pure; the page's Explore
 * view and the CLI's report both use it.
 */

/** Two-sided 97.5 % quantiles of Student's t for 1…30 degrees of freedom. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06,
  2.056, 2.052, 2.048, 2.045, 2.042,
];

/** A mean over seeds with the half-width of its 95 % interval (0 for one seed). */
export interface MeanInterval {
  readonly mean: number;
  /** Half-width of the 95 % confidence interval of the mean: mean ± halfWidth95. */
  readonly halfWidth95: number;
  /** Seeds that gave a number. */
  readonly seeds: number;
}

/**
 * Mean and 95 % interval of the mean over seeds. Neither paper says how it spreads its
 * results over runs; the lab uses Student's t interval (mean ± t₀.₉₇₅,ₙ₋₁ · s/√n), which
 * suits the few seeds a sweep runs (normal quantile 1.96 beyond 30 degrees of freedom).
 * Non-finite values (a difference against a zero) are left out and not counted.
 */
export function meanInterval(values: readonly number[]): MeanInterval {
  const finite = values.filter((v) => Number.isFinite(v));
  const n = finite.length;
  if (n === 0) return { mean: Number.NaN, halfWidth95: Number.NaN, seeds: 0 };
  let sum = 0;
  for (const v of finite) sum += v;
  const mean = sum / n;
  if (n === 1) return { mean, halfWidth95: 0, seeds: 1 };
  let squares = 0;
  for (const v of finite) squares += (v - mean) ** 2;
  const sd = Math.sqrt(squares / (n - 1));
  const t = T_975[n - 2] ?? 1.96;
  return { mean, halfWidth95: (t * sd) / Math.sqrt(n), seeds: n };
}

/** A summary's number by its top-level key (NaN when the summary has no such number). */
export function metricOf(summary: object, metric: string): number {
  const value = (summary as Record<string, unknown>)[metric];
  return typeof value === 'number' ? value : Number.NaN;
}

/**
 * Lane a against lane b in % of b: 100 · (a − b) / |b|. Positive: a's number is higher
 * (better for throughput, worse for latency or violations: the page says which). Infinite
 * when b is 0 and a is not, 0 when both are.
 */
export function differencePct(a: number, b: number): number {
  if (a === b) return 0;
  return (100 * (a - b)) / Math.abs(b);
}

/** Whether a higher value of a metric is better (throughput, utility) or worse (latency, violations, overhead). */
export function higherIsBetter(metric: string): boolean {
  return /throughput|utility|optimalRatio|completed|requests|^queries$/i.test(metric) && !/latency/i.test(metric);
}
