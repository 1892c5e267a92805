import { createRng, type Rng } from '../../../engine/rng';
import { MODEL_IDS, type ModelId } from '../engine/models';
import { MAX_BATCH_SIZE, MAX_INSTANCES, type ServingScheduler } from '../engine/scheduler';
import { SERVING_SCHEDULER_STREAM, type ServingRunSpec } from '../engine/spec';
import type { NumericParameter } from '../../../kit/parameter';
import { createDeepRt } from './deeprt';
import { createFixed } from './fixed';
import { createGa } from './ga';
import { shippedPlanFor } from './shippedPlans';
import { createPlanned, fixedInHindsightSearch, fixedPerPhaseSearch, referenceReport, runSearch, type ReferenceResult, type ReferenceSearch, type ReferenceSearchParams, type SearchProgress } from './reference';

/** A reference lane's search, for a caller that runs it itself (the serving worker, in slices). */
export interface ReferenceLaneSearch {
  readonly kind: 'fixed-hindsight' | 'fixed-per-phase';
  /** The search's parameters from the lane's (defaults filled in). */
  params(params: Readonly<Record<string, number>>): ReferenceSearchParams;
  /**
   * The search as a generator (reference.ts `ReferenceSearch`); `prior` is the result of the
   * search it starts with, found before on the same spec: for `fixed-per-phase`, the
   * `fixed-hindsight` search of the same parameters; for `fixed-hindsight` per model, the
   * uniform one of the same grid (`perModel: false`; ignored by a uniform search).
   */
  start(spec: ServingRunSpec, params: ReferenceSearchParams, prior?: ReferenceResult): ReferenceSearch;
}

/** What a serving scheduler may be built with besides its parameters. */
export interface ServingSchedulerContext {
  /** The engine stream for schedulers (`SERVING_SCHEDULER_STREAM` of the scenario's seed). */
  readonly rng: Rng;
  /** The run's models, in order (per-model parameters are given by model id). */
  readonly models: readonly ModelId[];
  /**
   * Builds the learning schedulers (BCEdge, TAC, PPO, DDQN). They need TensorFlow.js,
   * which lives above this layer (src/agents) and is loaded lazily by the worker or the
   * CLI; without it, creating a learning lane is an error that says so.
   */
  readonly learning?: LearningFactory;
  /**
   * The lane's run (trace, tenants, seed): the reference lanes (`fixed-hindsight`,
   * `fixed-per-phase`) search by re-running it; the other schedulers never look.
   */
  readonly spec?: ServingRunSpec;
  /** Told each evaluation of a reference lane's search (reference.ts `SearchProgress`). */
  readonly searchProgress?: SearchProgress;
  /**
   * A reference lane's search, already done on this very `spec` with this lane's parameters
   * (the serving worker runs it in slices and keeps it: ARCHITECTURE §3): the lane replays it
   * and does not search.
   */
  readonly referenceResult?: ReferenceResult;
  /**
   * The reference searches done on this very `spec` so far (the command line's lanes of one
   * sweep cell share one): a lane whose search is there replays it, and a per-phase search
   * starts from the hindsight search of the same parameters when it is there (it begins with
   * that search: `fixedPerPhaseSearch`), instead of searching it again (issue 38).
   */
  readonly referenceSearches?: Map<string, ReferenceResult>;
}

// The learning ids live in learningIds.ts, which the page reads without the registry (ARCHITECTURE §7a′).
export { isLearningScheduler, LEARNING_SCHEDULER_IDS, type LearningSchedulerId } from './learningIds';
import { LEARNING_SCHEDULER_IDS, type LearningSchedulerId } from './learningIds';

/** Implemented in src/agents (registry.ts) over a loaded tfjs. */
export interface LearningFactory {
  create(id: LearningSchedulerId, params: Readonly<Record<string, number>>, context: ServingSchedulerContext): ServingScheduler;
}


/**
 * A per-model parameter name: `batchSize.yolo` sets b for YOLO only (the page's per-model
 * sliders), overriding `batchSize` for that model. Null when `name` is not one.
 */
