import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The first screen's modules (ARCHITECTURE §7a′, first load): what `src/main.tsx` imports
 * statically, transitively (`import type` and dynamic `import()` left out, as the bundler
 * leaves them out of the entry). Read from the sources, so that a static import that drags a
 * later part into the entry fails here, not only in the bench's byte count.
 */
function staticGraph(entry: string): { modules: Map<string, string | null>; packages: Map<string, string> } {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const modules = new Map<string, string | null>([[entry, null]]);
  const packages = new Map<string, string>();
  const queue = [entry];
  const statement = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s+)?['"]([^'"]+)['"]/gm;
  while (queue.length > 0) {
    const file = queue.shift()!;
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(statement)) {
      const specifier = match[1]!;
      if (!specifier.startsWith('.')) {
        if (!packages.has(specifier)) packages.set(specifier, file);
        continue;
      }
      if (/\.(css|svg|png|json)$|\?/.test(specifier)) continue;
      const base = join(dirname(file), specifier);
      const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => /\.tsx?$/.test(p) && existsSync(join(root, p)));
      if (found === undefined) throw new Error(`${file}: cannot resolve ${specifier}`);
      const path = relative(root, join(root, found));
      if (!modules.has(path)) {
        modules.set(path, file);
        queue.push(path);
      }
    }
  }
  return { modules, packages };
}

/** How `module` is reached from the entry: `a → b → c`. */
function chain(modules: Map<string, string | null>, module: string): string {
  const steps: string[] = [];
  for (let at: string | null | undefined = module; at !== null && at !== undefined; at = modules.get(at)) steps.unshift(at);
  return steps.join(' → ');
}

describe('the first screen carries only its part', () => {
  const { modules, packages } = staticGraph('src/main.tsx');

  it('reads the page’s own modules (the walk finds the pipeline lab)', () => {
    expect(modules.has('src/worlds/pipeline/ui/pipelinePage.tsx')).toBe(true);
    expect(packages.has('react')).toBe(true);
  });

  it('without the world list, the validator or an engine (they load with the first Play, a link or the serving lab)', () => {
    const later = [...modules.keys()].filter((m) => m === 'src/worlds/index.ts' || m === 'src/scenario/schema.ts' || m.startsWith('src/worlds/serving/engine/') || m === 'src/worlds/pipeline/engine/simulation.ts');
    expect(later.map((m) => chain(modules, m))).toEqual([]);
    expect(packages.has('zod') ? `zod, from ${chain(modules, packages.get('zod')!)}` : null).toBeNull();
    expect(packages.has('@tensorflow/tfjs')).toBe(false);
  });
});
