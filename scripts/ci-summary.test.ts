import { describe, expect, it } from 'vitest';
import { countPlaywright, countStep, countVitest, parseArgs } from './ci-summary.mjs';

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
