import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { getModelLayers } from '../engine/profiles/layers';
import { MODEL_IDS } from '../engine/profiles/types';
import { buildTfUnits, unitInputs } from './units';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** Runs every unit once on inputs of its shapes; returns its output shape [h, w, c]. */
function outputShapes(model: (typeof MODEL_IDS)[number], size: number): { names: string[]; inputs: number[][]; outputs: number[][] } {
  const units = buildTfUnits(tf, model, size, 3);
  const names: string[] = [];
  const inputs: number[][] = [];
  const outputs: number[][] = [];
  for (const unit of units) {
    const xs = unitInputs(tf, unit, 7);
    const y = unit.run(xs);
    names.push(unit.name);
    inputs.push([...unit.inputShapes[0]!]);
    outputs.push(y.shape.slice(1));
    y.dispose();
    for (const x of xs) x.dispose();
    unit.dispose();
  }
  return { names, inputs, outputs };
}

describe('tfjs units', () => {
  for (const model of MODEL_IDS) {
    it(`${model} at 224: the units, names and shapes of layers.ts`, () => {
      const before = tf.memory().numTensors;
      const { names, inputs, outputs } = outputShapes(model, 224);
      const layers = getModelLayers(model);
      expect(names).toEqual(layers.map((u) => u.name));
      expect(inputs).toEqual(layers.map((u) => [1, u.input.height, u.input.width, u.input.channels]));
      expect(outputs).toEqual(layers.map((u) => [u.output.height, u.output.width, u.output.channels]));
      expect(tf.memory().numTensors).toBe(before);
    }, 120_000);
  }

  it('at 112 the shapes of layers.ts at 112 (VGG16’s fc6 reads 3×3×512)', () => {
    // The ResNet builders are the same code at every size; VGG16's fc6 is where size shows.
    const { outputs } = outputShapes('vgg16', 112);
    expect(outputs).toEqual(getModelLayers('vgg16', 112).map((u) => [u.output.height, u.output.width, u.output.channels]));
    expect(getModelLayers('vgg16', 112).find((u) => u.name === 'fc6')?.input).toEqual({ height: 3, width: 3, channels: 512 });
  }, 120_000);

  it('draws the same weights from the same seed', () => {
    const run = (seed: number) => {
      const units = buildTfUnits(tf, 'resnet50', 32, seed);
      const x = tf.ones([1, 32, 32, 3]);
      const y = units[0]!.run([x]);
      const values = Array.from(y.dataSync().slice(0, 8));
      y.dispose();
      x.dispose();
      for (const u of units) u.dispose();
      return values;
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  }, 60_000);
});
