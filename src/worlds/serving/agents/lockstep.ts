import type { BatchObservation } from '../engine/scheduler';
import type { LatencyPredictor } from './learningScheduler';
import type { ActContext, ActingState, AgentFile, Learner, LearnerSnapshot, LearnerStats, Transition } from './learner';

/**
 * How environments built by one learning factory share a learner and a predictor: each
 * environment's scheduler is handed `adopt(built)` instead of the learner it built (and the same
 * for the predictor). `Lockstep` shares them to learn; `MirrorSharing` to act for a learner that
 * lives in another thread.
 */
export interface LearnerSharing {
  adopt(built: Learner): Learner;
  adoptPredictor(built: LatencyPredictor): LatencyPredictor;
}

/**
 * Vectorised offline training (`train --envs K`, BCEdge §V-A's epochs): K environments — K
 * runs of the training world, each on its own trace — step together, slot by slot, and share
 * one learner. Each environment decides with it and gives it its own transitions, as one
 * environment would; the gradient updates are shared: of the K training calls the
 * environments make (one each at every tick of the cadence, `trainEveryMs`), every K-th runs
 * the learner's updates and the others none. So K epochs of experience cost one epoch's updates: the
 * update-to-data ratio is 1/K of the single environment's, the way vectorised environments
 * are trained (the paper says nothing of it; ARCHITECTURE §3).
 *
 * With one environment every call trains, so `--envs 1` is today's path bit for bit.
 */
export class Lockstep implements LearnerSharing {
  private shared: Learner | null = null;
  private views = 0;
  private calls = 0;
  private predictor: LatencyPredictor | null = null;
  private predictorViews = 0;
  private predictorCalls = 0;
  private envs = 1;

  /** The environments stepping together from now on (the last round of epochs may have fewer). */
  setEnvironments(envs: number): void {
    if (!Number.isInteger(envs) || envs < 1) throw new RangeError(`envs: expected a whole number ≥ 1, got ${envs}`);
    this.envs = envs;
    this.calls = 0;
    this.predictorCalls = 0;
  }

  get environments(): number {
    return this.envs;
  }

  /** The learner all environments share (null before the first `adopt`). */
  get learner(): Learner | null {
    return this.shared;
  }

  /** The predictor all environments share (null before the first `adoptPredictor`, or without one). */
  get sharedPredictor(): LatencyPredictor | null {
    return this.predictor;
  }

  /**
   * The learner one environment's scheduler uses: the first learner built becomes the shared
   * one; a later one (built the same way by the factory, for another environment) is disposed
   * and the shared one is used in its place.
   */
  adopt(built: Learner): Learner {
    if (this.shared === null) this.shared = built;
    else if (built !== this.shared) {
      if (built.kind !== this.shared.kind) throw new Error(`lockstep: a ${built.kind} learner cannot share a ${this.shared.kind} learner`);
      built.dispose();
    }
    this.views++;
    return this.view(this.shared);
  }

  /**
   * BCEdge's interference predictor, shared the same way: one model of the machine learns from
   * every environment's batches, and trains at every K-th of their training calls, so K
   * environments cost one predictor's training.
   */
  adoptPredictor(built: LatencyPredictor): LatencyPredictor {
    if (this.predictor === null) this.predictor = built;
    else if (built !== this.predictor) built.dispose?.();
    this.predictorViews++;
    const inner = this.predictor;
    return {
      add: (batch) => inner.add(batch),
      train: (steps) => {
        this.predictorCalls++;
        if (this.predictorCalls % this.envs === 0) inner.train(steps);
      },
      get ready() {
        return inner.ready;
      },
      predictActions: (observation, m, actions) => inner.predictActions(observation, m, actions),
      ...(inner.report === undefined ? {} : { report: () => inner.report!() }),
      dispose: () => {
        if (--this.predictorViews === 0) inner.dispose?.();
      },
    };
  }

