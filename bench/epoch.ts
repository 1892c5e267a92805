// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * One training epoch of BCEdge (issue 38 part 2's measure): a 3000 s run of
 * `bcedge-fig10-convergence` with one BCEdge learner from scratch that trains as it goes (`train`
 * with `--epochs 1`: explore on, the lane's defaults otherwise), its minibatch at §V-A's 512.
 *
 * The baseline is the path the issue measured, kept in the same run: one environment, its
 * decisions and the predictor's predictions in tfjs (`useHostDecisions(false)`). The fast path
 * is `train --envs K`: K epochs in lockstep sharing the learner's and the predictor's updates
 * (worlds/serving/agents/lockstep.ts), decisions and predictions on the host; its epoch is the wall time of the
 * K epochs over K; and the same with `--threads 2` (worlds/serving/cli/trainThreads.ts), a second thread stepping
 * most of the environments.
 */
import { useHostDecisions } from '../src/worlds/serving/agents/hostPolicy';
import { runCliInMemory } from '../src/cli/testing/memoryIo';
import { createLatencyPredictor } from '../src/worlds/serving/agents/predictorAdapter';
import { createLearningFactory } from '../src/worlds/serving/agents/registry';
import type { Tf } from '../src/lib/tf';
import { ServingRun } from '../src/worlds/serving/engine/simulation';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { buildServingSpec, servingLaneParameters } from '../src/worlds/serving/scenario/servingRunner';
import { SERVING_SCHEDULERS, servingSchedulerContext } from '../src/worlds/serving/schedulers/registry';
import { mainThreadEnvironments } from '../src/worlds/serving/cli/trainThreads';
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

/** Environments the fast path steps in lockstep (`train --envs`). */
export const LOCKSTEP_ENVS = 32;

/** `train bcedge-fig10-convergence --lane bcedge --epochs K --envs K` in this process: wall seconds and the learner's report. */
async function lockstepSeconds(tf: Tf, envs: number, threads = 1): Promise<{ seconds: number; updates: number; transitions: number; utilityMean: number }> {
  const started = performance.now();
  const result = await runCliInMemory(['train', 'bcedge-fig10-convergence', '--lane', 'bcedge', '--epochs', String(envs), '--envs', String(envs), '--threads', String(threads), '--out', 'agents/', '--set', `serving.lanes[0].params.minibatch=${PAPER_MINIBATCH}`], () => ({
    learning: { tf, agent: async () => undefined },
    isDirectory: (path) => path.endsWith('/'),
  }));
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`train --envs ${envs}: ${result.stderr}`);
  const trained = (JSON.parse(result.stdout) as { trained: { updates: number; transitions: number; curve: { reward: number }[] }[] }).trained[0]!;
  // The mean reward of the last tenth of the training curve: the two ways learn alike.
  const tail = trained.curve.slice(-Math.max(1, Math.round(trained.curve.length / 10)));
  return { seconds, updates: trained.updates, transitions: trained.transitions, utilityMean: tail.reduce((sum, p) => sum + p.reward, 0) / tail.length };
}

export async function benchEpoch(tf: Tf, rows: BenchRow[]): Promise<Record<string, unknown>> {
  useHostDecisions(false);
  const today = trainingEpochSeconds(tf);
  useHostDecisions(true);
  const updates = (today.report as { updates?: number } | undefined)?.updates;
  rows.push({
    name: `one 3000 s training epoch of BCEdge from scratch, bcedge-fig10-convergence, minibatch ${PAPER_MINIBATCH} (the issue’s path: one environment, decisions in tfjs)`,
    value: today.seconds,
    unit: 's',
    note: `${updates === undefined ? '' : `${updates} updates; `}§V-A’s 500 epochs at this pace: ${((500 * today.seconds) / 3600).toFixed(1)} h`,
  });
  const host = trainingEpochSeconds(tf);
  rows.push({
    name: 'the same epoch, decisions and predictions on the host (one environment)',
    value: host.seconds,
    unit: 's',
    baseline: today.seconds,
    ratio: today.seconds / host.seconds,
    note: 'baseline: the issue’s path above, in this run',
  });
  const fast = await lockstepSeconds(tf, LOCKSTEP_ENVS);
  const perEpoch = fast.seconds / LOCKSTEP_ENVS;
  const hours = (500 * perEpoch) / 3600;
  rows.push({
    name: `one epoch in lockstep (train --envs ${LOCKSTEP_ENVS}: ${LOCKSTEP_ENVS} epochs sharing the learner’s and the predictor’s updates), per epoch`,
    value: perEpoch,
    unit: 's',
    baseline: today.seconds,
    ratio: today.seconds / perEpoch,
    target: '≥ 10×; 500 epochs ≤ 1 h',
    met: today.seconds / perEpoch >= 10 && hours <= 1,
    note: `${fast.updates} updates and ${fast.transitions} transitions over the ${LOCKSTEP_ENVS} epochs (${(fast.updates / LOCKSTEP_ENVS).toFixed(0)} an epoch); last tenth's mean reward ${fast.utilityMean.toFixed(3)}; §V-A’s 500 epochs at this pace: ${hours.toFixed(2)} h on one core`,
  });
  const threaded = await lockstepSeconds(tf, LOCKSTEP_ENVS, 2);
  const threadedPerEpoch = threaded.seconds / LOCKSTEP_ENVS;
  const threadedHours = (500 * threadedPerEpoch) / 3600;
  rows.push({
    name: `the same on two threads (train --envs ${LOCKSTEP_ENVS} --threads 2: a second thread steps ${LOCKSTEP_ENVS - mainThreadEnvironments(LOCKSTEP_ENVS)} of the environments), per epoch`,
    value: threadedPerEpoch,
    unit: 's',
    baseline: today.seconds,
    ratio: today.seconds / threadedPerEpoch,
    target: '≥ 10×; 500 epochs ≤ 1 h on two cores',
    met: today.seconds / threadedPerEpoch >= 10 && threadedHours <= 1,
    note: `${threaded.updates} updates and ${threaded.transitions} transitions; last tenth's mean reward ${threaded.utilityMean.toFixed(3)}; ${(perEpoch / threadedPerEpoch).toFixed(2)}× the one-thread lockstep above; §V-A’s 500 epochs at this pace: ${threadedHours.toFixed(2)} h`,
  });
  return {
    today: { seconds: today.seconds, updates, utilityMean: today.utilityMean },
    host: { seconds: host.seconds },
    lockstep: { envs: LOCKSTEP_ENVS, ...fast, perEpoch },
    threaded: { envs: LOCKSTEP_ENVS, threads: 2, mainThreadEnvs: mainThreadEnvironments(LOCKSTEP_ENVS), ...threaded, perEpoch: threadedPerEpoch },
  };
}
