import { describe, expect, it } from 'vitest';
import { migrateDocument, parseAnyScenario, type Migration } from './parse';
import { parsePipelineScenario, parsePipelineScenarioJson } from '../worlds/pipeline/door';
import { EARLIER_SCENARIO_READINGS, PAPER_SCENARIO_READINGS } from '../worlds/serving/scenario/servingReadings';
import { servingAssumptionsOf } from '../worlds/serving/scenario/servingRunner';
import type { ServingScenario } from '../worlds/serving/schema';
import { allPresets } from './presets';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import v1Fixture from './fixtures/v1-default.json';
import { SCENARIO_VERSION, validateAnyScenario } from './schema';
import { validateServingScenario } from '../worlds/serving/schema';
import { validatePipelineScenario } from '../worlds/pipeline/schema';

const errorsOf = (input: unknown) => {
  const r = parsePipelineScenario(input);
  if (r.ok) throw new Error('expected errors');
  return r.errors.map((e) => `${e.path}: ${e.message}`);
};

const withPipeline = (change: (p: Record<string, unknown>) => void): unknown => {
  const s = defaultPipelineScenario() as unknown as { pipeline: Record<string, unknown> };
  change(s.pipeline);
  return s;
};

describe('scenario schema', () => {
  it('accepts every preset', () => {
    for (const p of allPresets()) {
      const r = validateAnyScenario(p.scenario);
      expect(r.ok, `${p.id}: ${r.ok ? '' : JSON.stringify(r.errors)}`).toBe(true);
    }
  });

  it('the measured-database reading: accepted for a model with a shipped measured database, refused by field otherwise', () => {
    const measured = (model: string, embed = false) =>
      withPipeline((p) => {
        p.model = model;
        (p.assumptions as Record<string, unknown>).database = 'measured';
        if (embed) p.database = { model: 'custom', layers: ['a'], modes: { A: [1] } };
      });
    expect(parsePipelineScenario(measured('vgg16')).ok).toBe(true);
    expect(parsePipelineScenario(measured('resnet50')).ok).toBe(true);
    expect(errorsOf(measured('resnet152'))).toEqual(['pipeline.assumptions.database: no measured database of resnet152 is shipped (vgg16, resnet50), got "measured"']);
    expect(errorsOf(measured('vgg16', true)).join('\n')).toContain('pipeline.assumptions.database: must be left out (or "roofline") when the scenario embeds its own database');
    expect(errorsOf(withPipeline((p) => ((p.assumptions as Record<string, unknown>).database = 'measured-here'))).join()).toMatch(/^pipeline\.assumptions\.database: /);
  });

  it('Poisson admission at a share of the peak: checked by field', () => {
    expect(parsePipelineScenario(withPipeline((p) => ((p.assumptions as Record<string, unknown>).admission = { kind: 'poissonShare', shareOfPeak: 0.8 }))).ok).toBe(true);
    expect(errorsOf(withPipeline((p) => ((p.assumptions as Record<string, unknown>).admission = { kind: 'poissonShare', shareOfPeak: 0 }))).join()).toMatch(/^pipeline\.assumptions\.admission\.shareOfPeak: /);
  });

  it('names the field, the rule and the value', () => {
    expect(errorsOf(withPipeline((p) => (p.executionPlaces = 1000)))).toEqual(['pipeline.executionPlaces: must be an integer from 1 to 64, got 1000']);
    expect(errorsOf(withPipeline((p) => (p.queries = 1e9)))).toEqual(['pipeline.queries: must be an integer from 1 to 10000000, got 1000000000']);
    expect(errorsOf(withPipeline((p) => (p.queries = Number.NaN)))).toEqual(['pipeline.queries: must be a number, got NaN']);
    expect(errorsOf(withPipeline((p) => (p.queries = '12')))).toEqual(['pipeline.queries: must be a number, got "12"']);
    expect(errorsOf(withPipeline((p) => delete p.model))).toEqual(['pipeline.model: is required (must be one of "vgg16", "resnet50", "resnet152")']);
  });

  it('rejects unknown fields and prototype keys', () => {
    expect(errorsOf(withPipeline((p) => (p.surprise = 1)))).toEqual(['pipeline: has unknown field "surprise"']);
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "version": 1}') as unknown;
    const errors = errorsOf(hostile);
    // One rule at every door (ARCHITECTURE §1, step 2): the link's wording, "forbidden", here too.
    expect(errors).toEqual(['(scenario): has a forbidden field "__proto__"']);
    // validatePipelineScenario alone (no door) still refuses it as an unknown field.
    const direct = validatePipelineScenario(hostile);
    expect(direct.ok ? [] : direct.errors.map((e) => `${e.path}: ${e.message}`).some((e) => e.includes('unknown field "__proto__"'))).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('checks events against the pipeline', () => {
    const errors = errorsOf(
      withPipeline((p) => {
        p.interference = { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: [{ executionPlace: 5, mode: 'E', fromQuery: 10, toQuery: 5 }] };
      }),
    );
    expect(errors).toEqual([
      'pipeline.interference.events[0].executionPlace: must be below the number of execution places (4), got 5',
      'pipeline.interference.events[0].toQuery: must be after fromQuery (or null), got 5',
      // A rule between two fields names both, so that the one just changed is named.
      'pipeline.interference.events[0].fromQuery: must be before toQuery (5), got 10',
      "pipeline.executionPlaces: must be above every event's execution place (the highest is 5), got 4",
    ]);
    expect(errorsOf(withPipeline((p) => ((p.interference as { events: unknown[] }).events = [{ executionPlace: 0, mode: 'A', fromQuery: 0, toQuery: null }])))).toEqual([
      'pipeline.interference.events[0].mode: must be an interference mode B–L, got "A"',
    ]);
  });

  it('checks the machine’s factor per execution place against the pipeline, naming both fields', () => {
    const machine = { stageNoiseCv: 0.05, pipelinedFactor: 1.1, hopMs: 0.5, moveMs: 5, hogStartMs: 0 };
    expect(parsePipelineScenario(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageFactors: [1.2, 1.1, 1, 1] }))).ok).toBe(true);
    expect(errorsOf(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageFactors: [1.2, 1.1] })))).toEqual([
      'pipeline.machine.stageFactors: must hold one factor per execution place (4), got an array of 2',
      "pipeline.executionPlaces: must match the machine's stage factors (2), got 4",
    ]);
    expect(errorsOf(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageFactors: [1.2, 1.1, 0, 1] })))[0]).toMatch(/^pipeline\.machine\.stageFactors\[2\]: /);
  });

  it('checks the machine’s spikes: a share needs its factor, each within its range, naming the field', () => {
    const machine = { stageNoiseCv: 0.05, pipelinedFactor: 1.1, hopMs: 0.5, moveMs: 5, hogStartMs: 0 };
    expect(parsePipelineScenario(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageSpikeShare: 0.03, stageSpikeFactor: 1.3 }))).ok).toBe(true);
    expect(errorsOf(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageSpikeShare: 0.03 })))).toEqual([
      'pipeline.machine.stageSpikeFactor: is required (a spike’s stage time over a typical one, needed with stageSpikeShare)',
    ]);
    expect(errorsOf(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageSpikeShare: 0.9, stageSpikeFactor: 1.3 })))[0]).toMatch(/^pipeline\.machine\.stageSpikeShare: /);
    expect(errorsOf(withPipeline((p) => ((p as { machine?: unknown }).machine = { ...machine, stageSpikeShare: 0.1, stageSpikeFactor: 0.5 })))[0]).toMatch(/^pipeline\.machine\.stageSpikeFactor: /);
  });

  it('validates an embedded database and its modes', () => {
    const db = { layers: ['a', 'b'], modes: { A: [1, 2], B: [2, -3] } };
    expect(errorsOf(withPipeline((p) => (p.database = db)))).toEqual(['pipeline.database.modes.B[1]: must be a positive finite number, got -3']);
    const ok = withPipeline((p) => {
      p.database = { layers: ['a', 'b'], modes: { A: [1, 2], B: [2, 3] } };
      p.interference = { random: { enabled: true, periodQueries: 5, durationQueries: 5 }, events: [{ executionPlace: 0, mode: 'C', fromQuery: 0, toQuery: null }] };
    });
    expect(errorsOf(ok)).toEqual(['pipeline.interference.events[0].mode: mode C is not in the embedded database, got "C"']);
  });

  it('checks lane parameters against the registry', () => {
    expect(errorsOf(withPipeline((p) => (p.lanes = [{ scheduler: 'odin', params: { alpha: 31 } }])))).toEqual(['pipeline.lanes[0].params.alpha: must be an integer from 1 to 30, got 31']);
    expect(errorsOf(withPipeline((p) => (p.lanes = [{ scheduler: 'lls', params: { alpha: 3 } }])))).toEqual(['pipeline.lanes[0].params.alpha: is not a parameter of lls, got 3']);
    expect(errorsOf(withPipeline((p) => (p.lanes = [{ scheduler: 'magic' }]))).at(0)).toMatch(/^pipeline\.lanes\[0\]\.scheduler: must be one of "odin", "lls"/);
    expect(errorsOf(withPipeline((p) => (p.lanes = [])))).toEqual(['pipeline.lanes: must have at least one lane, got an array of 0']);
  });

  it('never throws on hostile values', () => {
    const getter = Object.defineProperty({}, 'version', {
      get() {
        throw new Error('boom');
      },
      enumerable: true,
    });
    for (const input of [null, 42, 'x', [], getter, { version: 1, world: 'pipeline', pipeline: null }]) {
      expect(() => parsePipelineScenario(input)).not.toThrow();
      expect(parsePipelineScenario(input).ok).toBe(false);
    }
  });
});

