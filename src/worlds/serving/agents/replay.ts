import type { Rng } from '../../../engine/rng';

/**
 * A replay buffer D of transitions (s, a, r, s', mask(s')) in flat typed arrays (BCEdge
 * Algorithm 1 line 12). A ring: once full, the oldest transition is overwritten. The paper
 * keeps 10⁶; the lab's default is smaller (a scenario parameter) because a browser tab
 * trains for minutes, not for 500 epochs.
 */
export class ReplayBuffer {
  readonly states: Float32Array;
  readonly masks: Uint8Array;
  readonly nextStates: Float32Array;
  readonly nextMasks: Uint8Array;
  readonly actions: Int32Array;
  readonly rewards: Float32Array;
  /** Per transition: the discount of its next state (γ per decision, or γ^Δt per second of its length). */
  readonly discounts: Float32Array;
  /** Per transition: its stream (the model, `Transition.row`), for balanced sampling. */
  readonly rows: Int32Array;
  /** Transitions held per stream (the models seen), for balanced sampling. */
  private readonly perRow = new Map<number, number>();
  private cursor = 0;
  private count = 0;
  /**
   * Per chunk of REPLAY_CHUNK_ROWS rows, its copy as the last checkpoint took it, or null once a
   * row of it was written since: checkpoints share the chunks that did not change.
   */
  private chunks: (ReplayChunk | null)[] = [];

  constructor(
    readonly capacity: number,
    readonly stateSize: number,
    readonly actionCount: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`replay capacity must be a positive integer, got ${capacity}`);
    this.states = new Float32Array(capacity * stateSize);
    this.masks = new Uint8Array(capacity * actionCount);
    this.nextStates = new Float32Array(capacity * stateSize);
    this.nextMasks = new Uint8Array(capacity * actionCount);
    this.actions = new Int32Array(capacity);
    this.rewards = new Float32Array(capacity);
    this.discounts = new Float32Array(capacity);
    this.rows = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  add(state: ArrayLike<number>, mask: ArrayLike<number>, action: number, reward: number, nextState: ArrayLike<number>, nextMask: ArrayLike<number>, discount = 0, row = 0): void {
    const i = this.cursor;
    if (this.count === this.capacity) this.perRow.set(this.rows[i]!, (this.perRow.get(this.rows[i]!) ?? 1) - 1);
    this.perRow.set(row, (this.perRow.get(row) ?? 0) + 1);
    this.discounts[i] = discount;
    this.rows[i] = row;
    this.states.set(state, i * this.stateSize);
    this.masks.set(mask, i * this.actionCount);
    this.nextStates.set(nextState, i * this.stateSize);
    this.nextMasks.set(nextMask, i * this.actionCount);
    this.actions[i] = action;
    this.rewards[i] = reward;
    this.cursor = (i + 1) % this.capacity;
    this.count = Math.min(this.capacity, this.count + 1);
    const chunk = Math.floor(i / REPLAY_CHUNK_ROWS);
    if (chunk < this.chunks.length) this.chunks[chunk] = null;
  }

  /**
   * The transitions held, for a checkpoint (ARCHITECTURE §7a): only the rows in use, in chunks
   * of REPLAY_CHUNK_ROWS rows. A chunk no transition was written to since the last checkpoint
   * is that checkpoint's very copy (typed arrays shared, never written), so a run's checkpoints
   * hold its buffer about once, plus the chunk each one was filling.
   */
  snapshot(): ReplaySnapshot {
    const used = this.count;
    const n = Math.ceil(used / REPLAY_CHUNK_ROWS);
    const S = this.stateSize;
    const A = this.actionCount;
    const chunks: ReplayChunk[] = [];
    for (let k = 0; k < n; k++) {
      const from = k * REPLAY_CHUNK_ROWS;
      const to = Math.min(used, from + REPLAY_CHUNK_ROWS);
      let chunk = this.chunks[k] ?? null;
      if (chunk === null || chunk.actions.length !== to - from) {
        chunk = {
          states: this.states.slice(from * S, to * S),
          masks: this.masks.slice(from * A, to * A),
          nextStates: this.nextStates.slice(from * S, to * S),
          nextMasks: this.nextMasks.slice(from * A, to * A),
          actions: this.actions.slice(from, to),
          rewards: this.rewards.slice(from, to),
          discounts: this.discounts.slice(from, to),
          rows: this.rows.slice(from, to),
        };
        this.chunks[k] = chunk;
      }
      chunks.push(chunk);
    }
    return { cursor: this.cursor, count: this.count, chunks };
  }

