import { describe, it, expect } from 'vitest';
import { describeMode, getDatabase } from './databases';
import { getModelLayers } from './layers';
import { INTERFERENCE_MODE_IDS, MODE_IDS, MODEL_IDS } from './types';
import type { LayerTimeDatabase, ModeId } from './types';
import { validateDatabase } from './validate';

function time(db: LayerTimeDatabase, mode: ModeId, layer: string): number {
  const index = db.layers.indexOf(layer);
  const value = db.modes[mode]?.[index];
  if (index < 0 || value === undefined) throw new Error(`no ${layer} under ${mode}`);
  return value;
}

function slowdown(db: LayerTimeDatabase, mode: ModeId, layer: string): number {
  return time(db, mode, layer) / time(db, 'A', layer);
}

describe('getDatabase', () => {
  it('has all 12 modes with one positive finite time per unit, never below mode A', () => {
    for (const model of MODEL_IDS) {
      const db = getDatabase(model);
      expect(db.model).toBe(model);
      expect(db.layers).toEqual(getModelLayers(model).map((u) => u.name));
      expect(Object.keys(db.modes)).toEqual([...MODE_IDS]);
      const alone = db.modes.A ?? [];
      for (const mode of MODE_IDS) {
        const times = db.modes[mode] ?? [];
        expect(times).toHaveLength(db.layers.length);
        times.forEach((ms, l) => {
          expect(Number.isFinite(ms) && ms > 0).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(alone[l] ?? Infinity);
        });
      }
    }
  });

  it('makes every interference mode slow the whole model down', () => {
    for (const model of MODEL_IDS) {
      const db = getDatabase(model);
      const total = (mode: ModeId): number => (db.modes[mode] ?? []).reduce((s, t) => s + t, 0);
      for (const mode of INTERFERENCE_MODE_IDS) expect(total(mode)).toBeGreaterThan(total('A'));
    }
  });

  it('hits memory-bound and compute-bound layers differently, as Figure 4 (§4.1)', () => {
    const db = getDatabase('vgg16');
    // fc6 streams 411 MB of weights: the memBW hog on all cores hurts it, the CPU hog not.
    expect(slowdown(db, 'E', 'fc6')).toBeGreaterThan(slowdown(db, 'I', 'fc6'));
    expect(slowdown(db, 'E', 'fc6')).toBeGreaterThan(1.5);
    expect(slowdown(db, 'I', 'fc6')).toBeLessThan(1.05);
    // conv1_2 does 3.7 GFLOPs on 26 MB: the CPU hog hurts it more than the memBW hog.
    expect(slowdown(db, 'I', 'conv1_2')).toBeGreaterThan(slowdown(db, 'E', 'conv1_2'));
    expect(slowdown(db, 'I', 'conv1_2')).toBeGreaterThan(1.9);
    // With the CNN on 4 cores, a memBW hog on the other 4 (J) hurts fc6 and a CPU hog
    // there (K) does not; conv1_2 loses half its cores either way.
    expect(slowdown(db, 'J', 'fc6')).toBeGreaterThan(slowdown(db, 'K', 'fc6'));
    expect(slowdown(db, 'K', 'fc6')).toBeCloseTo(1, 9);
    expect(slowdown(db, 'J', 'conv1_2')).toBeCloseTo(slowdown(db, 'K', 'conv1_2'), 9);
  });

  it('shows the same split in ResNet-50: the fc head versus a 3×3 conv', () => {
    const db = getDatabase('resnet50');
    expect(slowdown(db, 'E', 'fc')).toBeGreaterThan(slowdown(db, 'I', 'fc'));
    expect(slowdown(db, 'I', 'res4b_conv2')).toBeGreaterThan(slowdown(db, 'E', 'res4b_conv2'));
  });

  it('memoizes and freezes', () => {
    const db = getDatabase('vgg16');
    expect(getDatabase('vgg16')).toBe(db);
    expect(Object.isFrozen(db)).toBe(true);
    expect(Object.isFrozen(db.layers)).toBe(true);
    expect(Object.isFrozen(db.modes)).toBe(true);
    expect(Object.isFrozen(db.modes.E)).toBe(true);
  });

  it('passes its own door', () => {
    for (const model of MODEL_IDS) {
      const db = getDatabase(model);
      const result = validateDatabase(JSON.parse(JSON.stringify(db)));
      expect(result).toEqual({ ok: true, database: db });
    }
  });
});

describe('describeMode', () => {
  it('labels every row of Table 1', () => {
    expect(MODE_IDS.map((mode) => describeMode(mode))).toEqual([
      'alone',
      'memBW hog on 1 core',
      'memBW hog on 2 cores',
      'memBW hog on 4 cores',
      'memBW hog on 8 cores',
      'CPU hog on 1 core',
      'CPU hog on 2 cores',
      'CPU hog on 4 cores',
      'CPU hog on 8 cores',
      'CNN on 4 cores + memBW hog on 4 others',
      'CNN on 4 cores + CPU hog on 4 others',
      'CNN on 4 cores + CPU and memBW hogs on 4 others',
    ]);
  });
});
