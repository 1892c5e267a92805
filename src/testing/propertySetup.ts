/**
 * Runs before every test file (vitest `setupFiles`): every fast-check property of the file
 * draws from the run's seed, so the same seed gives the same cases (propertySeed.ts).
 */
import fc from 'fast-check';
import { currentPropertySettings } from './propertySeed';

const { seed, runsFactor } = currentPropertySettings();
// numRuns here is fast-check's default (100) scaled; a property that names its runs uses `runs(n)`.
fc.configureGlobal({ seed, numRuns: Math.max(1, Math.round(100 * runsFactor)) });
