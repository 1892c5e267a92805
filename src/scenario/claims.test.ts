import { describe, expect, it } from 'vitest';
import type { Claim } from './claimModel';
import { cellsKey, claimRow, allClaims, claimScenarios, computeClaims, defaultReading, estimateClaim, formatEstimate, planClaims, planRows, planShardCells, runPlanCells } from './claims';
import { DEFAULT_LEARNING_RUNS, withLearningRuns } from './learningRuns';
import { parseAnyScenario } from './parse';
import type { AnyScenario } from './schema';
import { sweepCells } from './sweep';
import type { CellOutcome } from './sweepReport';
import { judge, type Estimate, type VerdictRule } from './verdict';
import { EARLIER_SCENARIO_READINGS, PAPER_SCENARIO_READINGS } from '../worlds/serving/scenario/servingReadings';
import { paperName, papers, worldOf } from '../kit/worlds';

const e = (mean: number, halfWidth95 = 0, seeds = 10): Estimate => ({ mean, halfWidth95, seeds });

/** The figures (and sections) a claim's `where` names: `Figs. 11–12` → 11, 12. */
function figuresOf(where: string): string[] {
  const out: string[] = [];
  for (const m of where.matchAll(/Figs?\.\s*(\d+)(?:\([a-z]\))?(?:\s*[–-]\s*(\d+))?/g)) {
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let f = from; f <= to; f++) out.push(`Fig. ${f}`);
  }
  for (const m of where.matchAll(/§(\d+(?:\.\d+)?)/g)) out.push(`§${m[1]}`);
  return out;
}

/** The figures (and ODIN's §4.2) whose claims the registry must hold, per paper. */
const LISTED = {
  odin: ['Fig. 1', 'Fig. 3', 'Fig. 5', 'Fig. 6', 'Fig. 7', 'Fig. 8', 'Fig. 9', 'Fig. 10', '§4.2'],
  bcedge: ['Fig. 1', 'Fig. 7', 'Fig. 8', 'Fig. 9', 'Fig. 10', 'Fig. 11', 'Fig. 12', 'Fig. 13', 'Fig. 14', 'Fig. 15', 'Fig. 16'],
} as const;

describe('the claims registry', () => {
  for (const paper of ['odin', 'bcedge'] as const) {
    it(`covers every ${paper === 'odin' ? 'ODIN' : 'BCEdge'} figure listed here`, () => {
      const named = new Set(allClaims().filter((c) => c.paper === paper).flatMap((c) => figuresOf(c.where)));
      expect(LISTED[paper].filter((f) => !named.has(f))).toEqual([]);
    });
  }

  it("names, for every claim, a paper its scenario's world declares; paper ids are unique across the worlds", () => {
    for (const c of allClaims()) {
      const world = worldOf(claimScenarios(c, 1).main);
      expect(world.papers.map((p) => p.id), c.id).toContain(c.paper);
    }
    const ids = papers().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(papers().map((p) => paperName(p.id))).toEqual(['ODIN', 'BCEdge']);
    // A paper no world declares is named by its id.
    expect(paperName('alexnet2012')).toBe('alexnet2012');
  });

  it('has unique ids usable as test ids', () => {
    const ids = allClaims().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
  });

  it("quotes the paper's words for every claim and gives a number to judge", () => {
    for (const c of allClaims()) {
      expect(c.quote.length, c.id).toBeGreaterThan(30);
      expect(c.labNumber.length, c.id).toBeGreaterThan(10);
      expect(c.learns, c.id).toBe(c.measure.learns);
    }
  });

  for (const claim of allClaims()) {
    it(`${claim.id}: its main scenario and every reading's scenario are valid swept scenarios`, () => {
      const { main, readings } = claimScenarios(claim, 3);
      for (const scenario of [main, ...readings.map((r) => r.scenario)]) {
        const parsed = parseAnyScenario(JSON.parse(JSON.stringify(scenario)));
        expect(parsed.ok ? [] : parsed.errors, claim.id).toEqual([]);
        expect(scenario.sweep?.axes.length, claim.id).toBeGreaterThan(0);
      }
      // Every reading is a value the claim's scenario did not already fix by an axis.
      for (const r of readings) expect(main.sweep!.axes.map((a) => a.path)).not.toContain(r.path);
      // The compared lanes exist.
      const lanes = main.world === 'pipeline' ? main.pipeline.lanes.length : main.serving.lanes.length;
      const c = claim.measure.compare;
      expect(c.a).toBeLessThan(lanes);
      if (c.kind === 'diffPct' || c.kind === 'ratioPct') expect(c.b).toBeLessThan(lanes);
      for (const r of claim.measure.references ?? []) expect(r).toBeLessThan(lanes);
    });
  }
});

