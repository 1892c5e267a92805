import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The command line, the bench and the scripts run through tsx, whose output differs from the
 * test runner's in one way that matters here: a function of a module still loading may not be
 * callable yet (tsx's helpers are assigned when the module's body runs). The list of worlds and
 * the kit import each other, so a world's module that calls a kit function while it loads
 * breaks a program that happens to import that world's module first (the bench did, through a
 * world's schema building its validator: "__name is not a function"). `moduleLoadOrder.test.ts`
 * loads every module first under the test runner; this loads, each first in a fresh tsx
 * program, the modules at the root of each world's folder (its World, schema, presets, lessons,
 * claims; not its page module, which runs in the page only) and the kit's scenario modules
 * that join the worlds.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

function entries(): string[] {
  const worlds = join(root, 'src/worlds');
  const out: string[] = [];
  for (const world of readdirSync(worlds)) {
    const dir = join(worlds, world);
    if (!statSync(dir).isDirectory()) continue;
    // A page module (`page.ts`) runs in the page only (it imports the lab's styles).
    for (const name of readdirSync(dir)) if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name) && name !== 'page.ts') out.push(join(dir, name));
  }
  for (const name of ['schema.ts', 'envelope.ts', 'presets.ts', 'claims.ts', 'parse.ts', 'sweep.ts', 'link.ts']) out.push(join(root, 'src/scenario', name));
  out.push(join(root, 'src/worlds/index.ts'));
  return out;
}

describe('every world module and the kit modules that join the worlds load first in a tsx program', () => {
  it('load, each as the first module of its own program', async () => {
    const failures: string[] = [];
    const queue = entries();
    // Two programs at a time (each is about a second of one core).
    const worker = async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        try {
          await run(process.execPath, ['--import', 'tsx', '-e', `await import(${JSON.stringify(file)})`], { cwd: root, timeout: 60_000 });
        } catch (error) {
          const stderr = (error as { stderr?: string }).stderr ?? String(error);
          failures.push(`${relative(root, file)}: ${stderr.split('\n').find((l) => /^\w*Error\b/.test(l.trim())) ?? stderr.slice(0, 200)}`);
        }
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
  }, 240_000);
});
