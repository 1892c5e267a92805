import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../../lib/tf';
import { loadTfNode } from '../../../../lib/tfNode';
import { DEFAULT_PIPELINE_ASSUMPTIONS, type PipelineAssumptions } from '../../engine/assumptions';
import type { InterferenceEvent } from '../../engine/interference';
import type { PipelineScheduler } from '../../engine/scheduler';
import { PipelineRun } from '../../engine/simulation';
import { compileDatabase } from '../../engine/stageTimes';
import type { LayerTimeDatabase } from '../../engine/profiles/types';
import { inProcessStage } from './inProcess';
import { runRealPipeline } from './pipeline';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/**
 * A scripted trace on two one-unit stages of 10 ms: a one-query spike on EP 1 (mode C, +12 %)
 * at query 5, EP 1 8 % slower (mode B) for queries 10–24, EP 0 30 % slower (mode D) for 40–49.
 */
const DATABASE: LayerTimeDatabase = { model: 'scripted', layers: ['u0', 'u1'], modes: { A: [10, 10], B: [10.8, 10.8], C: [11.2, 11.2], D: [13, 13] } };
const EVENTS: InterferenceEvent[] = [
  { executionPlace: 1, mode: 2, fromQuery: 5, toQuery: 6 },
  { executionPlace: 1, mode: 1, fromQuery: 10, toQuery: 25 },
  { executionPlace: 0, mode: 3, fromQuery: 40, toQuery: 50 },
];
const QUERIES = 60;

/** The stage time the script gives stage `i` for query `q` (the database under the events). */
function scripted(i: number, q: number): number {
  const event = EVENTS.find((e) => e.executionPlace === i && q >= e.fromQuery && q < (e.toQuery ?? Infinity));
  const mode = event === undefined ? 'A' : (['A', 'B', 'C', 'D'] as const)[event.mode]!;
  return DATABASE.modes[mode]![i]!;
}

/** Rebalances to the same configuration at once: each detection is one phase, no trial. */
const recorder = (): PipelineScheduler => ({
  id: 'test-recorder',
  // eslint-disable-next-line require-yield
  *rebalance(context) {
    return context.configuration.slice();
  },
});

function simulated(assumptions: PipelineAssumptions): number[] {
  const run = new PipelineRun(
    { database: compileDatabase(DATABASE), executionPlaces: 2, queries: QUERIES, seed: 1, events: EVENTS, random: null, assumptions, initialConfiguration: Int32Array.of(1, 1) },
    recorder(),
  );
  const detections: number[] = [];
  run.advance(QUERIES, (r) => void (r.detected && detections.push(r.query)));
  return detections;
}

async function real(assumptions: PipelineAssumptions): Promise<number[]> {
  const now = () => performance.now();
  const result = await runRealPipeline(
    {
      source: { kind: 'tiny', units: 2, inputSize: 8, channels: 4 },
      seed: 3,
      executionPlaces: 2,
      queries: QUERIES,
      assumptions,
      initialConfiguration: Int32Array.of(1, 1),
      scheduler: recorder(),
      // The script stands for the interference: no hog is needed.
      events: [],
      random: null,
      traceSeed: 1,
      coresPerEp: 1,
      hogBufferMiB: 16,
    },
    { now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), spawnStage: (i) => inProcessStage(tf, now, { reportMs: (q) => scripted(i, q) }), spawnHog: () => ({ terminate: () => undefined }) },
  );
  return [...result.detections];
}

describe('one monitor on both sides (worlds/pipeline/engine/monitor.ts)', () => {
  it('a window of 3 queries with a steady reference: the simulation and the real coordinator detect at the same queries of a scripted trace', async () => {
    const a: PipelineAssumptions = { ...DEFAULT_PIPELINE_ASSUMPTIONS, monitorReference: 'steady', detectionWindow: 3 };
    const sim = simulated(a);
    // Hand-worked: the spike moves the window's mean by 4 % (no detection); 10.8 is seen at query 11
    // (mean 10.53, +5.3 %); the way back at 27 (mean 10, −7.4 % of 10.8); EP 0 at 40 (+10 %) and back at 50.
    expect(sim).toEqual([11, 27, 40, 50]);
    expect(await real(a)).toEqual(sim);
  }, 60_000);

  it('the single-sample rule (absent fields) fires on the one-query spike, on both sides', async () => {
    const sim = simulated(DEFAULT_PIPELINE_ASSUMPTIONS);
    expect(sim[0]).toBe(5);
    const measured = await real(DEFAULT_PIPELINE_ASSUMPTIONS);
    expect(measured[0]).toBe(5);
  }, 60_000);
});
