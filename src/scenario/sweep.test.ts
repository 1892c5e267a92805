import { describe, expect, it } from 'vitest';
import { parseAnyScenario } from './parse';
import { findPreset } from './presets';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { runPipelineCell } from '../worlds/pipeline/scenario/pipelineRunner';
import { SCENARIO_VERSION, validateAnyScenario, type AnyScenario } from './schema';
import { type PipelineScenario } from '../worlds/pipeline/schema';
import { runServingCell } from '../worlds/serving/scenario/servingRunner';
import { applyCombination, axisValues, cellKey, cellScenario, sweepCells, sweepSeeds, type Sweep } from './sweep';
import { differencePct, meanInterval } from './sweepStats';

const withSweep = (sweep: Sweep, base: PipelineScenario = defaultPipelineScenario()): unknown => ({ ...base, sweep });
const errorsOf = (input: unknown): string[] => {
  const r = validateAnyScenario(input);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('sweep cells', () => {
  it('are keyed by axis values and seed, in canonical order: first axis outermost, seeds innermost', () => {
    const s = withSweep({ axes: [{ path: 'pipeline.executionPlaces', values: [2, 4] }, { path: 'pipeline.assumptions.trialCost', values: ['serial', 'free'] }], seeds: 2 }) as PipelineScenario;
    const cells = sweepCells(s);
    expect(cells.map((c) => [c.index, c.combination, ...c.values, c.seed])).toEqual([
      [0, 0, 2, 'serial', 1],
      [1, 0, 2, 'serial', 2],
      [2, 1, 2, 'free', 1],
      [3, 1, 2, 'free', 2],
      [4, 2, 4, 'serial', 1],
      [5, 2, 4, 'serial', 2],
      [6, 3, 4, 'free', 1],
      [7, 3, 4, 'free', 2],
    ]);
    expect(cells[5]!.key).toEqual({ executionPlaces: 4, trialCost: 'serial' });
    expect(new Set(cells.map(cellKey)).size).toBe(8);
    expect(cellKey(cells[6]!)).toBe('[[4,"free"],1]');
  });

  it('expand a numeric range with its step, without floating-point residue', () => {
    expect(axisValues({ path: 'x', range: { from: 0.1, to: 0.5, step: 0.1 } })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(axisValues({ path: 'x', range: { from: 2, to: 10, step: 4 } })).toEqual([2, 6, 10]);
  });

  it('run as the plain scenario with the fields set, the input left alone', () => {
    const s = withSweep({ axes: [{ path: 'pipeline.lanes[1].params.alpha', values: [3] }] }) as PipelineScenario;
    const before = JSON.stringify(s);
    const plain = cellScenario(s, { values: [3], seed: 7 });
    expect(JSON.stringify(s)).toBe(before);
    expect(plain.sweep).toBeUndefined();
    expect(plain.seed).toBe(7);
    // lane 1 of the default scenario is LLS: no α; the schema says so for the sweep.
    expect(errorsOf(s)).toEqual(['sweep.axes[0].values[0]: 3 is not a value of pipeline.lanes[1].params.alpha: is not a parameter of lls, got 3']);
    expect(applyCombination(withSweep({ axes: [{ path: 'pipeline.lanes[0].params.alpha', values: [3] }] }) as PipelineScenario, [3]).pipeline.lanes[0]!.params).toEqual({ alpha: 3 });
  });

  it('over an enum axis: each value is a run of its own, with the numbers of that plain run', () => {
    const base = { ...defaultPipelineScenario(), pipeline: { ...defaultPipelineScenario().pipeline, queries: 300 } };
    const s = withSweep({ axes: [{ path: 'pipeline.assumptions.trialCost', values: ['serial', 'pipelined', 'free'] }] }, base) as PipelineScenario;
    expect(errorsOf(s)).toEqual([]);
    const cells = sweepCells(s);
    const results = cells.map((c) => runPipelineCell(s, c));
    expect(results.map((r) => r[0]!.params['trialCost'])).toEqual(['serial', 'pipelined', 'free']);
    expect(results[0]![0]!.cell).toEqual({ trialCost: 'serial' });
    const plain = { ...base, pipeline: { ...base.pipeline, assumptions: { ...base.pipeline.assumptions, trialCost: 'free' as const } } };
    expect(results[2]!.map((r) => r.summary)).toEqual(runPipelineCell(plain, sweepCells(plain)[0]!).map((r) => r.summary));
    // Free trials cost no queries: the numbers do change along the axis.
    expect(results[2]![0]!.summary.rebalancingQueries).toBe(0);
    expect(results[0]![0]!.summary.rebalancingQueries).toBeGreaterThan(0);
  });

  it('over a numeric serving axis: the rate of each cell is the rate its run sent', () => {
    const preset = structuredClone(findPreset('bcedge-fig15-rps')!.scenario) as AnyScenario & { world: 'serving' };
    preset.serving.durationS = 20;
    const cells = sweepCells(preset);
    expect(cells.map((c) => c.key)).toEqual([10, 20, 30, 40, 50].map((rateRps) => ({ rateRps })));
    const low = runServingCell(preset, cells[0]!);
    const high = runServingCell(preset, cells[4]!);
    expect(high[0]!.summary.requests).toBeGreaterThan(3 * low[0]!.summary.requests);
  });

  it('seeds come from the sweep, or a count, from the scenario seed on', () => {
    const s = withSweep({ axes: [{ path: 'pipeline.queries', values: [10] }], seeds: 3 }, { ...defaultPipelineScenario(), seed: 41 }) as PipelineScenario;
    expect(sweepSeeds(s)).toEqual([41, 42, 43]);
    expect(sweepSeeds(s, 1)).toEqual([41]);
  });
});

describe('sweep schema errors name the field', () => {
  it.each([
    [{ axes: [{ path: 'pipeline.nope', values: [1] }] }, 'sweep.axes[0].path: pipeline.nope is not a field of this scenario'],
    [{ axes: [{ path: 'pipeline.lanes[9].params.alpha', values: [1] }] }, 'sweep.axes[0].path: pipeline.lanes[9] does not exist (the list has 4)'],
    [{ axes: [{ path: 'pipeline.assumptions', values: [1] }] }, 'sweep.axes[0].path: pipeline.assumptions is not a single value (it holds an object)'],
    [{ axes: [{ path: 'seed', values: [1, 2] }] }, 'sweep.axes[0].path: seed cannot be swept: use sweep.seeds for seeds'],
    [{ axes: [{ path: 'pipeline..x', values: [1] }] }, 'sweep.axes[0].path: "pipeline..x" is not a field path (write it like pipeline.lanes[0].params.alpha)'],
    [{ axes: [{ path: 'pipeline.executionPlaces', values: [4, 100] }] }, 'sweep.axes[0].values[1]: 100 is not a value of pipeline.executionPlaces: must be an integer from 1 to 64, got 100'],
    [{ axes: [{ path: 'pipeline.executionPlaces', values: [1] }] }, 'sweep.axes[0].values[0]: 1 is not a value of pipeline.interference.events[0].executionPlace: must be below the number of execution places (1)'],
    [{ axes: [{ path: 'pipeline.assumptions.trialCost', values: ['cheap'] }] }, 'sweep.axes[0].values[0]: "cheap" is not a value of pipeline.assumptions.trialCost: must be one of "serial", "pipelined", "free", got "cheap"'],
    [{ axes: [{ path: 'pipeline.queries', range: { from: 1, to: 1000, step: 1 } }] }, 'sweep.axes[0].range.step: gives more than 64 values'],
    [{ axes: [{ path: 'pipeline.queries' }] }, 'sweep.axes[0]: needs either values (a list) or a range (from, to, step)'],
    [
      { axes: [{ path: 'pipeline.queries', range: { from: 1, to: 64, step: 1 } }, { path: 'pipeline.interference.random.periodQueries', range: { from: 1, to: 64, step: 1 } }], seeds: 10 },
      'sweep: has 40960 cells (4096 combinations × 10 seeds); at most 20000',
    ],
    [{ axes: [{ path: 'pipeline.queries', values: [10] }], metric: 'speed' }, 'sweep.metric: must be one of'],
    [{ axes: [{ path: 'pipeline.queries', values: [10] }], compare: { a: 0, b: 7 } }, 'sweep.compare.b: must be a lane index below 4, got 7'],
    [{ axes: [{ path: 'pipeline.queries', values: [10] }, { path: 'pipeline.queries', values: [20] }] }, 'sweep.axes[1].name: "queries" is also the name of axis 0'],
  ])('%j', (sweep, message) => {
    expect(errorsOf(withSweep(sweep as Sweep)).join('\n')).toContain(message);
  });
});

describe('the version 2 → 3 migration', () => {
  it('turns a version-2 grid into a sweep over the same fields, in the same order, with the same names', () => {
    const v2 = structuredClone(defaultPipelineScenario()) as unknown as Record<string, unknown> & { pipeline: Record<string, unknown> };
    v2.version = 2;
    v2.pipeline.interference = { random: { enabled: true, periodQueries: 10, durationQueries: 10 }, events: [] };
    v2.pipeline.grid = { durationQueries: [2, 10], executionPlaces: [2, 4], periodQueries: [100] };
    const r = parseAnyScenario(v2);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.version).toBe(SCENARIO_VERSION);
    expect(sweepCells(r.scenario).map((c) => c.key)).toEqual([
      { executionPlaces: 2, periodQueries: 100, durationQueries: 2 },
      { executionPlaces: 2, periodQueries: 100, durationQueries: 10 },
      { executionPlaces: 4, periodQueries: 100, durationQueries: 2 },
      { executionPlaces: 4, periodQueries: 100, durationQueries: 10 },
    ]);
  });

  it('maps a serving grid, batch × instances onto the fixed lane', () => {
    const v2 = structuredClone(findPreset('bcedge-fig1-yolo')!.scenario) as unknown as Record<string, unknown> & { serving: Record<string, unknown> };
    delete v2.sweep;
    v2.version = 2;
    v2.serving.lanes = [{ scheduler: 'deeprt' }, { scheduler: 'fixed' }];
    v2.serving.grid = { instances: [1, 2], rateRps: [10, 20] };
    const r = parseAnyScenario(v2);
    expect(r.ok && r.scenario.sweep).toEqual({
      axes: [
        { path: 'serving.rateRps', name: 'rateRps', values: [10, 20] },
        { path: 'serving.lanes[1].params.instances', name: 'instances', values: [1, 2] },
      ],
    });
  });

  it('still refuses what version 2 refused in a grid, naming the field', () => {
    const v2 = { ...structuredClone(defaultPipelineScenario()), version: 2 } as unknown as { pipeline: Record<string, unknown> };
    v2.pipeline.grid = { alpha: [1] };
    const r = parseAnyScenario(v2);
    expect(r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual(['pipeline: has unknown field "grid"']);
  });
});

describe('sweep statistics', () => {
  it('gives the mean and the Student t 95 % half-width over seeds', () => {
    expect(meanInterval([1, 2, 3])).toEqual({ mean: 2, halfWidth95: (4.303 * 1) / Math.sqrt(3), seeds: 3 });
    expect(meanInterval([5])).toEqual({ mean: 5, halfWidth95: 0, seeds: 1 });
    expect(meanInterval([1, Number.POSITIVE_INFINITY, 3]).seeds).toBe(2);
  });

  it('compares two lanes in % of the second, with the sign of the difference', () => {
    expect(differencePct(110, 100)).toBeCloseTo(10, 12);
    expect(differencePct(90, 100)).toBeCloseTo(-10, 12);
    expect(differencePct(0, 0)).toBe(0);
  });
});

describe('sweeps over the optional pipeline assumptions', () => {
  const withAxis = (path: string, values: (string | number)[]): unknown => ({ ...defaultPipelineScenario(), sweep: { axes: [{ path, values }] } });
  it('accept the overlap and the latency reading on a scenario that leaves them out', () => {
    for (const [path, values] of [
      ['pipeline.assumptions.interferenceOverlap', ['stack', 'onePerEp', 'replace']],
      ['pipeline.assumptions.latencyQueries', ['all', 'normal']],
    ] as const) {
      const parsed = validateAnyScenario(withAxis(path, [...values]));
      expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    }
  });
  it('refuse a value the field does not take, naming the axis', () => {
    const parsed = validateAnyScenario(withAxis('pipeline.assumptions.interferenceOverlap', ['stack', 'sometimes']));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]!.path).toBe('sweep.axes[0].values[1]');
  });
  it('still refuse an assumption that does not exist', () => {
    const parsed = validateAnyScenario(withAxis('pipeline.assumptions.overlapping', ['stack']));
    expect(parsed.ok ? '' : parsed.errors[0]!.message).toMatch(/is not a field/);
  });
  it('give a cell that runs with the swept reading', () => {
    const base = structuredClone(findPreset('odin-fig5-vgg16')!.scenario) as PipelineScenario;
    const s: PipelineScenario = { ...base, pipeline: { ...base.pipeline, queries: 400, interference: { ...base.pipeline.interference, random: { ...base.pipeline.interference.random, periodQueries: 2, durationQueries: 100 } } }, sweep: { axes: [{ path: 'pipeline.assumptions.interferenceOverlap', values: ['stack', 'onePerEp'] }] } };
    const [stack, one] = sweepCells(s, [1]).map((cell) => runPipelineCell(s, cell));
    expect(one![0]!.params['interferenceOverlap']).toBe('onePerEp');
    expect(one![3]!.summary.optimalRatioMean).toBe(1);
    expect(one![4]!.summary.configThroughputMeanQps).not.toBe(stack![4]!.summary.configThroughputMeanQps);
  });
});
