import type { World } from '../../kit/world';
import { EARLIER_SCENARIO_READINGS, PAPER_SCENARIO_READINGS, READING_NAMES, servedApart } from './scenario/servingReadings';
import { cellScenario, sweepCells } from '../../scenario/sweep';
import { LEARNING_LANE_WEIGHT } from '../../scenario/runCost';
import { servingScenarioSchema, totalRateRps, validateServingScenario, type ServingScenario } from './schema';
import { runServingCell } from './scenario/servingRunner';
import { BCEDGE_CLAIMS } from './claims';
import { SERVING_PRESETS } from './presets';
import { isLearningScheduler } from './schedulers/learningIds';
import { SERVING_SCHEDULERS, type LearningFactory } from './schedulers/registry';

/**
 * Version 2 → 3 of a serving document: the fixed grid becomes a sweep over the same fields in
 * the same cell order (platform, rate, batch, instances; ARCHITECTURE §4). The grid's batch
 * size and instances were applied to every lane with those parameters (only `fixed` has
 * them); the sweep sets them on the first such lane, and a grid over them without such a
 * lane (which changed nothing) is dropped. Unknown grid keys were refused by version 2 and
 * stay refused: the grid is left for validation to name.
 */
function gridToSweep(document: Record<string, unknown>): Record<string, unknown> {
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const { grid, ...rest } = body as Record<string, unknown>;
  if (grid === undefined || grid === null || typeof grid !== 'object' || Array.isArray(grid)) return document;
  const g = grid as Record<string, unknown>;
  const axes: { path: string; name: string; values: unknown }[] = [];
  if (g.platform !== undefined) axes.push({ path: 'serving.platform', name: 'platform', values: g.platform });
  if (g.rateRps !== undefined) axes.push({ path: 'serving.rateRps', name: 'rateRps', values: g.rateRps });
  const lanes = Array.isArray(rest.lanes) ? (rest.lanes as { scheduler?: unknown }[]) : [];
  const fixed = lanes.findIndex((l) => l !== null && typeof l === 'object' && l.scheduler === 'fixed');
  for (const name of ['batchSize', 'instances']) {
    if (g[name] !== undefined && fixed >= 0) axes.push({ path: `serving.lanes[${fixed}].params.${name}`, name, values: g[name] });
  }
  const known = ['platform', 'rateRps', 'batchSize', 'instances'];
  if (Object.keys(g).some((k) => !known.includes(k))) return document;
  return axes.length === 0 ? { ...document, serving: rest } : { ...document, serving: rest, sweep: { axes } };
}

/**
 * Version 3 → 4. Version 4 names the readings of BCEdge in `serving.assumptions` and reads
 * the paper where they are absent (ARCHITECTURE §3). A version-3 serving scenario was run
 * under the earlier readings, so they are written into it: an old link reopens with the
 * same numbers. A reading the document already sets (none could be, in version 3) and a
 * malformed block are left for validation.
 */
function namedReadings(document: Record<string, unknown>): Record<string, unknown> {
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const assumptions = (body as Record<string, unknown>).assumptions;
  if (assumptions === null || typeof assumptions !== 'object' || Array.isArray(assumptions)) return document;
  return { ...document, serving: { ...body, assumptions: { ...version4EarlierReadings(), ...assumptions } } };
}

/** The readings version 4 named, at their earlier values (the later ones, the platform setting and the slot, have steps of their own). */
function version4EarlierReadings(): Record<string, unknown> {
  const later: readonly string[] = ['slot', 'platformSetting', 'credit', 'lateRequests'];
  return Object.fromEntries(READING_NAMES.filter((name) => !later.includes(name)).map((name) => [name, EARLIER_SCENARIO_READINGS[name]]));
}

