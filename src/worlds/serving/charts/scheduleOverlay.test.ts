import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../scenario/presets';
import type { ServingScenario } from '../schema';
import { scheduleMarks } from './scheduleOverlay';

describe('the schedule on the time axis', () => {
  it('shows a tenant as a band and bcedge-dynamic’s rate changes as boundaries', () => {
    const s = structuredClone(findPreset('bcedge-dynamic')!.scenario) as ServingScenario;
    // The preset has no outside tenant (its interference is the co-located models'); one dragged on shows as a band.
    expect(scheduleMarks(s.serving).bands).toEqual([]);
    s.serving.background = [{ fromS: 1000, toS: 2000, intensity: 0.3, memoryMb: 1500, label: 'video analytics' }];
    const marks = scheduleMarks(s.serving);
    expect(marks.bands).toEqual([{ key: 'tenant-0', fromS: 1000, toS: 2000, label: 'video analytics: 30 % GPU, 1.5 GB', kind: 'tenant' }]);
    // Five camera steps (at 1000 and 2000 s) and the microphone's burst (2200, 2400 s).
    expect(marks.boundaries).toHaveLength(5 * 2 + 2);
    expect(new Set(marks.boundaries.map((b) => b.atS))).toEqual(new Set([1000, 2000, 2200, 2400]));
  });

  it('shows service windows, clipped to the run', () => {
    const s = structuredClone(findPreset('serving-default')!.scenario) as ServingScenario;
    s.serving.models[0] = { ...s.serving.models[0]!, serviceFromS: 100, serviceToS: null };
    expect(scheduleMarks(s.serving).bands).toEqual([{ key: 'service-yolo', fromS: 100, toS: 600, label: 'yolo in service', kind: 'service' }]);
  });
});
