import { describe, expect, it } from 'vitest';
import shipped from '../../public/claims/report.json';
import type { Claim } from './claimModel';
import { cellsKey, allClaims, claimScenarios, computeClaims, judgeEstimate } from './claims';
import { DEFAULT_LEARNING_RUNS, withLearningRuns } from './learningRuns';
import type { ClaimRow, ClaimsReport } from './claimsReport';
import { checkClaimsReport } from './claimsReportCheck';
import { REAL_CLAIM_ID } from '../worlds/pipeline/scenario/realClaim';
import { parseAnyScenario } from './parse';
import type { AnyScenario } from './schema';
import { sweepCells } from './sweep';
import { runCell } from './sweepReport';

/**
 * The report the page ships (public/claims/report.json, written by `npm run claims -- --format
 * json --workers auto --out public/claims/report.json`) must be what the code computes: its
 * non-learning rows are recomputed here with the report's own seeds, in this thread, and must
 * match exactly. The sensitivity readings are recomputed in full for the claims whose cells are
 * cheap (one combination, or the 4 × 4 Fig. 1 grid); for the §4.2 grid claims the default
 * readings and the reference lanes are (the readings cost ten times as much again: the CLI's
 * report is their check). Learning rows are not recomputed (minutes per cell, and wall-clock
 * decision times); they are checked for shape and consistency only.
 */
const report = shipped as unknown as ClaimsReport;

/**
 * What the registry changed since the shipped report was computed, until it is regenerated
 * (README, "Does it reproduce the papers?"; computing it takes hours of learning runs, so it is
 * regenerated apart from the change): readings named since (missing from its strips) and rows
 * measured otherwise since (checked for shape only). The report's commit is named, so that a
 * regenerated report fails here until this is emptied.
 */
/**
 * Version 12 (src/scenario/limits.ts): a BCEdge lane started from a saved agent acts greedily
 * until it first learns online and, under the fixed slot, starts from the agent trained under it;
 * the BCEdge agent was re-trained (README, "Training"). The report's scenarios open with version
 * 11's values written in (another cell), and its pretrained rows ran the earlier agent.
 */
const VERSION_12 = 'version 12: pretrained BCEdge lanes act greedily until they learn online, and the shipped agent was re-trained';
const STALE: { readonly commit: string; readonly readings: readonly string[]; readonly rows: Readonly<Record<string, string>> } = {
  commit: '6d92246',
  readings: [],
  rows: {
    'bcedge-fig7-vs-deeprt': VERSION_12,
    'bcedge-fig7-vs-tac': VERSION_12,
    'bcedge-fig8-9-saturate': VERSION_12,
    'bcedge-fig10-convergence': VERSION_12,
    'bcedge-fig11-nano-vs-deeprt': VERSION_12,
    'bcedge-fig11-nano-vs-tac': VERSION_12,
    'bcedge-fig11-tx2-vs-deeprt': VERSION_12,
    'bcedge-fig12-latency': VERSION_12,
    'bcedge-fig13-predictor': VERSION_12,
    'bcedge-fig13-vs-linear': VERSION_12,
    'bcedge-fig14-predictor-slo': VERSION_12,
    'bcedge-fig15-vs-deeprt': VERSION_12,
    'bcedge-fig15-vs-tac': VERSION_12,
    'bcedge-fig15-40rps': VERSION_12,
    'bcedge-fig16-vs-deeprt': VERSION_12,
    'bcedge-fig16-vs-tac': VERSION_12,
  },
};
/**
 * Readings whose default changed every serving row's cells since that report: Eq. 1's per-model
 * slot (the report's scenarios open with `fixed`, the slot they ran with) and late requests
 * rejected (they open with `keep`). While it is that report, every BCEdge row is stale.
 */
const SERVING_CELL_READINGS = ['serving.assumptions.slot', 'serving.assumptions.lateRequests'];
const stale = (id: string): boolean => id in STALE.rows || (STALE.readings.some((r) => SERVING_CELL_READINGS.includes(r)) && id.startsWith('bcedge-'));