export function perModelParameter(name: string): { readonly base: string; readonly model: ModelId } | null {
  const dot = name.indexOf('.');
  if (dot <= 0) return null;
  const model = name.slice(dot + 1);
  return (MODEL_IDS as readonly string[]).includes(model) ? { base: name.slice(0, dot), model: model as ModelId } : null;
}

/** One entry of the serving-world registry. */
export interface ServingSchedulerEntry {
  readonly id: ServingSchedulerId;
  readonly label: string;
  /** One sentence for menus and the presets gallery. */
  readonly description: string;
  readonly parameters: readonly NumericParameter[];
  /** True for the learning schedulers (they need `context.learning`, i.e. tfjs). */
  readonly learning?: boolean;
  /** Present for the reference lanes (oracles that search on the lane's own run, `context.spec`): their search. */
  readonly reference?: ReferenceLaneSearch;
  /** Builds the scheduler with validated parameters. */
  create(params: Readonly<Record<string, number>>, context: ServingSchedulerContext): ServingScheduler;
}

export const SERVING_SCHEDULER_IDS = ['fixed', 'deeprt', 'ga', ...LEARNING_SCHEDULER_IDS, 'fixed-hindsight', 'fixed-per-phase'] as const;
export type ServingSchedulerId = (typeof SERVING_SCHEDULER_IDS)[number];

const BATCH: NumericParameter = { name: 'batchSize', label: 'batch size b', min: 1, max: MAX_BATCH_SIZE, integer: true, default: 8, perModel: true };
const INSTANCES: NumericParameter = { name: 'instances', label: 'instances m_c', min: 1, max: MAX_INSTANCES, integer: true, default: 2, perModel: true };
const MAX_BATCH: NumericParameter = { name: 'maxBatch', label: 'max batch', min: 1, max: 128, integer: true, default: 8 };
const ADMISSION: NumericParameter = { name: 'admission', label: 'admission control (0/1)', min: 0, max: 1, integer: true, default: 1 };
const POPULATION: NumericParameter = { name: 'population', label: 'population', min: 2, max: 64, integer: true, default: 8 };
const EVALUATION: NumericParameter = { name: 'evaluationSlots', label: 'slots per fitness', min: 1, max: 60, integer: true, default: 3 };
const WARMUP: NumericParameter = { name: 'warmupSlots', label: 'warm-up slots', min: 0, max: 10, integer: true, default: 1 };
const MUTATION: NumericParameter = { name: 'mutationRate', label: 'mutation rate', min: 0, max: 1, integer: false, default: 0.2 };
const ELITE: NumericParameter = { name: 'elite', label: 'elite', min: 0, max: 8, integer: true, default: 1 };

// Learning schedulers (src/agents). `minibatch`, not `batchSize`: that name is the serving action's b.
const TRAIN: NumericParameter = { name: 'train', label: 'learn online (0/1)', min: 0, max: 1, integer: true, default: 1 };
const EXPLORE: NumericParameter = { name: 'explore', label: 'sample actions (0/1; 0 = greedy)', min: 0, max: 1, integer: true, default: 1 };
const PRETRAINED: NumericParameter = { name: 'pretrained', label: 'start from the shipped agent (0/1)', min: 0, max: 1, integer: true, default: 0 };
const GAMMA: NumericParameter = { name: 'gamma', label: 'discount γ', min: 0, max: 0.999, integer: false, default: 0.9 };
const UPDATES: NumericParameter = { name: 'updatesPerSlot', label: 'updates per training (trainEveryMs)', min: 1, max: 16, integer: true, default: 2 };
const MINIBATCH: NumericParameter = { name: 'minibatch', label: 'minibatch', min: 8, max: 512, integer: true, default: 64 };
/**
 * SAC's minibatch (BCEdge and TAC): §V-A's 512. By measurement as well (`learn-check` on
 * `learn-sanity`, 1200 s, last 200 s against fixed-hindsight): at 64 BCEdge settled 13 % below
 * the oracle on seed 2 (its temperature fell to 0.002 before the critic told the models'
 * actions apart); at 512 it is within 2 % on seeds 1–3. Version 7 ran 64 (its migration keeps it).
 */
