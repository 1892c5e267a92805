import { createRng, type Rng } from '../../../engine/rng';
import { rateProcess, type RateProcess, type RateSchedule } from './load';
import { MODEL_IDS } from './models';
import { SERVING_ARRIVAL_STREAM, SERVING_MODEL_STREAM, SERVING_SWITCH_STREAM, type RequestClass, type ServingArrivals, type ServingRunSpec } from './spec';

/** Where an arrival stream stands, for a checkpoint (ARCHITECTURE §7a). */
export interface ArrivalStreamSnapshot {
  readonly nextSendMs: number;
  readonly traceIndex: number;
  readonly nextModelSendMs: Float64Array;
  readonly arrivals: Uint32Array;
  readonly models: readonly Uint32Array[];
  readonly rates: readonly (Float64Array | null)[];
}

const ONE_CLASS: readonly RequestClass[] = [{ label: '', scale: 1, weight: 1 }];

/**
 * The requests one serving run sends (simulation.ts), in send order: each one's send time,
 * model, SLO and shape class. They depend on the spec alone, never on the scheduler, so every
 * lane of a seed sees the same trace. Four sources, one way to read them (`take`):
 *
 * - one Poisson stream at `rateRps`, each request's model drawn by the weights and its SLO
 *   jittered, all from one random stream drawn in send order (three numbers a request);
 * - per-model streams, once any model has a load of its own, request classes or a service
 *   window: each model's own non-homogeneous Poisson stream (load.ts, by thinning) from its
 *   own random stream (gap and acceptance per candidate; SLO jitter and class per request),
 *   merged by send time (lowest model index first on ties);
 * - an explicit trace (`spec.trace`), or the requests drawn before the run
 *   (`drawServingArrivals`), read in order;
 * - none, for a closed loop (its requests are sent by the run as others finish).
 */
export class ArrivalStream {
  /** When the next request is sent, ms (+∞: no more). */
  nextSendMs: number;
  /** The request taken last by `take`: its model index, SLO (ms) and shape class. */
  model = 0;
  sloMs = 0;
  shapeClass = 0;
  private readonly perModel: boolean;
  private readonly arrivals: Rng;
  private readonly meanGapMs: number;
  private readonly cumulativeWeight: Float64Array;
  private readonly classCumulative: readonly Float64Array[];
  private readonly modelRngs: Rng[] = [];
  private readonly rateProcesses: RateProcess[] = [];
  private readonly nextModelSendMs: Float64Array;
  private traceIndex = 0;

  /**
   * @param baseSloMs each model's SLO before jitter, ms
   * @param prepared the requests drawn before the run, read instead of drawing (they must be of this very spec)
   */
  constructor(
    private readonly spec: ServingRunSpec,
    private readonly baseSloMs: Float64Array,
    private readonly prepared: ServingArrivals | null,
  ) {
    const m = spec.models.length;
    const closedLoop = spec.closedLoop?.outstanding ?? 0;
    const totalWeight = spec.models.reduce((sum, s) => sum + s.weight, 0);
    let acc = 0;
    this.cumulativeWeight = Float64Array.from(spec.models, (s) => (acc += s.weight / totalWeight));
    this.cumulativeWeight[m - 1] = 1;
    this.arrivals = createRng(spec.seed, SERVING_ARRIVAL_STREAM);
    this.meanGapMs = 1000 / spec.rateRps;
    this.classCumulative = spec.models.map((s) => {
      const classes = s.classes ?? ONE_CLASS;
      const total = classes.reduce((sum, c) => sum + c.weight, 0);
      let c = 0;
      const cum = Float64Array.from(classes, (x) => (c += x.weight / total));
      cum[cum.length - 1] = 1;
      return cum;
    });
    this.perModel = closedLoop === 0 && spec.trace === undefined && spec.models.some((s) => s.rate !== undefined || s.classes !== undefined || (s.serviceFromMs ?? 0) > 0 || (s.serviceToMs ?? null) !== null);
    this.nextModelSendMs = new Float64Array(m);
    if (this.perModel) {
      spec.models.forEach((s, k) => {
        const index = MODEL_IDS.indexOf(s.model);
        this.modelRngs.push(createRng(spec.seed, SERVING_MODEL_STREAM + index));
        const schedule: RateSchedule = s.rate ?? { kind: 'constant', rateRps: (spec.rateRps * s.weight) / totalWeight };
        this.rateProcesses.push(rateProcess(schedule, createRng(spec.seed, SERVING_SWITCH_STREAM + index)));
        this.nextModelSendMs[k] = this.drawModelSend(k, 0);
      });
      this.nextSendMs = this.earliestModelSend();
    } else if (closedLoop > 0) {
      this.nextSendMs = Number.POSITIVE_INFINITY;
    } else {
      this.nextSendMs = spec.trace === undefined ? this.arrivals.exponential(this.meanGapMs) : (spec.trace[0]?.sentMs ?? Number.POSITIVE_INFINITY);
    }
    if (prepared !== null) {
      if (closedLoop > 0 || spec.trace !== undefined) throw new RangeError('arrivals: a closed loop or a trace draws no arrivals to prepare');
      this.nextSendMs = prepared.sentMs[0] ?? Number.POSITIVE_INFINITY;
    }
  }

