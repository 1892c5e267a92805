import type { Rng } from '../../../engine/rng';

/**
 * Load that changes over time (ARCHITECTURE §3; BCEdge §V-A: two cameras and a microphone send the
 * requests, §III-A1: "requests arrive at BCEdge online at random"). A rate schedule gives
 * one model's request rate λ(t) in requests per second; arrivals are a non-homogeneous
 * Poisson process with that rate, drawn by thinning (Lewis and Shedler): candidates at the
 * schedule's peak rate, each kept with probability λ(t) / peak.
 *
 * - `constant`: λ(t) = rate.
 * - `steps`: piecewise constant; `steps[i].rateRps` holds from `steps[i].fromMs` to the
 *   next step; before the first step the rate is 0.
 * - `linear`: piecewise linear through `points` (ramps), held flat before the first and
 *   after the last point.
 * - `sine`: a daily cycle, λ(t) = mean + amplitude · sin(2π (t + phase) / period), with
 *   amplitude ≤ mean so that λ ≥ 0.
 * - `mmpp`: on/off bursts, a two-state Markov-modulated Poisson process: the source stays
 *   on for an exponential time of mean `meanOnMs` at `onRps`, then off for an exponential
 *   time of mean `meanOffMs` at `offRps`, and so on. The switch times come from a stream of
 *   their own, so they are the same in every lane and whatever the thinning draws.
 */
export type RateSchedule =
  | { readonly kind: 'constant'; readonly rateRps: number }
  | { readonly kind: 'steps'; readonly steps: readonly { readonly fromMs: number; readonly rateRps: number }[] }
  | { readonly kind: 'linear'; readonly points: readonly { readonly atMs: number; readonly rateRps: number }[] }
  | { readonly kind: 'sine'; readonly meanRps: number; readonly amplitudeRps: number; readonly periodMs: number; readonly phaseMs: number }
  | {
      readonly kind: 'mmpp';
      readonly onRps: number;
      readonly offRps: number;
      readonly meanOnMs: number;
      readonly meanOffMs: number;
      /** Whether the source starts in the on state at time 0. */
      readonly startOn: boolean;
    };

/** A rate schedule's λ(t), to be read at non-decreasing times (MMPP draws its switches lazily). */
export interface RateProcess {
  /** An upper bound of λ over the whole run, rps (the thinning rate). */
  readonly peakRps: number;
  /** λ(t), rps; `timeMs` must not decrease from one call to the next. */
  rateAt(timeMs: number): number;
  /**
   * The process's own state for a checkpoint (an MMPP's phase, next switch and switch stream);
   * absent where λ(t) is a function of t alone.
   */
  snapshot?(): Float64Array;
  restore?(state: Float64Array): void;
}

/** Checks a schedule; throws a RangeError naming what is wrong (the scenario schema reports it per field first). */
export function validateRateSchedule(s: RateSchedule): void {
  const rate = (v: number, what: string): void => {
    if (!(v >= 0) || !Number.isFinite(v)) throw new RangeError(`${what} must be a rate ≥ 0, got ${v}`);
  };
  switch (s.kind) {
    case 'constant':
      rate(s.rateRps, 'rateRps');
      return;
    case 'steps': {
      if (s.steps.length === 0) throw new RangeError('steps must list at least one step');
      let last = Number.NEGATIVE_INFINITY;
      for (const step of s.steps) {
        if (!(step.fromMs > last) || !(step.fromMs >= 0)) throw new RangeError(`steps must start at increasing times ≥ 0, got ${step.fromMs}`);
        rate(step.rateRps, 'steps.rateRps');
        last = step.fromMs;
      }
      return;
    }
    case 'linear': {
      if (s.points.length === 0) throw new RangeError('points must list at least one point');
      let last = Number.NEGATIVE_INFINITY;
      for (const p of s.points) {
        if (!(p.atMs > last) || !(p.atMs >= 0)) throw new RangeError(`points must be at increasing times ≥ 0, got ${p.atMs}`);
        rate(p.rateRps, 'points.rateRps');
        last = p.atMs;
      }
      return;
    }
    case 'sine':
      rate(s.meanRps, 'meanRps');
      if (!(s.amplitudeRps >= 0 && s.amplitudeRps <= s.meanRps)) throw new RangeError(`amplitudeRps must be from 0 to meanRps, got ${s.amplitudeRps}`);
      if (!(s.periodMs > 0)) throw new RangeError(`periodMs must be positive, got ${s.periodMs}`);
      if (!Number.isFinite(s.phaseMs)) throw new RangeError(`phaseMs must be finite, got ${s.phaseMs}`);
      return;
    case 'mmpp':
      rate(s.onRps, 'onRps');
      rate(s.offRps, 'offRps');
      if (!(s.meanOnMs > 0) || !(s.meanOffMs > 0)) throw new RangeError(`meanOnMs and meanOffMs must be positive, got ${s.meanOnMs}, ${s.meanOffMs}`);
      return;
  }
}