const SAC_MINIBATCH: NumericParameter = { ...MINIBATCH, default: 512 };
const WARMUP_TRANSITIONS: NumericParameter = { name: 'warmup', label: 'transitions before learning', min: 1, max: 100_000, integer: true, default: 256 };
/**
 * The target entropy as a share of ln|A_allowed| (worlds/serving/agents/sac.ts), 0.15 (≈ 0.6 nats of 64
 * actions) by measurement (ARCHITECTURE §3), BCEdge from scratch, seeds 1–3:
 * - on the stationary `learn-sanity` (1200 s, the last 200 s against `fixed-hindsight`) 0.05
 *   and 0.15 both end within 3 % (−0.9..−1.6 % and −0.7..−2.8 %);
 * - on `bcedge-dynamic` (3000 s) 0.05 was lost for the whole 60 rps phase on every seed
 *   (U 4.50 / 4.63, −100 % from the step), 0.15 recovered within 300 s on every seed
 *   (U 7.28 / 7.40 / 7.47 against the oracle's 7.50) and 0.3 lost seed 2 for good: too little
 *   exploration left to find the new load's configurations, or too much to keep them.
 * 0.3 before version 7, 0.05 in versions 7–10 (their links keep it, world.ts).
 */
const ENTROPY_RATIO: NumericParameter = { name: 'targetEntropyRatio', label: 'target entropy / ln|A|', min: 0.01, max: 1.2, integer: false, default: 0.15 };
/**
 * The target entropy annealed over training (worlds/serving/agents/sac.ts
 * `targetEntropyAnnealUpdates`): from `targetEntropyRatio` to `targetEntropyFinal` over this many
 * updates (0, the default: one target, as before). For offline training: explore early, ship a
 * policy that does not pay for exploring once loaded.
 */
const ENTROPY_ANNEAL: NumericParameter = { name: 'entropyAnnealUpdates', label: 'anneal the target entropy over (updates; 0 = off)', min: 0, max: 10_000_000, integer: true, default: 0 };
const ENTROPY_FINAL: NumericParameter = { name: 'targetEntropyFinal', label: 'target entropy / ln|A| after annealing', min: 0.01, max: 1.2, integer: false, default: 0.05 };
const TEMPERATURE: NumericParameter = { name: 'initialTemperature', label: 'initial temperature α', min: 0.0001, max: 10, integer: false, default: 0.1 };
const PREDICTOR: NumericParameter = { name: 'predictor', label: 'interference predictor (0/1)', min: 0, max: 1, integer: true, default: 1 };
const PREDICTOR_BUDGET: NumericParameter = { name: 'predictorBudget', label: 'predicted inference ≤ share of SLO', min: 0.05, max: 1, integer: false, default: 0.8 };
/**
 * Whether the predictor's predictions mask actions (§IV-F). 0: the predictor still learns from
 * every batch (its Fig. 13 error is still measured) but removes no action, so the lane acts as
 * BCEdge without it would, and the predictor's effect on SLO violations (Fig. 14) can be told
 * apart from its mere presence (the claims' masking reading).
 */
const PREDICTOR_MASK: NumericParameter = { name: 'predictorMask', label: 'predictor masks actions (0/1)', min: 0, max: 1, integer: true, default: 1 };
/**
 * The learners' training cadence, simulated ms between gradient updates (worlds/serving/agents/learningScheduler.ts):
 * transitions are one per decision, updates at the first decision at or after each multiple of
 * it. Under Eq. 1's per-model slots (slot `eq1`, BCEdge §III-A2) decisions come every few tens
 * to hundreds of ms per model, and an update per decision would multiply the cost of learning;
 * the default 1000 ms, the default reporting interval (`slotMs`), keeps the updates per simulated
 * second what they were with the fixed 1 s slot (under a fixed slot of at least this length every
 * decision trains, as before). 0: after every decision, Algorithm 1's gradient step per slot.
 */