describe('readings that were missing from the strips', () => {
  const reading = (id: string, path: string, value: unknown) => claimScenarios(allClaims().find((c) => c.id === id)!, 2).readings.find((r) => r.path === path && r.value === value);

  it("ODIN's admission, an object field: each named reading writes its object, and the default is named", () => {
    for (const id of ['odin-fig5-latency', 'odin-fig6-throughput', 'odin-fig7-tail', 'odin-fig9-slo80', 'odin-s42-queries-alpha10']) {
      const poisson = reading(id, 'pipeline.assumptions.admission', 'Poisson 80 %');
      expect(poisson?.scenario.world === 'pipeline' && poisson.scenario.pipeline.assumptions.admission, id).toEqual({ kind: 'poissonShare', shareOfPeak: 0.8 });
      const saturated = reading(id, 'pipeline.assumptions.admission', 'saturated');
      expect(saturated?.scenario.world === 'pipeline' && saturated.scenario.pipeline.assumptions.admission, id).toEqual({ kind: 'saturated' });
      expect(defaultReading(allClaims().find((c) => c.id === id)!, 'pipeline.assumptions.admission'), id).toBe('saturated');
    }
  });

  it('the database: roofline (the default) or the measured one, for Figs. 1, 3, 5–9 and §4.2', () => {
    for (const id of ['odin-fig1-interference', 'odin-fig3-recovery', 'odin-fig5-latency', 'odin-fig6-throughput', 'odin-fig7-tail', 'odin-fig8-overhead', 'odin-fig9-sustain70', 'odin-s42-queries-lls']) {
      const measured = reading(id, 'pipeline.assumptions.database', 'measured');
      expect(measured?.scenario.world === 'pipeline' && measured.scenario.pipeline.assumptions.database, id).toBe('measured');
      expect(defaultReading(allClaims().find((c) => c.id === id)!, 'pipeline.assumptions.database'), id).toBe('roofline');
    }
  });

  it('every BCEdge row is measured under the paper’s and the earlier reading of each reading of BCEdge', () => {
    const engineReadings = ['rateBasis', 'batching', 'throughputTerm', 'reward', 'latencyProfile', 'platformSetting', 'slot'] as const;
    const bcedge = allClaims().filter((c) => c.paper === 'bcedge');
    expect(bcedge.length).toBeGreaterThan(15);
    for (const claim of bcedge) {
      for (const name of engineReadings) {
        const strip = claim.sensitivity.find((s) => s.path === `serving.assumptions.${name}`);
        expect(strip, `${claim.id}: ${name}`).toBeDefined();
        expect(strip!.values, `${claim.id}: ${name}`).toEqual([PAPER_SCENARIO_READINGS[name], EARLIER_SCENARIO_READINGS[name]]);
        // The default reading is the paper's (absent from the preset).
        expect(defaultReading(claim, `serving.assumptions.${name}`), `${claim.id}: ${name}`).toBe(PAPER_SCENARIO_READINGS[name]);
        const earlier = reading(claim.id, `serving.assumptions.${name}`, EARLIER_SCENARIO_READINGS[name]);
        expect(earlier?.scenario.world === 'serving' && earlier.scenario.serving.assumptions?.[name], `${claim.id}: ${name}`).toBe(EARLIER_SCENARIO_READINGS[name]);
      }
    }
  });

  it('the platform setting: the paper’s reading and, where no cell runs several models on Nano or TX2, the earlier one are the main scenario’s cells', () => {
    const keyOf = (id: string, value?: string) => {
      const { main, readings } = claimScenarios(allClaims().find((c) => c.id === id)!, 2);
      return cellsKey(value === undefined ? main : readings.find((r) => r.path === 'serving.assumptions.platformSetting' && r.value === value)!.scenario);
    };
    for (const id of ['bcedge-fig7-vs-deeprt', 'bcedge-fig14-predictor-slo', 'bcedge-fig1-throughput']) {
      expect(keyOf(id, 'perModel'), id).toBe(keyOf(id));
      expect(keyOf(id, 'mixed'), id).toBe(keyOf(id));
    }
    // Figs. 11–12 run three models on Nano and TX2: there the earlier reading is other cells.
    for (const id of ['bcedge-fig11-nano-vs-deeprt', 'bcedge-fig12-latency']) {
      expect(keyOf(id, 'perModel'), id).toBe(keyOf(id));
      expect(keyOf(id, 'mixed'), id).not.toBe(keyOf(id));
    }
    // Every other reading's paper value is the main scenario's cells too (absent = the paper's).
    const { main, readings } = claimScenarios(allClaims().find((c) => c.id === 'bcedge-fig15-40rps')!, 2);
    for (const r of readings.filter((x) => x.value === PAPER_SCENARIO_READINGS[x.path.split('.').at(-1) as keyof typeof PAPER_SCENARIO_READINGS])) expect(cellsKey(r.scenario), r.path).toBe(cellsKey(main));
  });

  it("BCEdge Figs. 13–14: the predictor's masking and budget, the SLO jitter and the slot length", () => {
    for (const id of ['bcedge-fig13-predictor', 'bcedge-fig13-vs-linear', 'bcedge-fig14-predictor-slo']) {
      const paths = allClaims().find((c) => c.id === id)!.sensitivity.map((s) => s.path);
      expect(paths.slice(0, 5), id).toEqual(['serving.lanes[0].params.predictorMask', 'serving.lanes[0].params.predictorBudget', 'serving.assumptions.sloJitter', 'serving.assumptions.slotMs', 'serving.assumptions.interference']);
      // The slot's reading (Eq. 1 per model or fixed) beside its length, for the predictor rows too.
      expect(paths, id).toContain('serving.assumptions.slot');
      const off = reading(id, 'serving.lanes[0].params.predictorMask', 0);
      expect(off?.scenario.world === 'serving' && off.scenario.serving.lanes[0]!.params, id).toMatchObject({ predictor: 1, predictorMask: 0 });
    }
  });
});

