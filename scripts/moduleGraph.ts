import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The static import graph of the project's sources, read from the files (ARCHITECTURE §7a′ first
 * load, §7b the composition root): what a module imports statically, transitively (`import
 * type` and dynamic `import()` left out, as the bundler leaves them out of the chunk).
 */

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s+)?['"]([^'"]+)['"]/gm;

/** The module a relative specifier of `file` names (repository-relative), or null for an asset or a `?query` import. */
export function resolveImport(file: string, specifier: string): string | null {
  if (/\.(css|svg|png|json)$|\?/.test(specifier)) return null;
  const base = join(dirname(file), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => /\.tsx?$/.test(p) && existsSync(join(REPO_ROOT, p)));
  if (found === undefined) throw new Error(`${file}: cannot resolve ${specifier}`);
  return relative(REPO_ROOT, join(REPO_ROOT, found));
}

/** The relative specifiers `file` imports statically, in order. */
export function staticImports(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  return [...text.matchAll(STATIC_IMPORT)].map((m) => m[1]!);
}

/**
 * What `entry` imports statically, transitively: each module with the module that first
 * imported it (null for the entry), and each package with the module that first imported it.
 */
export function staticGraph(entry: string): { modules: Map<string, string | null>; packages: Map<string, string> } {
  const modules = new Map<string, string | null>([[entry, null]]);
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of staticImports(file)) {
      if (!specifier.startsWith('.')) {
        if (!packages.has(specifier)) packages.set(specifier, file);
        continue;
      }
      const path = resolveImport(file, specifier);
      if (path !== null && !modules.has(path)) {
        modules.set(path, file);
        queue.push(path);
      }
    }
  }
  return { modules, packages };
}

/** How `module` is reached from the entry: `a → b → c`. */
export function chain(modules: Map<string, string | null>, module: string): string {
  const steps: string[] = [];
  for (let at: string | null | undefined = module; at !== null && at !== undefined; at = modules.get(at)) steps.unshift(at);
  return steps.join(' → ');
}
