import { describe, expect, it } from 'vitest';
import { chain, staticGraph } from './moduleGraph';

/**
 * The first screen's modules (ARCHITECTURE §7a′, first load): what `src/main.tsx` imports
 * statically, transitively (`import type` and dynamic `import()` left out, as the bundler
 * leaves them out of the entry). Read from the sources, so that a static import that drags a
 * later part into the entry fails here, not only in the bench's byte count.
 */
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