/** Estimates each rule kind must judge holds / partly / fails / noise (hand-made, not measured). */
function handMade(rule: VerdictRule): { holds: Estimate; fails: Estimate; noise?: Estimate; partly?: Estimate } {
  switch (rule.kind) {
    case 'sign': {
      const s = rule.sign;
      const at = rule.paperValue ?? 10 * s;
      return {
        holds: e(at, Math.abs(at) / 10),
        fails: e(-at, Math.abs(at) / 10),
        noise: e(0.1 * s, 1),
        ...(rule.paperValue !== undefined && rule.tolerance !== undefined ? { partly: e(rule.paperValue + 2 * rule.tolerance * s, 0.1) } : {}),
      };
    }
    case 'atMost':
      return { holds: e(rule.bound - 1 - Math.abs(rule.bound) * 0.1, 0.5), fails: e(rule.bound + 1 + Math.abs(rule.bound) * 0.1, 0.5), noise: e(rule.bound, 1) };
    case 'atLeast':
      return { holds: e(rule.bound + 1 + Math.abs(rule.bound) * 0.1, 0.5), fails: e(rule.bound - 1 - Math.abs(rule.bound) * 0.1, 0.5), noise: e(rule.bound, 1) };
    case 'near':
      return { holds: e(rule.paperValue + 0.5 * rule.tolerance, 1), partly: e(rule.paperValue + 1.5 * rule.tolerance, 1), fails: e(rule.paperValue - 3 * rule.tolerance, 1) };
  }
}

