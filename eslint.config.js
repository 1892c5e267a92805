import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layer rules (ARCHITECTURE §1): imports point one way,
 * engine ← schedulers ← agents ← worker/cli ← store ← charts/ui.
 * Each entry lists the layers (folders of src/) a layer may not import at runtime.
 * Type-only imports stay allowed (ARCHITECTURE §1: type-only imports allowed).
 * @type {Record<string, readonly string[]>}
 */
const FORBIDDEN_LAYERS = {
  engine: ['schedulers', 'agents', 'scenario', 'worker', 'store', 'charts', 'ui', 'cli', 'measure'],
  schedulers: ['agents', 'worker', 'store', 'charts', 'ui', 'cli', 'measure'],
  scenario: ['worker', 'store', 'charts', 'ui', 'cli', 'measure'],
  agents: ['worker', 'store', 'charts', 'ui', 'cli', 'measure'],
  // Measurement (ARCHITECTURE §1, §2): real tfjs layers and hogs, beside agents; only the worker and
  // the CLI import it (the page reaches it through the measure worker).
  measure: ['schedulers', 'scenario', 'worker', 'store', 'charts', 'ui', 'cli'],
  worker: ['store', 'charts', 'ui', 'cli'],
  cli: ['worker', 'store', 'charts', 'ui'],
  store: ['charts', 'ui', 'measure'],
  charts: ['measure'],
  ui: ['measure'],
};

/**
 * Packages the pure engine may not import: no React, no D3, no tfjs, no worker plumbing,
 * no store. The engine runs the same in the worker, the CLI and the tests.
 */
const ENGINE_FORBIDDEN_PACKAGES = [
  {
    regex: '^(react|react-dom|comlink|zustand)(/|$)',
    allowTypeImports: true,
    message: 'src/engine is pure: no React, comlink or zustand (ARCHITECTURE §1).',
  },
  {
    regex: '^d3(-[a-z-]+)?(/|$)',
    allowTypeImports: true,
    message: 'src/engine is pure: no D3; charts live in src/charts (ARCHITECTURE §1).',
  },
  {
    regex: '^@tensorflow/',
    allowTypeImports: true,
    message: 'src/engine is pure: no tfjs; networks live in src/agents (ARCHITECTURE §1).',
  },
];

/**
 * Relative imports are matched by how many `../` it takes to leave the layer's folder,
 * so `src/engine/pipeline/a.ts` may import `../serving/store` (inside the engine) but not
 * `../../store/x` (the store layer). `files` globs are per depth; deeper files fall back
 * to a looser pattern.
 */
const MAX_EXACT_DEPTH = 6;

/**
 * The `no-restricted-imports` patterns of a layer's rule, for files `upRegex` deep in it.
 * @param {string} layer folder under src/
 * @param {readonly string[]} forbidden layers it may not import
 * @param {string} upRegex how many `../` leave the layer's folder
 * @returns {Record<string, unknown>[]}
 */
function layerPatterns(layer, forbidden, upRegex) {
  const names = forbidden.join('|');
  const message = `Layer rule (ARCHITECTURE §1): src/${layer} may not import from ${forbidden
    .map((name) => `src/${name}`)
    .join(', ')}. Type-only imports are allowed.`;
  return [
    { regex: `^(\\./)?${upRegex}(${names})(/|$)`, allowTypeImports: true, message },
    { regex: `(^|/)src/(${names})(/|$)`, allowTypeImports: true, message },
  ];
}

/**
 * @param {string} layer folder under src/ (the kit's), or under a world's folder
 * @param {readonly string[]} forbidden layers it may not import
 * @param {ReadonlyArray<Record<string, unknown>>} extraPatterns more `no-restricted-imports` patterns
 * @returns {import('eslint').Linter.Config[]}
 */
function layerConfigs(layer, forbidden, extraPatterns) {
  /** @type {(files: string, upRegex: string) => import('eslint').Linter.Config} */
  const config = (files, upRegex) => ({
    name: `interference-lab/layers/${layer}/${files}`,
    files: [files],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...layerPatterns(layer, forbidden, upRegex), ...extraPatterns] }],
    },
  });

  const configs = [];
  for (let depth = 0; depth <= MAX_EXACT_DEPTH; depth += 1) {
    configs.push(config(`src/${layer}/${'*/'.repeat(depth)}*.{ts,tsx}`, `(\\.\\./){${depth + 1}}`));
  }
  configs.push(
    config(`src/${layer}/${'*/'.repeat(MAX_EXACT_DEPTH + 1)}**/*.{ts,tsx}`, '(\\.\\./)+'),
  );
  return configs;
}