  /** Puts back a state taken by `snapshot` from a buffer of the same shape (rows past its count are never read). */
  restore(s: ReplaySnapshot): void {
    const S = this.stateSize;
    const A = this.actionCount;
    s.chunks.forEach((chunk, k) => {
      const from = k * REPLAY_CHUNK_ROWS;
      this.states.set(chunk.states, from * S);
      this.masks.set(chunk.masks, from * A);
      this.nextStates.set(chunk.nextStates, from * S);
      this.nextMasks.set(chunk.nextMasks, from * A);
      this.actions.set(chunk.actions, from);
      this.rewards.set(chunk.rewards, from);
      this.discounts.set(chunk.discounts, from);
      this.rows.set(chunk.rows, from);
    });
    this.cursor = s.cursor;
    this.count = s.count;
    this.perRow.clear();
    for (let i = 0; i < this.count; i++) this.perRow.set(this.rows[i]!, (this.perRow.get(this.rows[i]!) ?? 0) + 1);
    // The rows now equal those chunks: the next checkpoint shares them again.
    this.chunks = s.chunks.slice();
  }

  /**
   * Draws `n` transitions uniformly with replacement into `out` (reused between calls). With
   * `balanced`, each draw first picks a stream (a model) uniformly among those held, then one
   * of its transitions (by rejection, at most BALANCE_TRIES tries, then any): a model that
   * decides every 7 ms and one that decides every 17 s weigh the same in the minibatch.
   */
  sample(n: number, rng: Rng, out: ReplayBatch, balanced = false): void {
    if (this.count === 0) throw new RangeError('cannot sample an empty replay buffer');
    const S = this.stateSize;
    const A = this.actionCount;
    const streams = balanced ? Array.from(this.perRow.entries()).filter(([, c]) => c > 0).map(([row]) => row).sort((a, b) => a - b) : [];
    for (let k = 0; k < n; k++) {
      let i = rng.nextInt(this.count);
      if (streams.length > 1) {
        const want = streams[rng.nextInt(streams.length)]!;
        for (let t = 0; t < BALANCE_TRIES && this.rows[i] !== want; t++) i = rng.nextInt(this.count);
      }
      out.discounts[k] = this.discounts[i]!;
      out.states.set(this.states.subarray(i * S, i * S + S), k * S);
      out.nextStates.set(this.nextStates.subarray(i * S, i * S + S), k * S);
      let allowed = 0;
      for (let a = 0; a < A; a++) {
        const ok = this.masks[i * A + a] === 1;
        out.maskBias[k * A + a] = ok ? 0 : MASKED_LOGIT;
        if (ok) allowed++;
        out.nextMaskBias[k * A + a] = this.nextMasks[i * A + a] === 1 ? 0 : MASKED_LOGIT;
      }
      out.allowed[k] = allowed;
      out.actions[k] = this.actions[i]!;
      out.rewards[k] = this.rewards[i]!;
    }
  }
}

/**
 * Rows per chunk of a replay checkpoint: about 180 kB of BCEdge transitions, so that the chunk a
 * checkpoint was filling (copied anew each time) costs it some 90 kB on average.
 */
export const REPLAY_CHUNK_ROWS = 256;

/** Draws a balanced sample tries for a transition of the stream it picked. */
const BALANCE_TRIES = 256;

/** Rows [k·REPLAY_CHUNK_ROWS, …) of a replay buffer, copied (never written once made). */
export type ReplayChunk = Pick<ReplayBuffer, 'states' | 'masks' | 'nextStates' | 'nextMasks' | 'actions' | 'rewards' | 'discounts' | 'rows'>;

/** A replay buffer's checkpoint (see `ReplayBuffer.snapshot`). */
export interface ReplaySnapshot {
  readonly cursor: number;
  readonly count: number;
  readonly chunks: readonly ReplayChunk[];
}

/** Added to the logit of a masked action: its probability underflows to exactly 0. */
export const MASKED_LOGIT = -1e9;

/** One sampled minibatch, as the update reads it. */
export interface ReplayBatch {
  readonly states: Float32Array;
  /** 0 for allowed actions, MASKED_LOGIT for masked ones (in s). */
  readonly maskBias: Float32Array;
  /** How many actions were allowed in s. */
  readonly allowed: Float32Array;
  readonly nextStates: Float32Array;
  /** As `maskBias`, in s'. */
  readonly nextMaskBias: Float32Array;
  readonly actions: Int32Array;
  readonly rewards: Float32Array;
  /** The discount of each transition's next state (see `ReplayBuffer.discounts`). */
  readonly discounts: Float32Array;
}

export function createReplayBatch(n: number, stateSize: number, actionCount: number): ReplayBatch {
  return {
    states: new Float32Array(n * stateSize),
    maskBias: new Float32Array(n * actionCount),
    allowed: new Float32Array(n),
    nextStates: new Float32Array(n * stateSize),
    nextMaskBias: new Float32Array(n * actionCount),
    actions: new Int32Array(n),
    rewards: new Float32Array(n),
    discounts: new Float32Array(n),
  };
}
