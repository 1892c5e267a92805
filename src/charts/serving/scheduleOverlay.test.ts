import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenario/presets';
import type { ServingScenario } from '../../scenario/schema';
import { scheduleMarks } from './scheduleOverlay';

describe('the schedule on the time axis', () => {
  it('shows bcedge-dynamic’s tenant as a band and its rate changes as boundaries', () => {
    const s = findPreset('bcedge-dynamic')!.scenario as ServingScenario;
    const marks = scheduleMarks(s.serving);
    expect(marks.bands).toEqual([{ key: 'tenant-0', fromS: 1000, toS: 2000, label: 'video analytics: 30 % GPU, 1.5 GB', kind: 'tenant' }]);
    // Five camera ramps (corners at 1200, 1800, 2700 s) and the microphone's burst (2200, 2400 s).
    expect(marks.boundaries).toHaveLength(5 * 3 + 2);
    expect(new Set(marks.boundaries.map((b) => b.atS))).toEqual(new Set([1200, 1800, 2700, 2200, 2400]));
  });

  it('shows service windows, clipped to the run', () => {
    const s = structuredClone(findPreset('serving-default')!.scenario) as ServingScenario;
    s.serving.models[0] = { ...s.serving.models[0]!, serviceFromS: 100, serviceToS: null };
    expect(scheduleMarks(s.serving).bands).toEqual([{ key: 'service-yolo', fromS: 100, toS: 600, label: 'yolo in service', kind: 'service' }]);
  });
});