/**
 * The same layers inside a world's folder (ARCHITECTURE §1, §7b): `src/worlds/<id>/<layer>/` obeys
 * its layer's rule toward the world's other layers (`../store/…`) and toward the kit's
 * (`../../../store/…`), and imports no other world. One config holds all of a file's patterns
 * (a file's `no-restricted-imports` is the last config's that names it).
 * @param {string} world folder under src/worlds/
 * @param {ReadonlyArray<Record<string, unknown>>} isolation the world's isolation patterns
 * @returns {import('eslint').Linter.Config[]}
 */
function worldLayerConfigs(world, isolation) {
  return Object.entries(FORBIDDEN_LAYERS).flatMap(([layer, forbidden]) => {
    const extra = layer === 'engine' ? ENGINE_FORBIDDEN_PACKAGES : [];
    /** @type {(files: string, inWorld: string, toKit: string) => import('eslint').Linter.Config} */
    const config = (files, inWorld, toKit) => ({
      name: `interference-lab/worlds/${world}/layers/${files}`,
      files: [files],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [...layerPatterns(layer, forbidden, inWorld), ...layerPatterns(layer, forbidden, toKit).slice(0, 1), ...extra, ...isolation] },
        ],
      },
    });
    const configs = [];
    for (let depth = 0; depth <= MAX_EXACT_DEPTH; depth += 1) {
      configs.push(config(`src/worlds/${world}/${layer}/${'*/'.repeat(depth)}*.{ts,tsx}`, `(\\.\\./){${depth + 1}}`, `(\\.\\./){${depth + 3}}`));
    }
    configs.push(config(`src/worlds/${world}/${layer}/${'*/'.repeat(MAX_EXACT_DEPTH + 1)}**/*.{ts,tsx}`, '(\\.\\./)+', '(\\.\\./)+'));
    return configs;
  });
}

const layerRules = Object.entries(FORBIDDEN_LAYERS).flatMap(([layer, forbidden]) =>
  layerConfigs(layer, forbidden, layer === 'engine' ? ENGINE_FORBIDDEN_PACKAGES : []),
);

/** Wall clocks and timers the engine may not touch: time there is simulated time. */
const ENGINE_CLOCK_MESSAGE =
  'src/engine is deterministic: use simulated time and the seeded generator passed in (ARCHITECTURE §1, determinism).';
const ENGINE_FORBIDDEN_GLOBALS = [
  'setTimeout',
  'setInterval',
  'setImmediate',
  'requestAnimationFrame',
  'queueMicrotask',
  'performance',
  'Date',
  'window',
  'document',
];

const CONFIG_FILES = ['vite.config.ts', 'playwright.config.ts', 'eslint.config.js'];

const NO_EXPORT_ALL = {
  selector: 'ExportAllDeclaration',
  message: 'No `export *`: name what a module re-exports (ARCHITECTURE §8).',
};
const NO_EXPORT_DEFAULT = {
  selector: 'ExportDefaultDeclaration',
  message: 'Use named exports; default exports only where a tool demands one (ARCHITECTURE §8).',
};

/**
 * The worlds (ARCHITECTURE §7b): one folder each under src/worlds/, found on disk so that a
 * new world is covered by the rules below without editing them.
 */