describe("each claim's verdict rule on hand-made numbers", () => {
  for (const claim of allClaims()) {
    it(`${claim.id} (${claim.rule.kind}): holds, fails${claim.rule.kind === 'near' ? ', partly' : ', inside the noise'}${claim.rule.kind === 'sign' && claim.rule.paperValue !== undefined ? ', partly' : ''}`, () => {
      const cases = handMade(claim.rule);
      expect(judge(claim.rule, cases.holds).verdict).toBe('holds');
      expect(judge(claim.rule, cases.fails).verdict).toBe('fails');
      if (cases.noise !== undefined) expect(judge(claim.rule, cases.noise).verdict).toBe('noise');
      if (cases.partly !== undefined) expect(judge(claim.rule, cases.partly).verdict).toBe('partly');
    });
  }
});

/** Outcomes of a scenario's cells whose lane rows have summaries made by `summary(combination, seed, lane)`. */
function fakeOutcomes(scenario: AnyScenario, seeds: readonly number[], summary: (combination: number, seed: number, lane: number) => object): CellOutcome[] {
  const lanes = scenario.world === 'pipeline' ? scenario.pipeline.lanes.length : scenario.serving.lanes.length;
  return sweepCells(scenario, seeds).map((cell) => ({
    index: cell.index,
    seed: cell.seed,
    results: Array.from({ length: lanes }, (_, lane) => ({ scheduler: 'x', label: `lane ${lane}`, params: {}, summary: summary(cell.combination, cell.seed, lane) })),
  }));
}

const byId = (id: string): Claim => allClaims().find((c) => c.id === id)!;

describe('estimateClaim: the reduction of cell outcomes', () => {
  it('a grid claim compares the grid means of two lanes, per seed, then over seeds', () => {
    const claim = byId('odin-fig6-throughput');
    const { main } = claimScenarios(claim, 2);
    const seeds = [main.seed, main.seed + 1];
    // Lane 1 (ODIN α=10) gives 10 + combination, lane 2 (LLS) 20 + combination; seed 2 doubles both.
    const outcomes = fakeOutcomes(main, seeds, (c, seed, lane) => ({ throughputMeanQps: (lane === 1 ? 10 + c : lane === 2 ? 20 + c : 1) * (seed === main.seed ? 1 : 2) }));
    const combos = sweepCells(main, [1]).length;
    const meanC = (combos - 1) / 2;
    const expected = (100 * (10 + meanC - (20 + meanC))) / (20 + meanC);
    const got = estimateClaim(claim, main, seeds, outcomes);
    expect(got.mean).toBeCloseTo(expected, 10);
    expect(got.halfWidth95).toBeCloseTo(0, 10);
    expect(got.seeds).toBe(2);
  });

  it('a worst-cell claim picks the combination farthest on the wrong side of its rule', () => {
    const claim = byId('odin-fig9-sustain70');
    const { main } = claimScenarios(claim, 2);
    const seeds = [main.seed, main.seed + 1];
    const outcomes = fakeOutcomes(main, seeds, (c, seed) => ({ sloViolationPct: { '0.70': c === 4 ? 30 + seed : 1 } }));
    const got = estimateClaim(claim, main, seeds, outcomes);
    expect(got.mean).toBeCloseTo(30 + main.seed + 0.5, 10);
  });

  it('a cells claim compares two combinations of one lane', () => {
    const claim = byId('odin-fig8-overhead');
    const { main } = claimScenarios(claim, 1);
    const outcomes = fakeOutcomes(main, [main.seed], (c) => ({ overheadPct: [40, 5, 5, 10][c] }));
    expect(estimateClaim(claim, main, [main.seed], outcomes).mean).toBeCloseTo(300, 10);
  });

  it("Fig. 15 against DeepRT: below 1 % of DeepRT's violations the difference is in percentage points, judged by its sign; from 1 % on, in % of DeepRT's mean", () => {
    const claim = byId('bcedge-fig15-vs-deeprt');
    const { main } = claimScenarios(claim, 3);
    const seeds = [main.seed, main.seed + 1, main.seed + 2];
    // BCEdge (lane 0) violates 10 + seed %, at every rate; DeepRT (lane 2) `deeprt` + combination / 100.
    const at = (deeprt: number) =>
      estimateClaim(
        claim,
        main,
        seeds,
        fakeOutcomes(main, seeds, (c, seed, lane) => ({ sloViolationPct: lane === 0 ? 10 + seed : lane === 2 ? deeprt + c / 100 : 50 })),
      );
    const near0 = at(0);
    // Grid means: BCEdge 10 + seed, DeepRT 0.02 (combinations 0…4): 10 + seed − 0.02 points per seed.
    expect(near0.unit).toBe('points');
    expect(near0.baseline).toBeCloseTo(0.02, 12);
    expect(near0.mean).toBeCloseTo(10 + main.seed + 1 - 0.02, 10);
    expect(formatEstimate(near0)).toMatch(/ pp$/);
    // A % of 0.02 would have been about +55,000 %: the row gives points and judges the sign (fails: BCEdge is higher).
    const row = claimRow(claim, { main: near0, readings: [], seeds: 3 });
    expect(row.verdict).toBe('fails');
    expect(row.reason).toContain('in percentage points');
    // BCEdge lower by 0.5 points: holds by its sign, though −0.5 is far from the paper's −53.
    const lower = claimRow(claim, { main: { mean: -0.5, halfWidth95: 0.1, seeds: 3, unit: 'points', baseline: 0.6 }, readings: [], seeds: 3 });
    expect(lower.verdict).toBe('holds');
    expect(claimRow(claim, { main: { ...near0, baseline: 0.00033 }, readings: [], seeds: 3 }).reason).toContain("the baseline's mean, 0.00033, is below 1.00");
    // DeepRT at 20 %: an ordinary % of its mean (20.02), per seed.
    const high = at(20);
    expect(high.unit).toBeUndefined();
    expect(high.mean).toBeCloseTo((100 * (10 + main.seed + 1 - 20.02)) / 20.02, 10);
    expect(claimRow(claim, { main: high, readings: [], seeds: 3 }).reason).toContain("in % of the baseline's mean");
  });

  it('refuses outcomes that are not the cells in canonical order', () => {
    const claim = byId('odin-fig8-overhead');
    const { main } = claimScenarios(claim, 1);
    const outcomes = fakeOutcomes(main, [main.seed], () => ({ overheadPct: 1 }));
    expect(() => estimateClaim(claim, main, [main.seed], outcomes.slice(1))).toThrow(RangeError);
    expect(() => estimateClaim(claim, main, [main.seed], [...outcomes].reverse())).toThrow(/out of order/);
  });
});

