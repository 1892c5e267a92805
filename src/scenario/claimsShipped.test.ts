import { describe, expect, it } from 'vitest';
import shipped from '../../public/claims/report.json';
import { CLAIMS, claimScenarios, computeClaims, type Claim } from './claims';
import type { ClaimsReport } from './claimsReport';
import { checkClaimsReport } from './claimsReportCheck';
import { sweepCells } from './sweep';
import { runCell } from './sweepReport';
import { judge } from './verdict';

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

const inThisThread = async (scenario: Parameters<typeof sweepCells>[0], seeds: readonly number[]) => sweepCells(scenario, seeds).map((cell) => runCell(scenario, cell, () => 0, undefined));

const cheap = CLAIMS.filter((c) => !c.learns);
const FULL = new Set(['odin-fig1-interference', 'odin-fig1-evict', 'odin-fig1-optimal', 'odin-fig3-recovery', 'odin-fig10-scaling', 'bcedge-fig1-throughput', 'bcedge-fig1-latency']);

describe('the shipped claims report', () => {
  it('has one row per claim of the registry, in its order, with its provenance', () => {
    expect(report.version).toBe(1);
    expect(report.rows.map((r) => r.id)).toEqual(CLAIMS.map((c) => c.id));
    for (const key of ['commit', 'date', 'machine', 'command'] as const) expect(report.provenance[key].length).toBeGreaterThan(0);
    expect(report.provenance.command).toContain('--format json');
  });

  it("passes the page's own check of a report (the Claims view refuses a report that does not)", () => {
    const checked = checkClaimsReport(shipped);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
  });

  it("gives every row the verdict its rule gives its number, and the claim's own scenario", () => {
    for (const row of report.rows) {
      const claim = CLAIMS.find((c) => c.id === row.id)!;
      if (row.estimate !== null) expect(row.verdict, row.id).toBe(judge(claim.rule, row.estimate).verdict);
      expect(row.scenario, row.id).toEqual(claimScenarios(claim, row.seeds ?? report.provenance.seeds).main);
      expect(row.sensitivity.map((s) => s.path)).toEqual(claim.sensitivity.map((s) => s.path));
    }
  });

  it(
    'matches a fresh computation of every non-learning claim, with the same seeds',
    async () => {
      const seeds = report.provenance.seeds;
      const full = await computeClaims(
        cheap.filter((c) => FULL.has(c.id)),
        seeds,
        inThisThread,
      );
      for (const row of full) expect(report.rows.find((r) => r.id === row.id), row.id).toEqual(row);
      const gridOnly: Claim[] = cheap.filter((c) => !FULL.has(c.id)).map((c) => ({ ...c, sensitivity: [] }));
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
