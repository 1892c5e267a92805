import type { ServingRunSpec } from '../worlds/serving/engine/spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../worlds/serving/engine/assumptions';

/**
 * A small serving world that changes, for the reference searches' tests: ResNet-18's load steps
 * from 8 to 60 rps at 20 s, TinyBERT's service starts at 10 s, a tenant sits on the GPU over
 * `tenantMs`, noisy interference on; seed 5.
 */
export function changingServingWorld(durationMs: number, tenantMs: readonly [number, number]): ServingRunSpec {
  return {
    platform: 'xavier-nx',
    models: [
      { model: 'res', weight: 1, rate: { kind: 'steps', steps: [{ fromMs: 0, rateRps: 8 }, { fromMs: 20_000, rateRps: 60 }] } },
      { model: 'mob', weight: 1 },
      { model: 'bert', weight: 1, serviceFromMs: 10_000 },
    ],
    rateRps: 30,
    durationMs,
    seed: 5,
    background: [{ fromMs: tenantMs[0], toMs: tenantMs[1], intensity: 0.6, memoryMb: 3000 }],
    assumptions: { ...DEFAULT_SERVING_ASSUMPTIONS, interferenceNoise: 0.1 },
  };
}