describe('claimRow: verdict, strip and reason from the numbers', () => {
  const claim = byId('odin-fig6-throughput');
  const readings = claim.sensitivity.flatMap((s) => s.values.map((value) => ({ path: s.path, label: s.label, value, estimate: e(-30, 2) })));
  it('names the modelling choice whose readings flip the verdict', () => {
    const flipped = readings.map((r) => (r.path === 'pipeline.assumptions.trialCost' && r.value === 'pipelined' ? { ...r, estimate: e(15, 2) } : r));
    const row = claimRow(claim, { main: e(-30, 2), readings: flipped, seeds: 10 });
    expect(row.verdict).toBe('fails');
    expect(row.reason).toContain('fails with trial cost = serial');
    expect(row.reason).toContain('holds with trial cost = pipelined');
    expect(row.reason).toContain('trial cost flips it');
    const strip = row.sensitivity.find((s) => s.label === 'trial cost')!;
    expect(strip.readings.map((r) => r.verdict)).toEqual(['fails', 'holds', 'fails']);
  });
  it('says when no reading changes the verdict', () => {
    const row = claimRow(claim, { main: e(-30, 2), readings, seeds: 10 });
    expect(row.reason).toMatch(/no reading of trial cost, .* changes the verdict/);
  });
  it('names the default reading instead of repeating its number, and each other choice that flips it by its reading', () => {
    const flipped = readings.map((r) =>
      r.path === 'pipeline.assumptions.trialCost' && r.value === 'pipelined' ? { ...r, estimate: e(15, 2) } : r.path === 'pipeline.assumptions.database' && r.value === 'measured' ? { ...r, estimate: e(12, 1) } : r.path === 'pipeline.assumptions.trialCost' && r.value === 'free' ? { ...r, estimate: e(-25, 2) } : r,
    );
    const row = claimRow(claim, { main: e(-30, 2), readings: flipped, seeds: 10 });
    expect(row.reason).toContain('fails with trial cost = serial (the default)');
    expect(row.reason).toContain('so does database = measured (holds, +12.0 ± 1.00)');
    expect(row.reason.match(/-30/g)?.length).toBe(1);
  });
  it('gives the range of the readings when none flips it', () => {
    const spread = readings.map((r, i) => ({ ...r, estimate: e(-30 + i, 2) }));
    const row = claimRow(claim, { main: e(-30, 2), readings: spread, seeds: 10 });
    expect(row.reason).toContain(`(its readings give -30.0 to ${formatEstimate(e(-30 + spread.length - 1, 0, 1))})`);
  });
  it('a learning row states its seeds and run length once, beside the paper\'s', () => {
    const learning = byId('bcedge-fig15-vs-deeprt');
    const row = claimRow(learning, { main: e(-60, 4, 4), readings: [], seeds: 4 });
    expect(row.reason).toContain("4 seeds of 300 s of serving (the paper: 3000 s)");
    expect(row.reason.match(/seeds/g)?.length).toBe(1);
    const noisy = claimRow(learning, { main: e(-1, 40, 4), readings: [], seeds: 4 });
    expect(noisy.reason).toContain('inside the noise of 4 seeds');
    expect(noisy.reason.match(/seeds/g)?.length).toBe(1);
    expect(noisy.reason).toContain('300 s of serving (the paper: 3000 s)');
    const halves = claimRow(byId('bcedge-fig8-9-saturate'), { main: e(5, 1, 4), readings: [], seeds: 4 });
    expect(halves.reason).toContain('4 seeds of runs of 300 and 600 s (the paper: halves of 1500 s)');
  });
  it('says which choices were not computed under every reading, rather than that they agree', () => {
    const partial = readings.map((r) => (r.path === 'pipeline.assumptions.database' ? { ...r, estimate: null } : r));
    const row = claimRow(claim, { main: e(-30, 2), readings: partial, seeds: 10 });
    expect(row.reason).toMatch(/no number under database = \S+ or \S+ \(the metric is missing from those runs\)/);
    expect(row.reason).not.toMatch(/no reading of [^;]*database/);
  });
  it('a row that could not be computed is not a verdict of the claim', () => {
    const row = claimRow(claim, { main: null, readings: [] });
    expect(row.verdict).toBe('noise');
    expect(row.estimate).toBeNull();
    expect(row.reason).toContain('not computed');
  });
});

