/**
 * The mean of several results of the same shape (grid cells, seeds), key by key: numbers
 * are averaged, objects averaged field by field (SLO curves, per-model breakdowns), and
 * anything else is taken from the first.
 */
export function averageDeep<T>(values: readonly T[]): T {
  if (values.length === 0) throw new RangeError('cannot average nothing');
  const first = values[0] as unknown;
  if (typeof first === 'number') return ((values as readonly unknown[]).reduce((sum: number, v) => sum + (v as number), 0) / values.length) as T;
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(first)) out[key] = averageDeep(values.map((v) => (v as Record<string, unknown>)[key]));
    return out as T;
  }
  return first as T;
}
