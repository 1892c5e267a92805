import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentPropertySettings, runs } from './propertySeed';
import { DEFAULT_PROPERTY_SEED, describePropertySettings, propertySettings } from './propertySettings';

describe('the property tests’ settings', () => {
  it('default to the fixed seed and the written runs', () => {
    expect(propertySettings({})).toEqual({ seed: DEFAULT_PROPERTY_SEED, runsFactor: 1 });
    expect(propertySettings({ FC_SEED: ' ', FC_RUNS_FACTOR: '' })).toEqual({ seed: DEFAULT_PROPERTY_SEED, runsFactor: 1 });
    expect(describePropertySettings(propertySettings({}))).toBe(
      `property tests: seed ${DEFAULT_PROPERTY_SEED}, runs ×1 (the fixed seed of npm test); replay with FC_SEED=${DEFAULT_PROPERTY_SEED} FC_RUNS_FACTOR=1 npx vitest run <file>`,
    );
  });

  it('read FC_SEED and FC_RUNS_FACTOR, and refuse bad ones by name', () => {
    expect(propertySettings({ FC_SEED: '-7', FC_RUNS_FACTOR: '10' })).toEqual({ seed: -7, runsFactor: 10 });
    expect(propertySettings({ FC_SEED: '4294967295' }).seed).toBe(4294967295);
    for (const bad of ['1.5', 'abc', '4294967296', '1e3', '-2147483649']) expect(() => propertySettings({ FC_SEED: bad })).toThrow(`FC_SEED: must be an integer`);
    for (const bad of ['0', '-1', 'x', '1001', 'NaN']) expect(() => propertySettings({ FC_RUNS_FACTOR: bad })).toThrow('FC_RUNS_FACTOR: must be a number');
  });

  it('reach every test file: fast-check draws from the run’s seed', () => {
    const { seed, runsFactor } = currentPropertySettings();
    expect(fc.readConfigureGlobal().seed).toBe(seed);
    expect(runs(40)).toBe(Math.max(1, Math.round(40 * runsFactor)));
    // The same seed gives the same cases: what makes `npm test`'s verdict the same on every run.
    const draw = () => fc.sample(fc.integer(), { seed, numRuns: 5 });
    expect(draw()).toEqual(draw());
  });
});
