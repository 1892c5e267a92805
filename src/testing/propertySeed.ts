/**
 * The property tests' seed and runs in a test file (propertySettings.ts says where they come
 * from): `runs(n)` for a property's number of runs, `propertyTimeout(ms)` for its time budget.
 */
import { inject } from 'vitest';
import { DEFAULT_PROPERTY_SEED, type PropertySettings } from './propertySettings';

/** The settings this test file runs with (the defaults when vitest was started without the global setup). */
export function currentPropertySettings(): PropertySettings {
  return (inject('propertySettings') as PropertySettings | undefined) ?? { seed: DEFAULT_PROPERTY_SEED, runsFactor: 1 };
}

/** A property's number of runs in this test run: `n` times the runs factor, at least 1. */
export function runs(n: number): number {
  return Math.max(1, Math.round(n * currentPropertySettings().runsFactor));
}

/** A property test's time budget, ms, grown with the runs factor (never shrunk below `ms`). */
export function propertyTimeout(ms: number): number {
  return Math.round(ms * Math.max(1, currentPropertySettings().runsFactor));
}
