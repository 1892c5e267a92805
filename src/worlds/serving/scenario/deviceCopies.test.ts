import { describe, expect, it } from 'vitest';
import { quantileSorted } from '../../../engine/quantiles';
import { ServingRun } from '../engine/simulation';
import { createFixed } from '../schedulers/fixed';
import { parseAnyScenario } from '../../../scenario/parse';
import { findPreset } from '../../../scenario/presets';
import type { ServingScenario } from '../schema';
import { buildServingSpec, runServingScenario, servingCellLanes } from './servingRunner';
import { sweepCells } from '../../../scenario/sweep';
import { DeviceCopiesRun, deviceCopySpecs, servedApart } from './deviceCopies';

/** Fig. 11's setting (§V-D): YOLO-v5, ResNet-18 and TinyBERT at 30 rps each, short. */
function platforms(platform: ServingScenario['serving']['platform'], platformSetting?: 'perModel' | 'mixed', durationS = 30): ServingScenario {
  const s = structuredClone(findPreset('bcedge-fig7-utility')!.scenario) as ServingScenario;
  s.serving.platform = platform;
  s.serving.durationS = durationS;
  s.serving.models = [
    { model: 'yolo', weight: 1 },
    { model: 'res', weight: 1 },
    { model: 'bert', weight: 1 },
  ];
  s.serving.lanes = [{ scheduler: 'fixed', params: { batchSize: 4, instances: 2 } }, { scheduler: 'deeprt' }, { scheduler: 'ga' }];
  s.serving.assumptions = { ...s.serving.assumptions, ...(platformSetting === undefined ? {} : { platformSetting }) };
  s.metrics = { percentiles: 'exact' };
  return s;
}

/** The model alone in a scenario of its own, on its own arrival stream (an explicit rate: the per-model stream). */
function alone(s: ServingScenario, model: 'yolo' | 'res' | 'bert'): ServingScenario {
  return { ...s, serving: { ...s.serving, models: [{ model, weight: 1, rate: { kind: 'constant', rateRps: s.serving.rateRps } }] } };
}