const TRAIN_EVERY: NumericParameter = { name: 'trainEveryMs', label: 'train every (simulated ms; 0 = every decision)', min: 0, max: 600_000, integer: false, default: 1000 };
// The learners' choices the paper leaves open (BCEdge §V-A gives Adam at 10⁻³, two ReLU layers
// of 128 and 64, a buffer of 10⁶ and minibatch 512, and no γ, α₀, target entropy or reward
// scale). Each 0 is the lab's earlier reading, which a scenario of version 6 or older keeps
// (the migration to version 7 writes it); the defaults were chosen by measurement against the
// oracles on the stationary sanity scenario (`learn-check`, ARCHITECTURE §3), never toward the
// paper's figures. worlds/serving/agents/sac.ts says what each does.
const DISCOUNT_PER_S: NumericParameter = { name: 'discountPerS', label: 'discount per simulated second (0 = γ per decision)', min: 0, max: 0.999, integer: false, default: 0.5 };
const NORMALIZE_REWARD: NumericParameter = { name: 'normalizeReward', label: 'standardize rewards (0/1)', min: 0, max: 1, integer: true, default: 1 };
const TEMPERATURE_LR: NumericParameter = { name: 'temperatureLr', label: 'temperature learning rate (0 = in the networks’ Adam)', min: 0, max: 0.1, integer: false, default: 0.003 };
/**
 * SAC's Adam learning rate (BCEdge §V-A: 10⁻³, offline). The paper is silent on learning online
 * from a trained agent; the parameter lets a lane fine-tune more gently. Measured with the
 * shipped agent learning on `bcedge-dynamic` (3000 s): at 10⁻⁴ seed 2 no longer collapsed at
 * the 60 rps step (U 4.558 → 7.437) but seed 3 settled on a joint configuration that stalls
 * and kept it to the end (5.243 → −1.09), so the default stays the paper's.
 */
const LEARNING_RATE: NumericParameter = { name: 'learningRate', label: 'learning rate (Adam)', min: 1e-6, max: 0.1, integer: false, default: 1e-3 };
/** Transitions a lane started from a saved agent collects before its first update (worlds/serving/agents/sac.ts `fineTuneAfter`; 0 = `warmup`, version 9). */
const FINE_TUNE_AFTER: NumericParameter = { name: 'fineTuneAfter', label: 'a loaded agent learns after (transitions; 0 = warm-up)', min: 0, max: 100_000, integer: true, default: 4096 };
/**
 * A lane started from a saved agent acts greedily until its first update online, then samples
 * its policy (worlds/serving/agents/sac.ts `greedyUntilUpdate`; 0: it samples from the first
 * decision, versions up to 11). Measured with the fixed-slot agent on `learn-sanity` (seeds 1–3,
 * learning on): the first 100 s −10.2 to −11.8 % against the best fixed plan sampling, −3.2 to
 * −3.8 % greedy.
 */
const GREEDY_UNTIL_UPDATE: NumericParameter = { name: 'greedyUntilUpdate', label: 'a loaded agent acts greedily until it learns online (0/1)', min: 0, max: 1, integer: true, default: 1 };
/**
 * Which shipped agent a pretrained lane starts from under the fixed slot (worlds/serving/agents/registry.ts
 * `agentKeyOf`): 1, the one trained under the fixed slot; 0, the Eq. 1 agent whatever the slot
 * (the earlier reading). Under Eq. 1's slots both mean the Eq. 1 agent.
 */
const SLOT_AGENT: NumericParameter = { name: 'slotAgent', label: 'a pretrained lane starts from the agent trained under its slot (0/1)', min: 0, max: 1, integer: true, default: 1 };
const RANDOM_WARMUP: NumericParameter = { name: 'randomWarmup', label: 'uniform random actions before learning (0/1)', min: 0, max: 1, integer: true, default: 1 };
const BALANCED_REPLAY: NumericParameter = { name: 'balancedReplay', label: 'minibatches balanced across models (0/1)', min: 0, max: 1, integer: true, default: 1 };
/** TAC's actor: 1 = an actor-critic following the critic's advantage (samples its policy); 0 = SAC with α = 0 (the earlier reading). */
const ADVANTAGE_ACTOR: NumericParameter = { name: 'advantageActor', label: 'advantage actor (0 = SAC with α = 0)', min: 0, max: 1, integer: true, default: 1 };
/**
 * The joint mask (worlds/serving/agents/learningScheduler.ts): the models due at one decision choose one after
 * another, each masked against the others' current and just-chosen configurations (memory and,
 * with the predictor, its prediction). 0: each model against the others' current ones (earlier).
 */
