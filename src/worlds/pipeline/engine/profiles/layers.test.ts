import { describe, it, expect } from 'vitest';
import { getModelLayers, sumUnits } from './layers';
import type { LayerUnit } from './layers';
import { MODEL_IDS } from './types';

/** Relative closeness, for published totals quoted to 2–3 digits. */
function expectWithin(actual: number, expected: number, fraction: number): void {
  expect(Math.abs(actual - expected) / expected).toBeLessThanOrEqual(fraction);
}

function byName(units: readonly LayerUnit[], name: string): LayerUnit {
  const found = units.find((u) => u.name === name);
  if (!found) throw new Error(`no unit ${name}`);
  return found;
}

describe('getModelLayers', () => {
  it('cuts the models into 16, 50 and 52 units (ARCHITECTURE §2)', () => {
    expect(getModelLayers('vgg16')).toHaveLength(16);
    expect(getModelLayers('resnet50')).toHaveLength(50);
    expect(getModelLayers('resnet152')).toHaveLength(52);
  });

  it('gives unique names and positive work to every unit', () => {
    for (const model of MODEL_IDS) {
      const units = getModelLayers(model);
      expect(new Set(units.map((u) => u.name)).size).toBe(units.length);
      for (const u of units) {
        expect(u.flops).toBeGreaterThan(0);
        expect(u.bytes).toBeGreaterThan(0);
        expect(u.kernels).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('chains units: each one consumes the feature map the previous one produced', () => {
    for (const model of MODEL_IDS) {
      const units = getModelLayers(model);
      expect(units[0]?.input).toEqual({ height: 224, width: 224, channels: 3 });
      for (let i = 1; i < units.length; i += 1) {
        expect(units[i]?.input).toEqual(units[i - 1]?.output);
      }
      expect(units.at(-1)?.output).toEqual({ height: 1, width: 1, channels: 1000 });
    }
  });

  it('memoizes and freezes', () => {
    const units = getModelLayers('resnet50');
    expect(getModelLayers('resnet50')).toBe(units);
    expect(Object.isFrozen(units)).toBe(true);
    expect(Object.isFrozen(units[0])).toBe(true);
  });
});

describe('VGG16', () => {
  const units = getModelLayers('vgg16');

  it('names 13 convs and 3 FC layers in order', () => {
    expect(units.map((u) => u.name)).toEqual([
      'conv1_1', 'conv1_2', 'conv2_1', 'conv2_2',
      'conv3_1', 'conv3_2', 'conv3_3', 'conv4_1', 'conv4_2', 'conv4_3',
      'conv5_1', 'conv5_2', 'conv5_3', 'fc6', 'fc7', 'fc8',
    ]);
  });

  it('matches the published ≈ 15.5 GMACs and 138.4 M parameters', () => {
    const totals = sumUnits(units);
    expectWithin(totals.flops / 2, 15.47e9, 0.02);
    expect(totals.params).toBe(138_357_544); // torchvision / Keras count, exact
  });

  it('folds each max-pool into the conv before it', () => {
    expect(byName(units, 'conv1_1').output).toEqual({ height: 224, width: 224, channels: 64 });
    expect(byName(units, 'conv1_2').output).toEqual({ height: 112, width: 112, channels: 64 });
    expect(byName(units, 'conv5_3').output).toEqual({ height: 7, width: 7, channels: 512 });
    // conv1_2: 224·224·64·64·9 MACs; bytes = weights+bias, input, conv output, pooled output
    // (the pool reads the conv output back).
    const conv12 = byName(units, 'conv1_2');
    expect(conv12.flops).toBe(2 * 224 * 224 * 64 * 64 * 9);
    const map = 224 * 224 * 64;
    expect(conv12.bytes).toBe(4 * (64 * 64 * 9 + 64 + map + map + map + map / 4));
  });

  it('gives fc6 its 25088×4096 weights and almost no arithmetic per byte', () => {
    const fc6 = byName(units, 'fc6');
    expect(fc6.params).toBe(25088 * 4096 + 4096);
    expect(fc6.flops / fc6.bytes).toBeLessThan(0.6);
    // …while conv1_2 does ≈ 88 FLOPs per byte, far right of the ≈ 8 FLOP/B ridge.
    const conv12 = byName(units, 'conv1_2');
    expect(conv12.flops / conv12.bytes).toBeGreaterThan(50);
  });
});

describe('ResNet-50', () => {
  const units = getModelLayers('resnet50');

  it('names conv1, 16 blocks × 3 convs and fc', () => {
    const names = units.map((u) => u.name);
    expect(names[0]).toBe('conv1');
    expect(names.slice(1, 4)).toEqual(['res2a_conv1', 'res2a_conv2', 'res2a_conv3']);
    expect(names).toContain('res4f_conv3');
    expect(names.at(-2)).toBe('res5c_conv3');
    expect(names.at(-1)).toBe('fc');
  });

  it('matches the published ≈ 4.1 GMACs and 25.6 M parameters', () => {
    const totals = sumUnits(units);
    expectWithin(totals.flops / 2, 4.1e9, 0.03);
    expect(totals.params).toBe(25_557_032); // torchvision resnet50, exact
  });

  it('puts the stride on the 3×3 conv (v1.5) and the projection in the last 1×1', () => {
    expect(byName(units, 'conv1').output).toEqual({ height: 56, width: 56, channels: 64 });
    expect(byName(units, 'res3a_conv1').output).toEqual({ height: 56, width: 56, channels: 128 });
    expect(byName(units, 'res3a_conv2').output).toEqual({ height: 28, width: 28, channels: 128 });
    const withProjection = byName(units, 'res3a_conv3');
    const plain = byName(units, 'res3b_conv3');
    // res3a_conv3 = 1×1 128→512 + projection 1×1/2 256→512, both at 28×28 output.
    expect(withProjection.params - plain.params).toBe(256 * 512 + 2 * 512);
    expect(withProjection.flops - plain.flops).toBe(2 * 28 * 28 * 256 * 512);
    expect(withProjection.kernels).toBe(2);
    expect(plain.kernels).toBe(1);
  });
});

describe('ResNet-152', () => {
  const units = getModelLayers('resnet152');

  it('names conv1, 50 blocks as one unit each, and fc', () => {
    const names = units.map((u) => u.name);
    expect(names.slice(0, 5)).toEqual(['conv1', 'res2a', 'res2b', 'res2c', 'res3a']);
    expect(names).toContain('res3b7');
    expect(names).toContain('res4b35');
    expect(names.filter((n) => n.startsWith('res4'))).toHaveLength(36);
    expect(names.slice(-4)).toEqual(['res5a', 'res5b', 'res5c', 'fc']);
  });

  it('matches the published ≈ 11.5 GMACs and 60.2 M parameters', () => {
    const totals = sumUnits(units);
    expectWithin(totals.flops / 2, 11.5e9, 0.03);
    expect(totals.params).toBe(60_192_808); // torchvision resnet152, exact
  });

  it('has the same blocks as ResNet-50 where the two share them', () => {
    const r50 = getModelLayers('resnet50');
    const block = byName(units, 'res2b');
    const parts = ['res2b_conv1', 'res2b_conv2', 'res2b_conv3'].map((n) => byName(r50, n));
    expect(block.flops).toBe(parts.reduce((s, u) => s + u.flops, 0));
    expect(block.bytes).toBe(parts.reduce((s, u) => s + u.bytes, 0));
    expect(block.kernels).toBe(3);
  });
});
