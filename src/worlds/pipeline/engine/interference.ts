import { createRng, createRngFromState, type Rng } from '../../../engine/rng';
import type { InterferenceOverlap } from './assumptions';
import type { ModeIndex } from './stageTimes';

/**
 * One co-located workload on one execution place over a range of queries. Interference is
 * indexed by query, as the ODIN paper's time steps are (§4.2: "frequency periods of 2, 10,
 * and 100 queries"): stage i processes query q under the mode EP i is in at query q. So
 * every lane of a scenario sees the identical trace, whatever its scheduler does.
 */
export interface InterferenceEvent {
  /** Execution place, 0-based. */
  readonly executionPlace: number;
  /** Mode of Table 1, as an index (1 = B … 11 = L). */
  readonly mode: ModeIndex;
  /** First query affected. */
  readonly fromQuery: number;
  /** First query no longer affected; null = until the end. */
  readonly toQuery: number | null;
  /** Identifies an event placed by a person, so it can be removed later. */
  readonly id?: number;
}

export interface RandomInterference {
  /** Every `periodQueries` queries (first at query `periodQueries`) a random EP … */
  readonly periodQueries: number;
  /** … gets a random mode for `durationQueries` queries. */
  readonly durationQueries: number;
  /** Modes to draw from (indices); uniform. */
  readonly modes: readonly ModeIndex[];
  /** What a draw for an EP that already hosts a workload does (assumptions.ts); absent: `stack`. */
  readonly overlap?: InterferenceOverlap;
}

/** The moving state of an `InterferenceTimeline`, for a checkpoint. */
export interface InterferenceSnapshot {
  readonly modes: Uint8Array;
  readonly explicit: readonly InterferenceEvent[];
  readonly nextExplicit: number;
  readonly active: readonly InterferenceEvent[];
  readonly rng: Uint32Array;
  readonly nextRandomAt: number;
  readonly query: number;
  readonly nextEndAt: number;
}

/** RNG stream of the random interference trace (arrivals use another). */
export const INTERFERENCE_STREAM = 1;

/**
 * The per-EP modes query by query. Explicit and random events may overlap; on one EP the
 * most recently started event wins; when an explicit and a random event start on the
 * same query, the explicit one (a person's choice) wins.
 */
