import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ServingObservation, ServingScheduler } from '../engine/serving/scheduler';
import { ServingRun } from '../engine/serving/simulation';
import { SERVING_PRESETS } from '../scenario/presets';
import { EARLIER_SCENARIO_READINGS } from '../scenario/servingReadings';
import type { ServingScenario } from '../scenario/schema';
import { buildServingSpec } from '../scenario/servingRunner';
import { ACTION_COUNT, encodeState, memoryMask, STATE_SIZE } from './features';

/** Encodes every model's state and mask at each decision of a run and hashes them. */
function hashOfStates(scenario: ServingScenario, onState?: (o: ServingObservation, state: Float32Array) => void): { decisions: number; sha256: string } {
  const spec = buildServingSpec(scenario);
  const hash = createHash('sha256');
  let decisions = 0;
  const probe: ServingScheduler = {
    id: 'probe',
    decide: (o) => {
      const state = new Float32Array(STATE_SIZE * o.models.length);
      const mask = new Uint8Array(ACTION_COUNT * o.models.length);
      for (let m = 0; m < o.models.length; m++) {
        encodeState(o, m, state, m * STATE_SIZE);
        memoryMask(o, m, [], mask, m * ACTION_COUNT);
      }
      onState?.(o, state);
      hash.update(Buffer.from(state.buffer));
      hash.update(Buffer.from(mask.buffer));
      decisions++;
      // A varied deterministic policy, so that the queue and resource parts move.
      return o.models.map((_, m) => ({ batchSize: [1, 4, 16][(o.slot + m) % 3]!, instances: 1 + ((o.slot + 2 * m) % 3) }));
    },
  };
  new ServingRun(spec, probe).runToEnd();
  return { decisions, sha256: hash.digest('hex') };
}

describe('the learners’ state', () => {
  it('is bit-identical to the encoding of before request classes and load schedules on the default scenario (new parts default to the old values)', () => {
    const s = structuredClone(SERVING_PRESETS[0]!.scenario) as ServingScenario;
    s.serving.durationS = 40;
    // The run of then: the earlier readings of BCEdge (the encoding has not changed since).
    s.serving.assumptions = { ...s.serving.assumptions, ...EARLIER_SCENARIO_READINGS };
    // Computed with the state encoding and engine of before request classes and load schedules.
    expect(hashOfStates(s)).toEqual({ decisions: 40, sha256: 'd91d9c70a6e38af4d7ae533ff8d12aeb217e420035d9e3edc6a8db66d13c2ab5' });
  });
});
