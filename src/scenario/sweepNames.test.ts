import { describe, expect, it } from 'vitest';
import { allPresets, findPreset } from './presets';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { fieldName, inWords, metricName } from './sweepNames';
import { worldOf } from '../kit/worlds';

describe('Explore in words', () => {
  it('names a lane’s parameter by its scheduler and label, a model’s field by its model, others with their units', () => {
    const pipeline = defaultPipelineScenario();
    expect(fieldName('pipeline.lanes[0].params.alpha', pipeline)).toBe('ODIN α (exploration)');
    expect(fieldName('pipeline.assumptions.detectionThreshold', pipeline)).toBe('detection threshold (relative change)');
    const serving = findPreset('bcedge-dynamic')!.scenario;
    expect(fieldName('serving.rateRps', serving)).toBe('requests per second a model');
    expect(fieldName('serving.models[0].weight', serving)).toMatch(/^[a-z]+: share of the requests$/);
    const twoOdins = { ...pipeline, pipeline: { ...pipeline.pipeline, lanes: [{ scheduler: 'odin' as const, params: { alpha: 2 } }, { scheduler: 'odin' as const, params: { alpha: 10 } }] } };
    expect(fieldName('pipeline.lanes[1].params.alpha', twoOdins)).toBe('ODIN α (exploration), lane 2');
  });

  it('names every metric of both worlds in words, with its unit', () => {
    expect(metricName('throughputMeanQps')).toBe('mean throughput (queries/s)');
    expect(metricName('optimalRatioMean')).toBe('mean ratio to the optimum');
    for (const preset of allPresets().slice(0, 1).concat(allPresets().filter((p) => p.scenario.world === 'serving').slice(0, 1))) {
      for (const m of worldOf(preset.scenario).sweepMetrics) expect(metricName(m)).not.toMatch(/[a-z][A-Z]/);
    }
  });

  it('says an unknown key in words: camel case split, unit suffixes read', () => {
    expect(inWords('targetEntropyRatio')).toBe('target entropy ratio');
    expect(inWords('meanOnS')).toBe('mean on (s)');
    expect(inWords('latencyP99Ms')).toBe('latency p99 (ms)');
    expect(inWords('linkBandwidthMbps')).toBe('link bandwidth (Mbit/s)');
  });
});
