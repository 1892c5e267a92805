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

  it('refuses a learner of another kind and a count of environments that is not a whole number ≥ 1', () => {
    const lockstep = new Lockstep();
    lockstep.adopt(counting('bcedge'));
    expect(() => lockstep.adopt(counting('ppo'))).toThrow(/ppo learner cannot share a bcedge learner/);
    expect(() => lockstep.setEnvironments(0)).toThrow(/^envs: /);
    expect(() => lockstep.setEnvironments(1.5)).toThrow(/^envs: /);
  });
});
