import { describe, expect, it } from 'vitest';
import type { PipelineAssumptions } from '../engine/assumptions';
import type { PipelineMachine } from '../engine/machine';
import type { PipelineScheduler } from '../engine/scheduler';
import { PipelineRun, type QueryRecord } from '../engine/simulation';
import { TOY_RANDOM, toySpec } from '../engine/testing/fixtures';
import { createEvict } from './evict';
import { createLls } from './lls';
import { createOdin } from './odin';
import { createOptimal } from './optimal';

/** A record with its buffers copied (the engine reuses them). */
const copy = (r: QueryRecord): QueryRecord => ({ ...r, configuration: r.configuration.slice(), stageTimesMs: r.stageTimesMs.slice(), modes: r.modes.slice() });

function records(run: PipelineRun, count: number): QueryRecord[] {
  const out: QueryRecord[] = [];
  run.advance(count, (r) => out.push(copy(r)));
  return out;
}

const cases: { name: string; scheduler: () => PipelineScheduler; assumptions: Partial<PipelineAssumptions>; machine?: PipelineMachine }[] = [
  { name: 'ODIN α=3, serial trials', scheduler: () => createOdin({ alpha: 3 }), assumptions: {} },
  { name: 'ODIN α=2, pipelined trials, Poisson arrivals', scheduler: () => createOdin({ alpha: 2 }), assumptions: { trialCost: 'pipelined', admission: { kind: 'poisson', rateQps: 40 } } },
  { name: 'ODIN α=4, free trials, any-stage monitor', scheduler: () => createOdin({ alpha: 4 }), assumptions: { trialCost: 'free', detectionSignal: 'anyStage' } },
  { name: 'LLS literal', scheduler: () => createLls({ reading: 'literal' }), assumptions: {} },
  { name: 'LLS repaired, unbounded buffers', scheduler: () => createLls({ reading: 'repaired' }), assumptions: { llsReading: 'repaired', bufferCapacity: 1_000_000 } },
  { name: 'optimal', scheduler: createOptimal, assumptions: {} },
  { name: 'evict', scheduler: createEvict, assumptions: {} },
  { name: 'ODIN α=3 on a machine (noise, factor, hop, moves, hog stalls, 2 shared cores)', scheduler: () => createOdin({ alpha: 3 }), assumptions: {}, machine: { stageNoiseCv: 0.05, pipelinedFactor: 1.1, hopMs: 0.3, moveMs: 4, hogStartMs: 2, cores: 2 } },
  { name: 'ODIN α=3 ε=2 %, a window of 4 and a steady reference', scheduler: () => createOdin({ alpha: 3, betterTolerance: 0.02 }), assumptions: { monitorReference: 'steady', detectionWindow: 4, betterTolerance: 0.02 } },
];

describe('PipelineRun checkpoints', () => {
  for (const c of cases) {
    it(`snapshot → restore → replay is bit-identical to an uninterrupted run (${c.name})`, () => {
      // Small latency sample cap: decimation happens during the run, so shared sample arrays are exercised.
      const spec = toySpec({ queries: 400, random: TOY_RANDOM, latencySampleCap: 64, ...(c.machine === undefined ? {} : { machine: c.machine }) }, c.assumptions);
      const whole = new PipelineRun(spec, c.scheduler());
      const expected = records(whole, 400);
      const expectedSummary = whole.summary();
      // Checkpoints at many points, some of them in the middle of a rebalancing.
      for (const at of [0, 1, 7, 8, 9, 23, 57, 130, 131, 250, 399]) {
        const first = new PipelineRun(spec, c.scheduler());
        first.advance(at);
        const checkpoint = first.snapshot();
        // The run goes on past the checkpoint (and changes its own state) …
        first.advance(37);
        // … then rewinds and replays to the end.
        first.restore(checkpoint);
        expect(first.served).toBe(at);
        expect(records(first, 400)).toEqual(expected.slice(at));
        expect(first.summary()).toEqual(expectedSummary);
        // A fresh run of the same spec restored from the checkpoint gives the same too.
        const fresh = new PipelineRun(spec, c.scheduler());
        fresh.restore(checkpoint);
        expect(records(fresh, 400)).toEqual(expected.slice(at));
        expect(fresh.summary()).toEqual(expectedSummary);
      }
    });
  }

  it('a rebalancing in progress is rebuilt with the α it started with', () => {
    const spec = toySpec({ queries: 300, random: TOY_RANDOM });
    const whole = new PipelineRun(spec, createOdin({ alpha: 6 }));
    whole.advance(100);
    const at = whole.snapshot();
    // α changes mid-run (the lab's slider): the phase under way keeps α=6.
    whole.setSchedulerParameter('alpha', 2);
    const expected = records(whole, 300);
    const rewound = new PipelineRun(spec, createOdin({ alpha: 6 }));
    rewound.restore(at);
    rewound.setSchedulerParameter('alpha', 2);
    expect(records(rewound, 300)).toEqual(expected);
    expect(rewound.summary()).toEqual(whole.summary());
  });

  it('refuses a snapshot of another shape', () => {
    const four = new PipelineRun(toySpec(), createOdin({ alpha: 2 }));
    const two = new PipelineRun(toySpec({ executionPlaces: 2 }), createOdin({ alpha: 2 }));
    expect(() => two.restore(four.snapshot())).toThrow(RangeError);
  });
});