  private view(inner: Learner): Learner {
    return {
      kind: inner.kind,
      act: (states: Float32Array, maskBias: Float32Array, rows: number, explore: boolean, context?: ActContext) => inner.act(states, maskBias, rows, explore, context),
      policy: (states: Float32Array, maskBias: Float32Array, rows: number) => inner.policy(states, maskBias, rows),
      ...(inner.critic === undefined ? {} : { critic: (states: Float32Array, rows: number) => inner.critic!(states, rows) }),
      record: (transition: Transition) => inner.record(transition),
      train: (): number => {
        this.calls++;
        return this.calls % this.envs === 0 ? inner.train() : 0;
      },
      stats: (): LearnerStats => inner.stats(),
      save: (trainedOn?: string): AgentFile => inner.save(trainedOn),
      load: (file: AgentFile) => inner.load(file),
      ...(inner.snapshot === undefined ? {} : { snapshot: (): LearnerSnapshot => inner.snapshot!() }),
      ...(inner.restore === undefined ? {} : { restore: (state: LearnerSnapshot) => inner.restore!(state) }),
      dispose: (): void => {
        // The shared learner goes with the last environment's scheduler.
        if (--this.views === 0) inner.dispose();
      },
    };
  }
}

/**
 * Environments of `train --threads` that act for a learner living in another thread
 * (cli/trainThreads.ts): they share one copy of the learner and one of the predictor, which
 * act and predict as the originals did when `mirror` was last called, and store and train
 * nothing: every transition and batch record they make is kept in order (`drain`) for the
 * thread of the originals, which learns from them.
 */
export class MirrorSharing implements LearnerSharing {
  private shared: Learner | null = null;
  private predictor: LatencyPredictor | null = null;
  private transitions: Transition[] = [];
  private batches: BatchObservation[] = [];

  adopt(built: Learner): Learner {
    if (this.shared === null) {
      if (built.mirror === undefined) throw new Error(`--threads: a ${built.kind} learner cannot be mirrored`);
      this.shared = built;
    } else if (built !== this.shared) built.dispose();
    const inner = this.shared;
    return {
      kind: inner.kind,
      act: (states, maskBias, rows, explore, context) => inner.act(states, maskBias, rows, explore, context),
      policy: (states, maskBias, rows) => inner.policy(states, maskBias, rows),
      ...(inner.critic === undefined ? {} : { critic: (states: Float32Array, rows: number) => inner.critic!(states, rows) }),
      record: (transition) => {
        this.transitions.push(transition);
      },
      train: () => 0,
      stats: () => inner.stats(),
      save: (trainedOn) => inner.save(trainedOn),
      load: (file) => inner.load(file),
      dispose: () => {},
    };
  }

  adoptPredictor(built: LatencyPredictor): LatencyPredictor {
    if (this.predictor === null) {
      if (built.mirror === undefined) throw new Error('--threads: the predictor cannot be mirrored');
      this.predictor = built;
    } else if (built !== this.predictor) built.dispose?.();
    const inner = this.predictor;
    return {
      add: (batch) => {
        this.batches.push(batch);
      },
      train: () => {},
      get ready() {
        return inner.ready;
      },
      predictActions: (observation, m, actions) => inner.predictActions(observation, m, actions),
    };
  }

  /** Acts and predicts from now on as the originals these states were taken from. */
  mirror(learner: ActingState, predictor: ActingState | null): void {
    this.shared?.mirror!(learner);
    if (predictor !== null) this.predictor?.mirror!(predictor);
  }

  /** The transitions and batch records made since the last call, in the order they were made. */
  drain(): { transitions: Transition[]; batches: BatchObservation[] } {
    const out = { transitions: this.transitions, batches: this.batches };
    this.transitions = [];
    this.batches = [];
    return out;
  }

  /** Frees the copies. */
  dispose(): void {
    this.shared?.dispose();
    this.predictor?.dispose?.();
    this.shared = null;
    this.predictor = null;
  }
}
