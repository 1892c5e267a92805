import { describe, expect, it } from 'vitest';
import { countPlaywright, countPlaywrightProgress, countStep, countVitest, mergePlaywrightReports, parseArgs } from './ci-summary.mjs';

describe('countVitest', () => {
  it('counts passed and failed tests', () => {
    const report = { success: false, numPassedTests: 7, numFailedTests: 2, testResults: [] };
    expect(countVitest(report, 1)).toMatchObject({ passed: 7, failed: 2 });
  });

  it('counts zero failures as zero', () => {
    const report = { success: true, numPassedTests: 5, numFailedTests: 0, testResults: [] };
    expect(countVitest(report, 0)).toMatchObject({ passed: 5, failed: 0 });
  });

  it('counts a test file that fails to load', () => {
    const report = {
      success: false,
      numPassedTests: 3,
      numFailedTests: 0,
      testResults: [{ status: 'failed', assertionResults: [], message: 'SyntaxError' }],
    };
    expect(countVitest(report, 1)).toMatchObject({ passed: 3, failed: 1 });
  });

  it('counts a failed run with nothing failed in it as 1 failed', () => {
    const report = { success: true, numPassedTests: 3, numFailedTests: 0, testResults: [] };
    expect(countVitest(report, 1)).toMatchObject({ passed: 3, failed: 1 });
  });

  it('counts a missing report as 1 failed', () => {
    expect(countVitest(undefined, 0)).toMatchObject({ passed: 0, failed: 1 });
  });
});

describe('countPlaywright', () => {
  it('counts expected as passed and unexpected, flaky and errors as failed', () => {
    const report = { stats: { expected: 4, unexpected: 1, flaky: 1, skipped: 2 }, errors: [{}] };
    expect(countPlaywright(report, 1)).toMatchObject({ passed: 4, failed: 3 });
  });

  it('counts a clean run', () => {
    const report = { stats: { expected: 1, unexpected: 0, flaky: 0, skipped: 0 }, errors: [] };
    expect(countPlaywright(report, 0)).toMatchObject({ passed: 1, failed: 0 });
  });

  it('counts a missing report as 1 failed', () => {
    expect(countPlaywright(undefined, 1)).toMatchObject({ passed: 0, failed: 1 });
    expect(countPlaywright(undefined, 1, '')).toMatchObject({ passed: 0, failed: 1 });
  });

  it('without a report, counts the progress lines of the tests that finished, and the stopped run as 1 failed', () => {
    const progress = [
      { id: 'a', title: 'a', status: 'passed', outcome: 'expected' },
      { id: 'b', title: 'b', status: 'failed', outcome: 'unexpected' },
      { id: 'c', title: 'c', status: 'passed', outcome: 'expected' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    expect(countPlaywright(undefined, 124, `${progress}\n`)).toMatchObject({ passed: 2, failed: 2 });
    // A report, when there is one, is what counts.
    const report = { stats: { expected: 5, unexpected: 0, flaky: 0, skipped: 0 }, errors: [] };
    expect(countPlaywright(report, 0, progress)).toMatchObject({ passed: 5, failed: 0 });
  });
});

describe('countPlaywrightProgress', () => {
  it("takes a retried test's last line, leaves out skipped tests and a line cut short, and counts errors outside tests", () => {
    const lines = [
      JSON.stringify({ id: 'r', title: 'retried', status: 'failed', outcome: 'unexpected' }),
      JSON.stringify({ id: 's', title: 'skipped', status: 'skipped', outcome: 'skipped' }),
      JSON.stringify({ id: 'r', title: 'retried', status: 'passed', outcome: 'flaky' }),
      JSON.stringify({ id: 'p', title: 'passed', status: 'passed', outcome: 'expected' }),
      JSON.stringify({ error: 'e2e/x.spec.ts: SyntaxError' }),
      '{"id":"q","title":"cut',
    ];
    const count = countPlaywrightProgress(lines.join('\n'), 143);
    // passed: p; failed: r (flaky, as in the JSON report), the error, the stopped run.
    expect(count).toMatchObject({ passed: 1, failed: 3 });
    expect(count.note).toContain('exit code 143');
  });

  it('counts a run stopped before any test ended as 1 failed', () => {
    expect(countPlaywrightProgress('\n', 124)).toMatchObject({ passed: 0, failed: 1 });
  });
});

describe('mergePlaywrightReports', () => {
  it("adds up the passes' counts and keeps every suite and error", () => {
    const first = { config: { workers: 2 }, suites: [{ title: 'a.spec.ts' }], errors: [], stats: { startTime: 't0', duration: 10, expected: 96, unexpected: 1, flaky: 0, skipped: 0 } };
    const second = { config: { workers: 1 }, suites: [{ title: 'p.spec.ts' }], errors: [{ message: 'x' }], stats: { startTime: 't1', duration: 5, expected: 1, unexpected: 0, flaky: 0, skipped: 0 } };
    const merged = mergePlaywrightReports([first, second]);
    expect(merged).toMatchObject({ config: { workers: 2 }, suites: [{ title: 'a.spec.ts' }, { title: 'p.spec.ts' }], errors: [{ message: 'x' }], stats: { startTime: 't0', duration: 15, expected: 97, unexpected: 1 } });
    expect(countPlaywright(merged, 1)).toMatchObject({ passed: 97, failed: 2 });
  });

  it('gives no report when a pass has none (it was stopped): its progress lines count then', () => {
    expect(mergePlaywrightReports([{ stats: { expected: 1 } }, undefined])).toBeUndefined();
    expect(mergePlaywrightReports([])).toBeUndefined();
  });
});

describe('countStep and parseArgs', () => {
  it('counts a failed step as 1 failed and a passed one as nothing', () => {
    expect(countStep(2)).toMatchObject({ passed: 0, failed: 1 });
    expect(countStep(0)).toMatchObject({ passed: 0, failed: 0 });
  });

  it('reads the output folder and the steps in order', () => {
    const { outDir, steps } = parseArgs(['--out', 'x/out', 'typecheck=0', 'lint=1']);
    expect(outDir).toBe('x/out');
    expect([...steps]).toEqual([
      ['typecheck', 0],
      ['lint', 1],
    ]);
  });
});
