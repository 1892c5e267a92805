/**
 * One training epoch of BCEdge (issue 38 part 2's measure): a 3000 s run of
 * `bcedge-fig10-convergence` with one BCEdge learner from scratch that trains as it goes (`train`
 * with `--epochs 1`: explore on, the lane's defaults otherwise), its minibatch at §V-A's 512.
 * Today's path is the baseline the faster update is set against in the same run.
 */
import { createLatencyPredictor } from '../src/agents/predictorAdapter';
import { createLearningFactory } from '../src/agents/registry';
import type { Tf } from '../src/agents/tf';
import { ServingRun } from '../src/engine/serving/simulation';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/scenario/schema';
import { buildServingSpec, servingLaneParameters } from '../src/scenario/servingRunner';
import { SERVING_SCHEDULERS, servingSchedulerContext } from '../src/schedulers/serving/registry';
import type { BenchRow } from './row';

/** §V-A: "a mini-batch size of 512". */
export const PAPER_MINIBATCH = 512;

/** The wall seconds of one epoch, and the learner's report at its end. */
export function trainingEpochSeconds(tf: Tf, extra: Readonly<Record<string, number>> = {}): { seconds: number; report: Readonly<Record<string, unknown>> | undefined; utilityMean: number } {
  const scenario = findPreset('bcedge-fig10-convergence')!.scenario as ServingScenario;
  const spec = buildServingSpec(scenario);
  const lane = scenario.serving.lanes.find((l) => l.scheduler === 'bcedge')!;
  const params = { ...servingLaneParameters(lane), train: 1, explore: 1, pretrained: 0, minibatch: PAPER_MINIBATCH, ...extra };
  const factory = createLearningFactory(tf, { predictor: (context) => createLatencyPredictor(tf, context) });
  const scheduler = SERVING_SCHEDULERS.bcedge.create(params, servingSchedulerContext(scenario.seed, spec.models.map((m) => m.model), factory));
  const started = performance.now();
  const summary = new ServingRun(spec, scheduler).runToEnd();
  const seconds = (performance.now() - started) / 1000;
  const report = scheduler.report?.();
  scheduler.dispose?.();
  return { seconds, report, utilityMean: summary.utilityMean };
}

export function benchEpoch(tf: Tf, rows: BenchRow[]): Record<string, unknown> {
  const today = trainingEpochSeconds(tf);
  const updates = (today.report as { updates?: number } | undefined)?.updates;
  rows.push({
    name: `one 3000 s training epoch of BCEdge from scratch, bcedge-fig10-convergence, minibatch ${PAPER_MINIBATCH} (today’s path)`,
    value: today.seconds,
    unit: 's',
    note: `${updates === undefined ? '' : `${updates} updates; `}§V-A’s 500 epochs at this pace: ${((500 * today.seconds) / 3600).toFixed(1)} h (target ≤ 1 h on two cores)`,
  });
  return { today: { seconds: today.seconds, updates, utilityMean: today.utilityMean } };
}
