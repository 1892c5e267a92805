import { isScenarioOf } from '../../../../kit/world';
import { servingWorld } from '../../world';
import type { LearningScheduler } from '../../agents/learningScheduler';
import { ServingRun } from '../../engine/simulation';
import { findPreset } from '../../../../scenario/presets';
import type { ServingScenario } from '../../schema';
import { buildServingSpec, deviceCopiesOf, servingAssumptionsOf, servingLaneParameters } from '../../scenario/servingRunner';
import { isLearningScheduler, SERVING_SCHEDULERS, servingSchedulerContext, type LearningSchedulerId, type ServingSchedulerContext } from '../../schedulers/registry';
import type { WorldCommand } from '../../../../cli/command';
import { EXIT_OK, UsageError, type CliIo } from '../../../../cli/io';
import { addSetOption, integerOption, repeatable } from '../../../../cli/options';
import { checkOutputPath, writeOutput } from '../../../../cli/outputPath';
import { loadScenario } from '../../../../cli/scenarioInput';
import { progress } from '../../../../cli/worldRunner';
import { servingLearning } from '../../agents/learning';
import { Lockstep } from '../../agents/lockstep';
import { createLatencyPredictor } from '../../agents/predictorAdapter';
import { mainThreadEnvironments, TrainThread, type FinishOutcome, type SlotOutcome } from '../trainThreads';

export const MAX_TRAIN_SLOTS = 1_000_000;
/** Most offline epochs `train --epochs` takes (BCEdge §V-A trains for 500). */
export const MAX_TRAIN_EPOCHS = 10_000;
/** Most environments `train --envs` steps in lockstep. */
export const MAX_TRAIN_ENVS = 64;

interface TrainOptions {
  readonly out?: string;
  readonly lane?: string;
  readonly slots?: number;
  readonly epochs?: number;
  readonly envs?: number;
  readonly threads?: number;
  readonly set?: string[];
  readonly alternate?: string[];
}

/**
 * `train`: each learning lane of a serving scenario learns from scratch (explore and train
 * on, no shipped agent) on the scenario's trace, slot by slot; the agent is saved as JSON
 * and the training curve (mean reward per window of slots) printed.
 *
 * `--epochs E` is BCEdge §V-A's offline training ("trained it offline on an off-the-edge
 * device … with a mini-batch size of 512 for 500 epochs. We then deploy trained algorithm
 * online"). The paper does not say what an epoch is; the lab reads it as one episode: a run
 * of the scenario's whole duration, epoch e on the trace of seed + e (epoch 0 is the
 * scenario's own trace, so `--epochs 1` is plain `train`, bit for bit), one learner — its
 * networks, optimizer, replay buffer and predictor — going on from epoch to epoch, no
 * transition spanning two. The minibatch is the lane's `minibatch` parameter (512 in the
 * paper: `--set serving.lanes[0].params.minibatch=512`).
 */