describe('BCEdge §V-D: each model alone on its own Nano or TX2 (platformSetting perModel)', () => {
  it('is the paper’s reading: absent reads perModel, and only Nano and TX2 with more than one model are copied', () => {
    const spec = buildServingSpec(platforms('nano'));
    expect(servedApart(spec, undefined)).toBe(true);
    expect(servedApart(spec, 'perModel')).toBe(true);
    expect(servedApart(spec, 'mixed')).toBe(false);
    expect(servedApart({ ...spec, platform: 'tx2' }, undefined)).toBe(true);
    expect(servedApart({ ...spec, platform: 'xavier-nx' }, 'perModel')).toBe(false);
    expect(servedApart({ ...spec, models: spec.models.slice(0, 1) }, 'perModel')).toBe(false);
  });

  it('a model on its copy gives, bit for bit, what it gives alone on the device on its own arrival stream; the lane adds the copies up', () => {
    const s = platforms('nano', 'perModel');
    const together = runServingScenario(s);
    const apart = (['yolo', 'res', 'bert'] as const).map((m) => runServingScenario(alone(s, m)));
    const seconds = s.serving.durationS;
    together.forEach((lane, l) => {
      const own = apart.map((runs) => runs[l]!.summary);
      // Each model's summary is the one it has alone.
      for (const [i, id] of (['yolo', 'res', 'bert'] as const).entries()) expect(lane.summary.perModel[id], `${lane.label} ${id}`).toEqual(own[i]!.perModel[id]);
      const sum = (f: (x: (typeof own)[number]) => number) => own.reduce((a, x) => a + f(x), 0);
      expect(lane.summary.requests).toBe(sum((x) => x.requests));
      expect(lane.summary.completed).toBe(sum((x) => x.completed));
      expect(lane.summary.failed + lane.summary.dropped).toBe(sum((x) => x.failed + x.dropped));
      expect(lane.summary.throughputRps).toBe(sum((x) => x.completed) / seconds);
      expect(lane.summary.latencyMeanMs).toBeCloseTo(sum((x) => x.latencyMeanMs * x.completed) / sum((x) => x.completed), 9);
    });
  });

  it('the p99 over all requests, the violations and the utility are those of every model’s requests and slots taken together', () => {
    const s = platforms('tx2');
    const spec = buildServingSpec(s);
    const specs = deviceCopySpecs(spec);
    const latencies: number[] = [];
    let utilitySum = 0;
    let utilityCount = 0;
    let violations = 0;
    let judged = 0;
    for (const own of specs) {
      const run = new ServingRun(own, createFixed({ batchSize: 4, instances: 2 }));
      run.onRequest = (r) => {
        if (r.outcome === 'served') latencies.push(r.completionMs - r.sentMs);
      };
      const summary = run.runToEnd();
      // The slots with a utility, from the run's own series (every slot is kept at this length).
      const slots = run.series.values.filter((r) => r.perModel[0]!.utility !== null);
      utilitySum += slots.reduce((a, r) => a + r.perModel[0]!.utility!, 0);
      utilityCount += slots.length;
      // The engine's sums behind a summary give that summary back.
      const [t] = run.tallies();
      expect(summary.sloViolationPct).toBe(t!.judged > 0 ? (100 * t!.violations) / t!.judged : 0);
      expect(summary.utilityMean).toBe(t!.utilitySum / t!.utilityCount);
      violations += t!.violations;
      judged += t!.judged;
    }
    const copies = new DeviceCopiesRun(specs, specs.map(() => createFixed({ batchSize: 4, instances: 2 })));
    const summary = copies.runToEnd();
    expect(summary.latencyP99Ms).toBe(quantileSorted(Float64Array.from(latencies).sort(), 0.99));
    expect(summary.utilityMean).toBeCloseTo(utilitySum / utilityCount, 9);
    expect(summary.sloViolationPct).toBe((100 * violations) / judged);
    // The series joins the copies slot by slot: rates add up.
    const series = copies.series.values;
    expect(series.length).toBe(s.serving.durationS);
    expect(series[10]!.perModel.map((p) => p.throughputRps).reduce((a, b) => a + b)).toBeCloseTo(series[10]!.throughputRps, 9);
  });

  it('leaves Xavier NX shared, and a single model as it is: both readings give the same numbers', () => {
    expect(runServingScenario(platforms('xavier-nx', 'perModel'))).toEqual(runServingScenario(platforms('xavier-nx', 'mixed')));
    const one = platforms('nano');
    one.serving.models = [{ model: 'res', weight: 1 }];
    expect(runServingScenario({ ...one, serving: { ...one.serving, assumptions: { ...one.serving.assumptions, platformSetting: 'perModel' } } })).toEqual(
      runServingScenario({ ...one, serving: { ...one.serving, assumptions: { ...one.serving.assumptions, platformSetting: 'mixed' } } }),
    );
  });

  it('changes the overloaded Nano: three models apart are not three models together', () => {
    const apart = runServingScenario(platforms('nano', 'perModel'));
    const together = runServingScenario(platforms('nano', 'mixed'));
    expect(apart.map((l) => l.summary.latencyMeanMs)).not.toEqual(together.map((l) => l.summary.latencyMeanMs));
    // Each model alone contends with nothing but its own instances: DeepRT's latency is lower apart.
    expect(apart[1]!.summary.latencyMeanMs).toBeLessThan(together[1]!.summary.latencyMeanMs);
  });

  it('is deterministic, and the live view and the actions follow the spec’s models', () => {
    const s = platforms('nano');
    expect(runServingScenario(s)).toEqual(runServingScenario(s));
    const [cell] = sweepCells(s, [s.seed]);
    const lane = servingCellLanes(s, cell!)[0]!();
    lane.run.advanceTo(5_000);
    const o = lane.run.observe();
    expect(o.models.map((m) => m.model)).toEqual(['yolo', 'res', 'bert']);
    expect(lane.run.currentAction).toEqual([
      { batchSize: 4, instances: 2 },
      { batchSize: 4, instances: 2 },
      { batchSize: 4, instances: 2 },
    ]);
    // Three Nanos: three times one Nano's memory.
    const single = new ServingRun({ ...buildServingSpec(s), models: buildServingSpec(s).models.slice(0, 1) }, createFixed({ batchSize: 1, instances: 1 })).observe();
    expect(o.memoryMb).toBe(3 * single.memoryMb);
    lane.dispose();
  });

  it('a replayed trace gives each copy its model’s requests', () => {
    const spec = buildServingSpec(platforms('nano'));
    const trace = [
      { sentMs: 10, model: 0 },
      { sentMs: 20, model: 2 },
      { sentMs: 30, model: 0 },
    ];
    const specs = deviceCopySpecs({ ...spec, trace });
    expect(specs.map((c) => c.trace)).toEqual([[{ sentMs: 10, model: 0 }, { sentMs: 30, model: 0 }], [], [{ sentMs: 20, model: 0 }]]);
  });
});

describe('the version 4 → 5 migration', () => {
  it('gives a version-4 serving scenario the earlier platform setting (mixed), with or without its assumptions block', () => {
    const s = platforms('nano');
    const withBlock = parseAnyScenario({ ...s, version: 4 });
    expect(withBlock.ok && withBlock.scenario.world === 'serving' && withBlock.scenario.serving.assumptions?.platformSetting).toBe('mixed');
    const { assumptions: _a, ...serving } = s.serving;
    void _a;
    const without = parseAnyScenario({ ...s, version: 4, serving });
    // (and the fixed slot, by the step to version 6: a version-4 scenario ran with one slot too; the slot's credit and late requests kept, by the step to version 7)
    expect(without.ok && without.scenario.world === 'serving' && without.scenario.serving.assumptions).toEqual({ platformSetting: 'mixed', slot: 'fixed', credit: 'slot', lateRequests: 'keep' });
    // A setting of a newer document is kept; a bad one is refused by name.
    const bad = parseAnyScenario({ ...s, serving: { ...s.serving, assumptions: { platformSetting: 'apart' } } });
    expect(bad.ok ? [] : bad.errors.map((e) => e.path)).toEqual(['serving.assumptions.platformSetting']);
  });
});
