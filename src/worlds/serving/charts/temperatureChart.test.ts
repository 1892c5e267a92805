import { describe, expect, it } from 'vitest';
import { TEMPERATURE_LOG_SPAN, hasTemperature, temperatureLog } from './temperatureChart';

describe('hasTemperature', () => {
  it('is true for a lane with some finite α above 0 (SAC), false for NaN or 0 (TAC, PPO, DDQN)', () => {
    expect(hasTemperature(Float64Array.from([Number.NaN, 0.1]))).toBe(true);
    expect(hasTemperature(Float64Array.from([Number.NaN, Number.NaN]))).toBe(false);
    expect(hasTemperature([0, 0])).toBe(false);
    expect(hasTemperature([])).toBe(false);
  });
});

describe('temperatureLog', () => {
  it('turns logarithmic when the positive α span more than TEMPERATURE_LOG_SPAN', () => {
    expect(temperatureLog([[0.1, 0.05], [0.08]])).toBe(false);
    expect(temperatureLog([[0.1], [0.1 / (TEMPERATURE_LOG_SPAN * 2)]])).toBe(true);
  });

  it('ignores NaN and non-positive values, and is linear without data', () => {
    expect(temperatureLog([[Number.NaN, 0, 0.1, 0.09]])).toBe(false);
    expect(temperatureLog([])).toBe(false);
  });
});
