import { describe, expect, it } from 'vitest';
import { findPipelineLesson, PIPELINE_LESSONS } from '../worlds/pipeline/lessons';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { PipelineSession } from '../worlds/pipeline/worker/pipelineSession';
import type { PipelineLabState } from '../worlds/pipeline/store/pipelineStore';
import { inProcessPipeline } from './testing/inProcessStores';

const inProcess = inProcessPipeline;

/** Everything the board and the charts draw from, as plain numbers. */
function view(s: PipelineLabState) {
  return {
    served: s.served,
    modes: Array.from(s.modes),
    stride: s.stride,
    live: s.live.map((l) => ({ ...l, configuration: Array.from(l.configuration), stageTimesMs: Array.from(l.stageTimesMs), latencyHistogram: Array.from(l.latencyHistogram) })),
    series: s.series.map((b) => ({
      length: b.length,
      columns: Object.fromEntries(Object.entries(b.columns).map(([k, v]) => [k, Array.from(v.subarray(0, b.length))])),
      counts: Array.from(b.counts.subarray(0, b.length * b.stages)),
    })),
    markers: s.markers.all.map((m) => ({ ...m })),
    summaries: s.summaries,
    teaching: s.teaching,
  };
}

describe('time travel', () => {
  it('after a jump back the board and charts equal what they showed the first time (default scenario, placed workload, α change)', async () => {
    const { store } = inProcess();
    const scenario = defaultPipelineScenario();
    await store.getState().load({ ...scenario, pipeline: { ...scenario.pipeline, queries: 1500 } }, 'preset');
    const act = store.getState();
    await act.step(100);
    await act.addEvent(3, 'J');
    const seen = new Map<number, ReturnType<typeof view>>();
    for (const to of [137, 151, 152, 160, 230]) {
      await act.step(to - store.getState().served);
      seen.set(to, view(store.getState()));
    }
    await act.setLaneParameter(0, 'alpha', 4);
    for (const to of [333, 700, 1200]) {
      await act.step(to - store.getState().served);
      seen.set(to, view(store.getState()));
    }
    // Jump around, back and forth, and compare with what the run showed when it first got there.
    for (const to of [151, 700, 137, 1200, 160, 333, 152, 230]) {
      expect(await act.seek(to)).toBe(true);
      expect(view(store.getState())).toEqual(seen.get(to));
    }
  });

  it('the run from a jump back on is the run that was (bit-identical summaries at the end)', async () => {
    const once = inProcess();
    const scenario = { ...defaultPipelineScenario(), pipeline: { ...defaultPipelineScenario().pipeline, queries: 900 } };
    await once.store.getState().load(scenario, 'preset');
    await once.store.getState().step(900);
    const expected = once.store.getState().summaries;
    const { store } = inProcess();
    await store.getState().load(scenario, 'preset');
    await store.getState().step(640);
    await store.getState().seek(77);
    await store.getState().step(900 - 77);
    expect(store.getState().summaries).toEqual(expected);
  });

  it('steps through one ODIN rebalancing line by line, forward and back across queries', async () => {
    const { store } = inProcess();
    await store.getState().load(findPipelineLesson('lesson-odin')!.scenario, 'preset');
    await store.getState().seek(21, 0);
    const lines = () => store.getState().teaching!.steps.map((s) => s.line);
    const shown = () => store.getState().teaching!.steps[store.getState().teaching!.cursor]?.line ?? null;
    expect(store.getState().teaching!.algorithm).toBe('odin');
    expect(lines()).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 19, 20, 21]);
    const visited: (number | null)[] = [shown()];
    for (let k = 0; k < 15; k++) {
      await store.getState().stepAlgorithm(1);
      visited.push(shown());
    }
    expect(visited).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 19, 20, 21]);
    // Past line 21 the trial waits for the queries already in the pipeline: one query per step.
    await store.getState().stepAlgorithm(1);
    expect(store.getState().served).toBe(22);
    expect(store.getState().teaching!.steps).toEqual([]);
    expect(store.getState().teaching!.rebalancing).toBe(true);
    // Back one step: the previous query again, at its last line.
    await store.getState().stepAlgorithm(-1);
    expect(store.getState().served).toBe(21);
    expect(shown()).toBe(21);
    // Forward until the trial query runs: its first line measures T_new.
    while (store.getState().teaching!.steps.length === 0 || store.getState().served === 21) await store.getState().stepAlgorithm(1);
    expect(shown()).toBe(22);
    const step = store.getState().teaching!.steps[0]!;
    expect(step.algorithm === 'odin' && step.newBottleneckMs).toBe(10);
  });

  it('jumps to the next and previous marker of the selected lane', async () => {
    const { store } = inProcess();
    await store.getState().load(findPipelineLesson('lesson-odin')!.scenario, 'preset');
    await store.getState().step(120);
    await store.getState().seek(0);
    await store.getState().stepMarker(1);
    expect(store.getState().served).toBe(21); // interference arrives at query 20 (and ODIN detects it)
    await store.getState().stepMarker(1);
    expect(store.getState().teaching!.steps[0]!.line).toBe(22); // the first trial
    await store.getState().stepMarker(-1);
    expect(store.getState().served).toBe(21);
  });

  it('refuses a position outside the run with a message naming the field', () => {
    const session = new PipelineSession({ now: () => 0, schedule: () => undefined, emit: () => undefined });
    session.load(findPipelineLesson('lesson-odin')!.scenario);
    expect(session.seek(121)).toEqual({ ok: false, errors: [{ path: 'query', message: 'must be an integer from 0 to 120, got 121' }] });
    expect(session.seek(-1)).toMatchObject({ ok: false, errors: [{ path: 'query' }] });
    expect(session.seek('10')).toEqual({ ok: false, errors: [{ path: 'query', message: 'must be an integer from 0 to 120, got "10"' }] });
    expect(session.seek(2.5)).toMatchObject({ ok: false, errors: [{ path: 'query' }] });
    expect(session.seek(10, -3)).toEqual({ ok: false, errors: [{ path: 'step', message: 'must be an integer ≥ 0 (an algorithm step of the query), got -3' }] });
    expect(session.seek(10, 3)).toEqual({ ok: true });
  });

  it('every lesson step that points at an algorithm step finds it there', async () => {
    for (const lesson of PIPELINE_LESSONS) {
      const { store } = inProcess();
      expect(await store.getState().startLesson(lesson.id)).toBe(true);
      for (let i = 0; i < lesson.steps.length; i++) {
        await store.getState().lessonStep(i);
        const step = lesson.steps[i]!;
        const s = store.getState();
        expect(s.served).toBe(step.query);
        if (step.lane !== undefined) expect(s.selectedLane).toBe(step.lane);
        if (step.algorithmStep !== undefined) {
          expect(s.teaching!.lane).toBe(step.lane ?? 0);
          expect(s.teaching!.algorithm).not.toBeNull();
          expect(s.teaching!.cursor).toBe(step.algorithmStep);
        }
      }
    }
  });
});
