import { describe, expect, it } from 'vitest';
import { DEFAULT_PERCENTILE_RELATIVE_ERROR } from '../engine/quantiles';
import { parseAnyScenario } from './parse';
import { runPipelineScenario } from '../worlds/pipeline/scenario/pipelineRunner';
import { findPreset } from './presets';
import { runServingScenario } from '../worlds/serving/scenario/servingRunner';
import { formatErrors } from './schema';
import { type ServingScenario } from '../worlds/serving/schema';
import { type PipelineScenario } from '../worlds/pipeline/schema';

const PERCENTILE_KEYS = new Set(['latencyP50Ms', 'latencyP99Ms', 'configLatencyP99Ms']);

function withMetrics<T extends PipelineScenario | ServingScenario>(scenario: T, metrics: T['metrics']): T {
  const parsed = parseAnyScenario({ ...scenario, metrics });
  if (!parsed.ok) throw new Error(formatErrors(parsed.errors));
  return parsed.scenario as T;
}

/** Every summary number outside the percentiles must not move; the percentiles stay within the bound. */
function compare(streaming: Record<string, unknown>, exact: Record<string, unknown>, path = ''): number {
  let worst = 0;
  for (const [key, value] of Object.entries(exact)) {
    const other = streaming[key];
    if (typeof value === 'number' && (PERCENTILE_KEYS.has(key) || /P\d+Ms$/.test(key))) {
      expect(Math.abs((other as number) - value), `${path}${key}`).toBeLessThanOrEqual(DEFAULT_PERCENTILE_RELATIVE_ERROR * value * (1 + 1e-9));
      if (value > 0) worst = Math.max(worst, Math.abs((other as number) / value - 1));
    } else if (value !== null && typeof value === 'object') {
      worst = Math.max(worst, compare(other as Record<string, unknown>, value as Record<string, unknown>, `${path}${key}.`));
    } else {
      expect(other, `${path}${key}`).toBe(value);
    }
  }
  return worst;
}

describe('metrics.percentiles: streaming by default, exact on request', () => {
  it('pipeline: the default run streams; only the percentiles differ from exact, within 0.1 %', () => {
    const base = structuredClone(findPreset('default')!.scenario) as PipelineScenario;
    base.pipeline.queries = 3000;
    const byDefault = runPipelineScenario(withMetrics(base, undefined));
    const streaming = runPipelineScenario(withMetrics(base, { percentiles: 'streaming' }));
    const exact = runPipelineScenario(withMetrics(base, { percentiles: 'exact' }));
    expect(byDefault).toEqual(streaming);
    let worst = 0;
    exact.forEach((row, i) => (worst = Math.max(worst, compare(streaming[i]!.summary as never, row.summary as never))));
    expect(worst).toBeGreaterThan(0);
  });

  it('serving: the same rule', () => {
    const base = structuredClone(findPreset('serving-default')!.scenario) as ServingScenario;
    base.serving.durationS = 60;
    base.serving.lanes = [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }];
    const streaming = runServingScenario(withMetrics(base, { percentiles: 'streaming' }), base.seed, () => 0);
    const exact = runServingScenario(withMetrics(base, { percentiles: 'exact' }), base.seed, () => 0);
    exact.forEach((row, i) => compare(streaming[i]!.summary as never, row.summary as never));
  });

  it('a looser bound is a scenario parameter too, and is honoured', () => {
    const base = structuredClone(findPreset('default')!.scenario) as PipelineScenario;
    base.pipeline.queries = 2000;
    const loose = runPipelineScenario(withMetrics(base, { percentiles: 'streaming', relativeError: 0.05 }));
    const exact = runPipelineScenario(withMetrics(base, { percentiles: 'exact' }));
    exact.forEach((row, i) => {
      expect(Math.abs(loose[i]!.summary.latencyP99Ms / row.summary.latencyP99Ms - 1)).toBeLessThanOrEqual(0.05 * (1 + 1e-9));
    });
  });

  it('names a bad metrics field', () => {
    const base = findPreset('default')!.scenario;
    const bad = parseAnyScenario({ ...base, metrics: { percentiles: 'approximate', relativeError: 0.5 } });
    expect(bad.ok ? [] : formatErrors(bad.errors).split('\n')).toEqual([
      'metrics.percentiles: must be one of "streaming", "exact", got "approximate"',
      'metrics.relativeError: must be a number from 0.00001 to 0.1, got 0.5',
    ]);
  });
});