  /** Takes the request sent at `nextSendMs` (into `model`, `sloMs`, `shapeClass`) and moves `nextSendMs` to the one after. */
  take(): void {
    const prepared = this.prepared;
    const trace = this.spec.trace;
    if (prepared !== null) {
      const i = this.traceIndex++;
      this.nextSendMs = i + 1 < prepared.sentMs.length ? prepared.sentMs[i + 1]! : Number.POSITIVE_INFINITY;
      this.model = prepared.model[i]!;
      this.sloMs = prepared.sloMs[i]!;
      this.shapeClass = prepared.shapeClass[i]!;
    } else if (trace === undefined) {
      this.draw(this.nextSendMs);
    } else {
      const request = trace[this.traceIndex++]!;
      this.nextSendMs = trace[this.traceIndex]?.sentMs ?? Number.POSITIVE_INFINITY;
      this.model = request.model;
      this.sloMs = request.sloMs ?? this.baseSloMs[request.model]!;
      this.shapeClass = request.shapeClass ?? 0;
    }
  }

  /** Draws the request sent at `timeMs` and the next send time from the random streams (per model, or the one stream). */
  private draw(timeMs: number): void {
    let model = 0;
    let shapeClass = 0;
    const jitter = this.spec.assumptions.sloJitter;
    if (this.perModel) {
      model = this.earliestModelIndex();
      const rng = this.modelRngs[model]!;
      const uSlo = rng.nextFloat();
      const uClass = rng.nextFloat();
      const cum = this.classCumulative[model]!;
      while (uClass >= cum[shapeClass]!) shapeClass++;
      this.sloMs = this.baseSloMs[model]! * (1 + jitter * (2 * uSlo - 1));
      this.nextModelSendMs[model] = this.drawModelSend(model, timeMs);
      this.nextSendMs = this.earliestModelSend();
    } else {
      const rng = this.arrivals;
      const uModel = rng.nextFloat();
      const uSlo = rng.nextFloat();
      this.nextSendMs = timeMs + rng.exponential(this.meanGapMs);
      while (uModel >= this.cumulativeWeight[model]!) model++;
      this.sloMs = this.baseSloMs[model]! * (1 + jitter * (2 * uSlo - 1));
    }
    this.model = model;
    this.shapeClass = shapeClass;
  }

  /**
   * Every request sent before the end of the run, drawn as the run draws them
   * (`drawServingArrivals`): the random streams go on from where they stand, so call it on a
   * fresh stream. Null once more than `limit` requests.
   */
  drawAll(limit = Number.POSITIVE_INFINITY): ServingArrivals | null {
    if ((this.spec.closedLoop?.outstanding ?? 0) > 0 || this.spec.trace !== undefined || this.prepared !== null) throw new RangeError('arrivals: a closed loop or a trace draws no arrivals to prepare');
    const duration = this.spec.durationMs;
    let sentMs = new Float64Array(1024);
    let model = new Int32Array(1024);
    let sloMs = new Float64Array(1024);
    let shapeClass = new Int32Array(1024);
    let n = 0;
    while (this.nextSendMs < duration) {
      if (n >= limit) return null;
      if (n === sentMs.length) {
        const grow = <A extends Float64Array | Int32Array>(a: A, make: (size: number) => A): A => {
          const b = make(2 * a.length);
          b.set(a);
          return b;
        };
        sentMs = grow(sentMs, (k) => new Float64Array(k));
        model = grow(model, (k) => new Int32Array(k));
        sloMs = grow(sloMs, (k) => new Float64Array(k));
        shapeClass = grow(shapeClass, (k) => new Int32Array(k));
      }
      const t = this.nextSendMs;
      this.draw(t);
      sentMs[n] = t;
      model[n] = this.model;
      sloMs[n] = this.sloMs;
      shapeClass[n] = this.shapeClass;
      n++;
    }
    return { sentMs: sentMs.slice(0, n), model: model.slice(0, n), sloMs: sloMs.slice(0, n), shapeClass: shapeClass.slice(0, n) };
  }

  /** The next send time of model m after `fromMs` (thinning; service window respected), or +∞. */
  private drawModelSend(m: number, fromMs: number): number {
    const process = this.rateProcesses[m]!;
    const rng = this.modelRngs[m]!;
    const peak = process.peakRps;
    const spec = this.spec.models[m]!;
    const startMs = spec.serviceFromMs ?? 0;
    const stopMs = Math.min(this.spec.durationMs, spec.serviceToMs ?? Number.POSITIVE_INFINITY);
    if (!(peak > 0)) return Number.POSITIVE_INFINITY;
    const gapMs = 1000 / peak;
    // Poisson streams are memoryless: a stream that starts later starts afresh at its start.
    let t = Math.max(fromMs, startMs);
    for (;;) {
      t += rng.exponential(gapMs);
      if (t >= stopMs) return Number.POSITIVE_INFINITY;
      const u = rng.nextFloat();
      if (u * peak < process.rateAt(t)) return t;
    }
  }