/**
 * Version 4 → 5. Version 5 names how §V-D's platforms are set up (`platformSetting`, absent =
 * the paper's `perModel`: on Nano and TX2 each model alone on its own device,
 * worlds/serving/scenario/deviceCopies.ts). A version-4 serving scenario ran its models together on every
 * platform, so `mixed` is written into it — the block is made when the document left it out,
 * since an absent block now reads the paper. A setting the document already has and a
 * malformed block are left for validation.
 */
function platformSetting(document: Record<string, unknown>): Record<string, unknown> {
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const assumptions = (body as Record<string, unknown>).assumptions ?? {};
  if (assumptions === null || typeof assumptions !== 'object' || Array.isArray(assumptions)) return document;
  return { ...document, serving: { ...body, assumptions: { platformSetting: EARLIER_SCENARIO_READINGS.platformSetting, ...assumptions } } };
}

/**
 * Version 5 → 6. Version 6 names the scheduling slot in `serving.assumptions.slot` and reads
 * Eq. 1 where it is absent (each model's own slot, BCEdge §III-A2; ARCHITECTURE §3). A
 * version-5 serving scenario was run with one fixed slot of `slotMs` for every model, so
 * `slot: "fixed"` is written into it (into a block of its own if it had none): an old link
 * reopens with the same numbers. A slot the document already sets and a malformed block are
 * left for validation.
 */
function fixedSlot(document: Record<string, unknown>): Record<string, unknown> {
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const assumptions = (body as Record<string, unknown>).assumptions ?? {};
  if (assumptions === null || typeof assumptions !== 'object' || Array.isArray(assumptions)) return document;
  return { ...document, serving: { ...body, assumptions: { slot: EARLIER_SCENARIO_READINGS.slot, ...assumptions } } };
}

/**
 * The learners' choices version 7 named, at the values a version-6 learning lane ran with
 * (worlds/serving/schedulers/registry.ts, worlds/serving/agents/sac.ts): written into each learning lane that leaves
 * them out, so an old link reopens with the same numbers.
 */
export const VERSION6_LEARNER_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  bcedge: { discountPerS: 0, normalizeReward: 0, temperatureLr: 0, randomWarmup: 0, balancedReplay: 0, jointMask: 0, holdMs: 0, targetEntropyRatio: 0.3 },
  tac: { discountPerS: 0, normalizeReward: 0, randomWarmup: 0, balancedReplay: 0, advantageActor: 0, jointMask: 0, holdMs: 0 },
  ppo: { jointMask: 0, holdMs: 0, rolloutSize: 256, epochs: 4 },
  ddqn: { jointMask: 0, holdMs: 0, epsilonDecaySteps: 3000 },
};

/**
 * Version 6 → 7. Version 7 names which requests a decision's reward is taken over (`credit`,
 * absent = `governed`) and what happens to a request that can no longer meet its SLO
 * (`lateRequests`, absent = `reject`), and gives the learners named choices with new defaults
 * (ARCHITECTURE §3). A version-6 serving scenario ran with the reward of the slot, every late
 * request kept and the learners as they were, so those are written into it (a reading or a
 * parameter the document sets is kept; a malformed block or lane is left for validation).
 */
function version6Learners(document: Record<string, unknown>): Record<string, unknown> {
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const assumptions = (body as Record<string, unknown>).assumptions ?? {};
  if (assumptions === null || typeof assumptions !== 'object' || Array.isArray(assumptions)) return document;
  const withParams = learnerParams(document, VERSION6_LEARNER_PARAMS);
  return {
    ...withParams,
    serving: { ...(withParams.serving as Record<string, unknown>), assumptions: { credit: EARLIER_SCENARIO_READINGS.credit, lateRequests: EARLIER_SCENARIO_READINGS.lateRequests, ...assumptions } },
  };
}

/**
 * The learners' values a version-7 learning lane ran with, where version 8 changed the default
 * (worlds/serving/schedulers/registry.ts): SAC's minibatch 64 (version 8: §V-A's 512), PPO's and
 * DDQN's discount per decision on raw rewards (version 8: SAC's reward terms, worlds/serving/agents/rewardTerms.ts)
 * and PPO's rollout of 96 × 8 epochs (version 8: 256 × 4).
 */
