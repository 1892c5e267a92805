import { describe, expect, it } from 'vitest';
import { laneColour, laneColoursFor, setShownLaneSchedulers } from './palette';

describe('lane colours', () => {
  it('gives a scheduler the same colour in every scenario, whatever its lane', () => {
    const a = laneColoursFor(['fixed', 'deeprt', 'ga', 'bcedge', 'fixed-hindsight', 'fixed-per-phase']);
    const b = laneColoursFor(['bcedge', 'fixed-per-phase', 'deeprt', 'tac', 'ppo', 'ddqn', 'fixed-hindsight']);
    expect(b[0]).toBe(a[3]);
    expect(b[1]).toBe(a[5]);
    expect(b[2]).toBe(a[1]);
    expect(b[6]).toBe(a[4]);
  });

  it('keeps every lane of a scenario apart: ten lanes, and two lanes of one scheduler', () => {
    const ten = laneColoursFor(['fixed', 'deeprt', 'ga', 'bcedge', 'tac', 'ppo', 'ddqn', 'fixed-hindsight', 'fixed-per-phase', 'fixed']);
    expect(new Set(ten).size).toBe(10);
    const odin = laneColoursFor(['odin', 'odin', 'lls', 'optimal', 'static', 'evict', 'unknown', 'odin']);
    expect(new Set(odin).size).toBe(8);
    expect(odin[0]).toBe(laneColoursFor(['lls', 'odin'])[1]);
  });

  it('is what laneColour reads for the lab shown', () => {
    setShownLaneSchedulers(['lls', 'odin']);
    expect([laneColour(0), laneColour(1)]).toEqual(laneColoursFor(['lls', 'odin']));
    setShownLaneSchedulers([]);
  });
});
