// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../../index';
import { workerData } from 'node:worker_threads';
import type { LearningScheduler } from '../agents/learningScheduler';
import { MirrorSharing } from '../agents/lockstep';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory } from '../agents/registry';
import { loadTfNode } from '../../../lib/tfNode';
import { ServingRun } from '../engine/simulation';
import { buildServingSpec } from '../scenario/servingRunner';
import { SERVING_SCHEDULERS, servingSchedulerContext } from '../schedulers/registry';
import type { FinishOutcome, SlotOutcome, TrainThreadCommand, TrainThreadInit } from './trainThreads';

/**
 * The training thread of `train --threads 2` (trainThreads.ts): it steps its environments slot
 * by slot with copies of the learner and the predictor that act for the main thread's, and
 * answers each command on its port, then counts the answer in `control` and wakes the main
 * thread. A failure is answered too, with its message, so the main thread never waits for an
 * answer that will not come.
 */
const init = workerData as TrainThreadInit;
const control = new Int32Array(init.control);
const tf = await loadTfNode();
const sharing = new MirrorSharing();
const built: LearningScheduler[] = [];
const factory = createLearningFactory(tf, { predictor: (context) => createLatencyPredictor(tf, context, { onlineErrors: false }), onCreate: (scheduler) => built.push(scheduler), lockstep: sharing });
const spec = buildServingSpec(init.scenario);
const models = spec.models.map((m) => m.model);
const schedulers = init.envIds.map((env) => SERVING_SCHEDULERS[init.scheduler].create(init.params, servingSchedulerContext(init.scenario.seed + env, models, factory)));
let runs: ServingRun[] = [];

function reply(answer: { value: unknown } | { error: string }): void {
  init.port.postMessage(answer);
  Atomics.add(control, 0, 1);
  Atomics.notify(control, 0);
}

function handle(command: TrainThreadCommand): unknown {
  switch (command.kind) {
    case 'round': {
      // Its environments of the round: the first `active` of the round's, less the main thread's.
      const ids = init.envIds.filter((env) => env < command.active);
      runs = ids.map((env, i) => {
        const epoch = command.first + env;
        if (epoch >= init.envs) built[i]!.startEpisode();
        return new ServingRun(epoch === 0 ? spec : buildServingSpec({ ...init.scenario, seed: init.scenario.seed + epoch }), schedulers[i]!);
      });
      return null;
    }
    case 'slot': {
      sharing.mirror(command.learner, command.predictor);
      const rewards = runs.map((run, i) => {
        run.advanceTo(Math.min(spec.durationMs, command.slot * init.slotMs));
        return built[i]!.takeIntervalReward();
      });
      const outcome: SlotOutcome = { ...sharing.drain(), rewards };
      return outcome;
    }
    case 'finish': {
      const outcome: FinishOutcome = { transitions: built.reduce((total, b) => total + b.telemetry().transitions, 0) };
      for (const scheduler of schedulers) scheduler.dispose?.();
      sharing.dispose();
      return outcome;
    }
  }
}

init.port.on('message', (command: TrainThreadCommand) => {
  try {
    reply({ value: handle(command) });
  } catch (error) {
    reply({ error: error instanceof Error ? error.message : String(error) });
  }
});
