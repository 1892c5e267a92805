import { MODEL_IDS, type ModelId } from '../engine/models';
import { plottable } from '../../../charts/pointSampling';

/**
 * What the serving world's charts share beyond the chart kit (runtime.ts, axes.ts): the
 * models' colours and the time axis of a run in seconds. Unlike the pipeline charts these
 * read no store: the host component passes plain data to `update` (DataChart).
 */

/**
 * Colours of the six BCEdge models: Paul Tol's "bright" scheme, distinct for colour-blind
 * viewers and different from the lane palette (Okabe–Ito), so models and lanes never clash.
 */
export const MODEL_COLOURS: Readonly<Record<ModelId, string>> = {
  yolo: '#4477AA',
  mob: '#EE6677',
  res: '#228833',
  eff: '#CCBB44',
  inc: '#66CCEE',
  bert: '#AA3377',
};

/** Colour of a model; a neutral grey for an id outside the six. */
export function modelColour(model: string): string {
  return (MODEL_COLOURS as Readonly<Record<string, string>>)[model] ?? '#777777';
}

/** The six models in the paper's order. */
export const SERVING_MODELS: readonly ModelId[] = MODEL_IDS;

/** Time axis of the serving charts: 0 … the last sample, at least `minSeconds` wide. */
export function timeDomain(timeS: readonly number[], minSeconds = 10): [number, number] {
  let first = 0;
  let last = 0;
  for (const t of timeS) {
    if (!plottable(t)) continue;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return [first, Math.max(first + minSeconds, last)];
}
