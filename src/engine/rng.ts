/**
 * Seeded pseudo-random numbers for the engine: sfc32 (Small Fast Counter, 32-bit),
 * initialised through splitmix32. Every source of randomness in a simulation is one of
 * these, derived from the scenario's seed, so a run is reproducible bit for bit in the
 * worker, the CLI and the tests. Written here (not taken from a library) so that the
 * stream can never change under a dependency upgrade: old links must give old numbers.
 */
export interface Rng {
  /** A float in [0, 1) with 32 bits of randomness. */
  nextFloat(): number;
  /** An integer in [0, n). */
  nextInt(n: number): number;
  /** An exponentially distributed sample with the given mean (mean > 0). */
  exponential(mean: number): number;
  /** The generator's state, for snapshots. */
  state(): Uint32Array;
  /** Puts back a state taken by `state()` (a checkpoint restored): the same numbers follow. */
  setState(state: Uint32Array): void;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * Creates a generator from a seed and a stream id. Different stream ids give independent
 * streams from the same seed (the interference trace and the arrival process each have
 * their own, so adding a lane or a scheduler never shifts another stream).
 */
export function createRng(seed: number, stream = 0): Rng {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
  }
  if (!Number.isInteger(stream) || stream < 0) {
    throw new RangeError(`stream must be a non-negative integer, got ${stream}`);
  }
  const init = splitmix32((seed ^ Math.imul(stream + 1, 0x27d4eb2d)) >>> 0);
  return createRngFromState(Uint32Array.of(init(), init(), init(), init()), true);
}

/** Restores a generator from `state()`; `warm` discards the first outputs as sfc32 advises. */
export function createRngFromState(state: Uint32Array, warm = false): Rng {
  if (state.length !== 4) throw new RangeError(`rng state must have 4 words, got ${state.length}`);
  let a = state[0]! | 0;
  let b = state[1]! | 0;
  let c = state[2]! | 0;
  let d = state[3]! | 0;
  const nextU32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  if (warm) for (let i = 0; i < 12; i++) nextU32();
  return {
    nextFloat: () => nextU32() / 4294967296,
    nextInt(n: number): number {
      if (!Number.isInteger(n) || n <= 0) throw new RangeError(`nextInt needs a positive integer, got ${n}`);
      return Math.floor((nextU32() / 4294967296) * n);
    },
    exponential(mean: number): number {
      if (!(mean > 0) || !Number.isFinite(mean)) throw new RangeError(`exponential mean must be positive, got ${mean}`);
      // 1 - u lies in (0, 1], so the log is finite.
      return -mean * Math.log(1 - nextU32() / 4294967296);
    },
    state: () => Uint32Array.of(a, b, c, d),
    setState(s: Uint32Array): void {
      if (s.length !== 4) throw new RangeError(`rng state must have 4 words, got ${s.length}`);
      a = s[0]! | 0;
      b = s[1]! | 0;
      c = s[2]! | 0;
      d = s[3]! | 0;
    },
  };
}
