import { describe, expect, it } from 'vitest';
import { ServingRun } from '../engine/simulation';
import type { ServingRunSpec } from '../engine/spec';
import { createFixed } from './fixed';
import { createPlanned, evaluateJob, fixedInHindsightSearch, fixedPerPhaseSearch, phaseStartsMs, referenceSearchBound, runSearch, runSearchAsync, SEARCH_STRETCH_SLOTS, searchFixedInHindsight, searchFixedPerPhase, searchGrid, useSearchEvaluator, type EvaluationJob, type ReferenceSearchParams, type SearchEvaluator } from './reference';
import { SERVING_SCHEDULERS, servingSchedulerContext } from './registry';
import { changingServingWorld } from '../../../testing/changingServingWorld';

// A small world that changes: ResNet-18's load steps up at 20 s, a tenant sits on the GPU
// from 30 to 45 s, TinyBERT's service starts at 10 s; noisy interference on.
const spec: ServingRunSpec = changingServingWorld(60_000, [30_000, 45_000]);
// Passes until none changes anything (8 is far more than this world needs), so the hindsight optimum is a coordinate optimum.
const params: ReferenceSearchParams = { maxBatch: 8, maxInstances: 2, rounds: 8, perModel: true };
const utilityOf = (s: ServingRunSpec, scheduler: Parameters<typeof createFixed>[0]): number => new ServingRun(s, createFixed(scheduler)).runToEnd().utilityMean;

