import type { ServingScheduler } from '../engine/scheduler';
import type { LearningFactory, LearningSchedulerId, ServingSchedulerContext } from '../schedulers/registry';
import { ACTION_COUNT, stateSize } from './features';
import type { AgentFile, Learner } from './learner';
import { LearningScheduler, type LatencyPredictor } from './learningScheduler';
import type { LearnerSharing } from './lockstep';
import { DEFAULT_DDQN_CONFIG, Ddqn } from './ddqn';
import { DEFAULT_PPO_CONFIG, Ppo } from './ppo';
import { DEFAULT_SAC_CONFIG, DiscreteSac } from './sac';
import type { Tf } from '../../../lib/tf';

/**
 * A shipped agent's name: the scheduler's id for the agent trained under Eq. 1's slots (the
 * paper's reading, `public/agents/<id>.json`), `<id>-fixed-slot` for one trained under the fixed
 * slot (`public/agents/<id>-fixed-slot.json`), which the schedulers of `FIXED_SLOT_AGENTS` ship.
 */
export type AgentKey = LearningSchedulerId | `${LearningSchedulerId}-fixed-slot`;

/** Shipped or saved agents, by name (a lane with `pretrained = 1` starts from one). */
export type AgentLibrary = Partial<Record<AgentKey, AgentFile>>;

/**
 * The schedulers that ship a second agent, trained under the fixed slot. An agent trained under
 * one slot reading does not carry to the other (README, "Training": the Eq. 1 agent −10 % on the
 * fixed slot of `learn-sanity`; the fixed-slot agent lost on `bcedge-dynamic`'s Eq. 1 slots), and
 * BCEdge §V-A trains offline on the system it then runs: a slot reading is part of that system.
 */
export const FIXED_SLOT_AGENTS: ReadonlySet<LearningSchedulerId> = new Set<LearningSchedulerId>(['bcedge']);

/**
 * The agent a pretrained lane starts from: the one trained under the scenario's slot reading
 * where its scheduler ships one, unless the lane's `slotAgent` is 0 (the Eq. 1 agent whatever
 * the slot, the earlier reading).
 */
export function agentKeyOf(id: LearningSchedulerId, slot: 'eq1' | 'fixed' | undefined, laneParams: Readonly<Record<string, number>>): AgentKey {
  return slot === 'fixed' && laneParams['slotAgent'] !== 0 && FIXED_SLOT_AGENTS.has(id) ? `${id}-fixed-slot` : id;
}

/** Optional parts the factory can be given (the predictor arrives with its own module). */
export interface LearningFactoryOptions {
  readonly agents?: AgentLibrary;
  /** Builds an interference predictor for a BCEdge lane with `predictor = 1`. */
  readonly predictor?: (context: ServingSchedulerContext) => LatencyPredictor;
  /** Called with every learning scheduler built (the worker's telemetry keeps them). */
  readonly onCreate?: (scheduler: LearningScheduler, id: LearningSchedulerId) => void;
  /** Environments stepping together share one learner (lockstep.ts, `train --envs`). */
  readonly lockstep?: LearnerSharing;
}