export class InterferenceTimeline {
  /** Modes of the current query, per EP (0 = A, alone). */
  readonly modes: Uint8Array;
  private explicit: InterferenceEvent[];
  private nextExplicit = 0;
  private active: InterferenceEvent[] = [];
  private rng: Rng;
  private nextRandomAt: number;
  private query = -1;
  /** The earliest query at which an active event ends, so most queries skip the filter. */
  private nextEndAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly executionPlaces: number,
    events: readonly InterferenceEvent[],
    private readonly random: RandomInterference | null,
    seed: number,
  ) {
    for (const e of events) {
      if (e.executionPlace < 0 || e.executionPlace >= executionPlaces) {
        throw new RangeError(`interference event on EP ${e.executionPlace} but there are ${executionPlaces} EPs`);
      }
    }
    this.modes = new Uint8Array(executionPlaces);
    this.explicit = events
      .map((e, order) => ({ e, order }))
      .sort((a, b) => a.e.fromQuery - b.e.fromQuery || a.order - b.order)
      .map(({ e }) => e);
    this.rng = createRng(seed, INTERFERENCE_STREAM);
    if (random !== null && (random.periodQueries < 1 || random.durationQueries < 1 || random.modes.length === 0)) {
      throw new RangeError('random interference needs period ≥ 1, duration ≥ 1 and at least one mode');
    }
    this.nextRandomAt = random === null ? Number.POSITIVE_INFINITY : random.periodQueries;
  }

  /** Moves to query `q` (the next one) and returns whether any EP's mode changed. */
  advance(q: number): boolean {
    if (q !== this.query + 1) throw new RangeError(`timeline must advance one query at a time (at ${this.query}, asked ${q})`);
    this.query = q;
    let touched = false;
    if (q >= this.nextEndAt) {
      this.active = this.active.filter((e) => e.toQuery === null || e.toQuery > q);
      this.nextEndAt = Number.POSITIVE_INFINITY;
      for (const e of this.active) if (e.toQuery !== null) this.nextEndAt = Math.min(this.nextEndAt, e.toQuery);
      touched = true;
    }
    if (q === this.nextRandomAt && this.random !== null) {
      const r = this.random;
      // The EP and the mode are drawn whatever the overlap reading, so every reading sees the same draws.
      const executionPlace = this.rng.nextInt(this.executionPlaces);
      const mode = r.modes[this.rng.nextInt(r.modes.length)]!;
      const overlap = r.overlap ?? 'stack';
      const busy = overlap !== 'stack' && this.active.some((e) => e.executionPlace === executionPlace);
      if (overlap === 'replace' && busy) this.active = this.active.filter((e) => e.executionPlace !== executionPlace);
      if (overlap !== 'onePerEp' || !busy) this.start({ executionPlace, mode, fromQuery: q, toQuery: q + r.durationQueries });
      this.nextRandomAt += r.periodQueries;
      touched = true;
    }
    while (this.nextExplicit < this.explicit.length && this.explicit[this.nextExplicit]!.fromQuery <= q) {
      const e = this.explicit[this.nextExplicit++]!;
      if (e.toQuery === null || e.toQuery > q) {
        this.start(e);
        touched = true;
      }
    }
    if (!touched) return false;
    return this.recompute();
  }

  /** Adds an event from now on (the lab's drag and drop); it takes effect at its fromQuery. */
  addEvent(event: InterferenceEvent): void {
    if (event.fromQuery <= this.query) throw new RangeError(`an event added at query ${this.query} must start later`);
    const at = this.explicit.findIndex((e, i) => i >= this.nextExplicit && e.fromQuery > event.fromQuery);
    this.explicit.splice(at === -1 ? this.explicit.length : at, 0, event);
  }

  /**
   * Ends the explicit event `id` before query `atQuery` (the lab's ×): an active event stops
   * affecting queries from `atQuery` on; one that has not started yet is dropped.
   */
  endEvent(id: number, atQuery: number): void {
    if (atQuery <= this.query) throw new RangeError(`an event ended at query ${this.query} must end later`);
    this.active = this.active.map((e) => (e.id === id && (e.toQuery === null || e.toQuery > atQuery) ? { ...e, toQuery: atQuery } : e));
    if (atQuery < this.nextEndAt && this.active.some((e) => e.id === id)) this.nextEndAt = atQuery;
    for (let i = this.explicit.length - 1; i >= this.nextExplicit; i--) {
      const e = this.explicit[i]!;
      if (e.id !== id) continue;
      if (e.fromQuery >= atQuery) this.explicit.splice(i, 1);
      else if (e.toQuery === null || e.toQuery > atQuery) this.explicit[i] = { ...e, toQuery: atQuery };
    }
  }

  /** The timeline's state (events are immutable objects, so copies of the arrays suffice). */
  snapshot(): InterferenceSnapshot {
    return {
      modes: this.modes.slice(),
      explicit: this.explicit.slice(),
      nextExplicit: this.nextExplicit,
      active: this.active.slice(),
      rng: this.rng.state(),
      nextRandomAt: this.nextRandomAt,
      query: this.query,
      nextEndAt: this.nextEndAt,
    };
  }

  /** Puts back a state taken by `snapshot` on a timeline of the same scenario. */
  restore(s: InterferenceSnapshot): void {
    if (s.modes.length !== this.executionPlaces) throw new RangeError(`snapshot has ${s.modes.length} EPs, the timeline ${this.executionPlaces}`);
    this.modes.set(s.modes);
    this.explicit = s.explicit.slice();
    this.nextExplicit = s.nextExplicit;
    this.active = s.active.slice();
    this.rng = createRngFromState(s.rng);
    this.nextRandomAt = s.nextRandomAt;
    this.query = s.query;
    this.nextEndAt = s.nextEndAt;
  }

  private start(event: InterferenceEvent): void {
    this.active.push(event);
    if (event.toQuery !== null && event.toQuery < this.nextEndAt) this.nextEndAt = event.toQuery;
  }

  private recompute(): boolean {
    const next = new Uint8Array(this.executionPlaces);
    // `active` is in start order, so a later event overwrites an earlier one on the same EP.
    for (const e of this.active) next[e.executionPlace] = e.mode;
    let changed = false;
    for (let i = 0; i < next.length; i++) {
      if (next[i] !== this.modes[i]) {
        changed = true;
        this.modes[i] = next[i]!;
      }
    }
    return changed;
  }
}
