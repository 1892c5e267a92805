import { describe, expect, it } from 'vitest';
import { manualHost as createManualHost } from '../../../worker/testing/manualHost';
import { runPipelineScenario } from '../scenario/pipelineRunner';
import { defaultPipelineScenario } from '../defaultPreset';
import type { PipelineFrame } from './pipelineProtocol';
import { SERIES_MAX_POINTS as MAX_POINTS } from '../../../worker/liveLoop';
import { PipelineSession, PipelinePlugin } from './pipelineSession';
import { done } from '../../../worker/testing/answers';

const manualHost = () => createManualHost<PipelineFrame>();

const small = () => {
  const s = defaultPipelineScenario();
  return { ...s, pipeline: { ...s.pipeline, queries: 600 } };
};

describe('PipelineSession', () => {
  it('loads, steps and reports lanes in lock step', () => {
    const { host, frames } = manualHost();
    const session = new PipelineSession(host);
    const loaded = session.load(small());
    expect(loaded.ok).toBe(true);
    session.step(200);
    const last = frames.at(-1)!;
    expect(last.served).toBe(200);
    expect(last.lanes).toHaveLength(4);
    expect(last.summaries).toHaveLength(4);
    for (const lane of last.lanes) expect(lane.live.configuration.reduce((a, b) => a + b, 0)).toBe(16);
    // The scripted hog arrives at query 150: an interference marker, and ODIN detects it.
    const markers = frames.flatMap((f) => f.markers);
    expect(markers).toContainEqual({ query: 150, kind: 'interference-on', lane: -1, executionPlace: 1, mode: 'E' });
    expect(markers.some((m) => m.kind === 'detect' && m.lane === 0 && m.query === 150)).toBe(true);
  });

  it('gives the same numbers as the command line for the same scenario', () => {
    const { host, frames } = manualHost();
    const session = new PipelineSession(host);
    session.load(small());
    session.step(600);
    const cli = runPipelineScenario(small());
    expect(frames.at(-1)!.summaries!.map((s) => s.throughputMeanQps)).toEqual(cli.map((r) => r.summary.throughputMeanQps));
    expect(frames.at(-1)!.summaries!.map((s) => s.latencyP99Ms)).toEqual(cli.map((r) => r.summary.latencyP99Ms));
    expect(frames.at(-1)!.status).toBe('done');
  });

  it('rejects a bad scenario with field errors and keeps the last good one', () => {
    const { host } = manualHost();
    const session = new PipelineSession(host);
    session.load(small());
    const bad = session.load({ ...small(), seed: -4 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]!.path).toBe('seed');
    expect(session.currentScenario()!.seed).toBe(1);
  });

  it('plays at a speed, paced by the clock, and finishes', () => {
    const { host, frames, advanceTime } = manualHost();
    const session = new PipelineSession(host);
    session.load(small());
    session.setSpeed(100);
    session.play();
    advanceTime(1000);
    const served = frames.at(-1)!.served;
    expect(served).toBeGreaterThanOrEqual(95);
    expect(served).toBeLessThanOrEqual(100);
    session.setSpeed('max');
    advanceTime(1000);
    expect(frames.at(-1)!.status).toBe('done');
    expect(frames.at(-1)!.served).toBe(600);
  });

  it('places and removes interference from the current query on, on every lane', () => {
    const { host, frames } = manualHost();
    const session = new PipelineSession(host);
    session.load(small());
    session.step(500); // past the scripted hog (150–450)
    const { events } = done(session.addEvent(2, 'E'));
    expect(events.at(-1)).toMatchObject({ executionPlace: 2, mode: 'E', fromQuery: 500, toQuery: null });
    session.step(30);
    expect(Array.from(frames.at(-1)!.modes)).toEqual([0, 0, 4, 0]);
    const id = events.at(-1)!.id;
    const after = done(session.removeEvent(id)).events;
    expect(after.find((e) => e.id === id)!.toQuery).toBe(530);
    session.step(5);
    expect(Array.from(frames.at(-1)!.modes)).toEqual([0, 0, 0, 0]);
    expect(session.currentScenario()!.pipeline.interference.events.at(-1)).toEqual({ executionPlace: 2, mode: 'E', fromQuery: 500, toQuery: 530 });
  });

  it('changes α on the fly and resets to query 0', () => {
    const { host, frames } = manualHost();
    const session = new PipelineSession(host);
    session.load(small());
    session.step(100);
    expect(done(session.setLaneParameter(0, 'alpha', 3)).lane).toMatchObject({ label: 'ODIN α=3', params: { alpha: 3 } });
    expect(session.setLaneParameter(0, 'alpha', 0)).toEqual({ ok: false, errors: [{ path: 'pipeline.lanes[0].params.alpha', message: 'must be an integer from 1 to 30, got 0' }] });
    expect(session.currentScenario()!.pipeline.lanes[0]).toEqual({ scheduler: 'odin', params: { alpha: 3 } });
    const generation = frames.at(-1)!.generation;
    session.reset();
    expect(frames.at(-1)!.served).toBe(0);
    expect(frames.at(-1)!.generation).toBe(generation + 1);
  });

  it('keeps each lane series bounded on a long run', () => {
    const { host, frames } = manualHost();
    const session = new PipelineSession(host);
    const s = small();
    session.load({ ...s, pipeline: { ...s.pipeline, queries: 50_000 } });
    session.step(50_000);
    // Rebuild the page-side series from the frames as the store does.
    let points = 0;
    for (const f of frames) points = f.replace ? f.lanes[0]!.points.query.length : points + f.lanes[0]!.points.query.length;
    expect(points).toBeLessThanOrEqual(MAX_POINTS);
    expect(frames.at(-1)!.stride).toBeGreaterThan(32);
  });
});

