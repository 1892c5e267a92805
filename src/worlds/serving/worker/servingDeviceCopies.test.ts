import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../engine/platforms';
import { SERVING_PRESETS } from '../presets';
import type { ServingScenario } from '../schema';
import { runServingScenario } from '../scenario/servingRunner';
import type { ServingFrame } from './servingProtocol';
import { ServingSession } from './servingSession';
import { manualHost } from '../../../worker/testing/manualHost';

/** BCEdge §V-D's setting on a Nano, 20 s: three models, each alone on its own copy (platformSetting perModel, the default). */
function nano(platformSetting?: 'perModel' | 'mixed'): ServingScenario {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return {
    ...s,
    serving: {
      ...s.serving,
      platform: 'nano',
      durationS: 20,
      models: [
        { model: 'yolo', weight: 1 },
        { model: 'res', weight: 1 },
        { model: 'bert', weight: 1 },
      ],
      background: [{ fromS: 5, toS: 12, intensity: 0.4, memoryMb: 500 }],
      assumptions: { ...s.serving.assumptions, ...(platformSetting === undefined ? {} : { platformSetting }) },
      lanes: [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }, { scheduler: 'fixed-hindsight', params: { maxBatch: 4, maxInstances: 2 } }],
    },
  };
}

type Summary = NonNullable<NonNullable<ServingFrame['summaries']>[number]>;
const withoutDecision = ({ decisionMeanUs: _d, ...rest }: Summary) => (void _d, rest);
const lastSummaries = (frames: readonly ServingFrame[]) => frames.findLast((f) => f.summaries !== undefined)!.summaries!;
const waiting = (frame: ServingFrame) => frame.lanes.some((l) => l.search !== undefined);

describe('the serving lab on a Nano with each model on its own device (BCEdge §V-D)', () => {
  it('plays the device copies to the command line’s summaries, the reference lane searching each copy’s plan beside the run', () => {
    const { host, frames, advanceTime } = manualHost<ServingFrame>(0.5);
    const session = new ServingSession(host);
    const loaded = session.load(nano());
    expect(loaded.ok && loaded.deviceCopies).toBe(3);
    // The board: three Nanos' memory, three models.
    const live = frames.at(-1)!.lanes[0]!.live!;
    expect(live.memoryTotalMb).toBe(3 * PLATFORMS.nano.memoryMb);
    expect(live.models).toHaveLength(3);
    session.setSpeed(5);
    session.play();
    for (let i = 0; i < 20_000 && (frames.at(-1)!.status !== 'done' || waiting(frames.at(-1)!)); i++) advanceTime(16);
    expect(waiting(frames.at(-1)!)).toBe(false);
    expect(lastSummaries(frames).map((s) => withoutDecision(s!))).toEqual(runServingScenario(nano()).map((r) => withoutDecision(r.summary)));
    // The oracle's report is per copy.
    expect(Object.keys((lastSummaries(frames)[2]!.learning as { copies: object }).copies)).toEqual(['yolo', 'res', 'bert']);
  }, 60_000);

  it('a fixed lane’s setting for one model changes that model’s copy only; seeking back replays it', () => {
    const { host, frames } = manualHost<ServingFrame>();
    const session = new ServingSession(host);
    const s = nano('perModel');
    expect(session.load({ ...s, serving: { ...s.serving, lanes: s.serving.lanes.slice(0, 2) } }).ok).toBe(true);
    session.step(3_000);
    expect(session.setModelConfig(0, 1, 4, 1).ok).toBe(true);
    session.step(2_000);
    // ResNet-18's copy takes (4, 1) at the next slot; the others keep Triton's (8, 2).
    const models = frames.at(-1)!.lanes[0]!.live!.models;
    expect(models.map((m) => [m.batchSize, m.instances])).toEqual([
      [8, 2],
      [4, 1],
      [8, 2],
    ]);
    session.step(15_000);
    const once = lastSummaries(frames).map((s) => withoutDecision(s!));
    session.seek(1_000);
    session.step(19_000);
    expect(lastSummaries(frames).map((s) => withoutDecision(s!))).toEqual(once);
  });

  it('under the earlier reading the three share one Nano', () => {
    const { host } = manualHost<ServingFrame>();
    const session = new ServingSession(host);
    const loaded = session.load(nano('mixed'));
    expect(loaded.ok && [loaded.deviceCopies, loaded.memoryMb]).toEqual([1, PLATFORMS.nano.memoryMb]);
  });
});
