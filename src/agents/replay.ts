import type { Rng } from '../engine/rng';

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
  private cursor = 0;
  private count = 0;

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
  }

  get size(): number {
    return this.count;
  }

  add(state: ArrayLike<number>, mask: ArrayLike<number>, action: number, reward: number, nextState: ArrayLike<number>, nextMask: ArrayLike<number>): void {
    const i = this.cursor;
    this.states.set(state, i * this.stateSize);
    this.masks.set(mask, i * this.actionCount);
    this.nextStates.set(nextState, i * this.stateSize);
    this.nextMasks.set(nextMask, i * this.actionCount);
    this.actions[i] = action;
    this.rewards[i] = reward;
    this.cursor = (i + 1) % this.capacity;
    this.count = Math.min(this.capacity, this.count + 1);
  }

  /** Draws `n` transitions uniformly with replacement into `out` (reused between calls). */
  sample(n: number, rng: Rng, out: ReplayBatch): void {
    if (this.count === 0) throw new RangeError('cannot sample an empty replay buffer');
    const S = this.stateSize;
    const A = this.actionCount;
    for (let k = 0; k < n; k++) {
      const i = rng.nextInt(this.count);
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
  };
}