export const VERSION7_LEARNER_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  bcedge: { minibatch: 64 },
  tac: { minibatch: 64 },
  ppo: { discountPerS: 0, normalizeReward: 0, rolloutSize: 96, epochs: 8 },
  ddqn: { discountPerS: 0, normalizeReward: 0, balancedReplay: 0 },
};

/** Version 7 → 8: each learning lane keeps the values it ran with (a parameter the document sets is kept). */
function version7Learners(document: Record<string, unknown>): Record<string, unknown> {
  return learnerParams(document, VERSION7_LEARNER_PARAMS);
}

/**
 * Version 8 → 9: version 9 gives the state the last slot's arrivals per second of the slot
 * (`stateRates`, worlds/serving/agents/features.ts); a version-8 learning lane counted them per slot, and keeps
 * doing so (a parameter the document sets is kept).
 */
export const VERSION8_LEARNER_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  bcedge: { stateRates: 0 },
  tac: { stateRates: 0 },
  ppo: { stateRates: 0 },
  ddqn: { stateRates: 0 },
};

function version8Learners(document: Record<string, unknown>): Record<string, unknown> {
  return learnerParams(document, VERSION8_LEARNER_PARAMS);
}

/**
 * Version 9 → 10: version 10 has a BCEdge lane started from a saved agent collect
 * `fineTuneAfter` transitions before its first update online (worlds/serving/agents/sac.ts); a version-9 lane
 * began after its `warmup`, and keeps doing so (a parameter the document sets is kept).
 */
export const VERSION9_LEARNER_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  bcedge: { fineTuneAfter: 0 },
};

function version9Learners(document: Record<string, unknown>): Record<string, unknown> {
  return learnerParams(document, VERSION9_LEARNER_PARAMS);
}

/**
 * Version 10 → 11: version 11 raised BCEdge's default target entropy (`targetEntropyRatio`,
 * worlds/serving/schedulers/registry.ts) from 0.05 to 0.15; a version-10 lane keeps 0.05 (a value
 * the document sets is kept).
 */
export const VERSION10_LEARNER_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  bcedge: { targetEntropyRatio: 0.05 },
};

function version10Learners(document: Record<string, unknown>): Record<string, unknown> {
  return learnerParams(document, VERSION10_LEARNER_PARAMS);
}

/**
 * Version 11 → 12: version 12 has a BCEdge lane started from a saved agent act greedily until
 * its first update online (`greedyUntilUpdate`, worlds/serving/agents/sac.ts) and, under the fixed
 * slot, start from the agent trained under it (`slotAgent`, worlds/serving/agents/registry.ts
 * `agentKeyOf`); a version-11 lane sampled its policy from the first decision and started from
 * the Eq. 1 agent whatever the slot, and keeps doing so (a value the document sets is kept).
 */
export const VERSION11_LEARNER_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  bcedge: { greedyUntilUpdate: 0, slotAgent: 0 },
};

function version11Learners(document: Record<string, unknown>): Record<string, unknown> {
  return learnerParams(document, VERSION11_LEARNER_PARAMS);
}

/** Writes `table[scheduler]` under each learning lane's own params (a malformed block or lane is left for validation). */
function learnerParams(document: Record<string, unknown>, table: Readonly<Record<string, Readonly<Record<string, number>>>>): Record<string, unknown> {
  const body = document.serving;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return document;
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.lanes)) return document;
  const lanes = b.lanes.map((lane: unknown) => {
    if (lane === null || typeof lane !== 'object' || Array.isArray(lane)) return lane;
    const l = lane as Record<string, unknown>;
    const old = typeof l.scheduler === 'string' ? table[l.scheduler] : undefined;
    if (old === undefined) return lane;
    const params = l.params ?? {};
    if (params === null || typeof params !== 'object' || Array.isArray(params)) return lane;
    return { ...l, params: { ...old, ...params } };
  });
  return { ...document, serving: { ...b, lanes } };
}