describe('scenario versions', () => {
  it('refuses a version from the future and a missing version', () => {
    const future = SCENARIO_VERSION + 1;
    expect(errorsOf({ ...defaultPipelineScenario(), version: future })).toEqual([`version: ${future} is newer than this lab understands (${SCENARIO_VERSION}); update the lab`]);
    expect(errorsOf({ ...defaultPipelineScenario(), version: undefined })).toEqual([`version: must be a scenario version from 1 to ${SCENARIO_VERSION}, got nothing`]);
  });

  it('runs migrations in order up to the target version', () => {
    // A test-only chain 1 → 2 → 3 shows the machinery end to end.
    const chain: Migration[] = [
      { from: 2, describe: 'add a note', migrate: (d) => ({ ...d, note: `from ${String(d.renamed)}` }) },
      {
        from: 1,
        describe: 'rename name → renamed',
        migrate: (d) => {
          const { name, ...rest } = d;
          return { ...rest, renamed: name };
        },
      },
    ];
    const result = migrateDocument({ version: 1, name: 'x' }, chain, 3);
    expect(result).toEqual({ ok: true, document: { version: 3, renamed: 'x', note: 'from x' } });
    expect(migrateDocument({ version: 1 }, [], 2)).toEqual({ ok: false, message: 'version: no migration from version 1' });
    expect(parsePipelineScenarioJson('{').ok).toBe(false);
  });
});

