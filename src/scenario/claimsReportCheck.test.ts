import { describe, expect, it } from 'vitest';
import { checkClaimsReport, checkClaimsReportInSteps, parseClaimsReportJson, parseClaimsReportJsonInSteps } from './claimsReportCheck';
import { allClaims, computeClaims } from './claims';
import type { AnyScenario } from './schema';
import { sweepCells } from './sweep';
import { runCell } from './sweepReport';
import { fixtureReport } from './testing/claimsFixture';

const DELETE = Symbol('delete');
const COPY_FIRST_ID = Symbol('the first row\'s id');

/** A deep copy of the fixture as plain JSON with the field at `at` (dotted, digits index lists) set to `value` or deleted. */
function broken(at: string, value: unknown): unknown {
  const doc = JSON.parse(JSON.stringify(fixtureReport())) as unknown;
  const keys = at.split('.');
  let parent = doc as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (value === DELETE) delete parent[last];
  else parent[last] = value === COPY_FIRST_ID ? (((doc as { rows: { id: string }[] }).rows[0]!).id) : value;
  return doc;
}

function pathsOf(input: unknown): string[] {
  const checked = checkClaimsReport(input);
  return checked.ok ? [] : checked.errors.map((e) => e.path);
}

describe('the reproduction report door', () => {
  it('accepts a good report, through JSON, with its scenarios validated', () => {
    const checked = parseClaimsReportJson(JSON.stringify(fixtureReport()));
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.report.rows.map((r) => r.id)).toEqual(['odin-fig6-throughput', 'odin-s42-queries', 'bcedge-fig14-predictor']);
    expect(checked.report.rows[0]!.scenario.world).toBe('pipeline');
    expect(checked.report.rows[2]!.scenario.world).toBe('serving');
    expect(checked.report.provenance.seeds).toBe(2);
  });

  it.each<[string, string, unknown]>([
    ['version', 'version', 2],
    ['provenance.seeds', 'provenance.seeds', 0],
    ['provenance.commit', 'provenance.commit', DELETE],
    ['rows', 'rows', 'none'],
    ['rows[0].id', 'rows.0.id', 'Has Spaces'],
    ['rows[1].paper', 'rows.1.paper', 'alexnet'],
    ['rows[0].verdict', 'rows.0.verdict', 'maybe'],
    ['rows[0].estimate.mean', 'rows.0.estimate.mean', 'high'],
    ['rows[0].estimate.halfWidth95', 'rows.0.estimate.halfWidth95', -1],
    ['rows[0].estimate.seeds', 'rows.0.estimate.seeds', 1.5],
    ['rows[0].sensitivity[0].readings[1].verdict', 'rows.0.sensitivity.0.readings.1.verdict', 'yes'],
    ['rows[0].sensitivity[0].readings[0].value', 'rows.0.sensitivity.0.readings.0.value', { a: 1 }],
    ['rows[0].sensitivity[0].label', 'rows.0.sensitivity.0.label', DELETE],
    ['rows[2].learns', 'rows.2.learns', 'yes'],
    ['rows[1].quote', 'rows.1.quote', ''],
    ['rows[1].scenario.pipeline.executionPlaces', 'rows.1.scenario.pipeline.executionPlaces', 1000],
    ['rows[2].scenario.serving.rateRps', 'rows.2.scenario.serving.rateRps', -3],
    ['rows[1].id', 'rows.1.id', COPY_FIRST_ID],
    ['rows[0].references[1].estimate.mean', 'rows.0.references.1.estimate.mean', null],
    ['rows[0].references[0].label', 'rows.0.references.0.label', ''],
    ['rows[0].seeds', 'rows.0.seeds', 0],
    ['rows[0].note', 'rows.0.note', 3],
    ['rows[0].estimate.unit', 'rows.0.estimate.unit', 'percent'],
    ['rows[0].estimate.baseline', 'rows.0.estimate.baseline', 'low'],
  ])('names the malformed field %s', (path, at, value) => {
    const paths = pathsOf(broken(at, value));
    expect(paths).toContain(path);
  });

  it('lists the papers the worlds declare when a row names another', () => {
    const checked = checkClaimsReport(broken('rows.1.paper', 'alexnet'));
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors.find((e) => e.path === 'rows[1].paper')?.message).toBe('must be a paper of the worlds: "odin" or "bcedge", got "alexnet"');
  });

  it('names the file itself when it is not JSON, not an object, or too large', () => {
    const notJson = parseClaimsReportJson('{"version": 1,');
    expect(notJson.ok).toBe(false);
    if (!notJson.ok) expect(notJson.errors[0]).toMatchObject({ path: '(report)', message: expect.stringContaining('not JSON') });
    expect(pathsOf(null)).toEqual(['(report)']);
    const huge = parseClaimsReportJson(' '.repeat(17 * 1024 * 1024));
    expect(huge.ok ? [] : huge.errors.map((e) => e.message)).toEqual(['is larger than 16 MB']);
  });

  it('does not let a hostile document escape the door', () => {
    const hostile = JSON.parse(JSON.stringify(fixtureReport())) as Record<string, unknown>;
    Object.defineProperty(hostile, 'rows', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const checked = checkClaimsReport(hostile);
    expect(checked.ok).toBe(false);
  });

  it('the door in steps gives the same answers, yielding once per row', async () => {
    let yields = 0;
    const yieldNow = async () => void yields++;
    const good = await parseClaimsReportJsonInSteps(JSON.stringify(fixtureReport()), yieldNow);
    expect(good).toEqual(parseClaimsReportJson(JSON.stringify(fixtureReport())));
    expect(yields).toBe(3);
    const bad = broken('rows.2.scenario.serving.rateRps', -3);
    expect(await checkClaimsReportInSteps(bad, yieldNow)).toEqual(checkClaimsReport(bad));
  });

  it('keeps a difference in percentage points as one (Fig. 15 against DeepRT near 0)', () => {
    const checked = checkClaimsReport(broken('rows.0.estimate', { mean: 4.2, halfWidth95: 1, seeds: 2, unit: 'points', baseline: 0.03 }));
    expect(checked.ok && checked.report.rows[0]!.estimate).toEqual({ mean: 4.2, halfWidth95: 1, seeds: 2, unit: 'points', baseline: 0.03 });
  });

  it('drops fields it does not know (a report from a newer command still opens)', () => {
    const checked = checkClaimsReport(broken('rows.0.extra', 1));
    expect(checked.ok && 'extra' in checked.report.rows[0]!).toBe(false);
  });

  it('accepts the rows the registry computes', async () => {
    const claims = allClaims().filter((c) => c.id === 'odin-fig1-interference' || c.id === 'odin-fig1-evict');
    const inProcess = async (scenario: AnyScenario, seeds: readonly number[]) => sweepCells(scenario, seeds).map((cell) => runCell(scenario, cell, () => 0, undefined));
    const rows = await computeClaims(claims, 2, inProcess);
    const report = { ...fixtureReport(), rows };
    const checked = parseClaimsReportJson(JSON.stringify(report));
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    expect(checked.ok && checked.report.rows[1]!.references?.length).toBeGreaterThan(0);
  });
});