const JOINT_MASK: NumericParameter = { name: 'jointMask', label: 'mask against the others’ just-chosen actions (0/1)', min: 0, max: 1, integer: true, default: 1 };
/**
 * How long a model keeps the action it chose, simulated ms (worlds/serving/agents/learningScheduler.ts
 * `holdMs`): its decisions within the hold answer the same action and are learned from as one
 * transition. 1000, the reporting interval, by measurement: under Eq. 1 a decision of one
 * batch carries too little of the metric to learn from, and the learners did not come within
 * 25 % of the oracle without it (`learn-check`, ARCHITECTURE §3). 0: every decision its own.
 */
const HOLD: NumericParameter = { name: 'holdMs', label: 'hold a chosen action for (simulated ms; 0 = every decision)', min: 0, max: 60_000, integer: false, default: 1000 };
/**
 * How the state gives the last slot's arrivals (worlds/serving/agents/features.ts): 1 per second of the slot,
 * 0 per slot (the earlier reading). Under Eq. 1 a model's slot lasts b·SLO/m_c, so a count per
 * slot mixes the load with the action in force: an agent trained offline on `bcedge-train` with
 * counts kept b = 1 when every camera went to 60 rps (−66 % against the oracle in that phase of
 * `bcedge-dynamic`), and one trained with more exploration kept b = 128 at 20 rps (−31 %).
 * Under the fixed 1 s slot the two are the same numbers.
 */
const STATE_RATES: NumericParameter = { name: 'stateRates', label: 'arrivals in the state per second (0 = per slot)', min: 0, max: 1, integer: true, default: 1 };
// PPO's rollout and epochs, DDQN's ε decay, by measurement on `learn-sanity` (1200 s, last 200 s
// against fixed-hindsight). On raw rewards with γ per decision (version 7): PPO −27.5 % at
// 256 × 4 and −15.4 % at 96 × 8 (seed 1); DDQN −37.8 % with ε still 0.62 at the end at 3000,
// −22.3 % at 300. With SAC's reward terms (discountPerS, normalizeReward; version 8): PPO at
// 96 × 8 −3.1/−2.8/−15.0 % on seeds 1–3 (seed 3 settled on one action for every model), at
// 256 × 4 −3.6/−2.8/−3.3 %; DDQN −5.3/−6.1/−5.9 % (it was −22 to −46 %). Version 6 keeps
// 256 × 4 and 3000, version 7 96 × 8 (their migrations write them).
const ROLLOUT: NumericParameter = { name: 'rolloutSize', label: 'rollout (transitions)', min: 32, max: 8192, integer: true, default: 256 };
const EPOCHS: NumericParameter = { name: 'epochs', label: 'epochs per rollout', min: 1, max: 32, integer: true, default: 4 };
const ENTROPY_COEF: NumericParameter = { name: 'entropyCoef', label: 'entropy bonus coefficient', min: 0, max: 1, integer: false, default: 0.01 };
const CLIP: NumericParameter = { name: 'clip', label: 'clip ε', min: 0.01, max: 1, integer: false, default: 0.2 };
const EPSILON_DECAY: NumericParameter = { name: 'epsilonDecaySteps', label: 'ε decay (reporting intervals)', min: 1, max: 1_000_000, integer: true, default: 300 };
const TARGET_EVERY: NumericParameter = { name: 'targetUpdateEvery', label: 'target copy every (updates)', min: 1, max: 100_000, integer: true, default: 250 };

// What every learner takes, in the order its card lists them: how it runs, its training cadence
// and reward terms, and how its decisions are masked and held.
const LEARNER_HEAD: readonly NumericParameter[] = [TRAIN, EXPLORE, PRETRAINED, GAMMA];
const LEARNER_REWARD: readonly NumericParameter[] = [TRAIN_EVERY, DISCOUNT_PER_S, NORMALIZE_REWARD];
/**
 * Whether the state gives the model's last slot length (worlds/serving/agents/features.ts), one number more:
 * an agent trained under one slot reading did not carry to the other (README, "Training": the
 * shipped agent, trained under Eq. 1, −10 % on `learn-sanity`'s fixed slot; one trained on the
 * fixed slot, lost on `bcedge-dynamic`), and without it the state cannot tell them apart. 0 (the
 * default): the 21 numbers of §IV-B1, which the shipped agents read. A pretrained lane reads
 * the state its agent file was trained on (its `stateSize`), whatever this says.
 */