describe('the learning runs (claims --learning-length, --learning-seeds)', () => {
  it('set the learning rows’ run length, the two lengths of Figs. 8–9 alike, and their seed cap; the other rows stay as they are', () => {
    const long = withLearningRuns(allClaims(), { lengthS: 3000, seeds: 5 });
    expect(withLearningRuns(allClaims(), DEFAULT_LEARNING_RUNS)).toEqual(allClaims());
    for (const [i, claim] of long.entries()) {
      if (!claim.learns) {
        expect(claim, claim.id).toBe(allClaims()[i]);
        continue;
      }
      const { main } = claimScenarios(claim, 10);
      expect(main.sweep!.seeds, claim.id).toBe(5);
      const lengths = main.sweep!.axes.find((a) => a.path === 'serving.durationS')?.values;
      if (claim.id === 'bcedge-fig8-9-saturate') expect(lengths).toEqual([3000, 6000]);
      else expect(main.world === 'serving' && main.serving.durationS, claim.id).toBe(3000);
    }
    const row = claimRow(long.find((c) => c.id === 'bcedge-fig15-40rps')!, { main: e(3, 1, 5), readings: [], seeds: 5 });
    expect(row.reason).toContain('5 seeds of 3000 s of serving (the paper: 3000 s)');
    expect(row.note).toContain('3000 s');
  });

  it('may run the readings of a learning row shorter than the row itself (--learning-readings-length): each reading, the default one too, at that length', () => {
    const [claim] = withLearningRuns([byId('bcedge-fig8-9-saturate')], { lengthS: 3000, seeds: 5, readingsLengthS: 300 });
    const { main, readings } = claimScenarios(claim!, 10);
    expect(main.sweep!.axes.find((a) => a.path === 'serving.durationS')?.values).toEqual([3000, 6000]);
    expect(readings.length).toBeGreaterThan(0);
    for (const r of readings) {
      expect(r.scenario.sweep!.axes.find((a) => a.path === 'serving.durationS')?.values, r.label).toEqual([300, 600]);
      expect(r.scenario.sweep!.seeds, r.label).toBe(5);
    }
    const [fig7] = withLearningRuns([byId('bcedge-fig7-vs-tac')], { lengthS: 3000, seeds: 5, readingsLengthS: 300 });
    const scenarios = claimScenarios(fig7!, 10);
    expect(scenarios.main.world === 'serving' && scenarios.main.serving.durationS).toBe(3000);
    for (const r of scenarios.readings) expect(r.scenario.world === 'serving' && r.scenario.serving.durationS, r.label).toBe(300);
    expect(fig7!.measure.note).toContain('their readings 300 s');
    // The readings at the rows' own length are no change at all.
    expect(withLearningRuns(allClaims(), { ...DEFAULT_LEARNING_RUNS, readingsLengthS: DEFAULT_LEARNING_RUNS.lengthS })).toEqual(allClaims());
  });
});

