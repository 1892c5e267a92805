import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberEventQueue } from '../../../engine/eventQueue';
import { runs } from '../../../testing/propertySeed';
import { FlushDeadlines } from './flushes';

type Step = { readonly kind: 'set'; readonly m: number; readonly afterMs: number } | { readonly kind: 'clear'; readonly m: number } | { readonly kind: 'advance'; readonly byMs: number };

/** The flushes as the run's event queue handled them: an event each time a deadline is set, those no longer in force ignored when they come up. */
function queued(models: number, steps: readonly Step[]): [number, number][] {
  const atMs = new Float64Array(models).fill(Number.POSITIVE_INFINITY);
  const events = new NumberEventQueue();
  const fired: [number, number][] = [];
  let now = 0;
  for (const step of steps) {
    if (step.kind === 'set') {
      const at = now + step.afterMs;
      if (atMs[step.m] === at) continue;
      atMs[step.m] = at;
      events.push(at, step.m, 4);
    } else if (step.kind === 'clear') atMs[step.m] = Number.POSITIVE_INFINITY;
    else {
      const until = now + step.byMs;
      while (events.peekTime() <= until) {
        now = events.peekTime();
        const m = events.pop();
        if (atMs[m] === now) {
          atMs[m] = Number.POSITIVE_INFINITY;
          fired.push([now, m]);
        }
      }
      now = until;
    }
  }
  return fired;
}

/** The same steps on `FlushDeadlines`. */
function kept(models: number, steps: readonly Step[]): [number, number][] {
  const flushes = new FlushDeadlines(models);
  const fired: [number, number][] = [];
  let now = 0;
  for (const step of steps) {
    if (step.kind === 'set') {
      const at = now + step.afterMs;
      if (flushes.atMs[step.m] === at) continue;
      flushes.set(step.m, at, now);
    } else if (step.kind === 'clear') flushes.clear(step.m, now);
    else {
      const until = now + step.byMs;
      while (flushes.nextMs <= until) {
        now = flushes.nextMs;
        fired.push([now, flushes.fire()]);
      }
      now = until;
    }
  }
  return fired;
}

const MODELS = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  // Deadlines a few whole milliseconds ahead: they meet each other and return to times left before.
  fc.record({ kind: fc.constant('set' as const), m: fc.integer({ min: 0, max: MODELS - 1 }), afterMs: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('clear' as const), m: fc.integer({ min: 0, max: MODELS - 1 }) }),
  fc.record({ kind: fc.constant('advance' as const), byMs: fc.integer({ min: 0, max: 2 }) }),
);

describe('forming batches’ deadlines kept beside the event queue (FlushDeadlines)', () => {
  it('fire the models at the times and in the order the queue fired them, deadlines at one time and deadlines set again to a time left included', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        expect(kept(MODELS, steps)).toEqual(queued(MODELS, steps));
      }),
      { numRuns: runs(500) },
    );
  });

  it('a model whose deadline returns to a time it left fires in the turn of its first deadline there', () => {
    // Model 0 at 5, then at 4, model 1 at 5, model 0 back at 5: the queue's first event at 5 is model 0's.
    const steps: Step[] = [
      { kind: 'set', m: 0, afterMs: 5 },
      { kind: 'set', m: 0, afterMs: 4 },
      { kind: 'set', m: 1, afterMs: 5 },
      { kind: 'set', m: 0, afterMs: 5 },
      { kind: 'advance', byMs: 6 },
    ];
    expect(queued(2, steps)).toEqual([
      [5, 0],
      [5, 1],
    ]);
    expect(kept(2, steps)).toEqual(queued(2, steps));
  });

  it('go on from a checkpoint as they did', () => {
    const steps: Step[] = [
      { kind: 'set', m: 0, afterMs: 5 },
      { kind: 'set', m: 0, afterMs: 4 },
      { kind: 'set', m: 1, afterMs: 5 },
    ];
    const flushes = new FlushDeadlines(2);
    flushes.set(0, 5, 0);
    flushes.set(0, 4, 0);
    flushes.set(1, 5, 0);
    const copy = new FlushDeadlines(2);
    copy.restore(flushes.snapshot());
    copy.set(0, 5, 0);
    expect([copy.nextMs, copy.fire(), copy.nextMs, copy.fire()]).toEqual([5, 0, 5, 1]);
    expect(kept(2, [...steps, { kind: 'set', m: 0, afterMs: 5 }, { kind: 'advance', byMs: 6 }])).toEqual([
      [5, 0],
      [5, 1],
    ]);
  });
});
