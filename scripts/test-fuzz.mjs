// `npm run test:fuzz`: the property tests (every test file that uses fast-check or the
// property helpers of src/testing/propertySeed.ts) with a fresh random seed and ten times
// their runs. `npm test` runs the same properties with one fixed seed, so its verdict is the
// same on every run; this is where new cases are looked for. The seed is printed first, and
// on a failure the command that replays it: a failure found here becomes a fixed regression
// case beside the property (a plain test of the counterexample), so `npm test` keeps it.
//
// FC_SEED and FC_RUNS_FACTOR override the fresh seed and the factor 10; arguments are passed
// to vitest (e.g. a file to fuzz alone).
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { bin, repoRoot, run } from './setup.mjs';

/** What marks a test file as holding property tests. */
const PROPERTY_MARKERS = [/from 'fast-check'/, /testing\/propertySeed'/];

/**
 * The test files under `dir` (relative to the repository) that hold property tests.
 * @param {string} dir
 * @returns {string[]}
 */
function propertyTestFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const name of readdirSync(join(repoRoot, dir))) {
    const path = join(dir, name);
    if (statSync(join(repoRoot, path)).isDirectory()) out.push(...propertyTestFiles(path));
    else if (/\.test\.tsx?$/.test(name) && PROPERTY_MARKERS.some((m) => m.test(readFileSync(join(repoRoot, path), 'utf8')))) out.push(path);
  }
  return out.sort();
}

const seed = process.env['FC_SEED']?.trim() || String(randomInt(0, 2 ** 32 - 1));
const factor = process.env['FC_RUNS_FACTOR']?.trim() || '10';
const extra = process.argv.slice(2);
const files = extra.length > 0 ? extra : propertyTestFiles('src');
const out = mkdtempSync(join(tmpdir(), 'fuzz-'));
const report = join(out, 'vitest.json');

console.log(`test:fuzz: seed ${seed}, runs ×${factor}, ${files.length} test files`);
const started = Date.now();
const code = await run(
  bin('vitest'),
  // Tests without a budget of their own get a long one: their properties run `factor` times longer.
  ['run', '--reporter=default', '--reporter=json', `--outputFile=${report}`, '--testTimeout=900000', ...files],
  { env: { ...process.env, FC_SEED: seed, FC_RUNS_FACTOR: factor } },
);
const seconds = Math.round((Date.now() - started) / 1000);

/** @type {{ file: string, name: string }[]} */
const failed = [];
if (existsSync(report)) {
  /** @type {{ testResults?: { name: string, assertionResults?: { status: string, fullName: string }[] }[] }} */
  const json = JSON.parse(readFileSync(report, 'utf8'));
  for (const file of json.testResults ?? []) {
    for (const test of file.assertionResults ?? []) if (test.status === 'failed') failed.push({ file: relative(repoRoot, file.name), name: test.fullName });
  }
}
rmSync(out, { recursive: true, force: true });

if (code === 0) {
  console.log(`test:fuzz: seed ${seed}, runs ×${factor}: every property held (${seconds} s)`);
} else {
  console.log(`test:fuzz: seed ${seed}, runs ×${factor}: ${failed.length} failed (${seconds} s)`);
  for (const f of failed) {
    console.log(`  ${f.file}: ${f.name}`);
    // -t takes a pattern: the test's name, its special characters escaped.
    const pattern = f.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    console.log(`    replay: FC_SEED=${seed} FC_RUNS_FACTOR=${factor} npx vitest run ${f.file} -t '${pattern.replaceAll("'", "'\\''")}'`);
  }
  console.log('Turn each counterexample (fast-check prints it with its seed and path) into a fixed regression case beside its property.');
}
process.exitCode = code;