describe('reference lanes (oracles)', () => {
  const grid = searchGrid(params);
  const everyFixed = grid.map((g) => ({ g, u: utilityOf(spec, g) }));
  const hindsight = searchFixedInHindsight(spec, params);
  const perPhase = searchFixedPerPhase(spec, params);

  it('search the stated grid', () => {
    expect(grid.map((g) => `${g.batchSize}×${g.instances}`)).toEqual(['1×1', '1×2', '2×1', '2×2', '4×1', '4×2', '8×1', '8×2']);
  });

  it('Triton at its best uniform setting is the best of every uniform configuration', () => {
    const uniform = searchFixedInHindsight(spec, { ...params, perModel: false });
    expect(uniform.utility).toBe(Math.max(...everyFixed.map((x) => x.u)));
    expect(uniform.evaluations).toBe(grid.length);
  });

  it('best fixed in hindsight is at least as good as every fixed configuration on its own trace, and no single-model change improves it', () => {
    for (const { u } of everyFixed) expect(hindsight.utility).toBeGreaterThanOrEqual(u);
    const actions = hindsight.plan[0]!.actions;
    for (let m = 0; m < actions.length; m++) {
      for (const g of grid) {
        const other = actions.map((a, j) => (j === m ? g : a));
        expect(utilityOf(spec, { batchSize: 1, instances: 1, perModel: other })).toBeLessThanOrEqual(hindsight.utility);
      }
    }
  });

  it('best fixed per phase is at least as good as hindsight, switching at the schedule’s boundaries', () => {
    expect(phaseStartsMs(spec)).toEqual([0, 10_000, 20_000, 30_000, 45_000]);
    expect(perPhase.utility).toBeGreaterThanOrEqual(hindsight.utility);
    for (const { u } of everyFixed) expect(perPhase.utility).toBeGreaterThanOrEqual(u);
    if (perPhase.fellBackToHindsight === false) expect(perPhase.plan.map((p) => p.fromMs)).toEqual([0, 10_000, 20_000, 30_000, 45_000]);
  });

  it('replay their plan: the lane’s run gives exactly the utility the search found', () => {
    for (const [id, found] of [
      ['fixed-hindsight', hindsight],
      ['fixed-per-phase', perPhase],
    ] as const) {
      expect(new ServingRun(spec, createPlanned(id, found.plan)).runToEnd().utilityMean).toBe(found.utility);
      const lane = SERVING_SCHEDULERS[id].create({ maxBatch: 8, maxInstances: 2, rounds: 8 }, servingSchedulerContext(spec.seed, ['res', 'mob', 'bert'], undefined, spec));
      expect(new ServingRun(spec, lane).runToEnd().utilityMean).toBe(found.utility);
      expect(lane.report?.()).toMatchObject({ evaluations: found.evaluations, searchUtility: found.utility });
    }
    // Two lanes search a 60 s world again: room on a loaded machine.
  }, 60_000);

  it('report every evaluation of their search, against a bound fixed before it starts, without changing what they find', () => {
    const cases = [
      ['fixed-hindsight', (p: ReferenceSearchParams, progress: (d: number, t: number) => void) => searchFixedInHindsight(spec, p, progress), hindsight],
      ['fixed-per-phase', (p: ReferenceSearchParams, progress: (d: number, t: number) => void) => searchFixedPerPhase(spec, p, progress), perPhase],
    ] as const;
    for (const [kind, search, found] of cases) {
      const calls: [number, number][] = [];
      const result = search(params, (done, total) => calls.push([done, total]));
      expect(result).toEqual(found);
      // One call per evaluation, counting 1, 2, …, evaluations.
      expect(calls.map(([done]) => done)).toEqual(Array.from({ length: result.evaluations }, (_, i) => i + 1));
      const bound = referenceSearchBound(kind, spec, params);
      expect(new Set(calls.map(([, total]) => total))).toEqual(new Set([bound]));
      // Coordinate ascent stopped early here (8 passes allowed), so the bound is not reached.
      expect(result.evaluations).toBeLessThan(bound);
    }
    // Without ascent the bound is exact: every uniform configuration once.
    const uniformCalls: number[] = [];
    const uniform = searchFixedInHindsight(spec, { ...params, perModel: false }, (done, total) => uniformCalls.push(total - done));
    expect(uniform.evaluations).toBe(grid.length);
    expect(uniformCalls.at(-1)).toBe(0);
    // The registry's lanes pass their context's reporter on.
    let reported = 0;
    const lane = SERVING_SCHEDULERS['fixed-hindsight'].create({ maxBatch: 8, maxInstances: 2, rounds: 8 }, { ...servingSchedulerContext(spec.seed, ['res', 'mob', 'bert'], undefined, spec), searchProgress: () => reported++ });
    expect(reported).toBe((lane.report?.() as { evaluations: number }).evaluations);
    // Three searches of a 60 s world (hundreds of runs): room on a loaded machine.
  }, 60_000);

  it('search in small steps that a caller can run in slices: the same result, and a per-phase search can start from a hindsight result found before', () => {
    const uniformParams = { ...params, perModel: false };
    const search = fixedInHindsightSearch(spec, uniformParams);
    const steps: number[] = [];
    let step = search.next();
    while (step.done !== true) {
      steps.push(step.value.done);
      step = search.next();
    }
    expect(step.value).toEqual(searchFixedInHindsight(spec, uniformParams));
    // Each 60 s evaluation runs in stretches of SEARCH_STRETCH_SLOTS slots of 1 s, a step after each, its last one counted.
    const perEvaluation = Math.ceil(60 / SEARCH_STRETCH_SLOTS);
    expect(steps).toHaveLength(grid.length * perEvaluation);
    expect(steps.slice(0, perEvaluation)).toEqual([...Array.from({ length: perEvaluation - 1 }, () => 0), 1]);
    // Given hindsight's result, per phase goes on from it and finds what it finds alone, counting the same evaluations.
    const calls: number[] = [];
    expect(runSearch(fixedPerPhaseSearch(spec, params, hindsight), (done) => calls.push(done))).toEqual(perPhase);
    expect(calls[0]).toBe(hindsight.evaluations);
    expect(calls.at(-1)).toBe(perPhase.evaluations);
    // The registry's lane given a result replays it and searches nothing.
    let reported = 0;
    const lane = SERVING_SCHEDULERS['fixed-per-phase'].create({ maxBatch: 8, maxInstances: 2, rounds: 8 }, { ...servingSchedulerContext(spec.seed, ['res', 'mob', 'bert']), referenceResult: perPhase, searchProgress: () => reported++ });
    expect(new ServingRun(spec, lane).runToEnd().utilityMean).toBe(perPhase.utility);
    expect(reported).toBe(0);
  }, 60_000);

  it('per phase from a checkpoint of each phase’s start finds exactly what the search from time 0 finds (issue 38), under one slot and under Eq. 1', () => {
    for (const s of [spec, { ...spec, assumptions: { ...spec.assumptions, slot: 'eq1' as const } }]) {
      const fast = runSearch(fixedPerPhaseSearch(s, params));
      const old = runSearch(fixedPerPhaseSearch(s, params, undefined, { fromZero: true }));
      expect(fast).toEqual(old);
      // Phases were searched at all (not only hindsight kept).
      expect(fast.evaluations).toBeGreaterThan(searchFixedInHindsight(s, params).evaluations + phaseStartsMs(s).length * grid.length);
    }
  }, 120_000);

  it('per phase: the run along the phases, whose checkpoints the phases start from, is the plan’s run from 0, also where the first phase’s best differs from hindsight’s', () => {
    // Two models at 120 rps each for 6 s, then at 4 rps: batches that form serve the burst, batches of one the rest.
    const burst = { kind: 'steps' as const, steps: [{ fromMs: 0, rateRps: 120 }, { fromMs: 6_000, rateRps: 4 }] };
    const s: ServingRunSpec = {
      platform: 'xavier-nx',
      models: [
        { model: 'res', weight: 1, rate: burst },
        { model: 'mob', weight: 1, rate: burst },
      ],
      rateRps: 30,
      durationMs: 24_000,
      seed: 1,
      background: [],
      assumptions: { ...spec.assumptions, sloJitter: 0.1 },
    };
    const p: ReferenceSearchParams = { maxBatch: 8, maxInstances: 2, rounds: 1, perModel: true };
    const h = searchFixedInHindsight(s, p);
    const fast = searchFixedPerPhase(s, p);
    // The case in point: a run started under hindsight's configuration at time 0 went on from another state.
    expect(fast.fellBackToHindsight).toBe(false);
    expect(fast.plan[0]!.actions).not.toEqual(h.plan[0]!.actions);
    expect(new ServingRun(s, createPlanned('plan', fast.plan)).runToEnd().utilityMean).toBe(fast.utility);
    expect(fast).toEqual(runSearch(fixedPerPhaseSearch(s, p, undefined, { fromZero: true })));
  }, 60_000);

  it('hindsight per model from the uniform search found before finds what it finds alone, counting the same evaluations', () => {
    const uniform = searchFixedInHindsight(spec, { ...params, perModel: false });
    const calls: number[] = [];
    expect(runSearch(fixedInHindsightSearch(spec, params, uniform), (done) => calls.push(done))).toEqual(hindsight);
    expect(calls[0]).toBe(uniform.evaluations);
  }, 60_000);

  it('on two threads, evaluate ahead where a thread would wait, never twice, and find the same plans counting the same evaluations (issue 38)', () => {
    // An evaluator of two "threads" in this one, recording each batch's jobs (a plan and a phase).
    const batches: string[][] = [];
    const twoThreads: SearchEvaluator = {
      threads: 2,
      evaluate: (s, jobs, checkpoint) => {
        batches.push(jobs.map((job: EvaluationJob) => JSON.stringify([job.plan, job.phase])));
        return jobs.map((job) => evaluateJob(s, job, checkpoint));
      },
    };
    const oneRound = { ...params, rounds: 1 };
    const alone = { hindsight: searchFixedInHindsight(spec, oneRound), perPhase: searchFixedPerPhase(spec, oneRound) };
    const progress: number[] = [];
    // Where the hindsight search's batches end and the per-phase search's begin.
    const marks: number[] = [];
    useSearchEvaluator(twoThreads);
    try {
      expect(searchFixedInHindsight(spec, oneRound)).toEqual(alone.hindsight);
      marks.push(batches.length);
      expect(batches.length).toBeGreaterThan(2);
      expect(runSearch(fixedPerPhaseSearch(spec, oneRound), (done) => progress.push(done))).toEqual(alone.perPhase);
      // A turn is 7 candidates (8 grid points): padded to 8 by the next turn's first, which
      // that turn then takes instead of evaluating it; only the ascent's last turn has none ahead.
      expect(batches.slice(0, marks[0]).filter((b) => b.length % 2 === 1)).toHaveLength(1);
    } finally {
      useSearchEvaluator(null);
    }
    // Within a search no job twice (a job evaluated ahead is taken, not evaluated again).
    for (const search of [batches.slice(0, marks[0]), batches.slice(marks[0])]) {
      const jobs = search.flat();
      expect(new Set(jobs).size).toBe(jobs.length);
    }
    expect(progress.at(-1)).toBe(alone.perPhase.evaluations);
    expect(Math.max(...progress)).toBeLessThanOrEqual(referenceSearchBound('fixed-per-phase', spec, oneRound));
  }, 120_000);

  it('with an evaluator that answers with promises (the page’s evaluation workers), runSearchAsync finds the same plans, counts and progress; runSearch refuses it, saying so', async () => {
    const oneRound = { ...params, rounds: 1 };
    const told: number[] = [];
    const alone = searchFixedPerPhase(spec, oneRound, (done) => told.push(done));
    // Two "workers" in this thread: each batch's values a macrotask later; one batch fails on request.
    let failNext = false;
    const later: SearchEvaluator = {
      threads: 2,
      evaluate: (s, jobs, checkpoint) =>
        new Promise((resolve, reject) =>
          setTimeout(() => (failNext ? reject(new Error('an evaluation worker failed')) : resolve(jobs.map((job) => evaluateJob(s, job, checkpoint)))), 0),
        ),
    };
    const progress: number[] = [];
    useSearchEvaluator(later);
    try {
      expect(await runSearchAsync(fixedPerPhaseSearch(spec, oneRound), (done) => progress.push(done))).toEqual(alone);
      expect(() => runSearch(fixedPerPhaseSearch(spec, oneRound))).toThrow(/runSearchAsync/);
      failNext = true;
      await expect(runSearchAsync(fixedInHindsightSearch(spec, oneRound))).rejects.toThrow('an evaluation worker failed');
    } finally {
      useSearchEvaluator(null);
    }
    expect(progress.at(-1)).toBe(told.at(-1));
    expect(progress.every((done, i) => i === 0 || done > progress[i - 1]!)).toBe(true);
  }, 120_000);

  it('say so when created without the lane’s run', () => {
    expect(() => SERVING_SCHEDULERS['fixed-hindsight'].create({}, servingSchedulerContext(1))).toThrow(/reference lane/);
  });

  it('a fast search finds the plan of the exhaustive one written plainly (every candidate a whole run of the lane’s own spec from time 0, asked through decide, one at a time), hindsight and per phase', () => {
    // Two models for 24 s, ResNet-18's step at 20 s and a tenant from 12 s: three phases; b ≤ 2, m_c ≤ 2.
    const small: ServingRunSpec = { ...spec, models: [spec.models[0]!, spec.models[1]!], durationMs: 24_000, background: [{ fromMs: 12_000, toMs: null, intensity: 0.6 }] };
    const p: ReferenceSearchParams = { maxBatch: 2, maxInstances: 2, rounds: 3, perModel: true };
    const g = searchGrid(p);
    const slots = Math.ceil(small.durationMs / small.assumptions.slotMs) + 2;
    // A plan asked through decide only (no actionAt), on the lane's spec with every record kept.
    const run = (plan: { fromMs: number; actions: { batchSize: number; instances: number }[] }[], toMs = small.durationMs) => {
      const planned = createPlanned('plain', plan);
      const r = new ServingRun({ ...small, seriesCap: slots }, { id: 'plain', decide: (o) => planned.decide(o) });
      r.advanceTo(toMs);
      return r;
    };
    const whole = (actions: { batchSize: number; instances: number }[]) => run([{ fromMs: 0, actions }]).runToEnd().utilityMean;
    const ascent = (start: { batchSize: number; instances: number }[], value: number, objective: (a: { batchSize: number; instances: number }[]) => number) => {
      let best = start;
      let bestValue = value;
      for (let round = 0; round < p.rounds; round++) {
        let changed = false;
        for (let m = 0; m < best.length; m++) {
          const held = best[m]!;
          const others = best;
          for (const c of g) {
            if (c.batchSize === held.batchSize && c.instances === held.instances) continue;
            const candidate = others.map((a, j) => (j === m ? c : a));
            const v = objective(candidate);
            if (v > bestValue) [best, bestValue, changed] = [candidate, v, true];
          }
        }
        if (!changed) break;
      }
      return { best, bestValue };
    };
    const uniforms = g.map((c) => small.models.map(() => c));
    const uniformValues = uniforms.map(whole);
    const u0 = uniformValues.indexOf(Math.max(...uniformValues));
    const plainHindsight = ascent(uniforms[u0]!, uniformValues[u0]!, whole);
    const fastHindsight = searchFixedInHindsight(small, p);
    expect(fastHindsight.plan).toEqual([{ fromMs: 0, actions: plainHindsight.best }]);
    expect(fastHindsight.utility).toBe(plainHindsight.bestValue);
    // Per phase: each phase's candidates judged by the mean per-model utility of its slots, the run from 0 to its end.
    const starts = phaseStartsMs(small);
    expect(starts).toEqual([0, 12_000, 20_000]);
    const plan = starts.map((fromMs) => ({ fromMs, actions: plainHindsight.best }));
    starts.forEach((fromMs, k) => {
      const toMs = starts[k + 1] ?? small.durationMs;
      const objective = (actions: { batchSize: number; instances: number }[]) => {
        let sum = 0;
        let count = 0;
        for (const record of run(plan.map((q, j) => (j === k ? { fromMs: q.fromMs, actions } : q)), toMs).series.values) {
          if (record.endMs <= fromMs || record.endMs > toMs) continue;
          for (const m of record.perModel) if (m.utility !== null) [sum, count] = [sum + m.utility, count + 1];
        }
        return count > 0 ? sum / count : 0;
      };
      const first = [plan[k]!.actions, ...uniforms];
      const values = first.map(objective);
      let start = 0;
      values.forEach((v, i) => {
        if (i > 0 && v > values[start]!) start = i;
      });
      plan[k] = { fromMs, actions: ascent(first[start]!, values[start]!, objective).best };
    });
    const plainUtility = run(plan).runToEnd().utilityMean;
    const fastPerPhase = searchFixedPerPhase(small, p);
    if (plainUtility < plainHindsight.bestValue) expect(fastPerPhase).toMatchObject({ fellBackToHindsight: true, utility: plainHindsight.bestValue });
    else expect(fastPerPhase).toMatchObject({ plan, utility: plainUtility, fellBackToHindsight: false });
  }, 120_000);
});
