import { describe, expect, it } from 'vitest';
import { getModelLayers } from './layers';
import { getMeasuredDatabase, MEASURED_MODELS } from './measured';
import { MODE_IDS } from './types';

describe('the shipped measured databases', () => {
  it('exist for the models of ODIN §4.2 (VGG16, ResNet-50), not for ResNet-152', () => {
    expect([...MEASURED_MODELS].sort()).toEqual(['resnet50', 'vgg16']);
    expect(getMeasuredDatabase('resnet152')).toBeUndefined();
  });

  for (const model of ['vgg16', 'resnet50'] as const) {
    it(`${model}: the built-in units, every mode A–L, and the record of where it was measured`, () => {
      const db = getMeasuredDatabase(model)!;
      expect(db.layers).toEqual(getModelLayers(model).map((u) => u.name));
      expect(Object.keys(db.modes).sort()).toEqual([...MODE_IDS]);
      expect(db.measurement?.backend).toBe('wasm');
      expect(db.measurement?.runtime.length).toBeGreaterThan(5);
      expect(db.measurement?.inputSize).toBe(224);
      // Measured, not derived: every unit's time under interference differs from its time alone somewhere.
      expect(db.modes.E!.some((t, i) => t !== db.modes.A![i])).toBe(true);
      expect(getMeasuredDatabase(model)).toBe(db);
    });
  }
});