/** The serving world (BCEdge): models with request queues on an edge GPU, batches and concurrent instances. */
export const servingWorld: World<ServingScenario> = {
  id: 'serving',
  labName: 'the serving lab',
  eventName: 'requests',
  sweepMetrics: ['sloViolationPct', 'utilityMean', 'throughputRps', 'latencyMeanMs', 'latencyP99Ms', 'oomBatches', 'decisionMeanUs', 'requests', 'completed', 'failed', 'dropped'],
  optionalFields: new Set(),
  migrations: { 2: gridToSweep, 3: namedReadings, 4: platformSetting, 5: fixedSlot, 6: version6Learners, 7: version7Learners, 8: version8Learners, 9: version9Learners, 10: version10Learners, 11: version11Learners },
  validate: validateServingScenario,
  schema: () => servingScenarioSchema,
  lanes: (s) => s.serving.lanes,
  withLanes: (s, lanes) => ({ ...s, serving: { ...s.serving, lanes: lanes as ServingScenario['serving']['lanes'] } }),
  // A reading left out is the paper's; the platform setting changes nothing where no combination
  // of the sweep serves several models on Nano or TX2 (readings.ts `servedApart`).
  asCellsRun: (s) => {
    const assumptions: Record<string, unknown> = { ...PAPER_SCENARIO_READINGS, ...s.serving.assumptions };
    const combinations = sweepCells(s, [s.seed]).map((cell) => cellScenario(s, cell).serving);
    if (!combinations.some((v) => servedApart(v, 'perModel'))) delete assumptions['platformSetting'];
    return { ...s, serving: { ...s.serving, assumptions } } as ServingScenario;
  },
  // The serving readings a scenario leaves out are read at the paper's (servingAssumptionsOf): a claim's strip names them.
  withOptionalDefaults: (s) => s,
  parameters: (scheduler) => SERVING_SCHEDULERS[scheduler as keyof typeof SERVING_SCHEDULERS]?.parameters ?? [],
  schedulerLabel: (scheduler) => SERVING_SCHEDULERS[scheduler as keyof typeof SERVING_SCHEDULERS]?.label ?? scheduler,
  papers: [{ id: 'bcedge', name: 'BCEdge' }],
  presets: () => SERVING_PRESETS,
  claims: () => BCEDGE_CLAIMS,
  hasLearners: true,
  learns: isLearningScheduler,
  cellCost: (s) => ({
    events: totalRateRps(s.serving) * s.serving.durationS,
    weightedLanes: s.serving.lanes.reduce((sum, lane) => sum + (isLearningScheduler(lane.scheduler) ? LEARNING_LANE_WEIGHT : 1), 0),
  }),
  runCell: (s, cell, clock, learning) => runServingCell(s, cell, clock, learning as LearningFactory | undefined),
  // The learners' code loads with the first learning lane, not with the list.
  learning: (tf, agent, scenarios) => import('./agents/learning').then((m) => m.servingLearning(tf, agent, scenarios)),
  runLength: (s) => {
    const lengths = s.sweep?.axes.find((a) => a.path === 'serving.durationS')?.values;
    if (lengths !== undefined && lengths.length > 1) return `runs of ${lengths.slice(0, -1).join(', ')} and ${String(lengths.at(-1))} s`;
    return `${s.serving.durationS} s of serving`;
  },
  lengthAxis: (s) => ({ path: 'serving.durationS', values: [s.serving.durationS] }),
  defaultSweep: () => ({ axes: [{ path: 'serving.rateRps', values: [10, 20, 30, 40, 50] }], seeds: 3 }),
  checkingBase: (base, path) => (path.startsWith('serving.background') ? { ...base } : { ...base, serving: { ...base.serving, background: [] } }),
};
