// A Playwright reporter that writes one JSON line per finished test to a file, as each test
// ends (playwright.config.ts adds it when PW_PROGRESS names the file). Playwright writes its
// JSON report only once the whole run is over: a run stopped by `npm test`'s time cap has
// none, and without these lines the tests that had already passed or failed counted as
// nothing (scripts/ci-summary.mjs `countPlaywrightProgress` reads them then).
//
// Each line is appended and flushed at once, so that a run stopped by SIGKILL keeps every line
// of the tests that ended before it. The file is only ever appended to: scripts/test.mjs starts
// it empty, and every Playwright run of its end-to-end step adds its lines.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * @typedef {import('@playwright/test/reporter').Reporter} Reporter
 * @typedef {import('@playwright/test/reporter').TestCase} TestCase
 * @typedef {import('@playwright/test/reporter').TestResult} TestResult
 * @typedef {import('@playwright/test/reporter').TestError} TestError
 */

/**
 * One line of the file: a test that ended (its outcome as Playwright's JSON report counts it:
 * expected, unexpected, flaky or skipped, with the attempts so far), or an error outside any test.
 * @typedef {{ id: string, title: string, status: string, outcome: string }
 *   | { error: string }} ProgressLine
 */

/** @implements {Reporter} */
export default class ProgressReporter {
  /** @param {{ outputFile?: string }} [options] */
  constructor(options = {}) {
    if (options.outputFile === undefined || options.outputFile === '') {
      throw new TypeError('e2eProgress: the reporter needs { outputFile }');
    }
    /** @type {string} */
    this.file = options.outputFile;
    mkdirSync(dirname(this.file), { recursive: true });
  }

  /**
   * @param {TestCase} test
   * @param {TestResult} result
   */
  onTestEnd(test, result) {
    this.write({ id: test.id, title: test.titlePath().filter((part) => part !== '').join(' › '), status: result.status, outcome: test.outcome() });
  }

  /** @param {TestError} error */
  onError(error) {
    this.write({ error: (error.message ?? error.value ?? 'error').split('\n')[0] ?? 'error' });
  }

  printsToStdio() {
    return false;
  }

  /** @param {ProgressLine} line */
  write(line) {
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}
