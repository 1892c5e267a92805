// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
import { existsSync, readFileSync } from 'node:fs';
import { allClaims, computeClaims } from '../src/scenario/claims';
import { CLAIMS_REPORT_VERSION, type ClaimsReport } from '../src/scenario/claimsReport';
import type { AnyScenario } from '../src/scenario/schema';
import { sweepCells } from '../src/scenario/sweep';
import { runCell } from '../src/scenario/sweepReport';

/** The report the build ships (`npm run claims -- --format json --out public/claims/report.json`). */
export const SHIPPED_REPORT = 'public/claims/report.json';

/** The cheap pipeline claims the e2e tests recompute in the page (one scenario of a few cells each). */
export const CHEAP_CLAIMS = ['odin-fig1-interference', 'odin-fig1-evict', 'odin-fig1-optimal', 'odin-fig10-scaling'] as const;

/**
 * The shipped report, or — in a checkout that has none yet — a small one computed here, in
 * this process, from the registry's cheap claims with 3 seeds (the test then serves it in
 * place of the missing file). Either way every number in it was computed by `computeClaims`.
 */
export async function shippedOrCheapReport(): Promise<{ readonly report: ClaimsReport; readonly shipped: boolean }> {
  if (existsSync(SHIPPED_REPORT)) return { report: JSON.parse(readFileSync(SHIPPED_REPORT, 'utf8')) as ClaimsReport, shipped: true };
  const claims = allClaims().filter((c) => (CHEAP_CLAIMS as readonly string[]).includes(c.id));
  const inProcess = async (scenario: AnyScenario, seeds: readonly number[]) => sweepCells(scenario, seeds).map((cell) => runCell(scenario, cell, () => 0, undefined));
  const rows = await computeClaims(claims, 3, inProcess);
  return {
    report: { version: CLAIMS_REPORT_VERSION, provenance: { commit: 'e2e', seeds: 3, date: new Date().toISOString(), machine: `Node ${process.version}, ${process.platform} ${process.arch}`, command: 'e2e/claimsReport.ts (cheap claims, in-process)' }, rows },
    shipped: false,
  };
}
