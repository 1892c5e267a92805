import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../scenario/presets';
import { validateAnyScenario } from '../../../scenario/schema';
import { modelRateSpec, validateServingScenario, type ServingScenario } from '../schema';
import { buildServingSpec, runServingCell, runServingScenario } from './servingRunner';
import { cellScenario, sweepCells } from '../../../scenario/sweep';

function serving(id: string): ServingScenario {
  const scenario = findPreset(id)?.scenario;
  if (scenario?.world !== 'serving') throw new Error(`${id}: not a serving preset`);
  return structuredClone(scenario);
}

/** Short runs on the lanes that do not learn (the learners' agents are the same files either way). */
function short(scenario: ServingScenario): ServingScenario {
  return {
    ...scenario,
    serving: {
      ...scenario.serving,
      durationS: 120,
      lanes: [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }, { scheduler: 'ga' }, { scheduler: 'fixed-hindsight', params: { perModel: 0, maxBatch: 4, maxInstances: 2 } }],
    },
  };
}

describe('the burstiness sweep (bcedge-burstiness)', () => {
  const sweep = serving('bcedge-burstiness');
  const cells = sweepCells(sweep);

  it('is one sweep whose one axis is the burstiness, over the values the single presets vary', () => {
    expect(validateAnyScenario(sweep).ok).toBe(true);
    expect(sweep.sweep?.axes).toEqual([{ path: 'serving.bursts.burstiness', name: 'burstiness', values: [1, 3, 9] }]);
    expect(cells.map((c) => c.key)).toEqual([{ burstiness: 1 }, { burstiness: 3 }, { burstiness: 9 }]);
  });

  it('gives each cell the engine spec and the lanes of the single preset bcedge-burstiness-B', () => {
    for (const cell of cells) {
      const single = serving(`bcedge-burstiness-${String(cell.values[0])}`);
      const plain = cellScenario(sweep, cell);
      expect(buildServingSpec(plain, {}, cell.seed)).toEqual(buildServingSpec(single, {}, single.seed));
      expect(plain.serving.lanes).toEqual(single.serving.lanes);
      expect(plain.serving.durationS).toBe(single.serving.durationS);
    }
  });

  it("runs each cell to the single preset's numbers (120 s, the lanes that do not learn)", () => {
    const shortSweep = short(sweep);
    const byCell = sweepCells(shortSweep).map((cell) => runServingCell(shortSweep, cell).map((r) => r.summary));
    byCell.forEach((summaries, i) => {
      const single = short(serving(`bcedge-burstiness-${String(cells[i]!.values[0])}`));
      expect(summaries).toEqual(runServingScenario(single).map((r) => r.summary));
    });
    // The cells differ: burstiness changes the run (so the equality above says something).
    expect(byCell[0]![0]!.requests).not.toBe(byCell[2]![0]!.requests);
    expect(byCell[0]![0]!.sloViolationPct).not.toBe(byCell[2]![0]!.sloViolationPct);
    // Six runs of 120 s at 180 rps, with a small hindsight search each: seconds, past the default 5 s.
  }, 60_000);
});

describe('serving.bursts', () => {
  const base = serving('serving-default');

  it('turns each share of rateRps into on/off bursts at the same mean (burstiness 1: a Poisson stream of its own)', () => {
    const v = { ...base.serving, bursts: { burstiness: 4, meanOnS: 10 } };
    expect(modelRateSpec(v, v.models[0]!)).toEqual({ kind: 'mmpp', onRps: 120, offRps: 0, meanOnS: 10, meanOffS: 30, startOn: false });
    // Mean of the MMPP: on rate × on share = 120 × 10 / (10 + 30) = 30 rps, the model's 30 rps (rateBasis perModel).
    expect(modelRateSpec({ ...v, bursts: { burstiness: 1, meanOnS: 10 } }, v.models[0]!)).toEqual({ kind: 'constant', rateRps: 30 });
    // Read in total, the 30 rps are shared by the six models.
    const total = { ...v, assumptions: { ...v.assumptions, rateBasis: 'total' as const } };
    expect(modelRateSpec(total, v.models[0]!)).toEqual({ kind: 'mmpp', onRps: 20, offRps: 0, meanOnS: 10, meanOffS: 30, startOn: false });
    expect(modelRateSpec(base.serving, base.serving.models[0]!)).toBeUndefined();
  });

  it("leaves a model's own rate as it is", () => {
    const own = { kind: 'constant', rateRps: 2 } as const;
    const v = { ...base.serving, models: base.serving.models.map((m, i) => (i === 0 ? { ...m, rate: own } : m)), bursts: { burstiness: 3, meanOnS: 20 } };
    expect(modelRateSpec(v, v.models[0]!)).toEqual(own);
    expect(modelRateSpec(v, v.models[1]!)?.kind).toBe('mmpp');
  });

  it('refuses a burstiness below 1 with a message naming the field', () => {
    const result = validateServingScenario({ ...base, serving: { ...base.serving, bursts: { burstiness: 0.5, meanOnS: 20 } } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.path)).toContain('serving.bursts.burstiness');
  });

  it('counts the on rate in the request bound', () => {
    const result = validateServingScenario({ ...base, serving: { ...base.serving, rateRps: 1000, durationS: 5000, bursts: { burstiness: 3, meanOnS: 20 } } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.find((e) => e.path === 'serving.durationS')?.message).toMatch(/up to 90000000 requests/);
  });
});