describe('PipelinePlugin (the plugin): checkpoint → restore → replay equals an uninterrupted run', () => {
  /** The world alone, with what a session would tell it. */
  function world() {
    const w = new PipelinePlugin();
    let furthest = 0;
    w.attach({ now: () => 0, schedule: () => {}, report: () => {}, generation: () => 1, status: () => 'paused', furthest: () => furthest, edits: () => [] });
    w.start(small());
    const runTo = (target: number) => {
      while (w.position() < target) w.advanceToward(target);
      furthest = Math.max(furthest, w.position());
    };
    /**
     * Everything the page would see now: every lane's whole series (resent), live state,
     * summaries, the charts' markers and the teaching view (not the time line's increment:
     * it is sent once, as far as the run has been).
     */
    const seen = () => {
      w.jumped();
      const context = { force: true, nowMs: 0, status: 'paused' as const, furthest, transfer: [] };
      const { timeline: _timeline, ...extra } = w.frameExtra(context);
      void _timeline;
      return { lanes: w.frameLanes(context), summaries: w.summaries(), extra };
    };
    return { w, runTo, seen };
  }

  it('restores every lane (runs, series, live state) and replays to the same numbers, a placed workload included', () => {
    const { w, runTo, seen } = world();
    const place = () => {
      for (const lane of w.lanes) lane.run.timeline.addEvent({ executionPlace: 3, mode: 4, fromQuery: 260, toQuery: null, id: 99 });
    };
    const travel = w.timeTravel;
    if (travel.by !== 'checkpoints') throw new TypeError('the pipeline world goes back by checkpoints');
    runTo(130);
    const checkpoint = travel.snapshot();
    runTo(260);
    place();
    runTo(420);
    const straight = seen();
    travel.restore(checkpoint);
    expect(w.position()).toBe(130);
    runTo(260);
    place();
    runTo(420);
    expect(seen()).toStrictEqual(straight);
    // The checkpoint was taken through the scripted hog's detection (query 150): the lanes rebalanced on the way.
    expect(straight.summaries.some((s) => s.rebalancings > 0)).toBe(true);
  });
});