const WORLD_FOLDERS = readdirSync(new URL('./src/worlds/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * No switch on a world id outside src/worlds/ (ARCHITECTURE §7b): code that handles a
 * scenario of any world asks the world (`worldOf(scenario)`) instead of comparing its id.
 */
const WORLD_SWITCH_MESSAGE =
  'No switch on a world id outside src/worlds/: ask the world (worldOf(scenario), isScenarioOf) (ARCHITECTURE §7b).';
const NO_WORLD_SWITCH = [
  {
    selector: "BinaryExpression[operator=/^[!=]==?$/][left.type='MemberExpression'][left.property.name='world'][right.type='Literal']",
    message: WORLD_SWITCH_MESSAGE,
  },
  {
    selector: "BinaryExpression[operator=/^[!=]==?$/][right.type='MemberExpression'][right.property.name='world'][left.type='Literal']",
    message: WORLD_SWITCH_MESSAGE,
  },
  { selector: "SwitchStatement[discriminant.property.name='world']", message: WORLD_SWITCH_MESSAGE },
];

/** The kit names no world: it imports nothing of src/worlds/ (the list included; its own list module, `src/kit/worlds.ts`, holds what the root hands it). */
const KIT_MESSAGE = 'src/kit names no world: it may not import src/worlds/ (ARCHITECTURE §7b). Type-only imports are not allowed either.';

/**
 * Outside src/worlds/ nothing imports src/worlds/, type-only imports included (ARCHITECTURE §7b): one
 * composition root, `src/worlds/index.ts`, hands the list to the kit (`src/kit/worlds.ts`), and the
 * kit asks it there; a world's commands come to the command line through its list
 * (`src/worlds/commands.ts`), which the command line's entry hands to the program. Only the
 * programs' entries may import the worlds' folder, and only the root's modules:
 */
const ROOT_MESSAGE =
  'The kit imports no world and not the list (ARCHITECTURE §7b): ask the kit\'s list (src/kit/worlds.ts), which the composition root (src/worlds/index.ts) fills. Type-only imports are not allowed either.';
/**
 * Programs' entries, which load their composition root first and no world's module (the root's own
 * modules only: the list, the page's list, the command line's list): the page, Explore's worker,
 * the command line and its sweep threads. A world's own worker threads (the serving world's search
 * and training threads, the pipeline's stage threads) are entries too, inside their world's folder.
 */
const PROGRAM_ENTRIES = ['src/main.tsx', 'src/worker/exploreWorker.ts', 'src/cli/main.ts', 'src/cli/sweepWorker.ts'];
for (const file of PROGRAM_ENTRIES) {
  if (!existsSync(new URL(`./${file}`, import.meta.url))) throw new Error(`eslint.config.js: ${file} does not exist`);
}
/** `src/worlds/` from any folder of src/ but src/worlds/ itself (`../kit/worlds`, the kit's list, is not it). */
const IMPORTS_WORLDS = '^(\\./)?(\\.\\./)*worlds(/|$)';

/**
 * The kit outside src/kit/ (ARCHITECTURE §7b): the generic live session and its loop, protocol
 * and plugin interface, the store factory and its shared slices, the page shell (src/ui/shell/, the
 * page and the shell's parts at the root of src/ui/, Explore and Claims) and the chart kit. Each asks the kit's list (`src/kit/worlds.ts`) and names no world:
 * no world's folder and no module named for a world (`pipelineProtocol`, `worlds/serving/engine/…`),
 * type-only imports included.
 */
const SHARED_KIT_FILES = [
  'src/worker/liveSession.ts',
  'src/worker/liveLoop.ts',
  'src/worker/liveProtocol.ts',
  'src/worker/liveWorker.ts',
  'src/worker/worldPlugin.ts',
  'src/worker/boundedSeries.ts',
  'src/store/liveStore.ts',
  'src/store/history.ts',
  'src/store/longRun.ts',
  'src/store/pendingStart.ts',
  'src/store/series.ts',
  'src/store/restartingWorker.ts',
  'src/ui/shell/*.{ts,tsx}',
  'src/ui/*.{ts,tsx}',
  'src/ui/claims/*.{ts,tsx}',
  'src/ui/explore/*.{ts,tsx}',
  'src/charts/runtime.ts',
  'src/charts/axes.ts',
  'src/charts/palette.ts',
  'src/charts/pointSampling.ts',
  'src/charts/stack.ts',
  'src/charts/export.ts',
  'src/charts/exploreChart.ts',
  'src/charts/exploreData.ts',
  'src/scenario/link.ts',
  'src/scenario/linkPacking.ts',
];
// A module of the list renamed or moved would silently leave the rule: name it again.
for (const file of SHARED_KIT_FILES) {
  if (!file.includes('*') && !existsSync(new URL(`./${file}`, import.meta.url))) throw new Error(`eslint.config.js: the kit's ${file} does not exist`);
}
const SHARED_KIT_MESSAGE = `The kit names no world (ARCHITECTURE §7b): it asks the kit's list (src/kit/worlds.ts) and imports no world's module (${WORLD_FOLDERS.join(', ')}, or a module named for one). Type-only imports are not allowed either.`;
const NAMES_A_WORLD = `(^|/)(${WORLD_FOLDERS.join('|')})([A-Z][A-Za-z0-9]*)?(\\.[a-z]+)?(/|$)`;

/**
 * @returns {import('eslint').Linter.Config[]} the kit's modules name no world; each keeps its
 * layer's patterns too (a file's `no-restricted-imports` is the last config's that names it)
 */
function sharedKit() {
  return SHARED_KIT_FILES.map((files) => {
    const [, layer = '', ...rest] = files.split('/');
    const forbidden = FORBIDDEN_LAYERS[/** @type {keyof typeof FORBIDDEN_LAYERS} */ (layer)] ?? [];
    return {
      name: `interference-lab/shared-kit/${files}`,
      files: [files],
      ignores: ['src/**/*.test.{ts,tsx}'],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [...layerPatterns(layer, forbidden, `(\\.\\./){${rest.length}}`), { regex: NAMES_A_WORLD, message: SHARED_KIT_MESSAGE }] },
        ],
      },
    };
  });
}