const STATE_SLOT: NumericParameter = { name: 'stateSlot', label: 'slot length in the state (0/1; a pretrained lane reads its agent’s)', min: 0, max: 1, integer: true, default: 0 };
const LEARNER_DECISIONS: readonly NumericParameter[] = [JOINT_MASK, HOLD, STATE_RATES, STATE_SLOT];

// Reference lanes (oracles, reference.ts).
const SEARCH_BATCH: NumericParameter = { name: 'maxBatch', label: 'largest batch searched', min: 1, max: 128, integer: true, default: 32 };
const SEARCH_INSTANCES: NumericParameter = { name: 'maxInstances', label: 'most instances searched', min: 1, max: 8, integer: true, default: 3 };
const SEARCH_ROUNDS: NumericParameter = { name: 'rounds', label: 'coordinate-ascent passes', min: 0, max: 8, integer: true, default: 1 };
const SEARCH_PER_MODEL: NumericParameter = { name: 'perModel', label: 'one configuration per model (0 = uniform)', min: 0, max: 1, integer: true, default: 1 };
const PHASE_S: NumericParameter = { name: 'phaseS', label: 'also cut a phase every (s; 0 = schedule only)', min: 0, max: 100_000, integer: false, default: 0 };

/** A reference search's key among those of one spec (`referenceSearches`): hindsight reads no phases, so its key leaves `phaseS` out. */
function referenceSearchKey(kind: 'fixed-hindsight' | 'fixed-per-phase', params: ReferenceSearchParams): string {
  const { maxBatch, maxInstances, rounds, perModel, phaseS } = params;
  // A uniform search (perModel false) makes no ascent: its passes do not matter.
  return JSON.stringify([kind, maxBatch, maxInstances, perModel ? rounds : 0, perModel, kind === 'fixed-hindsight' ? 0 : (phaseS ?? 0)]);
}

/**
 * A reference lane: searches on the lane's own run (context.spec) when created, unless the
 * context brings the search's result, then replays its plan.
 */
function referenceEntry(id: 'fixed-hindsight' | 'fixed-per-phase', label: string, description: string, parameters: readonly NumericParameter[]): ServingSchedulerEntry {
  const search: ReferenceLaneSearch = {
    kind: id,
    params: (params) => ({
      maxBatch: value(params, SEARCH_BATCH),
      maxInstances: value(params, SEARCH_INSTANCES),
      rounds: value(params, SEARCH_ROUNDS),
      perModel: value(params, SEARCH_PER_MODEL) === 1,
      phaseS: params[PHASE_S.name] ?? PHASE_S.default,
    }),
    start: (spec, params, prior) => (id === 'fixed-hindsight' ? fixedInHindsightSearch(spec, params, params.perModel ? prior : undefined) : fixedPerPhaseSearch(spec, params, prior)),
  };
  return {
    id,
    label,
    description,
    parameters,
    reference: search,
    create: (params, context) => {
      let found = context.referenceResult;
      if (found === undefined) {
        if (context.spec === undefined) throw new Error(`${id} is a reference lane: it searches on the lane's own run, which was not given`);
        const searchParams = search.params(params);
        const known = context.referenceSearches;
        // Found before on this spec, or shipped with the presets (shippedPlans.ts: the same search's result, computed ahead of time).
        found = known?.get(referenceSearchKey(id, searchParams)) ?? shippedPlanFor(id, context.spec, searchParams);
        if (found === undefined) {
          // What this search begins with, when found before: per phase, hindsight's search; hindsight per model, the uniform one.
          const priorParams = id === 'fixed-per-phase' ? searchParams : { ...searchParams, perModel: false };
          const prior = known?.get(referenceSearchKey('fixed-hindsight', priorParams)) ?? shippedPlanFor('fixed-hindsight', context.spec, priorParams);
          found = runSearch(search.start(context.spec, searchParams, id === 'fixed-hindsight' && !searchParams.perModel ? undefined : prior), context.searchProgress);
          known?.set(referenceSearchKey(id, searchParams), found);
        }
      }
      const result = found;
      return createPlanned(id, result.plan, () => referenceReport(result));
    },
  };
}

