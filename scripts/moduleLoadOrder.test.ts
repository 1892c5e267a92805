import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

/**
 * The list of worlds and the kit import each other at run time (a kit module asks the list,
 * a world's module uses the kit), so a module-level constant read while its module is still
 * loading would throw, depending on which module a program imports first. Each module is
 * loaded here as the first one of a fresh program: none may fail to load.
 */
const root = fileURLToPath(new URL('../src/', import.meta.url));
/** Every folder of src/ but the test tree's helpers; each world's folder (and each module of the list) a test of its own. */
const FOLDERS = [
  ...readdirSync(root).filter((name) => name !== 'testing' && name !== 'worlds' && statSync(join(root, name)).isDirectory()),
  ...readdirSync(join(root, 'worlds')).map((name) => `worlds/${name}`),
];

function modules(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) && !/Worker\.ts$/.test(name) && name !== 'main.ts') out.push(path);
    }
  };
  // The list's own modules (src/worlds/index.ts, pages.ts) are one test each.
  if (statSync(join(root, folder)).isFile()) return [join(root, folder)];
  walk(join(root, folder));
  return out;
}

describe('every module loads as the first of a program (no constant read before its module has loaded)', () => {
  for (const folder of FOLDERS) {
    it(`src/${folder}`, async () => {
      const failures: string[] = [];
      for (const file of modules(folder)) {
        vi.resetModules();
        try {
          await import(/* @vite-ignore */ file);
        } catch (error) {
          failures.push(`${relative(root, file)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }
});