describe('the v1 → v2 migration', () => {
  it('opens a version-1 document saved before the schema moved on', () => {
    const v1 = structuredClone(v1Fixture) as Record<string, unknown>;
    expect(v1.version).toBe(1);
    expect(v1.name).toBe('A memory-bandwidth hog visits EP 2');
    const result = parsePipelineScenario(v1);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.version).toBe(SCENARIO_VERSION);
    expect(result.scenario.title).toBe('A memory-bandwidth hog visits EP 2');
    expect(result.scenario).not.toHaveProperty('name');
    // Everything else is carried over unchanged: it is the default scenario.
    expect(result.scenario).toEqual(defaultPipelineScenario());
  });
});

describe('the v5 → v6 migration (the scheduling slot)', () => {
  /** A version-5 serving document (the platform setting named, the slot not yet). */
  const v4 = (assumptions?: unknown): Record<string, unknown> => {
    const s = structuredClone(allPresets().find((p) => p.id === 'serving-default')!.scenario) as unknown as Record<string, unknown> & { serving: Record<string, unknown> };
    if (assumptions === undefined) delete s.serving.assumptions;
    else s.serving.assumptions = assumptions;
    return { ...s, version: 5 };
  };
  const opened = (document: unknown): ServingScenario => {
    const r = parseAnyScenario(document);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.scenario as ServingScenario;
  };

  it('gives a version-5 serving scenario the fixed slot, with or without an assumptions block, and keeps the rest', () => {
    // (The step to version 7 adds the earlier credit and late-request readings.)
    const v6 = { credit: 'slot', lateRequests: 'keep' };
    expect(opened(v4()).serving.assumptions).toEqual({ slot: 'fixed', ...v6 });
    expect(opened(v4({ slotMs: 2000, batching: 'cap' })).serving.assumptions).toEqual({ slot: 'fixed', ...v6, slotMs: 2000, batching: 'cap' });
    // The engine runs it with one slot of slotMs for every model, the other readings as the document had them.
    expect(servingAssumptionsOf(opened(v4({ slotMs: 2000 })))).toMatchObject({ slot: 'fixed', slotMs: 2000, batching: PAPER_SCENARIO_READINGS.batching });
  });

  it('leaves a slot the document sets, a malformed block (for validation to name) and the pipeline world alone', () => {
    expect(opened(v4({ slot: 'eq1' })).serving.assumptions).toEqual({ slot: 'eq1', credit: 'slot', lateRequests: 'keep' });
    const bad = parseAnyScenario(v4(7));
    expect(bad.ok ? [] : bad.errors.map((e) => e.path)).toEqual(['serving.assumptions']);
    const pipeline = { ...(defaultPipelineScenario() as unknown as Record<string, unknown>), version: 5 };
    expect(parsePipelineScenario(pipeline)).toEqual({ ok: true, scenario: defaultPipelineScenario() });
  });

  it('a version-3 serving scenario gets every earlier reading, the platform setting by the step to version 5 and the slot by the step to version 6', () => {
    const v3 = { ...v4({ slotMs: 1000 }), version: 3 };
    expect(opened(v3).serving.assumptions).toEqual({ slotMs: 1000, ...EARLIER_SCENARIO_READINGS });
    const four = migrateDocument(v3, undefined, 4);
    expect(four.ok && (four.document.serving as { assumptions: Record<string, unknown> }).assumptions).not.toHaveProperty('slot');
    expect(four.ok && (four.document.serving as { assumptions: Record<string, unknown> }).assumptions).not.toHaveProperty('platformSetting');
    const five = migrateDocument(v3, undefined, 5);
    expect(five.ok && (five.document.serving as { assumptions: Record<string, unknown> }).assumptions).not.toHaveProperty('slot');
    const six = migrateDocument(v3, undefined, 6);
    expect(six.ok && (six.document.serving as { assumptions: Record<string, unknown> }).assumptions).not.toHaveProperty('credit');
  });

  it('gives a version-6 serving scenario the earlier credit, late requests kept and its learners’ earlier choices, and keeps what it sets', () => {
    const v6 = (assumptions: unknown, lanes: unknown[]) => {
      const base = v4(assumptions) as Record<string, unknown> & { serving: Record<string, unknown> };
      return { ...base, version: 6, serving: { ...base.serving, lanes } };
    };
    const lanes = [{ scheduler: 'bcedge', params: { gamma: 0.5 } }, { scheduler: 'tac' }, { scheduler: 'fixed' }];
    const s = opened(v6({ slot: 'fixed' }, lanes));
    expect(s.serving.assumptions).toEqual({ slot: 'fixed', credit: 'slot', lateRequests: 'keep' });
    // Version 6's learner choices, then version 7's minibatch (the step to version 8).
    expect(s.serving.lanes[0]!.params).toEqual({ gamma: 0.5, discountPerS: 0, normalizeReward: 0, temperatureLr: 0, randomWarmup: 0, balancedReplay: 0, jointMask: 0, holdMs: 0, targetEntropyRatio: 0.3, minibatch: 64, stateRates: 0, fineTuneAfter: 0, greedyUntilUpdate: 0, slotAgent: 0 });
    expect(s.serving.lanes[1]!.params).toMatchObject({ advantageActor: 0, discountPerS: 0 });
    expect(s.serving.lanes[2]!.params).toBeUndefined();
    const kept = opened(v6({ credit: 'governed' }, [{ scheduler: 'bcedge', params: { discountPerS: 0.9 } }]));
    expect(kept.serving.assumptions?.credit).toBe('governed');
    expect(kept.serving.lanes[0]!.params?.['discountPerS']).toBe(0.9);
  });

  it('gives a version-7 scenario’s learners the values they ran with, and keeps what it sets', () => {
    const v7 = (lanes: unknown[]) => {
      const base = v4({}) as Record<string, unknown> & { serving: Record<string, unknown> };
      return { ...base, version: 7, serving: { ...base.serving, assumptions: { credit: 'governed', lateRequests: 'reject' }, lanes } };
    };
    const s = opened(v7([{ scheduler: 'bcedge' }, { scheduler: 'tac', params: { minibatch: 128 } }, { scheduler: 'ppo' }, { scheduler: 'ddqn', params: { normalizeReward: 1 } }, { scheduler: 'fixed' }]));
    expect(s.serving.lanes.map((l) => l.params)).toEqual([
      { minibatch: 64, stateRates: 0, fineTuneAfter: 0, targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 },
      { minibatch: 128, stateRates: 0 },
      { discountPerS: 0, normalizeReward: 0, rolloutSize: 96, epochs: 8, stateRates: 0 },
      { discountPerS: 0, normalizeReward: 1, balancedReplay: 0, stateRates: 0 },
      undefined,
    ]);
    expect(s.serving.assumptions).toEqual({ credit: 'governed', lateRequests: 'reject' });
  });

  it('gives a version-8 scenario’s learners arrivals per slot in their state, and keeps what it sets', () => {
    const v8 = (lanes: unknown[]) => {
      const base = v4({}) as Record<string, unknown> & { serving: Record<string, unknown> };
      return { ...base, version: 8, serving: { ...base.serving, assumptions: { credit: 'governed', lateRequests: 'reject' }, lanes } };
    };
    const s = opened(v8([{ scheduler: 'bcedge' }, { scheduler: 'tac', params: { stateRates: 1 } }, { scheduler: 'ppo' }, { scheduler: 'ddqn' }, { scheduler: 'fixed' }]));
    expect(s.serving.lanes.map((l) => l.params?.['stateRates'])).toEqual([0, 1, 0, 0, undefined]);
    expect(s.serving.lanes[0]!.params).toEqual({ stateRates: 0, fineTuneAfter: 0, targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 });
  });

  it('gives a version-9 scenario’s BCEdge lanes learning after their warm-up from a saved agent, and keeps what it sets', () => {
    const v9 = (lanes: unknown[]) => {
      const base = v4({}) as Record<string, unknown> & { serving: Record<string, unknown> };
      return { ...base, version: 9, serving: { ...base.serving, assumptions: { credit: 'governed', lateRequests: 'reject' }, lanes } };
    };
    const s = opened(v9([{ scheduler: 'bcedge', params: { pretrained: 1 } }, { scheduler: 'bcedge', params: { fineTuneAfter: 512 } }, { scheduler: 'tac' }, { scheduler: 'fixed' }]));
    expect(s.serving.lanes.map((l) => l.params)).toEqual([{ pretrained: 1, fineTuneAfter: 0, targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 }, { fineTuneAfter: 512, targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 }, undefined, undefined]);
  });

  it('gives a version-10 scenario’s BCEdge lanes the target entropy of 0.05, and keeps what it sets', () => {
    const v10 = (lanes: unknown[]) => {
      const base = v4({}) as Record<string, unknown> & { serving: Record<string, unknown> };
      return { ...base, version: 10, serving: { ...base.serving, assumptions: { credit: 'governed', lateRequests: 'reject' }, lanes } };
    };
    const s = opened(v10([{ scheduler: 'bcedge' }, { scheduler: 'bcedge', params: { targetEntropyRatio: 0.3 } }, { scheduler: 'tac' }, { scheduler: 'fixed' }]));
    expect(s.serving.lanes.map((l) => l.params)).toEqual([{ targetEntropyRatio: 0.05, greedyUntilUpdate: 0, slotAgent: 0 }, { targetEntropyRatio: 0.3, greedyUntilUpdate: 0, slotAgent: 0 }, undefined, undefined]);
  });

  it('gives a version-11 scenario’s BCEdge lanes sampling from the first decision and the Eq. 1 agent, and keeps what it sets', () => {
    const v11 = (lanes: unknown[]) => {
      const base = v4({}) as Record<string, unknown> & { serving: Record<string, unknown> };
      return { ...base, version: 11, serving: { ...base.serving, assumptions: { credit: 'governed', lateRequests: 'reject' }, lanes } };
    };
    const s = opened(v11([{ scheduler: 'bcedge', params: { pretrained: 1 } }, { scheduler: 'bcedge', params: { greedyUntilUpdate: 1 } }, { scheduler: 'tac' }, { scheduler: 'fixed' }]));
    expect(s.serving.lanes.map((l) => l.params)).toEqual([{ pretrained: 1, greedyUntilUpdate: 0, slotAgent: 0 }, { greedyUntilUpdate: 1, slotAgent: 0 }, undefined, undefined]);
  });

  it('a current scenario that leaves the slot out runs each model on its own slot of Eq. 1 (the paper’s)', () => {
    const current = structuredClone(allPresets().find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
    expect(current.version).toBe(SCENARIO_VERSION);
    expect(current.serving.assumptions?.slot).toBeUndefined();
    expect(servingAssumptionsOf(current).slot).toBe('eq1');
    expect(PAPER_SCENARIO_READINGS.slot).toBe('eq1');
    expect(EARLIER_SCENARIO_READINGS.slot).toBe('fixed');
  });

  it('refuses a slot that is neither, naming the field', () => {
    const r = validateServingScenario({ ...opened(v4()), serving: { ...opened(v4()).serving, assumptions: { slot: 'perRequest' } } });
    expect(r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual(['serving.assumptions.slot: must be one of "eq1", "fixed", got "perRequest"']);
  });
});

describe('the serving scenario schema', () => {
  const servingPreset = () => structuredClone(allPresets().find((p) => p.id === 'serving-default')!.scenario) as unknown as Record<string, unknown> & { serving: Record<string, unknown> };
  const errors = (change: (s: ReturnType<typeof servingPreset>) => void) => {
    const s = servingPreset();
    change(s);
    const r = validateServingScenario(s);
    return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
  };

  it('accepts the serving presets and names bad fields', () => {
    expect(errors(() => undefined)).toEqual([]);
    expect(errors((s) => (s.serving.platform = 'jetson-orin'))).toEqual(['serving.platform: must be one of "xavier-nx", "tx2", "nano", got "jetson-orin"']);
    expect(errors((s) => (s.serving.rateRps = 0))).toEqual(['serving.rateRps: must be a number from 0.1 to 10000, got 0']);
    expect(errors((s) => (s.serving.models = [{ model: 'yolo', weight: 1 }, { model: 'yolo', weight: 2 }]))).toEqual(['serving.models[1].model: is listed twice (yolo), got "yolo"']);
    expect(errors((s) => (s.serving.lanes = [{ scheduler: 'fixed', params: { batchSize: 500 } }]))).toEqual(['serving.lanes[0].params.batchSize: must be an integer from 1 to 128, got 500']);
    expect(errors((s) => ((s.serving.durationS = 100_000), (s.serving.rateRps = 1000)))).toEqual([
      'serving.durationS: sends 600000000 requests at 6000 rps (1000 rps for each of 6 models); at most 10000000, got 100000',
      'serving.rateRps: sends 600000000 requests at 6000 rps (1000 rps for each of 6 models); at most 10000000, got 1000',
    ]);
  });

  it('keeps serving scenarios out of the pipeline page with a clear message', () => {
    const r = validatePipelineScenario(servingPreset());
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.path).toBe('world');
    expect(validateAnyScenario(servingPreset()).ok).toBe(true);
  });
});
