import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: 'eslint.config.js' });

/** Lints `code` as if it lived at `filePath` and returns the ids of the rules it breaks. */
async function ruleIds(code: string, filePath: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  if (result === undefined) {
    throw new Error(`ESLint returned no result for ${filePath}`);
  }
  return result.messages.map((message) => message.ruleId);
}

describe('layer rules (ARCHITECTURE §1)', () => {
  it('reports a runtime import of the UI from the engine', async () => {
    const code = "import { x } from '../ui/x';\nexport const y = x;\n";
    expect(await ruleIds(code, 'src/engine/fake.ts')).toEqual(['no-restricted-imports']);
    // The first lint loads ESLint and the TypeScript parser: room for a loaded machine.
  }, 30_000);

  it("keeps the pipeline world's measure layer beside the agents: its worker and the CLI import it, its page and store do not", async () => {
    const runner = "import { measureDatabase } from '../measure/runner';\nexport const m = measureDatabase;\n";
    expect(await ruleIds(runner, 'src/worlds/pipeline/worker/fake.ts')).toEqual([]);
    // The command line's measurement lives in the world's own cli/ folder (ARCHITECTURE §7b).
    expect(await ruleIds(runner, 'src/worlds/pipeline/cli/fake.ts')).toEqual([]);
    expect(await ruleIds(runner, 'src/worlds/pipeline/ui/fake.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds(runner, 'src/worlds/pipeline/store/fake.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds(runner, 'src/worlds/pipeline/charts/fake.ts')).toEqual(['no-restricted-imports']);
    const upward = "import { createPipelineStore } from '../store/pipelineStore';\nexport const s = createPipelineStore;\n";
    expect(await ruleIds(upward, 'src/worlds/pipeline/measure/fake.ts')).toEqual(['no-restricted-imports']);
    const typeOnly = "import type { MeasureOptions } from '../measure/runner';\nexport type O = MeasureOptions;\n";
    expect(await ruleIds(typeOnly, 'src/worlds/pipeline/ui/fake.ts')).toEqual([]);
  });

  it("applies a layer's rule inside a world's folder: toward the world's own layers and toward the kit's", async () => {
    const ownStore = "import { a } from '../store/servingStore';\nexport const b = a;\n";
    const kitStore = "import { a } from '../../../store/liveStore';\nexport const b = a;\n";
    const kitEngine = "import { a } from '../../../engine/rng';\nexport const b = a;\n";
    const ownSchedulers = "import { a } from '../schedulers/registry';\nexport const b = a;\n";
    expect(await ruleIds(ownStore, 'src/worlds/serving/engine/fake.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds(kitStore, 'src/worlds/serving/engine/fake.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds(ownSchedulers, 'src/worlds/serving/engine/fake.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds(kitEngine, 'src/worlds/serving/engine/fake.ts')).toEqual([]);
    // One folder deeper counts one more ../ the same way.
    expect(await ruleIds("import { a } from '../../store/servingStore';\nexport const b = a;\n", 'src/worlds/serving/engine/deep/fake.ts')).toEqual(['no-restricted-imports']);
    // The world's store may import its engine and the kit's store.
    expect(await ruleIds("import { a } from '../engine/simulation';\nimport { c } from '../../../store/liveStore';\nexport const b = [a, c];\n", 'src/worlds/serving/store/fake.ts')).toEqual([]);
    // Its engine is pure and deterministic like the kit's.
    expect(await ruleIds("import { useState } from 'react';\nexport const t = [useState, Date.now()];\n", 'src/worlds/serving/engine/fake.ts')).toEqual(['no-restricted-imports', 'no-restricted-globals', 'no-restricted-properties']);
    // And a layer folder of one world still imports no other world.
    expect(await ruleIds("import { a } from '../../pipeline/engine/simulation';\nexport const b = a;\n", 'src/worlds/serving/engine/fake.ts')).toEqual(['no-restricted-imports']);
  });

  it('counts ../ by depth: a sibling engine folder is fine, the store layer is not', async () => {
    const inside = "import { a } from '../serving/store';\nexport const b = a;\n";
    const outside = "import { a } from '../../store/slices';\nexport const b = a;\n";
    expect(await ruleIds(inside, 'src/engine/pipeline/fake.ts')).toEqual([]);
    expect(await ruleIds(outside, 'src/engine/pipeline/fake.ts')).toEqual([
      'no-restricted-imports',
    ]);
  });

  it('reports src/... paths and forbidden packages in the engine', async () => {
    const code = [
      "import { x } from 'src/schedulers/registry';",
      "import { useState } from 'react';",
      "import { scaleLinear } from 'd3';",
      "import { expose } from 'comlink';",
      'export const y = [x, useState, scaleLinear, expose];',
      '',
    ].join('\n');
    expect(await ruleIds(code, 'src/engine/fake.ts')).toEqual([
      'no-restricted-imports',
      'no-restricted-imports',
      'no-restricted-imports',
      'no-restricted-imports',
    ]);
  });

  it('allows type-only imports across layers', async () => {
    const code = "import type { Frame } from '../worker/api';\nexport type F = Frame;\n";
    expect(await ruleIds(code, 'src/engine/fake.ts')).toEqual([]);
  });

  it('keeps the schedulers, scenario and store below the layers that use them', async () => {
    const code = "import { x } from '../ui/x';\nexport const y = x;\n";
    for (const layer of ['schedulers', 'scenario', 'store']) {
      expect(await ruleIds(code, `src/${layer}/fake.ts`)).toEqual(['no-restricted-imports']);
    }
  });

  it('lets the UI import the engine', async () => {
    const code = "import { x } from '../engine/x';\nexport const y = x;\n";
    expect(await ruleIds(code, 'src/ui/fake.ts')).toEqual([]);
  });
});

describe('engine determinism', () => {
  it('reports Math.random, Date.now and performance.now', async () => {
    const code = 'export const t = [Math.random(), Date.now(), performance.now()];\n';
    const ids = await ruleIds(code, 'src/engine/fake.ts');
    expect(ids.filter((id) => id === 'no-restricted-properties')).toHaveLength(3);
  });

  it('reports timers and wall-clock globals', async () => {
    const code = [
      'setTimeout(() => {}, 0);',
      'queueMicrotask(() => {});',
      'export const d = new Date();',
      'export const w = window.innerWidth;',
      '',
    ].join('\n');
    expect(await ruleIds(code, 'src/engine/fake.ts')).toEqual([
      'no-restricted-globals',
      'no-restricted-globals',
      'no-restricted-globals',
      'no-restricted-globals',
    ]);
  });

  it('allows the same calls outside the engine', async () => {
    const code = 'export const t = [Math.random(), Date.now(), performance.now()];\n';
    expect(await ruleIds(code, 'src/ui/fake.ts')).toEqual([]);
  });
});

describe('exports', () => {
  it('bans export * and default exports in source files', async () => {
    const code = "export * from './a';\nexport default 1;\n";
    expect(await ruleIds(code, 'src/ui/fake.ts')).toEqual([
      'no-restricted-syntax',
      'no-restricted-syntax',
    ]);
  });

  it('allows a default export in a tool config', async () => {
    expect(await ruleIds('export default {};\n', 'vite.config.ts')).toEqual([]);
  });
});

describe('worlds behind one list (ARCHITECTURE §7b)', () => {
  it('reports a switch on a world id outside src/worlds/, and allows it inside', async () => {
    const code = "export const f = (s: { world: string }) => (s.world === 'serving' ? 1 : 'pipeline' !== s.world ? 2 : 3);\nexport function g(s: { world: string }) {\n  switch (s.world) {\n    default:\n      return 0;\n  }\n}\n";
    expect(await ruleIds(code, 'src/scenario/fake.ts')).toEqual(['no-restricted-syntax', 'no-restricted-syntax', 'no-restricted-syntax']);
    expect(await ruleIds(code, 'src/ui/fake.tsx')).toEqual(['no-restricted-syntax', 'no-restricted-syntax', 'no-restricted-syntax']);
    expect(await ruleIds(code, 'src/worlds/serving/fake.ts')).toEqual([]);
    // Asking the world is the way: comparing two ids held in variables is not a switch on one.
    const asking = 'export const same = (a: { world: string }, id: string) => a.world === id;\n';
    expect(await ruleIds(asking, 'src/scenario/fake.ts')).toEqual([]);
  });

  it('keeps the kit free of worlds: it imports nothing of src/worlds/, the list included', async () => {
    expect(await ruleIds("import { worldOf } from '../worlds';\nexport const w = worldOf;\n", 'src/kit/fake.ts')).toEqual(['no-restricted-imports']);
    // The kit's own list module, which the composition root fills, is the kit's.
    expect(await ruleIds("import { worldOf } from './worlds';\nexport const w = worldOf;\n", 'src/kit/fake.ts')).toEqual([]);
    expect(await ruleIds("import { servingWorld } from '../worlds/serving/world';\nexport const w = servingWorld;\n", 'src/kit/fake.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds("import type { World } from './world';\nexport type W = World;\n", 'src/kit/fake.ts')).toEqual([]);
  });

  it('keeps the kit outside src/kit/ from naming a world: the kit\'s list yes, a world\'s module no, type-only included', async () => {
    const pipelineType = "import type { PipelineSummary } from '../engine/pipeline/metrics';\nexport type S = PipelineSummary;\n";
    expect(await ruleIds(pipelineType, 'src/worker/liveSession.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds("import type { PipelineLabStore } from '../store/pipelineStore';\nexport type S = PipelineLabStore;\n", 'src/charts/runtime.ts')).toEqual(['no-restricted-imports']);
    expect(await ruleIds("import { ServingSeriesBuffer } from './servingSeriesBuffer';\nexport const b = ServingSeriesBuffer;\n", 'src/store/series.ts')).toEqual(['no-restricted-imports']);
    // Both rules: a world's module, and src/worlds/ at all.
    expect(await ruleIds("import { servingPage } from '../../worlds/serving/page';\nexport const p = servingPage;\n", 'src/ui/shell/LabShell.tsx')).toEqual(['no-restricted-imports', '@typescript-eslint/no-restricted-imports']);
    // Asking the kit's list is how the kit finds a world.
    expect(await ruleIds("import { worldOf } from '../../kit/worlds';\nexport const w = worldOf;\n", 'src/ui/shell/PresetsList.tsx')).toEqual([]);
    // A kit module keeps its layer's rule too.
    expect(await ruleIds("import { x } from '../store/x';\nexport const y = x;\n", 'src/worker/liveLoop.ts')).toEqual(['no-restricted-imports']);
    // A world's own module beside the kit is not the kit.
    expect(await ruleIds(pipelineType, 'src/worlds/pipeline/worker/pipelineSession.ts')).toEqual([]);
  });

  it('keeps every kit module off src/worlds/, the list and the page’s list included: the composition root hands them over', async () => {
    const list = "import { worldOf } from '../worlds';\nexport const w = worldOf;\n";
    const viaIndex = "import { worldOf } from '../../worlds/index';\nexport const w = worldOf;\n";
    const pages = "import { PAGE_WORLDS } from '../../worlds/pages';\nexport const p = PAGE_WORLDS;\n";
    const presets = "import type { PipelinePreset } from '../worlds/pipeline/presets';\nexport type P = PipelinePreset;\n";
    expect(await ruleIds(list, 'src/scenario/fake.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds(list, 'src/store/fake.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds(list, 'src/worker/fake.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds(list, 'src/charts/fake.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds(list, 'src/cli/fake.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds(viaIndex, 'src/ui/shell/fake.tsx')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds(pages, 'src/ui/claims/fake.tsx')).toEqual(['@typescript-eslint/no-restricted-imports']);
    // Type-only imports too: a world's type in the kit names the world.
    expect(await ruleIds(presets, 'src/scenario/fake.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    // The kit's list is where the kit asks.
    expect(await ruleIds("import { worldOf } from '../kit/worlds';\nexport const w = worldOf;\n", 'src/scenario/fake.ts')).toEqual([]);
    // A world's module, a test (a program of its own) and a test helper may import the worlds.
    expect(await ruleIds("import { worldOf } from '../index';\nexport const w = worldOf;\n", 'src/worlds/pipeline/fake.ts')).toEqual([]);
    expect(await ruleIds(list, 'src/scenario/fake.test.ts')).toEqual([]);
    expect(await ruleIds(list, 'src/scenario/testing/fake.ts')).toEqual([]);
  });

  it('lets a program’s entry load its composition root, and no world’s module', async () => {
    expect(await ruleIds("import './worlds';\nimport { PAGE_WORLDS } from './worlds/pages';\nexport const p = PAGE_WORLDS;\n", 'src/main.tsx')).toEqual([]);
    expect(await ruleIds("import { servingPage } from './worlds/serving/page';\nexport const p = servingPage;\n", 'src/main.tsx')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds("import '../worlds';\nexport const x = 1;\n", 'src/worker/exploreWorker.ts')).toEqual([]);
    expect(await ruleIds("import { learningFactoryFor } from '../worlds/serving/worker/learningLoader';\nexport const l = learningFactoryFor;\n", 'src/worker/exploreWorker.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    // The command line's entry hands the command line's list to the program; no other kit module names it.
    const commands = "import '../worlds';\nimport { CLI_WORLDS } from '../worlds/commands';\nexport const c = CLI_WORLDS;\n";
    expect(await ruleIds(commands, 'src/cli/main.ts')).toEqual([]);
    expect(await ruleIds("import { CLI_WORLDS } from '../worlds/commands';\nexport const c = CLI_WORLDS;\n", 'src/cli/program.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await ruleIds("import { trainCommand } from '../worlds/serving/cli/commands/train';\nexport const t = trainCommand;\n", 'src/cli/main.ts')).toEqual(['@typescript-eslint/no-restricted-imports']);
    // A world's commands keep the command line's layer rule: no store, no page.
    expect(await ruleIds("import { a } from '../store/servingStore';\nexport const b = a;\n", 'src/worlds/serving/cli/fake.ts')).toEqual(['no-restricted-imports']);
  });

  it('reports a world that imports another world', async () => {
    const code = "import { servingWorld } from '../serving/world';\nexport const w = servingWorld;\n";
    expect(await ruleIds(code, 'src/worlds/pipeline/fake.ts')).toEqual(['no-restricted-imports']);
    const own = "import { pipelineWorld } from './world';\nexport const w = pipelineWorld;\n";
    expect(await ruleIds(own, 'src/worlds/pipeline/fake.ts')).toEqual([]);
  });
});
