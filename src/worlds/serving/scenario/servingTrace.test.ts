import { describe, expect, it } from 'vitest';
import { ServingRun } from '../engine/simulation';
import type { ServingScheduler } from '../engine/scheduler';
import { SERVING_PRESETS } from '../presets';
import { SERVING_LIMITS } from '../../../scenario/schema';
import { validateServingScenario, type ServingScenario } from '../schema';
import { buildServingSpec } from './servingRunner';
import { parseTrace, traceLinkProblem, TRACE_LIMITS } from './servingTrace';

const base = (): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  s.serving.durationS = 10;
  s.serving.lanes = [{ scheduler: 'fixed' }];
  return s;
};

const errorsOf = (input: unknown): string[] => {
  const r = validateServingScenario(input);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('trace files', () => {
  it('reads CSV with a header, optional columns and quoted cells', () => {
    const r = parseTrace('time_s,model,slo_ms,shape_class\n0.5,yolo,,\n0.75,"bert",90,0\n0.75,res,,1\n');
    expect(r).toEqual({
      ok: true,
      requests: [
        { tS: 0.5, model: 'yolo' },
        { tS: 0.75, model: 'bert', sloMs: 90, shapeClass: 0 },
        { tS: 0.75, model: 'res', shapeClass: 1 },
      ],
    });
  });

  it('reads JSON, as an array or {requests}', () => {
    const list = [{ tS: 1, model: 'mob' }];
    expect(parseTrace(JSON.stringify(list))).toEqual({ ok: true, requests: list });
    expect(parseTrace(JSON.stringify({ requests: list }))).toEqual({ ok: true, requests: list });
  });

  it('names the line and column of a bad value, and refuses a trace out of send order', () => {
    expect(parseTrace('time_s,model\n1,yolo\n0.5,yolo\n')).toEqual({
      ok: false,
      errors: [{ path: 'trace line 3.time_s', message: "must not be before the previous request's (1): a trace is in send order" }],
    });
    const bad = parseTrace('time_s,model\nabc,yolo\n1,yolov5\n');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.path)).toEqual(['trace line 2.time_s', 'trace line 3.model']);
    expect(parseTrace('t,model\n1,yolo').ok).toBe(false);
    expect(parseTrace('time_s,model,colour\n1,yolo,red').ok).toBe(false);
    expect(parseTrace('[{"tS": 1, "model": "yolo", "shapeClass": 0.5}]')).toMatchObject({ ok: false, errors: [{ path: 'trace[0].shape_class' }] });
  });

  it('caps the size: bytes, requests, and what a link may carry', () => {
    const rows = Array.from({ length: SERVING_LIMITS.traceRequests + 1 }, (_, i) => `${i / 1000},yolo`).join('\n');
    expect(parseTrace(`time_s,model\n${rows}`)).toMatchObject({ ok: false, errors: [{ path: 'trace', message: expect.stringMatching(/at most 200000/) }] });
    expect(parseTrace('x'.repeat(TRACE_LIMITS.fileBytes + 1))).toMatchObject({ ok: false, errors: [{ path: 'trace' }] });
    const s = base();
    s.serving.trace = { requests: Array.from({ length: TRACE_LIMITS.linkRequests + 1 }, (_, i) => ({ tS: i / 1000, model: 'yolo' as const })) };
    expect(traceLinkProblem(s)).toMatch(/save the scenario as a file/);
    s.serving.trace.requests.length = 10;
    expect(traceLinkProblem(s)).toBeNull();
  });
});

