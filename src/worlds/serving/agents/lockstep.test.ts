import { describe, expect, it } from 'vitest';
import type { ActingState, Learner, LearnerKind, Transition } from './learner';
import type { LatencyPredictor } from './learningScheduler';
import { Lockstep, MirrorSharing } from './lockstep';

/** A learner that counts its updates and whether it was disposed. */
function counting(kind: LearnerKind = 'bcedge'): Learner & { updates: number; disposed: boolean } {
  const learner = {
    kind,
    updates: 0,
    disposed: false,
    act: (_s: Float32Array, _m: Float32Array, rows: number) => new Int32Array(rows),
    policy: (_s: Float32Array, _m: Float32Array, rows: number) => new Float32Array(rows),
    record: () => undefined,
    train(): number {
      learner.updates += 2;
      return 2;
    },
    stats: () => ({ updates: learner.updates, temperature: null, entropy: null, losses: {}, epsilon: null }),
    save: () => {
      throw new Error('not saved');
    },
    load: () => undefined,
    dispose(): void {
      learner.disposed = true;
    },
  };
  return learner;
}

describe('Lockstep', () => {
  it('shares the first learner built, runs the updates at every K-th training call, and disposes it with the last environment', () => {
    const lockstep = new Lockstep();
    const shared = counting();
    const other = counting();
    const a = lockstep.adopt(shared);
    const b = lockstep.adopt(other);
    expect(other.disposed).toBe(true);
    expect(lockstep.learner).toBe(shared);
    lockstep.setEnvironments(2);
    // One tick of the cadence: each environment calls once; the second call trains.
    expect([a.train(), b.train(), a.train(), b.train()]).toEqual([0, 2, 0, 2]);
    expect(shared.updates).toBe(4);
    expect(b.stats().updates).toBe(4);
    // A last round with one environment left: every call trains.
    lockstep.setEnvironments(1);
    expect(a.train()).toBe(2);
    a.dispose();
    expect(shared.disposed).toBe(false);
    b.dispose();
    expect(shared.disposed).toBe(true);
  });

  it('shares one interference predictor the same way: every environment’s batches, one training in K calls', () => {
    const lockstep = new Lockstep();
    const made = () => {
      const p = { added: 0, trained: 0, disposed: false, ready: false };
      return Object.assign(p, {
        add: () => void p.added++,
        train: (steps: number) => void (p.trained += steps),
        predictActions: () => new Float32Array(0),
        dispose: () => void (p.disposed = true),
      });
    };
    const first = made();
    const second = made();
    const [a, b] = [lockstep.adoptPredictor(first), lockstep.adoptPredictor(second)];
    expect(second.disposed).toBe(true);
    lockstep.setEnvironments(2);
    a!.add({} as never);
    b!.add({} as never);
    a!.train(1);
    b!.train(1);
    expect(first.added).toBe(2);
    expect(first.trained).toBe(1);
    a!.dispose!();
    expect(first.disposed).toBe(false);
    b!.dispose!();
    expect(first.disposed).toBe(true);
  });

  it('refuses a learner of another kind and a count of environments that is not a whole number ≥ 1', () => {
    const lockstep = new Lockstep();
    lockstep.adopt(counting('bcedge'));
    expect(() => lockstep.adopt(counting('ppo'))).toThrow(/ppo learner cannot share a bcedge learner/);
    expect(() => lockstep.setEnvironments(0)).toThrow(/^envs: /);
    expect(() => lockstep.setEnvironments(1.5)).toThrow(/^envs: /);
  });
});

describe('MirrorSharing (train --threads)', () => {
  it('shares the first copy built, keeps every transition and batch record in order for the learning thread, trains nothing, and mirrors on demand', () => {
    const sharing = new MirrorSharing();
    const mirrored: ActingState[] = [];
    const shared = Object.assign(counting(), { mirror: (state: ActingState) => void mirrored.push(state) });
    const other = Object.assign(counting(), { mirror: () => undefined });
    const a = sharing.adopt(shared);
    const b = sharing.adopt(other);
    expect(other.disposed).toBe(true);
    const t = (action: number): Transition => ({ row: 0, state: new Float32Array(1), mask: new Uint8Array(1), action, reward: action, nextState: new Float32Array(1), nextMask: new Uint8Array(1) });
    a.record(t(1));
    b.record(t(2));
    a.record(t(3));
    expect(a.train()).toBe(0);
    expect(b.train()).toBe(0);
    expect(shared.updates).toBe(0);
    const predictions: number[] = [];
    const predictor: LatencyPredictor & { mirrored: number } = {
      mirrored: 0,
      add: () => {
        throw new Error('a copy stores nothing');
      },
      train: () => {
        throw new Error('a copy trains nothing');
      },
      ready: true,
      predictActions: () => new Float32Array(predictions),
      mirror: () => void predictor.mirrored++,
    };
    const p = sharing.adoptPredictor(predictor);
    p.add({ model: 4 } as never);
    p.train(5);
    expect(p.ready).toBe(true);
    const drained = sharing.drain();
    expect(drained.transitions.map((x) => x.action)).toEqual([1, 2, 3]);
    expect(drained.batches).toEqual([{ model: 4 }]);
    expect(sharing.drain()).toEqual({ transitions: [], batches: [] });
    const state: ActingState = { params: new Float32Array(2), updates: 7, stored: 9 };
    sharing.mirror(state, state);
    expect(mirrored).toEqual([state]);
    expect(predictor.mirrored).toBe(1);
    sharing.dispose();
    expect(shared.disposed).toBe(true);
  });

  it('refuses a learner or a predictor that cannot be mirrored', () => {
    expect(() => new MirrorSharing().adopt(counting('ppo'))).toThrow(/a ppo learner cannot be mirrored/);
    expect(() => new MirrorSharing().adoptPredictor({ add: () => undefined, train: () => undefined, ready: false, predictActions: () => new Float32Array(0) })).toThrow(/predictor cannot be mirrored/);
  });
});