/** A scenario through the door (migrations included), so that a report's older scenarios compare with the registry's. */
function opened(scenario: unknown): AnyScenario {
  const parsed = parseAnyScenario(JSON.parse(JSON.stringify(scenario)));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

/** The strips a shipped row has: the registry's, but the readings named since the report. */
function shippedPaths(claim: Claim, row: Pick<ClaimRow, 'sensitivity'>): string[] {
  const paths = row.sensitivity.map((s) => s.path);
  return claim.sensitivity.map((s) => s.path).filter((p) => paths.includes(p) || !STALE.readings.includes(p));
}

const inThisThread = async (scenario: Parameters<typeof sweepCells>[0], seeds: readonly number[]) => sweepCells(scenario, seeds).map((cell) => runCell(scenario, cell, () => 0, undefined));

const cheap = allClaims().filter((c) => !c.learns);
const FULL = new Set(['odin-fig1-interference', 'odin-fig1-evict', 'odin-fig1-optimal', 'odin-fig3-recovery', 'odin-fig10-scaling', 'bcedge-fig1-throughput', 'bcedge-fig1-latency']);

describe('the shipped claims report', () => {
  it('has one row per claim of the registry, in its order, with its provenance', () => {
    expect(report.version).toBe(1);
    expect(report.rows.map((r) => r.id)).toEqual(allClaims().map((c) => c.id));
    for (const key of ['commit', 'date', 'machine', 'command'] as const) expect(report.provenance[key].length).toBeGreaterThan(0);
    expect(report.provenance.command).toContain('--format json');
  });

  it("carries the lab's machine claim (a real pipeline on a named machine beside its simulation), with its interval and machine", () => {
    const row = report.machineRows?.find((r) => r.id === REAL_CLAIM_ID);
    expect(row).toBeDefined();
    expect(row!.estimate).not.toBeNull();
    // Several interleaved real runs a lane: an interval, not a single run's 0.
    expect(row!.estimate!.seeds).toBeGreaterThanOrEqual(5);
    expect(row!.estimate!.halfWidth95).toBeGreaterThan(0);
    expect(row!.provenance.machine).toMatch(/logical cores/);
    expect(row!.lanes.map((l) => l.scheduler).sort()).toEqual(['lls', 'odin']);
    for (const lane of row!.lanes) expect(lane.throughputErrorHalfWidth95Pct).toBeGreaterThan(0);
  });

  it("passes the page's own check of a report (the Claims view refuses a report that does not)", () => {
    const checked = checkClaimsReport(shipped);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
  });

  it('names what the registry changed since it was computed only while it is that report', () => {
    const changes = STALE.readings.length + Object.keys(STALE.rows).length;
    // A regenerated report has another commit: STALE must then be emptied.
    expect(changes === 0 || report.provenance.commit === STALE.commit, `the report is of commit ${report.provenance.commit}: empty STALE`).toBe(true);
    for (const id of Object.keys(STALE.rows)) expect(allClaims().some((c) => c.id === id), id).toBe(true);
    // Each reading named since is missing from some row (else it is not news to this report).
    for (const path of STALE.readings) expect(report.rows.some((r) => !r.sensitivity.some((s) => s.path === path)), path).toBe(true);
  });

  it("gives every row the verdict its rule gives its number, and the claim's own scenario (its cells, sweep and title)", () => {
    // The learning rows ran with the report's learning runs (its provenance; the registry's before it was recorded).
    const claims = withLearningRuns(allClaims(), report.provenance.learning ?? DEFAULT_LEARNING_RUNS);
    for (const row of report.rows.filter((r) => !stale(r.id))) {
      const claim = claims.find((c) => c.id === row.id)!;
      if (row.estimate !== null) expect(row.verdict, row.id).toBe(judgeEstimate(claim.rule, row.estimate).verdict);
      const main = claimScenarios(claim, row.seeds ?? report.provenance.seeds).main;
      // An older report's scenario opens with its own readings written in (migrations): the same cells.
      expect(cellsKey(opened(row.scenario)), row.id).toBe(cellsKey(opened(main)));
      expect([row.scenario.title, row.scenario.sweep], row.id).toEqual([main.title, main.sweep]);
      expect(row.sensitivity.map((s) => s.path), row.id).toEqual(shippedPaths(claim, row));
    }
  });

  it(
    'matches a fresh computation of every non-learning claim, with the same seeds',
    async () => {
      const seeds = report.provenance.seeds;
      const full = await computeClaims(
        cheap.filter((c) => FULL.has(c.id) && !stale(c.id)),
        seeds,
        inThisThread,
      );
      for (const row of full) {
        const shippedRow = report.rows.find((r) => r.id === row.id)!;
        const claim = allClaims().find((c) => c.id === row.id)!;
        if (shippedPaths(claim, shippedRow).length === claim.sensitivity.length) {
          // The report's scenario as the door opens it (an older version is migrated).
          expect({ ...shippedRow, scenario: opened(shippedRow.scenario) }, row.id).toEqual({ ...row, scenario: opened(row.scenario) });
          continue;
        }
        // A reading named since: every number the report has is the same (the reason names the new strip too).
        expect([shippedRow.estimate, shippedRow.references, shippedRow.verdict], row.id).toEqual([row.estimate, row.references, row.verdict]);
        for (const strip of shippedRow.sensitivity) expect(strip, `${row.id} ${strip.path}`).toEqual(row.sensitivity.find((s) => s.path === strip.path));
      }
      const gridOnly: Claim[] = cheap.filter((c) => !FULL.has(c.id) && !stale(c.id)).map((c) => ({ ...c, sensitivity: [] }));
      const main = await computeClaims(gridOnly, seeds, inThisThread);
      for (const row of main) {
        const shippedRow = report.rows.find((r) => r.id === row.id)!;
        expect(shippedRow.estimate, row.id).toEqual(row.estimate);
        expect(shippedRow.references, row.id).toEqual(row.references);
        expect(shippedRow.verdict, row.id).toBe(row.verdict);
      }
    },
    240_000,
  );
});