describe('a replayed trace in a scenario', () => {
  it('is validated against the scenario: models listed, classes, send order, the run’s end', () => {
    const s = base() as unknown as { serving: Record<string, unknown> };
    s.serving['trace'] = {
      requests: [
        { tS: 2, model: 'yolo' },
        { tS: 1, model: 'yolo' },
        { tS: 3, model: 'res', shapeClass: 2 },
        { tS: 11, model: 'mob' },
      ],
    };
    s.serving['models'] = [{ model: 'yolo', weight: 1 }, { model: 'res', weight: 1 }];
    expect(errorsOf(s)).toEqual([
      "serving.trace.requests[1].tS: must not be before the previous request's (2): a trace is in send order, got 1",
      "serving.trace.requests[0].tS: must not be after a later request's (1): a trace is in send order, got 2",
      "serving.trace.requests[2].shapeClass: must be below the number of res's classes (1), got 2",
      'serving.trace.requests[3].tS: must be before the end of the run (10 s), got 11',
      'serving.durationS: must be after every traced request (one is sent at 11 s), got 10',
      'serving.trace.requests[3].model: is not one of the scenario\'s models (yolo, res), got "mob"',
    ]);
  });

  it('replays in order: every request is sent at its time for its model, in the order given', () => {
    const s = base();
    s.serving.models = [{ model: 'yolo', weight: 1 }, { model: 'bert', weight: 1 }];
    const parsed = parseTrace('time_s,model,slo_ms\n0.1,bert,\n0.1,yolo,200\n0.3,yolo,\n2.5,bert,50\n');
    if (!parsed.ok) throw new Error('trace');
    s.serving.trace = { requests: parsed.requests };
    const checked = validateServingScenario(s);
    expect(checked.ok).toBe(true);
    const seen: { id: number; model: number; sentMs: number; sloMs: number }[] = [];
    const fixed: ServingScheduler = { id: 'fixed', decide: (o) => o.models.map(() => ({ batchSize: 1, instances: 1 })) };
    const run = new ServingRun(buildServingSpec(s), fixed);
    run.onRequest = (r) => seen.push({ id: r.id, model: r.model, sentMs: r.sentMs, sloMs: r.sloMs });
    run.runToEnd();
    expect(seen.sort((a, b) => a.id - b.id)).toEqual([
      { id: 0, model: 1, sentMs: 100, sloMs: 114 },
      { id: 1, model: 0, sentMs: 100, sloMs: 200 },
      { id: 2, model: 0, sentMs: 300, sloMs: 138 },
      { id: 3, model: 1, sentMs: 2500, sloMs: 50 },
    ]);
  });
});

describe('rate schedules and request classes in a scenario', () => {
  it('name the field that is wrong', () => {
    const s = base() as unknown as { serving: { models: Record<string, unknown>[] } };
    s.serving.models[0]!['rate'] = { kind: 'steps', steps: [{ fromS: 5, rateRps: 1 }, { fromS: 5, rateRps: 2 }] };
    s.serving.models[1]!['rate'] = { kind: 'sine', meanRps: 1, amplitudeRps: 2, periodS: 60, phaseS: 0 };
    s.serving.models[2]!['rate'] = { kind: 'burst' };
    s.serving.models[3]!['classes'] = [{ label: 'x', scale: 0, weight: 1 }];
    s.serving.models[4]!['serviceFromS'] = 5;
    s.serving.models[4]!['serviceToS'] = 2;
    expect(errorsOf(s)).toEqual([
      'serving.models[2].rate.kind: must be a rate schedule: {"kind": "constant" | "steps" | "linear" | "sine" | "mmpp", …}, got "burst"',
      'serving.models[3].classes[0].scale: must be a number from 0.01 to 64, got 0',
    ]);
    s.serving.models[2]!['rate'] = { kind: 'mmpp', onRps: 5, offRps: 0, meanOnS: 10, meanOffS: 60, startOn: false };
    s.serving.models[3]!['classes'] = [{ label: 'x', scale: 2, weight: 1 }];
    expect(errorsOf(s)).toEqual([
      'serving.models[0].rate.steps[1].fromS: must be after the previous fromS (5), got 5',
      'serving.models[0].rate.steps[0].fromS: must be before the next fromS (5), got 5',
      'serving.models[1].rate.amplitudeRps: must be at most meanRps (1) so that the rate stays ≥ 0, got 2',
      'serving.models[1].rate.meanRps: must be at least amplitudeRps (2) so that the rate stays ≥ 0, got 1',
      'serving.models[4].serviceToS: must be after serviceFromS (or null), got 2',
      'serving.models[4].serviceFromS: must be before serviceToS (2), got 5',
    ]);
  });

  it('bound the requests a run may send by the models’ peak rates', () => {
    const s = base();
    s.serving.durationS = 100_000;
    s.serving.models[0] = { model: 'yolo', weight: 1, rate: { kind: 'mmpp', onRps: 200, offRps: 0, meanOnS: 1, meanOffS: 100, startOn: false } };
    // Every field that sets the bound is named: the run's length, the shared rate, the schedule's peak.
    expect(errorsOf(s)).toEqual([
      expect.stringMatching(/^serving\.durationS: sends up to \d+ requests/),
      expect.stringMatching(/^serving\.rateRps: sends up to \d+ requests/),
      expect.stringMatching(/^serving\.models\[0\]\.rate\.onRps: sends up to \d+ requests/),
    ]);
  });
});
