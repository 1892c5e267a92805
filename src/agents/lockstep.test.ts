import { describe, expect, it } from 'vitest';
import type { Learner, LearnerKind } from './learner';
import { Lockstep } from './lockstep';

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