describe('a plan of the claims and its shards', () => {
  it('numbers every distinct scenario’s cells across the plan; the shards split them round robin, each cell once; their rows are the unsharded rows', async () => {
    const claims = [byId('odin-fig8-overhead'), byId('odin-fig1-evict')];
    const plan = planClaims(claims, 2);
    expect(plan.scenarios[0]!.first).toBe(0);
    for (let i = 1; i < plan.scenarios.length; i++) expect(plan.scenarios[i]!.first).toBe(plan.scenarios[i - 1]!.first + plan.scenarios[i - 1]!.cells);
    const owners = new Map<number, number>();
    for (let index = 0; index < 3; index++) {
      for (const { scenario, cells } of planShardCells(plan, { index, count: 3 })) {
        for (const c of cells) {
          const global = scenario.first + c.index;
          expect(global % 3).toBe(index);
          expect(owners.has(global)).toBe(false);
          owners.set(global, index);
        }
      }
    }
    expect(owners.size).toBe(plan.cells);
    const fake = async (scenario: AnyScenario, seeds: readonly number[], cells: readonly { index: number; seed: number; combination: number }[]) =>
      fakeOutcomes(scenario, seeds, (c, seed, lane) => ({ overheadPct: 10 + c + seed + lane, configThroughputMeanQps: 5 + lane + seed })).filter((o) => cells.some((x) => x.index === o.index));
    const whole = await computeClaims(claims, 2, (scenario, seeds) => fake(scenario, seeds, sweepCells(scenario, seeds)));
    // The shards' outcomes put together by scenario, in canonical order.
    const joined = new Map<string, CellOutcome[]>();
    for (let index = 0; index < 3; index++) {
      for (const [key, outcomes] of await runPlanCells(plan, { index, count: 3 }, fake)) joined.set(key, [...(joined.get(key) ?? []), ...outcomes].sort((x, y) => x.index - y.index));
    }
    expect(planRows(plan, joined)).toEqual(whole);
  });
});

describe('computeClaims', () => {
  it('runs each distinct scenario once, shares cells between claims, and reports progress up to the total', async () => {
    const claims = [byId('odin-fig6-throughput'), byId('odin-fig5-latency')].map((c) => ({ ...c, sensitivity: c.sensitivity.slice(0, 1) }));
    const runs: string[] = [];
    const progress: [number, number][] = [];
    const rows = await computeClaims(
      claims,
      2,
      async (scenario, seeds) => {
        runs.push(scenario.world === 'pipeline' ? scenario.pipeline.assumptions.trialCost : '');
        return fakeOutcomes(scenario, seeds, (c, seed, lane) => ({ throughputMeanQps: lane + 1 + seed, latencyMeanMs: 10 - lane }));
      },
      (done, total) => progress.push([done, total]),
    );
    // The default reading (serial) is the main scenario: serial, pipelined, free once each for both claims.
    expect(runs).toEqual(['serial', 'pipelined', 'free']);
    expect(rows.map((r) => r.id)).toEqual(['odin-fig6-throughput', 'odin-fig5-latency']);
    expect(progress.at(-1)![0]).toBe(progress.at(-1)![1]);
    expect(rows[0]!.references!.map((r) => r.label)).toEqual(['lane 3', 'lane 4']);
  });
});