export const trainCommand: WorldCommand = {
  usage: 'train [scenario]',
  listedAfter: 'merge',
  summary: "train the scenario's learning lanes (bcedge, tac, ppo, ddqn) from scratch and save the agents",
  configure(command) {
    command
      .option('--out <path>', 'DIR/ (one <scheduler>.json each) or FILE.json (one lane); required')
      .option('--lane <id>', 'train only this learning lane')
      .option('--slots <n>', `override the scenario's duration in slots of slotMs (1 to ${MAX_TRAIN_SLOTS}; 1 s by default; under Eq. 1's per-model slots, reporting intervals)`, integerOption('--slots', 1, MAX_TRAIN_SLOTS))
      .option('--epochs <n>', `offline epochs (BCEdge §V-A): runs of the whole duration, epoch e on the trace of seed + e, one learner throughout (1 to ${MAX_TRAIN_EPOCHS}; default 1)`, integerOption('--epochs', 1, MAX_TRAIN_EPOCHS))
      .option('--envs <k>', `epochs run in lockstep, K environments sharing one learner and its gradient updates (vectorised training: K epochs for the updates of one; 1 to ${MAX_TRAIN_ENVS}; default 1)`, integerOption('--envs', 1, MAX_TRAIN_ENVS))
      .option(
        '--alternate <path=value>',
        'a second reading for every odd epoch: epochs 1, 3, 5 … run the scenario with this field changed as well (repeatable; a training distribution over two readings, e.g. --alternate serving.assumptions.slot=fixed; the models and slotMs stay those of the scenario)',
        repeatable,
      )
      .option('--threads <n>', 'threads stepping the lockstep environments: 2 = a second thread steps most of them with copies of the learner that act for it, this one steps the rest and learns (a seed still gives one agent, not the one of 1 thread; needs --envs ≥ 2; default 1)', integerOption('--threads', 1, 2));
    addSetOption(command);
  },
  needsLearning: () => true,
  async run([source], rawOptions, io) {
    const options = rawOptions as unknown as TrainOptions;
    const scenario = loadScenario(source, options.set ?? [], io);
    if (!isScenarioOf(servingWorld, scenario)) throw new UsageError('train: needs a serving scenario (the learning schedulers live in the serving world)');
    let lanes = scenario.serving.lanes.map((lane, index) => ({ lane, index })).filter(({ lane }) => isLearningScheduler(lane.scheduler));
    if (options.lane !== undefined) lanes = lanes.filter(({ lane }) => lane.scheduler === options.lane);
    if (lanes.length === 0) throw new UsageError(`train: the scenario has no learning lane${options.lane === undefined ? '' : ` "${options.lane}"`} (bcedge, tac, ppo or ddqn)`);
    if (options.out === undefined) throw new UsageError('train: --out DIR/ or --out FILE.json is required');
    const out = options.out;
    const toDirectory = out.endsWith('/') || io.isDirectory?.(out) === true;
    if (!toDirectory && lanes.length > 1) throw new UsageError('train: several lanes need --out DIR/ (or pick one with --lane)');
    // Before training, not after (ARCHITECTURE §5): a missing folder is found in a second.
    checkOutputPath(io, '--out', out, toDirectory ? 'directory' : 'file');
    const { slotMs, slot: slotReading } = servingAssumptionsOf(scenario);
    const durationS = options.slots === undefined ? scenario.serving.durationS : (options.slots * slotMs) / 1000;
    const trainScenario: ServingScenario = { ...scenario, serving: { ...scenario.serving, durationS } };
    const spec = buildServingSpec(trainScenario);
    // One agent per lane: a run of device copies (BCEdge §V-D) has a learner per model's device.
    if (deviceCopiesOf(trainScenario, spec) !== null) {
      throw new UsageError(
        `serving.assumptions.platformSetting: on ${spec.platform} each of the ${spec.models.length} models is served alone on its own device, with a learner each (perModel), and train saves one agent per lane: train on one model, or with --set serving.assumptions.platformSetting=mixed`,
      );
    }
    const slots = Math.ceil(spec.durationMs / slotMs);
    const window = Math.max(1, Math.round((slots * (options.epochs ?? 1)) / 100));
    const report: object[] = [];
    const epochs = options.epochs ?? 1;
    const envs = Math.min(options.envs ?? 1, epochs);
    const perRow = lanes.find(({ lane }) => lane.scheduler === 'ppo' || lane.scheduler === 'ddqn');
    if (envs > 1 && perRow !== undefined) {
      // PPO keeps the log-probabilities of its last decision per row until the transition is
      // recorded, and DDQN's ε counts reporting intervals: K environments sharing one would
      // overwrite the one and count the other K times.
      throw new UsageError(`--envs: lockstep training is for the SAC learners (bcedge, tac), not ${perRow.lane.scheduler}: pick a lane with --lane, or --envs 1`);
    }
    const threads = options.threads ?? 1;
    const alternate = alternateScenario(source, options, trainScenario, slotMs, io);
    if (alternate !== null && threads > 1) throw new UsageError('--alternate: the second thread steps one reading only; use --threads 1');
    if (threads > 1 && envs < 2) throw new UsageError(`--threads: ${threads} threads step the environments of --envs K ≥ 2 in lockstep; with ${envs} environment${envs === 1 ? '' : 's'} (--envs ${options.envs ?? 1}, --epochs ${epochs}) there is nothing to share: give --envs 2 or more, or --threads 1`);
    for (const { lane } of lanes) {
      const id = lane.scheduler as LearningSchedulerId;
      const built: LearningScheduler[] = [];
      const lockstep = envs > 1 ? new Lockstep() : undefined;
      if (io.learning === undefined) throw new Error('this scenario has learning lanes but TensorFlow.js was not loaded (needsLearning)');
      const { tf } = io.learning;
      // The predictor's online error figures are the lane's report, which train does not print: not computed (the same agent, sooner).
      const predictor = (context: ServingSchedulerContext) => createLatencyPredictor(tf, context, { onlineErrors: false });
      const factory = await servingLearning(tf, io.learning.agent, [trainScenario], { predictor, onCreate: (scheduler) => built.push(scheduler), ...(lockstep === undefined ? {} : { lockstep }) });
      const params = { ...servingLaneParameters(lane), train: 1, explore: 1, pretrained: 0 };
      // Under --threads 2 this thread steps environments 0 … mainEnvs − 1 and the training thread the others (trainThreads.ts).
      const mainEnvs = threads > 1 ? mainThreadEnvironments(envs) : envs;
      const thread = mainEnvs < envs ? new TrainThread({ scenario: trainScenario, scheduler: id, params, envIds: Array.from({ length: envs - mainEnvs }, (_, i) => mainEnvs + i), envs, slotMs }) : null;
      // One scheduler per environment, kept from round to round (its predictor goes on learning).
      const schedulers = Array.from({ length: mainEnvs }, (_, env) => SERVING_SCHEDULERS[id].create(params, servingSchedulerContext(scenario.seed + env, spec.models.map((m) => m.model), factory)));
      if (built.length !== mainEnvs) throw new Error(`train: ${id} did not build a learning scheduler`);
      const learner = built[0]!;
      const curve: { slot: number; reward: number }[] = [];
      const started = performance.now();
      let sum = 0;
      let count = 0;
      let nextMark = window;
      // Round r runs epochs rK … rK + K − 1 in lockstep, epoch e on the trace of seed + e.
      for (let first = 0; first < epochs; first += envs) {
        const roundActive = Math.min(envs, epochs - first);
        const active = Math.min(mainEnvs, roundActive);
        const threadActive = roundActive > active;
        lockstep?.setEnvironments(active);
        if (threadActive) {
          thread!.send({ kind: 'round', first, active: roundActive });
          thread!.answer<null>();
        }
        const runs = Array.from({ length: active }, (_, env) => {
          const epoch = first + env;
          if (epoch >= envs) built[env]!.startEpisode();
          // Odd epochs under the --alternate reading, when one is given.
          const world = alternate !== null && epoch % 2 === 1 ? alternate : trainScenario;
          return new ServingRun(epoch === 0 ? spec : buildServingSpec({ ...world, seed: scenario.seed + epoch }), schedulers[env]!);
        });
        for (let slot = 1; slot <= slots; slot++) {
          // The training thread's environments start the slot with the learner as it is now.
          if (threadActive) {
            const shared = lockstep!.learner!;
            thread!.send({ kind: 'slot', slot, learner: shared.actingState!(), predictor: lockstep!.sharedPredictor?.actingState?.() ?? null });
          }
          for (let env = 0; env < active; env++) {
            runs[env]!.advanceTo(Math.min(spec.durationMs, slot * slotMs));
            // The slot's (reporting interval's) transitions: under Eq. 1's per-model slots, several decisions.
            const r = built[env]!.takeIntervalReward();
            if (r !== null) {
              sum += r;
              count++;
            }
          }
          if (threadActive) {
            // Its environments' transitions and batch records, stored after this thread's of the slot.
            const outcome = thread!.answer<SlotOutcome>();
            const shared = lockstep!.learner!;
            for (const transition of outcome.transitions) shared.record(transition);
            const predictor = lockstep!.sharedPredictor;
            for (const batch of outcome.batches) predictor?.add(batch);
            for (const r of outcome.rewards) {
              if (r !== null) {
                sum += r;
                count++;
              }
            }
          }
          const done = first * slots + roundActive * slot;
          if (done >= nextMark || done === epochs * slots) {
            nextMark = (Math.floor(done / window) + 1) * window;
            if (count > 0) curve.push({ slot: done, reward: sum / count });
            sum = 0;
            count = 0;
            progress(io, done, epochs * slots);
          }
        }
      }
      const seconds = (performance.now() - started) / 1000;
      const trainedFor = `${slots} slots of ${slotMs} ms${slotReading === 'eq1' ? ' (reporting intervals; each model decided on its own slots of Eq. 1)' : ''}${epochs > 1 ? ` × ${epochs} epochs (seeds ${scenario.seed}–${scenario.seed + epochs - 1})` : ''}${alternate === null ? '' : `, odd epochs with ${(options.alternate ?? []).join(', ')}`}${envs > 1 ? `, ${envs} in lockstep sharing their updates` : ''}${thread === null ? '' : ` (${envs - mainEnvs} of them stepped by a second thread)`}`;
      const agent = learner.learner.save(`${findPreset(source!) ? source : 'scenario'} seed ${scenario.seed}, ${trainedFor}`);
      const path = toDirectory ? `${out.replace(/\/?$/, '/')}${id}.json` : out;
      writeOutput(io, '--out', path, `${JSON.stringify(agent)}\n`);
      // Each environment counts the updates its own calls ran, and its transitions.
      const updates = built.reduce((total, b) => total + b.telemetry().updates, 0);
      let transitions = built.reduce((total, b) => total + b.telemetry().transitions, 0);
      if (thread !== null) {
        thread.send({ kind: 'finish' });
        transitions += thread.answer<FinishOutcome>().transitions;
        await thread.close();
      }
      report.push({ scheduler: id, out: path, slots, epochs, ...(envs > 1 ? { envs } : {}), ...(thread === null ? {} : { threads, mainThreadEnvs: mainEnvs }), updates, transitions, seconds, stats: learner.learner.stats(), curve });
      for (const scheduler of schedulers) scheduler.dispose?.();
    }
    io.stdout(`${JSON.stringify({ scenario: trainScenario, trained: report }, null, 2)}\n`);
    return EXIT_OK;
  },
};

