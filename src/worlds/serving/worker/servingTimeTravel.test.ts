import { describe, expect, it } from 'vitest';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { isLearningScheduler } from '../schedulers/registry';
import type { ServingFrame } from './servingProtocol';
import { ServingSession } from './servingSession';
import { manualHost } from '../../../worker/testing/manualHost';
import { done } from '../../../worker/testing/answers';

const classic = (durationS = 60): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, durationS, lanes: s.serving.lanes.filter((l) => !isLearningScheduler(l.scheduler)) } };
};

/** What a frame shows, without the wall-clock decision times. */
function shown(frame: ServingFrame) {
  return {
    timeMs: frame.timeMs,
    summaries: frame.summaries?.map((s) => s && (({ decisionMeanUs: _d, ...rest }) => (void _d, rest))(s)),
    live: frame.lanes.map((l) => l.live),
  };
}

/** A session with a tenant dropped at 5 s, a Triton setting at 8 s and the tenant removed at 12 s, stepped to `untilMs`. */
function runWithEdits(untilMs: number) {
  const h = manualHost<ServingFrame>();
  const session = new ServingSession(h.host);
  expect(session.load(classic()).ok).toBe(true);
  session.step(5_000);
  const [tenant] = done(session.addBackground(0.4, 800)).backgrounds;
  session.step(3_000);
  expect(session.setModelConfig(0, 2, 32, 3).ok).toBe(true);
  session.step(4_000);
  session.removeBackground(tenant!.id);
  if (untilMs > 12_000) session.step(untilMs - 12_000);
  return { session, frames: h.frames };
}

describe('serving time travel (replay from time 0 with the live changes)', () => {
  it('seeking back shows what an uninterrupted run showed there; seeking forward again, the same end', () => {
    const straight10 = (() => {
      const h = manualHost<ServingFrame>();
      const s = new ServingSession(h.host);
      s.load(classic());
      s.step(5_000);
      s.addBackground(0.4, 800);
      s.step(3_000);
      s.setModelConfig(0, 2, 32, 3);
      s.step(2_000);
      return shown(h.frames.at(-1)!);
    })();
    const { session, frames } = runWithEdits(20_000);
    const at20 = shown(frames.at(-1)!);
    expect(session.seek(10_000)).toEqual({ ok: true });
    const back = frames.at(-1)!;
    expect(back.replace).toBe(true);
    expect(back.furthestMs).toBe(20_000);
    // The tenant removed at 12 s is still on at 10 s, and ends at 12 s again.
    expect(shown(back)).toStrictEqual({ ...straight10 });
    expect(session.seek(20_000)).toEqual({ ok: true });
    expect(shown(frames.at(-1)!)).toStrictEqual(at20);
  });

  it('marks tenants arriving and leaving and configuration changes on the time line', () => {
    const { frames } = runWithEdits(15_000);
    const markers = frames.findLast((f) => f.timeline !== undefined)!.timeline!.markers;
    expect(markers.map((m) => [m.kind, m.timeMs])).toEqual([
      ['tenant-on', 5_000],
      ['config', 8_000],
      ['tenant-off', 12_000],
    ]);
    expect(markers[1]).toMatchObject({ lane: 0, model: 'res', batchSize: 32, instances: 3 });
  });

  it('a change made after a seek back goes before the later ones and the run is served afresh from there', () => {
    const { session, frames } = runWithEdits(20_000);
    session.seek(6_000);
    session.addBackground(0.2, 100);
    session.step(14_000);
    const markers = frames.findLast((f) => f.timeline !== undefined)!.timeline!.markers;
    expect(markers.filter((m) => m.kind === 'tenant-on').map((m) => m.timeMs)).toEqual([5_000, 6_000]);
    // The same as building the whole history in order in a fresh session.
    const h = manualHost<ServingFrame>();
    const fresh = new ServingSession(h.host);
    fresh.load(classic());
    fresh.step(5_000);
    const [tenant] = done(fresh.addBackground(0.4, 800)).backgrounds;
    fresh.step(1_000);
    fresh.addBackground(0.2, 100);
    fresh.step(2_000);
    fresh.setModelConfig(0, 2, 32, 3);
    fresh.step(4_000);
    fresh.removeBackground(tenant!.id);
    fresh.step(8_000);
    expect(shown(frames.at(-1)!)).toStrictEqual(shown(h.frames.at(-1)!));
  });

  it('refuses a bad position with a message naming the field', () => {
    const { session } = runWithEdits(12_000);
    for (const bad of [-1, Number.NaN, 61_000, '5', null]) {
      const result = session.seek(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]!.path).toBe('timeMs');
    }
  });
});
