import { describe, expect, it } from 'vitest';
import { above, int, num, numericFields, schemaFieldAt, schemaNumericKeys } from './fieldBounds';
import { findPreset } from './presets';
import { formatPath } from './schema';
import { servingScenarioSchema, validateServingScenario } from '../worlds/serving/schema';
import { pipelineScenarioSchema } from '../worlds/pipeline/schema';

const fieldsOf = (id: string) => {
  const scenario = findPreset(id)!.scenario;
  const schema = scenario.world === 'serving' ? servingScenarioSchema : pipelineScenarioSchema;
  return new Map(numericFields(schema, scenario).map((f) => [formatPath(f.path), f]));
};

describe('numeric fields read from the schema', () => {
  it('int, num and above check what they record', () => {
    expect(int(1, 3).safeParse(2.5).success).toBe(false);
    expect(num(0, 1).safeParse(1).success).toBe(true);
    expect(above(0, 1).safeParse(0).success).toBe(false);
    expect(above(0, 1).safeParse(Number.MIN_VALUE).success).toBe(true);
  });

  it('lists a scenario’s numeric fields with their bounds, and the optional ones it could set', () => {
    const pipeline = fieldsOf('default');
    expect(pipeline.get('pipeline.executionPlaces')).toMatchObject({ key: 'pipeline.executionPlaces', bounds: { min: 1, max: 64, integer: true }, present: true });
    // ODIN's α takes its range from the registry, as the slider does.
    expect(pipeline.get('pipeline.lanes[0].params.alpha')).toMatchObject({ key: 'pipeline.lanes[]{odin}.params.alpha', bounds: { min: 1, max: 30, integer: true }, present: true });
    const serving = fieldsOf('serving-default');
    expect(serving.get('serving.assumptions.oomRecoveryMs')?.bounds.min).toBeDefined();
    expect(serving.get('serving.models[0].sloMs')).toMatchObject({ present: false, bounds: { min: 1, max: 100_000 } });
    expect(serving.get('serving.lanes[0].params.batchSize.yolo')).toMatchObject({ present: false, bounds: { min: 1, max: 128, integer: true } });
    // An absent object with required fields (metrics needs its method) is not listed field by field.
    expect([...serving.keys()].some((p) => p.startsWith('metrics'))).toBe(false);
  });

  it('gives a sweep axis’s values the bounds of the field it sweeps', () => {
    const fields = fieldsOf('bcedge-fig1-yolo');
    expect(fields.get('sweep.axes[0].values[0]')?.bounds).toEqual({ min: 1, max: 128, integer: true });
    expect(fields.get('sweep.axes[1].values[0]')?.bounds).toEqual({ min: 1, max: 8, integer: true });
  });

  it('knows every numeric field of the schema, each option and each scheduler’s parameters', () => {
    const keys = schemaNumericKeys(servingScenarioSchema);
    expect(keys).toContain('serving.models[].rate{mmpp}.onRps');
    expect(keys).toContain('serving.lanes[]{ga}.params.elite');
    expect(keys).toContain('serving.lanes[]{fixed}.params.instances.yolo');
    expect(keys).toContain('sweep.axes[].range.step');
    expect(schemaNumericKeys(pipelineScenarioSchema)).toContain('pipeline.assumptions.admission{poissonShare}.shareOfPeak');
  });

  it('says what the schema expects at a path', () => {
    const scenario = findPreset('default')!.scenario;
    expect(schemaFieldAt(pipelineScenarioSchema, scenario, ['metrics'])).toEqual({ kind: 'object', fields: ['percentiles', 'relativeError'], optional: true });
    expect(schemaFieldAt(pipelineScenarioSchema, scenario, ['pipeline', 'lanes', 0, 'params'])).toEqual({ kind: 'parameters', fields: ['alpha'], optional: true });
    expect(schemaFieldAt(pipelineScenarioSchema, scenario, ['pipeline', 'lanes', 0, 'params', 'alpha'])?.kind).toBe('value');
    expect(schemaFieldAt(pipelineScenarioSchema, scenario, ['pipeline', 'lanes', 0, 'params', 'beta'])).toBeUndefined();
    expect(schemaFieldAt(pipelineScenarioSchema, scenario, ['pipeline', 'assumption'])).toBeUndefined();
    const serving = findPreset('serving-default')!.scenario;
    // A rate schedule not given yet: every option's fields.
    expect(schemaFieldAt(servingScenarioSchema, serving, ['serving', 'models', 0, 'rate'])?.fields).toEqual(expect.arrayContaining(['kind', 'rateRps', 'steps', 'onRps']));
  });

  it('takes per-model parameters only where the scheduler reads them per model', () => {
    const with_ = (lane: Record<string, unknown>) => {
      const s = structuredClone(findPreset('serving-default')!.scenario) as unknown as { serving: { lanes: unknown[] } };
      s.serving.lanes = [lane];
      const r = validateServingScenario(s);
      return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
    };
    expect(with_({ scheduler: 'fixed', params: { 'batchSize.yolo': 16 } })).toEqual([]);
    expect(with_({ scheduler: 'deeprt', params: { 'maxBatch.yolo': 16 } })).toEqual(['serving.lanes[0].params.maxBatch.yolo: is not a parameter of deeprt, got 16']);
  });
});
