import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accepts, repoRoot } from './setup.mjs';

/** A port nobody listens on now (the OS's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitFor(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

describe('npm test, stopped in its end-to-end step', () => {
  it('leaves no server behind: the preview server is gone once the run is stopped, and Playwright with it', async () => {
    // The end-to-end step as scripts/test.mjs runs it (`runEndToEnd`), on a port of its own and a
    // one-page folder to serve, so that it can run beside anything else.
    const port = await freePort();
    const dist = mkdtempSync(join(tmpdir(), 'lab-e2e-stop-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>stop</title>');
    const script = `import('./scripts/setup.mjs').then(async (m) => process.exit(await m.runEndToEnd(['e2e/links.spec.ts'])))`;
    const runner = spawn(process.execPath, ['-e', script], {
      cwd: repoRoot,
      stdio: 'ignore',
      env: { ...process.env, CI: '1', E2E_PORT: String(port), E2E_DIST: dist },
    });
    const exited = new Promise<number | null>((resolve) => runner.once('exit', (code) => resolve(code)));
    try {
      expect(await waitFor(() => accepts(port), 60_000)).toBe(true);
      // Playwright is starting or running its first test by now.
      await new Promise((r) => setTimeout(r, 3_000));
      // Stopped as CI or a person stops `npm test` (SIGTERM; a terminal's Ctrl-C is passed on as one).
      runner.kill('SIGTERM');
      expect(await exited).toBe(143);
      expect(await waitFor(async () => !(await accepts(port)), 15_000)).toBe(true);
    } finally {
      runner.kill('SIGKILL');
    }
  }, 120_000);
});
