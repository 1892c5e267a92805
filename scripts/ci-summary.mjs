// Sums up a .ci/run: reads the Vitest and Playwright JSON reports and the exit codes of
// the other steps, and prints `N passed, N failed` as its very last line.
//
//   node scripts/ci-summary.mjs --out .ci/out typecheck=0 lint=0 vitest=0 build=0 playwright=0
//
// Exit code 0 when nothing failed, 1 otherwise.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {object} RunnerCount
 * @property {number} passed
 * @property {number} failed
 * @property {string} note what was counted, for the breakdown
 */

/**
 * Counts a Vitest JSON report. A test file that fails before any test runs (an import or
 * syntax error) has no failed test but is a failure; so is a failed run with nothing counted.
 * @param {unknown} report parsed JSON, or undefined when the file is missing or unreadable
 * @param {number} exitCode the runner's exit code
 * @returns {RunnerCount}
 */
export function countVitest(report, exitCode) {
  if (!isRecord(report)) {
    return { passed: 0, failed: 1, note: 'no JSON report (runner crashed?)' };
  }
  const passed = numberOr0(report['numPassedTests']);
  let failed = numberOr0(report['numFailedTests']);
  const files = Array.isArray(report['testResults']) ? report['testResults'] : [];
  const brokenFiles = files.filter(
    (file) =>
      isRecord(file) &&
      file['status'] === 'failed' &&
      !(Array.isArray(file['assertionResults']) &&
        file['assertionResults'].some((test) => isRecord(test) && test['status'] === 'failed')),
  ).length;
  failed += brokenFiles;
  let note = `${passed} passed, ${failed} failed`;
  if (brokenFiles > 0) {
    note += ` (${brokenFiles} test file(s) failed outside any test)`;
  }
  if (failed === 0 && (exitCode !== 0 || report['success'] === false)) {
    failed = 1;
    note += `; run failed (exit code ${exitCode}) with no failed test: counted as 1 failed`;
  }
  return { passed, failed, note };
}

/**
 * Counts a Playwright JSON report: expected = passed; unexpected and flaky = failed
 * (retries are 0, so flaky should not happen); top-level errors (a web server that did not
 * start, a spec that does not load) count one each.
 * @param {unknown} report parsed JSON, or undefined when the file is missing or unreadable
 * @param {number} exitCode the runner's exit code
 * @returns {RunnerCount}
 */
export function countPlaywright(report, exitCode) {
  if (!isRecord(report) || !isRecord(report['stats'])) {
    return { passed: 0, failed: 1, note: 'no JSON report (runner crashed or skipped?)' };
  }
  const stats = report['stats'];
  const passed = numberOr0(stats['expected']);
  const errors = Array.isArray(report['errors']) ? report['errors'].length : 0;
  let failed = numberOr0(stats['unexpected']) + numberOr0(stats['flaky']) + errors;
  let note = `${passed} passed, ${failed} failed`;
  if (errors > 0) {
    note += ` (${errors} error(s) outside any test)`;
  }
  if (failed === 0 && exitCode !== 0) {
    failed = 1;
    note += `; run failed (exit code ${exitCode}) with no failed test: counted as 1 failed`;
  }
  return { passed, failed, note };
}

/**
 * A step without a test report (typecheck, lint, build, install) counts as 1 failed
 * when it fails, and as nothing when it passes.
 * @param {number} exitCode
 * @returns {RunnerCount}
 */
export function countStep(exitCode) {
  return exitCode === 0
    ? { passed: 0, failed: 0, note: 'ok' }
    : { passed: 0, failed: 1, note: `failed (exit code ${exitCode})` };
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {unknown} value */
function numberOr0(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * @param {string} path
 * @returns {unknown} the parsed file, or undefined when it is missing or not JSON
 */
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Parses `--out DIR name=code ...`.
 * @param {readonly string[]} args
 * @returns {{ outDir: string, steps: Map<string, number> }}
 */
export function parseArgs(args) {
  let outDir = '.ci/out';
  /** @type {Map<string, number>} */
  const steps = new Map();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--out') {
      outDir = args[i + 1] ?? outDir;
      i += 1;
      continue;
    }
    const match = /^([\w:-]+)=(-?\d+)$/.exec(arg);
    if (match === null) {
      throw new TypeError(`ci-summary: expected name=exitCode or --out DIR, got "${arg}"`);
    }
    steps.set(match[1] ?? arg, Number(match[2]));
  }
  return { outDir, steps };
}

function main() {
  const { outDir, steps } = parseArgs(process.argv.slice(2));
  /** @type {[string, RunnerCount][]} */
  const rows = [];
  for (const [name, exitCode] of steps) {
    if (name === 'vitest') {
      rows.push([name, countVitest(readJson(join(outDir, 'vitest.json')), exitCode)]);
    } else if (name === 'playwright') {
      rows.push([name, countPlaywright(readJson(join(outDir, 'playwright.json')), exitCode)]);
    } else {
      rows.push([name, countStep(exitCode)]);
    }
  }
  const width = Math.max(0, ...rows.map(([name]) => name.length));
  let passed = 0;
  let failed = 0;
  console.log('');
  for (const [name, count] of rows) {
    console.log(`${name.padEnd(width)}  ${count.note}`);
    passed += count.passed;
    failed += count.failed;
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
