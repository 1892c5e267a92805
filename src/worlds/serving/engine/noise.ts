import { createRng, type Rng } from '../../../engine/rng';
import { SERVING_NOISE_STREAM } from './spec';

/**
 * A standard normal number from two of `rng`'s (Box–Muller), as the interference noise draws one
 * for each batch (simulation.ts `noiseFactor`).
 */
export function standardNormal(rng: Rng): number {
  // 1 − u lies in (0, 1], so the log is finite.
  return Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

/**
 * The interference noise's standard normal numbers of a seed, in the order a run's batches take
 * them (one each): they depend on the seed alone, never on the plan, which only decides how many
 * a run takes. Drawn as far as asked and kept, so that runs of the same spec (a search's) share
 * them: the logarithm, cosine and square root of each were about a tenth of a run.
 */
export class NormalDraws {
  private readonly rng: Rng;
  private values = new Float64Array(4096);
  private count = 0;

  constructor(readonly seed: number) {
    this.rng = createRng(seed, SERVING_NOISE_STREAM);
  }

  /** The j-th number (from 0), drawn up to it when not yet. */
  at(j: number): number {
    if (j >= this.count) this.drawTo(j);
    return this.values[j]!;
  }

  private drawTo(j: number): void {
    if (j >= this.values.length) {
      let size = this.values.length;
      while (size <= j) size *= 2;
      const values = new Float64Array(size);
      values.set(this.values.subarray(0, this.count));
      this.values = values;
    }
    while (this.count <= j) this.values[this.count++] = standardNormal(this.rng);
  }
}
