import { describe, expect, it } from 'vitest';
import { isLearningScheduler } from '../schedulers/registry';
import { SERVING_PRESETS } from '../presets';
import { EARLIER_SCENARIO_READINGS } from './servingReadings';
import { pinnedNumbers } from '../../../scenario/testing/pinnedNumbers';
import type { ServingScenario } from '../schema';
import { runServingScenario } from './servingRunner';
import pinned from './testing/servingPresetsPin.json';

/**
 * The serving presets that existed before load schedules, tenants on a schedule, request
 * classes, noisy interference and the reference lanes were added (ARCHITECTURE §3) must keep
 * their numbers bit for bit: the new features default off. The fixture was computed by
 * running exactly this reduction (60 s, the non-learning lanes, Fig. 1's grid thinned to
 * 3 × 3) on the code before those features, and must never be regenerated from the new
 * code to make this test pass.
 */
function reduced(scenario: ServingScenario): ServingScenario | null {
  const s = structuredClone(scenario);
  // They ran under the readings of before (the presets now read the paper, ARCHITECTURE §3).
  s.serving.assumptions = { ...s.serving.assumptions, ...EARLIER_SCENARIO_READINGS };
  // Fig. 1 was measured at 200 rps then; its preset now keeps a closed loop in flight.
  delete s.serving.closedLoop;
  s.serving.durationS = 60;
  s.serving.lanes = s.serving.lanes.filter((l) => !isLearningScheduler(l.scheduler));
  if (s.serving.lanes.length === 0) return null;
  // Fig. 1's batch × instances (a grid before sweeps, the same cells and keys since).
  if (s.sweep?.axes.some((a) => a.path.endsWith('.params.batchSize'))) {
    s.sweep = {
      axes: [
        { path: 'serving.lanes[0].params.batchSize', values: [1, 8, 128] },
        { path: 'serving.lanes[0].params.instances', values: [1, 4, 8] },
      ],
    };
  }
  return s;
}

const table = pinned as Record<string, readonly { scheduler: string; u: number; v: number; l: number; t: number; n: number }[]>;

describe('the serving presets of before load schedules, request classes, noise and reference lanes', () => {
  for (const id of Object.keys(table)) {
    it(`${id} gives the same numbers bit for bit`, () => {
      const preset = SERVING_PRESETS.find((p) => p.id === id);
      expect(preset, id).toBeDefined();
      const s = reduced(preset!.scenario as ServingScenario)!;
      const got = runServingScenario(s).map(pinnedNumbers);
      expect(got).toEqual(table[id]);
    });
  }
});
