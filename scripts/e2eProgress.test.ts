import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countPlaywright, PLAYWRIGHT_PROGRESS } from './ci-summary.mjs';
import { bin, repoRoot } from './setup.mjs';

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

/** Five tests in the order one worker runs them: three pass, one fails, the last never ends (it says when it started). */
function specText(startedFile: string): string {
  const playwright = pathToFileURL(join(repoRoot, 'node_modules', '@playwright', 'test', 'index.mjs')).href;
  return `import { expect, test } from ${JSON.stringify(playwright)};
import { writeFileSync } from 'node:fs';
test('passes 1', () => expect(1).toBe(1));
test('passes 2', () => expect(2).toBe(2));
test('fails', () => expect(1).toBe(2));
test('passes 3', () => expect(3).toBe(3));
test('never ends', async () => {
  test.setTimeout(0);
  writeFileSync(${JSON.stringify(startedFile)}, 'started');
  await new Promise(() => {});
});
`;
}

describe('a Playwright run stopped before its JSON report', () => {
  it('counts the tests that finished from the progress lines, and the unfinished run as 1 failed', async () => {
    // The repository's config (its reporters, set from PW_JSON and PW_PROGRESS as npm test sets
    // them) on a folder of tests of its own, so that the run can be stopped at a known point.
    const dir = mkdtempSync(join(tmpdir(), 'lab-e2e-progress-'));
    const started = join(dir, 'started');
    const out = join(dir, 'out');
    writeFileSync(join(dir, 'progress.spec.mjs'), specText(started));
    const config = join(dir, 'playwright.config.mjs');
    const repoConfig = pathToFileURL(join(repoRoot, 'playwright.config.ts')).href;
    writeFileSync(config, `import config from ${JSON.stringify(repoConfig)};\nexport default { ...config, testDir: ${JSON.stringify(dir)} };\n`);
    const runner = spawn(bin('playwright'), ['test', '-c', config, '--project=chromium', '--workers=1'], {
      cwd: repoRoot,
      stdio: 'ignore',
      // Its own process group, stopped as npm test's time cap stops a step (scripts/setup.mjs `run`).
      detached: true,
      env: { ...process.env, CI: '1', E2E_EXTERNAL_SERVER: '1', PW_JSON: join(out, 'playwright.json'), PW_PROGRESS: join(out, PLAYWRIGHT_PROGRESS) },
    });
    const exited = new Promise<void>((resolve) => runner.once('exit', () => resolve()));
    try {
      // Stopped once the last test runs and the runner has heard of the four before it (their ends
      // reach it from the worker a moment after the worker moved on).
      const progressFile = join(out, PLAYWRIGHT_PROGRESS);
      const linesSoFar = () => (existsSync(progressFile) ? readFileSync(progressFile, 'utf8').trim().split('\n').length : 0);
      expect(await waitFor(() => existsSync(started) && linesSoFar() === 4, 60_000)).toBe(true);
      process.kill(-runner.pid!, 'SIGTERM');
      await exited;
      // Playwright writes its JSON report at the end of the run: this one has none.
      expect(existsSync(join(out, 'playwright.json'))).toBe(false);
      const progress = readFileSync(progressFile, 'utf8');
      expect(progress.trim().split('\n')).toHaveLength(4);
      expect(countPlaywright(undefined, 124, progress)).toMatchObject({ passed: 3, failed: 2 });
      // The summary npm test prints reads the file from the output folder.
      const summary = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'ci-summary.mjs'), '--out', out, 'playwright=124'], { encoding: 'utf8' });
      expect(summary.stdout.trim().split('\n').at(-1)).toBe('3 passed, 2 failed');
      expect(summary.status).toBe(1);
    } finally {
      try {
        process.kill(-runner.pid!, 'SIGKILL');
      } catch {
        // The group is gone.
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