/**
 * The scenario of the odd epochs under `--alternate` (null without it): the scenario's own
 * `--set`s and then the alternates, validated as any scenario, at the training duration. It
 * must keep the models (one learner reads them in order) and `slotMs` (the environments step
 * together interval by interval).
 */
function alternateScenario(source: string | undefined, options: TrainOptions, trainScenario: ServingScenario, slotMs: number, io: CliIo): ServingScenario | null {
  if (options.alternate === undefined || options.alternate.length === 0) return null;
  if ((options.epochs ?? 1) < 2) throw new UsageError('--alternate: applies to the odd epochs; give --epochs 2 or more');
  const loaded = loadScenario(source, [...(options.set ?? []), ...options.alternate], io);
  if (!isScenarioOf(servingWorld, loaded)) throw new UsageError('--alternate: must leave a serving scenario');
  const models = (s: ServingScenario): string => s.serving.models.map((m) => m.model).join(',');
  if (models(loaded) !== models(trainScenario)) throw new UsageError(`--alternate: must keep the models (${models(trainScenario)}), got ${models(loaded)}`);
  if (servingAssumptionsOf(loaded).slotMs !== slotMs) throw new UsageError(`--alternate: must keep serving.assumptions.slotMs (${slotMs} ms)`);
  return { ...loaded, serving: { ...loaded.serving, durationS: trainScenario.serving.durationS } };
}