/** The process of a schedule; `switches` is the MMPP's own stream (unused by the other kinds). */
export function rateProcess(s: RateSchedule, switches: Rng): RateProcess {
  validateRateSchedule(s);
  switch (s.kind) {
    case 'constant':
      return { peakRps: s.rateRps, rateAt: () => s.rateRps };
    case 'steps': {
      const steps = s.steps;
      let i = -1;
      return {
        peakRps: Math.max(...steps.map((x) => x.rateRps)),
        rateAt(t) {
          while (i + 1 < steps.length && steps[i + 1]!.fromMs <= t) i++;
          return i < 0 ? 0 : steps[i]!.rateRps;
        },
      };
    }
    case 'linear': {
      const pts = s.points;
      let i = 0;
      return {
        peakRps: Math.max(...pts.map((x) => x.rateRps)),
        rateAt(t) {
          while (i + 1 < pts.length && pts[i + 1]!.atMs <= t) i++;
          const a = pts[i]!;
          if (t <= a.atMs || i + 1 >= pts.length) return a.rateRps;
          const b = pts[i + 1]!;
          return a.rateRps + ((b.rateRps - a.rateRps) * (t - a.atMs)) / (b.atMs - a.atMs);
        },
      };
    }
    case 'sine':
      return {
        peakRps: s.meanRps + s.amplitudeRps,
        rateAt: (t) => Math.max(0, s.meanRps + s.amplitudeRps * Math.sin((2 * Math.PI * (t + s.phaseMs)) / s.periodMs)),
      };
    case 'mmpp': {
      // The switch times in order (as `mmppSwitches`), kept inline so that a checkpoint holds them.
      let t = 0;
      let onNext = s.startOn;
      const switchesOf = (): number => {
        t += switches.exponential(onNext ? s.meanOnMs : s.meanOffMs);
        onNext = !onNext;
        return t;
      };
      let on = s.startOn;
      let next = switchesOf();
      return {
        peakRps: Math.max(s.onRps, s.offRps),
        rateAt(time) {
          while (next <= time) {
            on = !on;
            next = switchesOf();
          }
          return on ? s.onRps : s.offRps;
        },
        snapshot: () => Float64Array.of(on ? 1 : 0, next, t, onNext ? 1 : 0, ...switches.state()),
        restore(state) {
          on = state[0] === 1;
          next = state[1]!;
          t = state[2]!;
          onNext = state[3] === 1;
          switches.setState(Uint32Array.from(state.subarray(4)));
        },
      };
    }
  }
}

/** The MMPP's switch times in order (the first ends the starting state), ms. */
export function mmppSwitches(s: Extract<RateSchedule, { kind: 'mmpp' }>, rng: Rng): () => number {
  let t = 0;
  let on = s.startOn;
  return () => {
    t += rng.exponential(on ? s.meanOnMs : s.meanOffMs);
    on = !on;
    return t;
  };
}

/**
 * Times where a schedule changes regime, ms: the steps, the ramps' corners. A sine has
 * none (it never stops changing) and neither has an MMPP (its switches are the randomness
 * a scheduler must react to, not a known schedule).
 */
export function scheduleBoundariesMs(s: RateSchedule): number[] {
  switch (s.kind) {
    case 'steps':
      return s.steps.map((x) => x.fromMs);
    case 'linear':
      return s.points.map((x) => x.atMs);
    default:
      return [];
  }
}

/** The exact mean of λ over [0, durationMs) for the deterministic kinds (tests, the page's overlay), rps; NaN for MMPP. */
export function meanRateRps(s: RateSchedule, durationMs: number, stepMs = 1): number {
  if (s.kind === 'mmpp') return Number.NaN;
  if (s.kind === 'constant') return s.rateRps;
  const p = rateProcess(s, { nextFloat: () => 0, nextInt: () => 0, exponential: () => 1, state: () => new Uint32Array(4), setState: () => {} });
  let sum = 0;
  let n = 0;
  for (let t = stepMs / 2; t < durationMs; t += stepMs) {
    sum += p.rateAt(t);
    n++;
  }
  return n > 0 ? sum / n : 0;
}