/** A learning lane: built by the factory the worker or the CLI passes in the context. */
function learningEntry(id: LearningSchedulerId, label: string, description: string, parameters: readonly NumericParameter[]): ServingSchedulerEntry {
  return {
    id,
    label,
    description,
    parameters,
    learning: true,
    create: (params, context) => {
      if (context.learning === undefined) {
        throw new Error(`${id} is a learning scheduler: it needs TensorFlow.js, which the page's worker and the CLI load (not available here)`);
      }
      const filled: Record<string, number> = {};
      for (const p of parameters) filled[p.name] = params[p.name] ?? p.default;
      return context.learning.create(id, filled, context);
    },
  };
}

const value = (params: Readonly<Record<string, number>>, p: NumericParameter): number => params[p.name] ?? p.default;

/** Every serving scheduler, in menu order. */
export const SERVING_SCHEDULERS: Readonly<Record<ServingSchedulerId, ServingSchedulerEntry>> = {
  fixed: {
    id: 'fixed',
    label: 'Triton (fixed)',
    description: 'Triton’s manual configuration: the same batch size and number of instances for every model, for ever.',
    parameters: [BATCH, INSTANCES],
    create: (params, context) =>
      createFixed({
        batchSize: value(params, BATCH),
        instances: value(params, INSTANCES),
        perModel: context.models.map((model) => ({
          batchSize: params[`${BATCH.name}.${model}`] ?? value(params, BATCH),
          instances: params[`${INSTANCES.name}.${model}`] ?? value(params, INSTANCES),
        })),
      }),
  },
  deeprt: {
    id: 'deeprt',
    label: 'DeepRT',
    description: 'Earliest deadline first over all requests, one batch at a time on the GPU, with admission control.',
    parameters: [MAX_BATCH, ADMISSION],
    create: (params) => createDeepRt({ maxBatch: value(params, MAX_BATCH), admission: value(params, ADMISSION) === 1 }),
  },
  ga: {
    id: 'ga',
    label: 'GA',
    description: 'An online genetic algorithm over each model’s batch size and instances, with the utility as fitness.',
    parameters: [POPULATION, EVALUATION, WARMUP, MUTATION, ELITE],
    create: (params, context) =>
      createGa(
        {
          population: value(params, POPULATION),
          evaluationSlots: value(params, EVALUATION),
          warmupSlots: value(params, WARMUP),
          mutationRate: value(params, MUTATION),
          elite: Math.min(value(params, ELITE), value(params, POPULATION) - 1),
        },
        context.rng,
      ),
  },
  bcedge: learningEntry(
    'bcedge',
    'BCEdge (SAC)',
    'BCEdge: discrete soft actor-critic over (b, m_c) per model, with automatic temperature and the interference predictor.',
    [
      ...LEARNER_HEAD,
      UPDATES,
      SAC_MINIBATCH,
      WARMUP_TRANSITIONS,
      ENTROPY_RATIO,
      ENTROPY_ANNEAL,
      ENTROPY_FINAL,
      TEMPERATURE,
      PREDICTOR,
      PREDICTOR_BUDGET,
      PREDICTOR_MASK,
      ...LEARNER_REWARD,
      TEMPERATURE_LR,
      LEARNING_RATE,
      FINE_TUNE_AFTER,
      GREEDY_UNTIL_UPDATE,
      SLOT_AGENT,
      RANDOM_WARMUP,
      BALANCED_REPLAY,
      ...LEARNER_DECISIONS,
    ],
  ),
  tac: learningEntry('tac', 'TAC', 'Triton with actor-critic: the same critics as BCEdge without entropy and without the predictor; its actor follows the critic’s advantage.', [
    ...LEARNER_HEAD,
    UPDATES,
    SAC_MINIBATCH,
    WARMUP_TRANSITIONS,
    ...LEARNER_REWARD,
    RANDOM_WARMUP,
    BALANCED_REPLAY,
    ADVANTAGE_ACTOR,
    ...LEARNER_DECISIONS,
  ]),
  ppo: learningEntry('ppo', 'PPO', 'Proximal policy optimization (clipped objective) over the same state, actions and reward.', [
    ...LEARNER_HEAD,
    MINIBATCH,
    ROLLOUT,
    EPOCHS,
    CLIP,
    ENTROPY_COEF,
    ...LEARNER_REWARD,
    ...LEARNER_DECISIONS,
  ]),
  ddqn: learningEntry('ddqn', 'DDQN', 'Double DQN with a target network and ε-greedy exploration over the same state, actions and reward.', [
    ...LEARNER_HEAD,
    UPDATES,
    MINIBATCH,
    WARMUP_TRANSITIONS,
    EPSILON_DECAY,
    TARGET_EVERY,
    ...LEARNER_REWARD,
    BALANCED_REPLAY,
    ...LEARNER_DECISIONS,
  ]),
  'fixed-hindsight': referenceEntry(
    'fixed-hindsight',
    'Best fixed in hindsight',
    'Reference (oracle): per model the single (b, m_c) with the best utility over the whole run, found by re-running this very trace (every uniform setting, then coordinate ascent per model); perModel 0 = Triton at its best uniform setting.',
    [SEARCH_BATCH, SEARCH_INSTANCES, SEARCH_ROUNDS, SEARCH_PER_MODEL],
  ),
  'fixed-per-phase': referenceEntry(
    'fixed-per-phase',
    'Best fixed per phase',
    'Reference (oracle): the best (b, m_c) per model for each phase of the known schedule (rate steps, ramps, tenants, services), searched phase by phase on this very trace from the hindsight configuration.',
    [SEARCH_BATCH, SEARCH_INSTANCES, SEARCH_ROUNDS, SEARCH_PER_MODEL, PHASE_S],
  ),
};