/** Builds a learner of a kind with a lane's parameters. */
export function createLearner(tf: Tf, id: LearningSchedulerId, params: Readonly<Record<string, number>>, context: ServingSchedulerContext): Learner {
  const p = (name: string, fallback: number) => params[name] ?? fallback;
  const size = stateSize(params['stateSlot'] === 1);
  switch (id) {
    case 'bcedge':
    case 'tac':
      return new DiscreteSac(
        tf,
        size,
        ACTION_COUNT,
        {
          ...DEFAULT_SAC_CONFIG,
          gamma: p('gamma', DEFAULT_SAC_CONFIG.gamma),
          updatesPerStep: p('updatesPerSlot', DEFAULT_SAC_CONFIG.updatesPerStep),
          batchSize: p('minibatch', DEFAULT_SAC_CONFIG.batchSize),
          warmup: p('warmup', DEFAULT_SAC_CONFIG.warmup),
          targetEntropyRatio: p('targetEntropyRatio', DEFAULT_SAC_CONFIG.targetEntropyRatio),
          targetEntropyAnnealUpdates: id === 'bcedge' ? p('entropyAnnealUpdates', 0) : 0,
          targetEntropyFinalRatio: p('targetEntropyFinal', p('targetEntropyRatio', DEFAULT_SAC_CONFIG.targetEntropyRatio)),
          initialTemperature: p('initialTemperature', DEFAULT_SAC_CONFIG.initialTemperature),
          entropy: id === 'bcedge',
          discountPerS: p('discountPerS', DEFAULT_SAC_CONFIG.discountPerS),
          normalizeReward: p('normalizeReward', 0) === 1,
          temperatureLr: id === 'bcedge' ? p('temperatureLr', DEFAULT_SAC_CONFIG.temperatureLr) : 0,
          randomWarmup: p('randomWarmup', 0) === 1,
          balancedReplay: p('balancedReplay', 0) === 1,
          actor: id === 'tac' && p('advantageActor', 0) === 1 ? 'advantage' : 'soft',
          learningRate: p('learningRate', DEFAULT_SAC_CONFIG.learningRate),
          fineTuneAfter: id === 'bcedge' ? p('fineTuneAfter', 0) : 0,
          greedyUntilUpdate: id === 'bcedge' && p('greedyUntilUpdate', 0) === 1,
        },
        context.rng,
      );
    case 'ppo':
      return new Ppo(
        tf,
        size,
        ACTION_COUNT,
        {
          ...DEFAULT_PPO_CONFIG,
          gamma: p('gamma', DEFAULT_PPO_CONFIG.gamma),
          minibatchSize: p('minibatch', DEFAULT_PPO_CONFIG.minibatchSize),
          rolloutSize: p('rolloutSize', DEFAULT_PPO_CONFIG.rolloutSize),
          epochs: p('epochs', DEFAULT_PPO_CONFIG.epochs),
          clip: p('clip', DEFAULT_PPO_CONFIG.clip),
          entropyCoef: p('entropyCoef', DEFAULT_PPO_CONFIG.entropyCoef),
          discountPerS: p('discountPerS', DEFAULT_PPO_CONFIG.discountPerS),
          normalizeReward: p('normalizeReward', 0) === 1,
        },
        context.rng,
      );
    case 'ddqn':
      return new Ddqn(
        tf,
        size,
        ACTION_COUNT,
        {
          ...DEFAULT_DDQN_CONFIG,
          gamma: p('gamma', DEFAULT_DDQN_CONFIG.gamma),
          updatesPerStep: p('updatesPerSlot', DEFAULT_DDQN_CONFIG.updatesPerStep),
          batchSize: p('minibatch', DEFAULT_DDQN_CONFIG.batchSize),
          warmup: p('warmup', DEFAULT_DDQN_CONFIG.warmup),
          epsilonDecaySteps: p('epsilonDecaySteps', DEFAULT_DDQN_CONFIG.epsilonDecaySteps),
          targetUpdateEvery: p('targetUpdateEvery', DEFAULT_DDQN_CONFIG.targetUpdateEvery),
          discountPerS: p('discountPerS', DEFAULT_DDQN_CONFIG.discountPerS),
          normalizeReward: p('normalizeReward', 0) === 1,
          balancedReplay: p('balancedReplay', 0) === 1,
        },
        context.rng,
      );
  }
}

/**
 * The factory the worker and the CLI put into the scheduler context once tfjs is loaded:
 * it builds the learner, loads the shipped agent when asked (`pretrained = 1`), adds the
 * interference predictor to BCEdge when asked, and wraps it all as a serving scheduler.
 */
export function createLearningFactory(tf: Tf, options: LearningFactoryOptions = {}): LearningFactory {
  return {
    create(id, laneParams, context): ServingScheduler {
      const key = agentKeyOf(id, context.spec?.assumptions.slot, laneParams);
      const agent = laneParams['pretrained'] === 1 ? options.agents?.[key] : undefined;
      if (laneParams['pretrained'] === 1 && agent === undefined) throw new Error(`${id}: pretrained = 1 but no saved agent is loaded for it (${key}.json)`);
      // A pretrained lane reads the state its agent was trained on: the file's stateSize
      // decides whether the slot length is in it, whatever the lane's stateSlot says (that
      // parameter shapes a learner from scratch; a link with `pretrained = 1` keeps running
      // when the shipped agent is one of the other size).
      const params = agent === undefined ? laneParams : { ...laneParams, stateSlot: agent.stateSize === stateSize(true) ? 1 : 0 };
      const built = createLearner(tf, id, params, context);
      const learner = options.lockstep?.adopt(built) ?? built;
      if (agent !== undefined) {
        try {
          learner.load(agent);
        } catch (error) {
          learner.dispose();
          throw error;
        }
      }
      const usePredictor = id === 'bcedge' && params['predictor'] === 1 && options.predictor !== undefined;
      const scheduler = new LearningScheduler({
        id,
        learner,
        train: params['train'] !== 0,
        explore: params['explore'] !== 0,
        predictor: usePredictor ? (options.lockstep?.adoptPredictor(options.predictor!(context)) ?? options.predictor!(context)) : null,
        predictorBudget: params['predictorBudget'] ?? 0.8,
        predictorMask: params['predictorMask'] !== 0,
        interference: context.spec?.assumptions.interference ?? 'coLocated',
        predictorSteps: 1,
        trainEveryMs: params['trainEveryMs'] ?? 1000,
        jointMask: params['jointMask'] === 1,
        holdMs: params['holdMs'] ?? 0,
        stateRates: params['stateRates'] === 1,
        stateSlot: params['stateSlot'] === 1,
      });
      options.onCreate?.(scheduler, id);
      return scheduler;
    },
  };
}
