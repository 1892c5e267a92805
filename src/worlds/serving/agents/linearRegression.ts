/**
 * Ordinary least squares, the baseline of BCEdge §V-E (Fig. 13: "compared with the linear
 * regression model [46, 16]"; ref. 16, Gpulet, predicts interference with a linear model of
 * the co-runners' resource use). Plain TypeScript, no tfjs: the fit is one small linear
 * system, solved exactly.
 *
 * The interference experiment (predictor.ts `runPredictorExperiment`) fits it on the same
 * features as the NN (`predictorFeatures`) and lets it predict the batch's inference latency
 * in ms directly, as a linear model of the profiler's inputs would: no log, no slowdown
 * ratio, nothing that would already encode the multiplicative shape of the interference.
 *
 * Method: centre X and y, solve the normal equations (XcᵀXc + λI)·w = Xcᵀyc by Cholesky in
 * Float64, then bias = ȳ − w·x̄ (so the bias is never shrunk). λ = 1e-6 · trace(XcᵀXc) is a
 * tiny ridge: it changes a well-conditioned solution by about a millionth, and keeps the
 * system positive definite when columns are collinear (the model one-hot sums to the
 * constant 1, which centring turns into an exact linear dependence).
 */
export interface LinearModel {
  readonly weights: Float64Array;
  readonly bias: number;
}

/** Relative size of the ridge: λ = RIDGE · trace(XcᵀXc). */
export const RIDGE = 1e-6;

/** Fits y ≈ w·x + b by (ridge-stabilised) least squares. Rows of X must have one length. */
export function fitLinear(X: readonly ArrayLike<number>[], y: ArrayLike<number>): LinearModel {
  const n = X.length;
  if (n === 0) throw new RangeError('X: needs at least one row');
  if (y.length !== n) throw new RangeError(`y: expected ${n} values (one per row of X), got ${y.length}`);
  const p = X[0]!.length;
  const mean = new Float64Array(p);
  let yMean = 0;
  for (let i = 0; i < n; i++) {
    const row = X[i]!;
    if (row.length !== p) throw new RangeError(`X[${i}]: expected ${p} columns, got ${row.length}`);
    for (let j = 0; j < p; j++) {
      const v = row[j]!;
      if (!Number.isFinite(v)) throw new RangeError(`X[${i}][${j}]: must be a finite number, got ${v}`);
      mean[j]! += v;
    }
    const t = y[i]!;
    if (!Number.isFinite(t)) throw new RangeError(`y[${i}]: must be a finite number, got ${t}`);
    yMean += t;
  }
  for (let j = 0; j < p; j++) mean[j]! /= n;
  yMean /= n;

  // A = XcᵀXc (upper triangle filled, then mirrored), c = Xcᵀyc.
  const A = new Float64Array(p * p);
  const c = new Float64Array(p);
  const xc = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    const row = X[i]!;
    for (let j = 0; j < p; j++) xc[j] = row[j]! - mean[j]!;
    const yc = y[i]! - yMean;
    for (let j = 0; j < p; j++) {
      const xj = xc[j]!;
      if (xj === 0) continue;
      c[j]! += xj * yc;
      for (let k = j; k < p; k++) A[j * p + k]! += xj * xc[k]!;
    }
  }
  let trace = 0;
  for (let j = 0; j < p; j++) {
    trace += A[j * p + j]!;
    for (let k = 0; k < j; k++) A[j * p + k] = A[k * p + j]!;
  }
  // Every column constant: A = 0, c = 0, any λ > 0 gives w = 0 (predict the mean).
  const lambda = trace > 0 ? RIDGE * trace : 1;
  for (let j = 0; j < p; j++) A[j * p + j]! += lambda;

  const weights = choleskySolve(A, c, p);
  let bias = yMean;
  for (let j = 0; j < p; j++) bias -= weights[j]! * mean[j]!;
  return { weights, bias };
}

/** w·x + b for one row. */
export function predictLinear(model: LinearModel, x: ArrayLike<number>): number {
  const w = model.weights;
  if (x.length !== w.length) throw new RangeError(`x: expected ${w.length} features, got ${x.length}`);
  let s = model.bias;
  for (let j = 0; j < w.length; j++) s += w[j]! * x[j]!;
  return s;
}

/**
 * Solves A·x = c for a symmetric positive definite p × p matrix A (row-major) by Cholesky,
 * A = L·Lᵀ, then forward and back substitution. A is overwritten by L (lower triangle).
 */
function choleskySolve(A: Float64Array, c: Float64Array, p: number): Float64Array {
  for (let j = 0; j < p; j++) {
    let d = A[j * p + j]!;
    for (let k = 0; k < j; k++) d -= A[j * p + k]! * A[j * p + k]!;
    if (!(d > 0)) throw new RangeError(`normal equations: matrix not positive definite at column ${j}`);
    const ljj = Math.sqrt(d);
    A[j * p + j] = ljj;
    for (let i = j + 1; i < p; i++) {
      let s = A[i * p + j]!;
      for (let k = 0; k < j; k++) s -= A[i * p + k]! * A[j * p + k]!;
      A[i * p + j] = s / ljj;
    }
  }
  // L·z = c, then Lᵀ·x = z.
  const x = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let s = c[i]!;
    for (let k = 0; k < i; k++) s -= A[i * p + k]! * x[k]!;
    x[i] = s / A[i * p + i]!;
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let k = i + 1; k < p; k++) s -= A[k * p + i]! * x[k]!;
    x[i] = s / A[i * p + i]!;
  }
  return x;
}