/** @returns {import('eslint').Linter.Config[]} a world imports no other world; its layer folders keep their layers' rules */
function worldIsolation() {
  return WORLD_FOLDERS.flatMap((world) => {
    const others = WORLD_FOLDERS.filter((w) => w !== world);
    const isolation = others.length === 0 ? [] : [{ regex: `(^|/)(worlds/)?(${others.join('|')})(/|$)`, message: `src/worlds/${world} imports no other world (${others.join(', ')}): what two worlds share lives in the kit (ARCHITECTURE §7b).` }];
    return [
      {
        name: `interference-lab/worlds/${world}`,
        files: [`src/worlds/${world}/**/*.{ts,tsx}`],
        rules: { 'no-restricted-imports': ['error', { patterns: isolation }] },
      },
      ...worldLayerConfigs(world, isolation),
    ];
  });
}

export default defineConfig(
  globalIgnores([
    'dist/',
    'dist-*/',
    'coverage/',
    'node_modules/',
    'test-results/',
    'playwright-report/',
    '.ci/out/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'interference-lab/base',
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-syntax': ['error', NO_EXPORT_ALL, NO_EXPORT_DEFAULT],
    },
  },
  {
    name: 'interference-lab/config-files',
    files: CONFIG_FILES,
    rules: {
      // Vite, Playwright and ESLint read the default export.
      'no-restricted-syntax': ['error', NO_EXPORT_ALL],
    },
  },
  {
    name: 'interference-lab/globals/browser',
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    name: 'interference-lab/globals/worker',
    files: ['src/worker/**/*.ts', 'src/worlds/*/worker/**/*.ts'],
    languageOptions: { globals: globals.worker },
  },
  {
    name: 'interference-lab/globals/node',
    files: ['src/cli/**/*.ts', 'src/worlds/*/cli/**/*.ts', 'bench/**', 'scripts/**', 'e2e/**', ...CONFIG_FILES],
    languageOptions: { globals: globals.node },
  },
  layerRules,
  {
    name: 'interference-lab/engine/determinism',
    files: ['src/engine/**/*.ts', 'src/worlds/*/engine/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: ENGINE_CLOCK_MESSAGE },
        { object: 'Date', property: 'now', message: ENGINE_CLOCK_MESSAGE },
        { object: 'performance', property: 'now', message: ENGINE_CLOCK_MESSAGE },
        ...ENGINE_FORBIDDEN_GLOBALS.map((property) => ({
          object: 'globalThis',
          property,
          message: ENGINE_CLOCK_MESSAGE,
        })),
      ],
      'no-restricted-globals': [
        'error',
        ...ENGINE_FORBIDDEN_GLOBALS.map((name) => ({ name, message: ENGINE_CLOCK_MESSAGE })),
      ],
    },
  },
  {
    name: 'interference-lab/no-world-switch',
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/worlds/**', 'src/**/*.test.{ts,tsx}', 'src/**/testing/**'],
    rules: {
      'no-restricted-syntax': ['error', NO_EXPORT_ALL, NO_EXPORT_DEFAULT, ...NO_WORLD_SWITCH],
    },
  },
  {
    name: 'interference-lab/kit',
    files: ['src/kit/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+worlds(/|$)', message: KIT_MESSAGE }, { regex: '(^|/)src/worlds(/|$)', message: KIT_MESSAGE }] }],
    },
  },
  {
    // A rule of its own (the typescript-eslint twin of no-restricted-imports), beside the layers'.
    name: 'interference-lab/composition-root',
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/worlds/**', 'src/kit/**', 'src/**/*.test.{ts,tsx}', 'src/**/testing/**', 'src/testing/**', ...PROGRAM_ENTRIES],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: IMPORTS_WORLDS, message: ROOT_MESSAGE }, { regex: '(^|/)src/worlds(/|$)', message: ROOT_MESSAGE }] }],
    },
  },
  {
    name: 'interference-lab/composition-root/entries',
    files: PROGRAM_ENTRIES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\./)?(\\.\\./)*worlds/(?!(index|pages|commands)$)', message: `A program's entry loads its composition root (src/worlds/index.ts, the page's list src/worlds/pages.ts, the command line's src/worlds/commands.ts) and no world's module (ARCHITECTURE §7b).` }] },
      ],
    },
  },
  sharedKit(),
  worldIsolation(),
  {
    name: 'interference-lab/ui/react-hooks',
    files: ['src/ui/**/*.{ts,tsx}', 'src/worlds/*/ui/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
);
