/**
 * How the property tests (fast-check) draw their cases. `npm test` runs them with one fixed
 * seed, so a clean clone gives the same verdict on every run; `npm run test:fuzz`
 * (`scripts/test-fuzz.mjs`) runs them with a fresh seed and ten times the runs, and prints the
 * seed of a failure so that it can be replayed and written down as a fixed regression case.
 * The settings are read once per test run, in vitest's global setup
 * (`scripts/propertyGlobalSetup.ts`), and handed to every test file (`propertySetup.ts`,
 * `propertySeed.ts`). This module is plain (no vitest) so that the global setup can read it.
 */

/** The seed of `npm test`: any fixed number would do; this one is written down so that its verdict can be replayed. */
export const DEFAULT_PROPERTY_SEED = 20_240_611;

/** What the property tests run with. */
export interface PropertySettings {
  /** fast-check's seed for every property (a 32-bit integer). */
  readonly seed: number;
  /** Each property's runs are multiplied by this (1 in `npm test`, 10 in `npm run test:fuzz`). */
  readonly runsFactor: number;
}

/**
 * The settings from the environment: `FC_SEED` (an integer from −2³¹ to 2³² − 1, default
 * DEFAULT_PROPERTY_SEED) and `FC_RUNS_FACTOR` (a number from 0.01 to 1000, default 1). A bad
 * value is refused with a message naming the variable, before any test runs.
 */
export function propertySettings(env: Readonly<Record<string, string | undefined>>): PropertySettings {
  const seedText = env['FC_SEED']?.trim() || undefined;
  const factorText = env['FC_RUNS_FACTOR']?.trim() || undefined;
  const seed = seedText === undefined ? DEFAULT_PROPERTY_SEED : Number(seedText);
  if (!/^-?\d+$/.test(seedText ?? '0') || !Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed > 2 ** 32 - 1) {
    throw new RangeError(`FC_SEED: must be an integer from ${-(2 ** 31)} to ${2 ** 32 - 1}, got "${seedText}"`);
  }
  const runsFactor = factorText === undefined ? 1 : Number(factorText);
  if (!(runsFactor >= 0.01 && runsFactor <= 1000)) throw new RangeError(`FC_RUNS_FACTOR: must be a number from 0.01 to 1000, got "${factorText}"`);
  return { seed, runsFactor };
}

declare module 'vitest' {
  /** What the global setup hands every test file (`inject('propertySettings')`). */
  export interface ProvidedContext {
    propertySettings: PropertySettings;
  }
}

/** The line a test run prints once, before the tests: the seed and how to replay it. */
export function describePropertySettings(settings: PropertySettings): string {
  const fixed = settings.seed === DEFAULT_PROPERTY_SEED && settings.runsFactor === 1 ? ' (the fixed seed of npm test)' : '';
  return `property tests: seed ${settings.seed}, runs ×${settings.runsFactor}${fixed}; replay with FC_SEED=${settings.seed} FC_RUNS_FACTOR=${settings.runsFactor} npx vitest run <file>`;
}
