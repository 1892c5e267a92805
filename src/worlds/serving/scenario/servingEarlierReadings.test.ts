import { describe, expect, it } from 'vitest';
import { parseAnyScenario } from '../../../scenario/parse';
import { EARLIER_SCENARIO_READINGS } from './servingReadings';
import { pinnedNumbers } from '../../../scenario/testing/pinnedNumbers';
import type { ServingScenario } from '../schema';
import { runServingScenario } from './servingRunner';
import fixture from './testing/servingEarlierReadings.json';

/**
 * Every serving preset and lesson as it stood before the readings of BCEdge were named
 * (version-3 documents: 30 s, the lanes that do not learn or search, the first two values of
 * each sweep axis), with the numbers the code of that time gave. Opened through the
 * migration, which writes the earlier readings into a version-3 document, each must give
 * the same numbers bit for bit. The fixture was computed by the code before the readings
 * and must never be regenerated from the new code to make this test pass.
 */
const table = fixture as unknown as Record<string, { scenario: unknown; results: readonly Record<string, unknown>[] }>;

describe('a version-3 serving scenario runs under the earlier readings', () => {
  for (const [id, { scenario, results }] of Object.entries(table)) {
    it(`${id} gives the numbers of before, bit for bit`, () => {
      const parsed = parseAnyScenario(scenario);
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (!parsed.ok) return;
      const s = parsed.scenario as ServingScenario;
      expect(s.serving.assumptions).toMatchObject(EARLIER_SCENARIO_READINGS);
      const got = runServingScenario(s).map((x) => ({
        ...pinnedNumbers(x),
        p99: x.summary.latencyP99Ms,
        b: Object.fromEntries(Object.entries(x.summary.perModel).map(([k, m]) => [k, m.batchSizeMean])),
      }));
      expect(got).toEqual(results);
    });
  }
});
