import { describe, expect, it } from 'vitest';
import { getDatabase } from './databases';
import { getModelLayers } from './layers';
import { slowdownSummaries, unitBoundness, unitSlowdowns } from './slowdown';

describe('slowdowns', () => {
  const db = { model: 'custom', layers: ['a', 'b', 'c'], modes: { A: [1, 2, 4], E: [2, 2, 6] } };

  it('divides each unit’s time under a mode by its time alone', () => {
    expect(unitSlowdowns(db, 'E')).toEqual([2, 1, 1.5]);
    expect(unitSlowdowns(db, 'B')).toEqual([]);
  });

  it('summarizes each mode present by the median and the largest over units', () => {
    expect(slowdownSummaries(db)).toEqual([
      { mode: 'A', median: 1, max: 1 },
      { mode: 'E', median: 1.5, max: 2 },
    ]);
  });

  it('marks the roofline’s memory-bound units: the FC layers of VGG16, whose weights dominate', () => {
    const boundness = unitBoundness('vgg16');
    const names = getModelLayers('vgg16').map((u) => u.name);
    expect(names.filter((_, i) => boundness[i] === 'memory')).toEqual(['fc6', 'fc7', 'fc8']);
    // And the roofline indeed slows them more under the memBW hogs of E than the convs.
    const slow = unitSlowdowns(getDatabase('vgg16'), 'E');
    expect(Math.min(...slow.slice(13))).toBeGreaterThan(Math.max(...slow.slice(0, 13)));
  });
});
