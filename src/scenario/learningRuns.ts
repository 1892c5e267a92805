import type { Claim, ClaimMeasure } from './claimModel';

/**
 * Learning claims run 300 s instead of the paper's 3000 s and at most 4 seeds (they read
 * "noise" at 2): one learning lane costs about 4 s of CPU per 300 s of serving on the
 * project's 2-core machine and the learning rows need about 60 such lane-runs per seed, so 4
 * seeds are about 16 minutes of CPU: half an hour of wall time on the two cores alone, far
 * more when other work shares them. Each row states its seeds and run length.
 */
export const SHORT = { 'serving.durationS': 300 } as const;
export const SHORT_NOTE = 'shorter runs and fewer seeds than the rest of the report: learning lanes cost seconds per simulated minute';
export const LEARNING_SEEDS = 4;

/**
 * How long the learning rows run and with how many seeds at most: the registry's 300 s and 4
 * by default; a report may ask for the paper's 3000 s (`claims --learning-length 3000
 * --learning-seeds 5`, on shards: README), and says so in its provenance.
 */
export interface LearningRuns {
  /** Run length of the learning rows, s (the two-length row of Figs. 8–9 runs this and twice this). */
  readonly lengthS: number;
  /** Seeds at most (never more than the report's). */
  readonly seeds: number;
  /**
   * Run length of the learning rows' readings (their sensitivity strip), s; absent: `lengthS`.
   * At the paper's 3000 s the strip is nine tenths of the report's cost (about 500 of its 560
   * learning cells), so a report may measure each row's own number at the paper's length and
   * which readings flip it at a shorter one; the strip's default-reading cell then runs at that
   * length too, so every reading is compared with a default of its own length.
   */
  readonly readingsLengthS?: number;
}

export const DEFAULT_LEARNING_RUNS: LearningRuns = { lengthS: SHORT['serving.durationS'], seeds: LEARNING_SEEDS };

/** The bounds of `LearningRuns` (the command line's options name them). */
export const LEARNING_RUNS_LIMITS = { lengthS: { min: 10, max: 100_000 }, seeds: { min: 1, max: 100 } } as const;

/**
 * The claims with their learning rows run as `runs` says: the run length they set (and the
 * run lengths they sweep, scaled alike) and their seed cap. The default runs give the claims
 * back as they are.
 */
export function withLearningRuns(claims: readonly Claim[], runs: LearningRuns): Claim[] {
  const readingsLengthS = runs.readingsLengthS ?? runs.lengthS;
  const same = runs.lengthS === DEFAULT_LEARNING_RUNS.lengthS && runs.seeds === DEFAULT_LEARNING_RUNS.seeds && readingsLengthS === runs.lengthS;
  if (same) return [...claims];
  return claims.map((claim) => {
    if (!claim.learns) return claim;
    const m = claim.measure;
    const at = atLength(m, runs.lengthS);
    const readings = readingsLengthS === runs.lengthS ? undefined : atLength(m, readingsLengthS);
    const strip = readings === undefined ? '' : `, their readings ${readingsLengthS} s (--learning-readings-length)`;
    const note = m.note === SHORT_NOTE ? `learning rows run ${runs.lengthS} s with at most ${runs.seeds} seeds (claims --learning-length, --learning-seeds)${strip}` : m.note;
    const measure: ClaimMeasure = {
      ...m,
      ...at,
      ...(readings === undefined ? {} : { readingsAt: readings }),
      ...(m.maxSeeds === undefined ? {} : { maxSeeds: runs.seeds }),
      ...(note === undefined ? {} : { note }),
    };
    return { ...claim, measure };
  });
}

/** A learning measure's run length set to `lengthS`, and the run lengths it sweeps scaled alike. */
function atLength(m: ClaimMeasure, lengthS: number): Pick<ClaimMeasure, 'set' | 'axes'> {
  const scale = lengthS / DEFAULT_LEARNING_RUNS.lengthS;
  const set = m.set?.['serving.durationS'] === undefined ? m.set : { ...m.set, 'serving.durationS': lengthS };
  const axes = m.axes?.map((a) => (a.path === 'serving.durationS' && a.values !== undefined ? { ...a, values: a.values.map((v) => Number(v) * scale) } : a));
  return { ...(set === undefined ? {} : { set }), ...(axes === undefined ? {} : { axes }) };
}
