import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import type { BatchObservation, ServingObservation } from '../engine/scheduler';
import {
  collectBatchRecords,
  ExplorationScheduler,
  InterferencePredictor,
  PREDICTOR_FEATURES,
  predictorFeatures,
  runPredictorExperiment,
  type PredictorFile,
} from './predictor';
import type { Tf } from '../../../lib/tf';
import { useHostDecisions } from './hostPolicy';
import { encodeFloat32 } from './nn';
import { loadTfNode } from '../../../lib/tfNode';

let tf: Tf;
let records: BatchObservation[];

beforeAll(async () => {
  tf = await loadTfNode();
  records = collectBatchRecords(600, { seed: 7 }).records;
});

const obs = (over: Partial<BatchObservation> = {}): BatchObservation => ({
  model: 2,
  batchSize: 8,
  availableMemory: 0.4,
  availableCompute: -0.5,
  runningBatches: 4,
  concurrentInstances: 24,
  isolatedMs: 40,
  inferenceMs: 80,
  ...over,
});

function relativeErrors(p: InterferencePredictor, rows: readonly BatchObservation[]): number[] {
  const predicted = p.predictMs(rows.map((r) => predictorFeatures(r)));
  return rows.map((r, i) => Math.abs(predicted[i]! - r.inferenceMs) / r.inferenceMs);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('predictorFeatures', () => {
  it('encodes the inputs of Fig. 5, the model, the batch and the profile', () => {
    const f = predictorFeatures(obs());
    expect(f.length).toBe(PREDICTOR_FEATURES);
    expect(PREDICTOR_FEATURES).toBe(12);
    expect(f[0]).toBeCloseTo(0.4, 6);
    expect(f[1]).toBeCloseTo(-0.5, 6);
    expect(f[2]).toBeCloseTo(4 / 16, 6);
    expect(f[3]).toBeCloseTo(24 / 48, 6);
    expect(Array.from(f.subarray(4, 10))).toEqual([0, 0, 1, 0, 0, 0]);
    expect(f[10]).toBeCloseTo(3 / 7, 6);
    expect(f[11]).toBeCloseTo(Math.log(40) / 8, 6);
  });

  it('rejects a model index outside the run, a non-positive isolated time and a NaN input', () => {
    expect(() => predictorFeatures(obs({ model: 6 }))).toThrow(/^model: /);
    expect(() => predictorFeatures(obs({ isolatedMs: 0 }))).toThrow(/^isolatedMs: /);
    expect(() => predictorFeatures(obs({ availableCompute: Number.NaN }))).toThrow(/^availableCompute: /);
    expect(predictorFeatures(obs({ model: 6 }), 7).length).toBe(13);
  });
});

describe('ExplorationScheduler', () => {
  it('draws grid actions and keeps at most one record per model per slot', () => {
    const explorer = new ExplorationScheduler(2, createRng(1));
    const observation = { models: [{}, {}] } as unknown as ServingObservation;
    const action = explorer.decide(observation);
    expect(action).toHaveLength(2);
    for (let k = 0; k < 5; k++) explorer.observeBatch(obs({ model: 0, inferenceMs: 50 + k }));
    explorer.observeBatch(obs({ model: 1 }));
    explorer.decide(observation);
    explorer.decide(observation);
    expect(explorer.samples.map((s) => s.model)).toEqual([0, 1]);
  });

  it('collects records from the serving-default run at about six per simulated second', () => {
    expect(records).toHaveLength(600);
    for (let m = 0; m < 6; m++) expect(records.filter((r) => r.model === m).length).toBeGreaterThan(80);
    expect(records.every((r) => r.inferenceMs >= r.isolatedMs * (1 - 1e-9))).toBe(true);
  });
});

describe('InterferencePredictor', () => {
  it('keeps a bounded ring of samples', () => {
    const p = new InterferencePredictor(tf, createRng(1), { capacity: 5 });
    try {
      expect(p.train(10)).toBe(0);
      expect(() => p.train(1.5)).toThrow(/^steps: /);
      expect(() => p.fit(records, -1)).toThrow(/^epochs: /);
      for (let i = 0; i < 12; i++) p.add(records[i]!);
      expect(p.size).toBe(5);
      expect(p.config.capacity).toBe(5);
      expect(new InterferencePredictor(tf, createRng(1)).config.capacity).toBe(2000);
    } finally {
      p.dispose();
    }
  });

  it('predicts finite, positive latencies, the same for flat and per-row input', () => {
    const p = new InterferencePredictor(tf, createRng(2));
    try {
      const rows = records.slice(0, 50).map((r) => predictorFeatures(r));
      const flat = new Float32Array(rows.length * PREDICTOR_FEATURES);
      rows.forEach((row, i) => flat.set(row, i * PREDICTOR_FEATURES));
      for (const predicted of [p.predictMs(rows), p.predictMs(flat)]) {
        expect(predicted).toHaveLength(50);
        expect(Array.from(predicted).every((v) => Number.isFinite(v) && v > 0)).toBe(true);
      }
      expect(p.predictMs(rows)).toEqual(p.predictMs(flat));
      expect(p.predictBatchMs(records[0]!)).toBeCloseTo(p.predictMs(rows)[0]!, 3);
      expect(p.predictMs(new Float32Array(0))).toHaveLength(0);
      expect(() => p.predictMs(new Float32Array(5))).toThrow(RangeError);
    } finally {
      p.dispose();
    }
  });

  it('predicts on the host bit for bit as tfjs does, before and after updates', () => {
    const p = new InterferencePredictor(tf, createRng(4));
    try {
      const flat = new Float32Array(64 * PREDICTOR_FEATURES);
      records.slice(0, 64).forEach((r, i) => flat.set(predictorFeatures(r), i * PREDICTOR_FEATURES));
      const both = () => {
        useHostDecisions(false);
        const onTf = p.predictMs(flat);
        useHostDecisions(true);
        return [onTf, p.predictMs(flat)] as const;
      };
      const [tfBefore, hostBefore] = both();
      expect(hostBefore).toEqual(tfBefore);
      for (const r of records.slice(0, 200)) p.add(r);
      p.train(20);
      const [tfAfter, hostAfter] = both();
      // The mirror follows the update: the prediction moved, and host and tfjs still agree.
      expect(hostAfter).not.toEqual(hostBefore);
      expect(hostAfter).toEqual(tfAfter);
    } finally {
      useHostDecisions(true);
      p.dispose();
    }
  });

  it('a mirror predicts as the predictor whose acting state it took (train --threads)', () => {
    const p = new InterferencePredictor(tf, createRng(4));
    const copy = new InterferencePredictor(tf, createRng(5));
    try {
      for (const r of records.slice(0, 200)) p.add(r);
      p.train(20);
      const rows = records.slice(200, 260).map((r) => predictorFeatures(r));
      expect(copy.predictMs(rows)).not.toEqual(p.predictMs(rows));
      const state = p.actingState();
      copy.mirror(state.params, state.updates);
      expect(copy.predictMs(rows)).toEqual(p.predictMs(rows));
      expect(copy.updateCount).toBe(20);
      expect(copy.size).toBe(0);
      expect(() => copy.mirror(new Float32Array(2), 0)).toThrow(/^params: /);
    } finally {
      p.dispose();
      copy.dispose();
    }
  });

  it('learns online from its ring (add + train)', () => {
    const p = new InterferencePredictor(tf, createRng(3));
    try {
      const train = records.slice(0, 480);
      const heldOut = records.slice(480);
      for (const r of train) p.add(r);
      const before = median(relativeErrors(p, heldOut));
      expect(p.train(1500)).toBe(1500);
      const after = relativeErrors(p, heldOut);
      expect(after.every(Number.isFinite)).toBe(true);
      expect(median(after)).toBeLessThan(before / 3);
      expect(median(after)).toBeLessThan(0.05);
      expect(p.loss()).toBeGreaterThan(0);
    } finally {
      p.dispose();
    }
  }, 60_000);

  it('leaks no tensor over 1000 train steps and predictions', () => {
    const p = new InterferencePredictor(tf, createRng(4));
    try {
      for (const r of records) p.add(r);
      p.train(1); // Adam creates its moment variables on the first step.
      p.loss();
      const rows = records.slice(0, 10).map((r) => predictorFeatures(r));
      const before = tf.memory().numTensors;
      p.train(1000);
      p.predictMs(rows);
      p.loss();
      expect(tf.memory().numTensors).toBe(before);
    } finally {
      p.dispose();
    }
  }, 60_000);

  it('save → load into a predictor with another seed gives identical predictions', () => {
    const a = new InterferencePredictor(tf, createRng(5));
    const b = new InterferencePredictor(tf, createRng(6));
    try {
      for (const r of records) a.add(r);
      a.train(50);
      const rows = records.slice(0, 40).map((r) => predictorFeatures(r));
      expect(b.predictMs(rows)).not.toEqual(a.predictMs(rows));
      const file = JSON.parse(JSON.stringify(a.save())) as PredictorFile;
      b.load(file);
      expect(b.predictMs(rows)).toEqual(a.predictMs(rows));
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('rejects a bad file with a RangeError naming the field', () => {
    const p = new InterferencePredictor(tf, createRng(7));
    try {
      const good = p.save();
      const bad = (patch: Record<string, unknown>): PredictorFile => ({ ...good, ...patch }) as unknown as PredictorFile;
      const cases: [PredictorFile, RegExp][] = [
        [null as unknown as PredictorFile, /^predictor file: /],
        [bad({ format: 'agent' }), /^format: /],
        [bad({ version: 2 }), /^version: /],
        [bad({ modelCount: 5 }), /^modelCount: /],
        [bad({ network: undefined }), /^network: /],
        [bad({ network: { ...good.network, sizes: [12, 32, 1] } }), /^network\.sizes: /],
        [bad({ network: { ...good.network, float32: good.network.float32.slice(8) } }), /^network\.float32: /],
        [bad({ network: { ...good.network, float32: '%%%' } }), /^network\.float32: /],
        [bad({ network: { ...good.network, float32: encodeFloat32(new Float32Array(p.net.params.size).fill(Number.NaN)) } }), /^network\.float32: .*finite/],
      ];
      const rows = records.slice(0, 5).map((r) => predictorFeatures(r));
      const before = p.predictMs(rows);
      for (const [file, message] of cases) {
        expect(() => p.load(file)).toThrow(RangeError);
        expect(() => p.load(file)).toThrow(message);
      }
      // A rejected file changes nothing.
      expect(p.predictMs(rows)).toEqual(before);
    } finally {
      p.dispose();
    }
  });
});

describe('runPredictorExperiment (BCEdge §V-E, Fig. 13)', () => {
  it('the NN beats linear regression on the 400 held-out records (seed 1)', () => {
    const before = tf.memory().numTensors;
    // The defaults: 2000 records (1600 / 400), 300 epochs of 25 minibatches of 64.
    const r = runPredictorExperiment(tf, { seed: 1 });
    expect(tf.memory().numTensors).toBe(before);
    expect(r.trainSamples).toBe(1600);
    expect(r.heldOutSamples).toBe(400);
    expect(r.epochs).toBe(300);
    expect(r.steps).toBe(300 * 25);
    for (const s of [r.mlp, r.linear, r.linearLogSlowdown]) {
      expect(s.sorted).toHaveLength(400);
      expect(s.sorted.every((e, i) => Number.isFinite(e) && (i === 0 || e >= s.sorted[i - 1]!))).toBe(true);
      expect(s.p50).toBeLessThanOrEqual(s.p90);
      expect(s.p90).toBeLessThanOrEqual(s.p95);
    }
    // There was interference to predict.
    expect(r.slowdown.p95).toBeGreaterThan(2);
    // The paper's claim: the NN at least halves the linear model's error (Fig. 13). Here it
    // does so against the paper's baseline (latency in ms) and also against a linear model
    // of the NN's own target (ln slowdown).
    expect(r.mlp.p90).toBeLessThan(r.linear.p90 / 2);
    expect(r.mlp.p90).toBeLessThan(r.linearLogSlowdown.p90 / 2);
    expect(r.mlp.p95).toBeLessThan(r.linearLogSlowdown.p95 / 2);
    expect(r.mlp.p90).toBeLessThan(0.05);
  }, 60_000);
});