/** The context a lane's scheduler gets from the scenario's seed. */
export function servingSchedulerContext(seed: number, models: readonly ModelId[] = MODEL_IDS, learning?: LearningFactory, spec?: ServingRunSpec): ServingSchedulerContext {
  return { rng: createRng(seed, SERVING_SCHEDULER_STREAM), models, ...(learning === undefined ? {} : { learning }), ...(spec === undefined ? {} : { spec }) };
}

/** A lane's display name, e.g. "Triton (fixed) b=8 m_c=2". */
export function servingLaneLabel(id: ServingSchedulerId, params: Readonly<Record<string, number>>): string {
  const entry = SERVING_SCHEDULERS[id];
  if (entry.learning === true) {
    const notes = [params['predictor'] === 0 && id === 'bcedge' ? 'no predictor' : '', params['predictor'] !== 0 && params['predictorMask'] === 0 && id === 'bcedge' ? 'predictor not masking' : '', params['train'] === 0 ? 'frozen' : '', params['pretrained'] === 1 ? 'pretrained' : ''];
    const shown = notes.filter((n) => n !== '');
    return shown.length === 0 ? entry.label : `${entry.label} (${shown.join(', ')})`;
  }
  if (entry.reference !== undefined) {
    const uniformOnly = id === 'fixed-hindsight' && params['perModel'] === 0;
    return uniformOnly ? 'Triton at its best uniform setting' : entry.label;
  }
  const short = (name: string) => (name === 'batchSize' ? 'b' : name === 'instances' ? 'm_c' : name);
  const shown = entry.parameters.map((p) => `${short(p.name)}=${value(params, p)}`);
  // A model set apart from the lane's setting (`batchSize.yolo`, the lab's per-model sliders) is named, so the title never says "b=8" of a model at 16.
  const byModel = new Map<string, string[]>();
  for (const p of entry.parameters) {
    for (const [key, v] of Object.entries(params)) {
      const [name, model] = key.split('.');
      if (name === p.name && model !== undefined && v !== value(params, p)) byModel.set(model, [...(byModel.get(model) ?? []), `${short(p.name)}=${v}`]);
    }
  }
  const apart = [...byModel].sort(([a], [b]) => a.localeCompare(b)).map(([model, values]) => `${model} ${values.join(' ')}`);
  return [entry.label, ...shown].join(' ') + (apart.length === 0 ? '' : `; ${apart.join('; ')}`);
}
