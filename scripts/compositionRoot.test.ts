import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chain, REPO_ROOT, resolveImport, staticGraph, staticImports } from './moduleGraph';

/**
 * The composition root (ARCHITECTURE §7b): the kit imports no world and not the list; each
 * program's root (`src/worlds/index.ts`) hands the list to the kit (`installWorlds`) before
 * anything asks it. Read from the sources: a program whose modules ask the list must load the
 * root as its first import, and a lazy part of the page that asks the list must load through
 * the gate (`afterWorlds`), which loads the root first. A program that forgets it throws
 * "no list of worlds" the first time it asks.
 */

const ROOT = 'src/worlds/index.ts';
const LIST = 'src/kit/worlds.ts';
/** What a module may import from the list's module without asking the list: the page's gate. */
const GATE = new Set(['afterWorlds', 'worldsFrom']);

function files(dir: string, match: RegExp): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(join(REPO_ROOT, at))) {
      const path = join(at, name);
      if (statSync(join(REPO_ROOT, path)).isDirectory()) walk(path);
      else if (match.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

const text = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

/** Whether `file` asks the list: it imports a value other than the gate from `src/kit/worlds.ts`. */
function asksList(file: string): boolean {
  for (const m of text(file).matchAll(/^\s*import\s+(?!type\b)\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm)) {
    if (!m[2]!.startsWith('.') || resolveImport(file, m[2]!) !== LIST) continue;
    const names = m[1]!.split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '));
    if (names.some((n) => !GATE.has(n.split(/\s+as\s+/)[0]!))) return true;
  }
  return false;
}

/** The module of `entry`'s static graph that asks the list, with how it is reached; null when none does. */
function askingModule(entry: string): string | null {
  const { modules } = staticGraph(entry);
  const asking = [...modules.keys()].find(asksList);
  return asking === undefined ? null : chain(modules, asking);
}

/** Every program's entry: the page's workers, the command line and its threads, the bench, the scripts, the e2e tests in Node. */
function programEntries(): string[] {
  const entries = new Set<string>(['src/cli/main.ts']);
  for (const file of files('src', /\.tsx?$/)) {
    for (const m of text(file).matchAll(/new Worker\(new URL\('([^']+)', import\.meta\.url\)|from '([^']+)\?worker&url'/g)) {
      const path = resolveImport(file, m[1] ?? m[2]!);
      if (path !== null) entries.add(path);
    }
  }
  // The command line's threads, loaded by path through their .mjs shims: the kit's (src/cli/) and each world's (src/worlds/<id>/cli/).
  for (const file of files('src', /\.mjs$/)) {
    for (const m of text(file).matchAll(/import\('(\.[^']+\.ts)'\)/g)) entries.add(resolveImport(file, m[1]!)!);
  }
  for (const file of [...files('bench', /\.ts$/), ...files('scripts', /\.ts$/), ...files('e2e', /\.ts$/)]) {
    if (!/\.test\.ts$/.test(file)) entries.add(file);
  }
  return [...entries].sort();
}

/** The page's modules: the entry, each world's page module, and the page's layers (store, charts, ui; the kit's and each world's). */
function pageModules(): string[] {
  return files('src', /\.tsx?$/).filter(
    (f) => !/\.test\.tsx?$/.test(f) && !/(^|\/)testing\//.test(f) && (f === 'src/main.tsx' || /^src\/worlds\/[^/]+\/page\.ts$/.test(f) || /(^|\/)(store|charts|ui)\//.test(f)),
  );
}

describe('one composition root hands the list to the kit (ARCHITECTURE §7b)', () => {
  it('finds the programs (the page’s workers, the command line’s threads)', () => {
    const entries = programEntries();
    for (const entry of ['src/worlds/pipeline/worker/pipelineWorker.ts', 'src/worlds/serving/worker/servingWorker.ts', 'src/worker/exploreWorker.ts', 'src/cli/sweepWorker.ts', 'src/worlds/serving/cli/trainWorker.ts', 'src/worlds/serving/cli/searchWorker.ts', 'src/worlds/pipeline/cli/stageWorker.ts']) {
      expect(entries).toContain(entry);
    }
  });

  it('every program whose modules ask the list imports the root first', () => {
    const missing = programEntries().flatMap((entry) => {
      const asking = askingModule(entry);
      if (asking === null) return [];
      const first = staticImports(entry).find((s) => s.startsWith('.'));
      return first !== undefined && resolveImport(entry, first) === ROOT ? [] : [`${entry} (asks through ${asking})`];
    });
    expect(missing).toEqual([]);
  });

  it('the page’s first screen does not ask the list, and names the root for the gate', () => {
    const { modules } = staticGraph('src/main.tsx');
    expect([...modules.keys()].filter(asksList).map((m) => chain(modules, m))).toEqual([]);
    expect(text('src/main.tsx')).toMatch(/worldsFrom\(\(\) => import\('\.\/worlds'\)\)/);
  });

  it('every lazy part of the page that asks the list loads through the gate', () => {
    const ungated: string[] = [];
    for (const file of pageModules()) {
      for (const m of text(file).matchAll(/^.*?\bimport\('([^']+)'\).*$/gm)) {
        if (/typeof import\(/.test(m[0]) || !m[1]!.startsWith('.')) continue;
        const target = resolveImport(file, m[1]!);
        if (target === null || target === ROOT) continue;
        const asking = askingModule(target);
        if (asking !== null && !/afterWorlds\(/.test(m[0])) ungated.push(`${file}: import('${m[1]}') asks through ${asking}`);
      }
    }
    expect(ungated).toEqual([]);
  });

  it('the root is the one module that hands a list to the kit', () => {
    const installing = files('src', /\.tsx?$/).filter((f) => f !== LIST && !/\.test\.tsx?$/.test(f) && /\binstallWorlds\(/.test(text(f)));
    expect(installing).toEqual([ROOT]);
  });

  // The command line, the bench and the scripts run through tsx, as fresh programs.
  const tsx = async (code: string): Promise<string> =>
    (await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO_ROOT, timeout: 60_000 })).stdout.trim();

  it('the root loads as the first module of a program and hands the kit every world of the list, in order', async () => {
    expect(await tsx("await import('./src/worlds/index.ts'); const kit = await import('./src/kit/worlds.ts'); console.log(kit.worldIds().join(','));")).toBe('pipeline,serving');
  }, 60_000);

  it('a program that did not load its root is told so the first time it asks the list', async () => {
    const said = await tsx("const p = await import('./src/scenario/presets.ts'); try { p.allPresets(); console.log('answered'); } catch (error) { console.log(error.message); }");
    expect(said).toMatch(/^no list of worlds: the program did not load its composition root/);
  }, 60_000);
});