  private earliestModelIndex(): number {
    let best = 0;
    for (let m = 1; m < this.nextModelSendMs.length; m++) if (this.nextModelSendMs[m]! < this.nextModelSendMs[best]!) best = m;
    return best;
  }

  private earliestModelSend(): number {
    return this.nextModelSendMs[this.earliestModelIndex()]!;
  }

  snapshot(): ArrivalStreamSnapshot {
    return {
      nextSendMs: this.nextSendMs,
      traceIndex: this.traceIndex,
      nextModelSendMs: this.nextModelSendMs.slice(),
      arrivals: this.arrivals.state(),
      models: this.modelRngs.map((r) => r.state()),
      rates: this.rateProcesses.map((p) => p.snapshot?.() ?? null),
    };
  }

  restore(s: ArrivalStreamSnapshot): void {
    this.nextSendMs = s.nextSendMs;
    this.traceIndex = s.traceIndex;
    this.nextModelSendMs.set(s.nextModelSendMs);
    this.arrivals.setState(s.arrivals);
    s.models.forEach((state, m) => this.modelRngs[m]!.setState(state));
    s.rates.forEach((state, m) => {
      if (state !== null) this.rateProcesses[m]!.restore?.(state);
    });
  }
}

/**
 * The order in which requests drawn before a run (`ServingArrivals`) reach the edge: by the time
 * they reach it (sent + t_t of their model and class), then in send order, the order the run's
 * event queue gave their arrivals (its sequence is the send order among them, and no other event
 * shares their priority). A run given them takes its arrivals from here instead of its queue
 * (a push and a pop of about half its events, simulation.ts).
 */
export interface EdgeOrder {
  /** Request indices (send order) in the order they reach the edge. */
  readonly request: Int32Array;
  /** When each reaches the edge, ms, in that order. */
  readonly edgeMs: Float64Array;
  /**
   * A power of two minus one: two requests in transit at once are fewer than this plus one apart
   * in send order (those sent before one reaches the edge), so a ring of this size plus one,
   * indexed by send order, holds each in-transit request's slot.
   */
  readonly ringMask: number;
}

/** The edge orders computed, by the requests and their transmission times (`edgeOrder`). */
const edgeOrders = new WeakMap<ServingArrivals, { readonly transmitMs: readonly Float64Array[]; readonly order: EdgeOrder }>();

/**
 * `EdgeOrder` of `arrivals`, where a request of model m and class c takes `transmitMs[m][c]` to
 * reach the edge (the run's t_t, by the run's own sum: sent + t_t). Computed once for the
 * requests and these times and kept with them (a search runs them hundreds of times).
 */
export function edgeOrder(arrivals: ServingArrivals, transmitMs: readonly Float64Array[]): EdgeOrder {
  const known = edgeOrders.get(arrivals);
  if (known !== undefined && known.transmitMs.length === transmitMs.length && known.transmitMs.every((t, m) => t.length === transmitMs[m]!.length && t.every((x, c) => x === transmitMs[m]![c]))) return known.order;
  const n = arrivals.sentMs.length;
  const edge = new Float64Array(n);
  for (let i = 0; i < n; i++) edge[i] = arrivals.sentMs[i]! + transmitMs[arrivals.model[i]!]![arrivals.shapeClass[i]!]!;
  const request = sortedByEdge(edge);
  const edgeMs = Float64Array.from(request, (i) => edge[i]!);
  // The widest span of send order in transit at once: from a request to the last sent by the time it reaches the edge.
  let span = 1;
  let sent = 0;
  for (let p = 0; p < n; p++) {
    while (sent < n && arrivals.sentMs[sent]! <= edgeMs[p]!) sent++;
    span = Math.max(span, sent - request[p]!);
  }
  let ring = 1;
  while (ring <= span) ring *= 2;
  const order: EdgeOrder = { request, edgeMs, ringMask: ring - 1 };
  edgeOrders.set(arrivals, { transmitMs: transmitMs.map((t) => t.slice()), order });
  return order;
}

/** Indices of `edge` by its values, equal values in index order. */
function sortedByEdge(edge: Float64Array): Int32Array {
  const n = edge.length;
  const request = new Int32Array(n);
  // Nearly sorted already (sent in order, t_t varies little): an insertion sort moves each a few
  // places; past a budget of moves (a t_t long against the gaps between requests), a plain sort.
  let moves = 0;
  for (let i = 0; i < n; i++) {
    const e = edge[i]!;
    let j = i;
    while (j > 0 && edge[request[j - 1]!]! > e) {
      request[j] = request[j - 1]!;
      j--;
    }
    request[j] = i;
    moves += i - j;
    if (moves > 64 * n) return Int32Array.from(Array.from({ length: n }, (_, k) => k).sort((a, b) => (edge[a]! < edge[b]! ? -1 : edge[a]! > edge[b]! ? 1 : a - b)));
  }
  return request;
}
