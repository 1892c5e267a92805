import { beforeAll, describe, expect, it } from 'vitest';
import { createLatencyPredictor } from './predictorAdapter';
import { createLearningFactory } from './registry';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import type { LearningFactory } from '../schedulers/registry';
import { parseAnyScenario } from '../../../scenario/parse';
import type { ServingScenario } from '../schema';
import { runServingScenario, type ServingLaneResult } from '../scenario/servingRunner';
import { pinnedNumbers } from '../../../scenario/testing/pinnedNumbers';
import fixture from '../scenario/testing/servingFixedSlot.json';

/**
 * (Here beside the learners, whose tfjs the page's typecheck leaves out; the scenario pins
 * of the readings are in src/scenario.) Every serving preset and lesson as it stood before the scheduling slot was named (version-4
 * documents of commit b95b7f3: 30 s, the lanes that do not learn, the reference lanes
 * included, the first two values of each sweep axis), and the four learners from scratch for
 * 60 s on the six models (`learners-from-scratch`), with the numbers the code of that commit
 * gave. Opened through the migration, which gives a version-4 document `slot: "fixed"`, each
 * must give the same numbers bit for bit: the fixed slot is the lab's behaviour before Eq. 1,
 * the learners' included. The fixture was computed by the code of that commit and must never
 * be regenerated from the new code to make this test pass.
 */
const table = fixture as unknown as Record<string, { scenario: unknown; results: readonly Record<string, unknown>[] }>;

let learning: LearningFactory;
let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
  learning = createLearningFactory(tf, { agents: {}, predictor: (context) => createLatencyPredictor(tf, context) });
});

const numbers = (x: ServingLaneResult) => ({
  ...pinnedNumbers(x),
  p99: x.summary.latencyP99Ms,
  b: Object.fromEntries(Object.entries(x.summary.perModel).map(([k, m]) => [k, m.batchSizeMean])),
  ...(x.summary.learning === undefined ? {} : { updates: x.summary.learning['updates'], transitions: x.summary.learning['transitions'] }),
});

describe('a version-4 serving scenario runs with the fixed slot', () => {
  for (const [id, { scenario, results }] of Object.entries(table)) {
    it(`${id} gives the numbers of before, bit for bit`, () => {
      expect((scenario as { version: number }).version).toBe(4);
      const parsed = parseAnyScenario(scenario);
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (!parsed.ok) return;
      const s = parsed.scenario as ServingScenario;
      expect(s.serving.assumptions?.slot).toBe('fixed');
      expect(runServingScenario(s, s.seed, () => 0, undefined, learning).map(numbers)).toEqual(results);
    }, 60_000);
  }
});
