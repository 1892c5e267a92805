import { hasLearningLane, isScenarioOf } from '../../../../kit/world';
import { servingWorld } from '../../world';
import { learnCheck, learningLanes, LEARN_CHECK_WITHIN } from '../../scenario/learnCheck';
import { rewardCheck } from '../../scenario/rewardCheck';
import { buildServingSpec } from '../../scenario/servingRunner';
import type { WorldCommand } from '../../../../cli/command';
import { EXIT_OK, UsageError } from '../../../../cli/io';
import { addSetOption, choiceOption, integerOption } from '../../../../cli/options';
import { loadScenario } from '../../../../cli/scenarioInput';
import { progress } from '../../../../cli/worldRunner';
import { servingLearning } from '../../agents/learning';

/** The learners' sanity scenario (a preset): a stationary world whose optimum is known. */
export const LEARN_CHECK_PRESET = 'learn-sanity';

interface LearnCheckOptions {
  readonly seeds?: number;
  readonly window?: number;
  readonly format?: 'table' | 'json';
  readonly set?: string[];
}

/**
 * `learn-check`: each lane of a serving scenario with an oracle lane (by default the
 * stationary `learn-sanity` preset), from scratch on seeds 1…N; per window, each lane's
 * utility against the oracle's as exp(ΔU) − 1, the last window's gap, when it came within 5 %
 * for good, its violations and its health (ARCHITECTURE §3).
 */
export const learnCheckCommand: WorldCommand = {
  usage: 'learn-check [scenario]',
  listedAfter: 'merge',
  summary: 'the learners against the best fixed plan in hindsight on a stationary scenario (default learn-sanity), per window',
  configure(command) {
    command
      .option('--seeds <n>', 'seeds 1…N (1 to 20; default 3)', integerOption('--seeds', 1, 20))
      .option('--window <s>', 'window of the curve, simulated s (10 to 3000; default 200)', integerOption('--window', 10, 3000))
      .option('--format <format>', 'table or json (default table)', choiceOption('--format', ['table', 'json'] as const));
    addSetOption(command);
  },
  needsLearning: () => true,
  async run([source], rawOptions, io) {
    const options = rawOptions as unknown as LearnCheckOptions;
    const scenario = loadScenario(source ?? LEARN_CHECK_PRESET, options.set ?? [], io);
    if (!isScenarioOf(servingWorld, scenario)) throw new UsageError('learn-check: needs a serving scenario (the learners live in the serving world)');
    const seeds = Array.from({ length: options.seeds ?? 3 }, (_, i) => i + 1);
    const windowS = options.window ?? 200;
    let learning;
    if (hasLearningLane(servingWorld, scenario)) {
      if (io.learning === undefined) throw new Error('this scenario has learning lanes but TensorFlow.js was not loaded (needsLearning)');
      learning = await servingLearning(io.learning.tf, io.learning.agent, [scenario]);
    }
    let check;
    try {
      check = learnCheck(scenario, seeds, windowS, learning, (done, total) => progress(io, done, total));
    } catch (error) {
      if (error instanceof RangeError && error.message.startsWith('serving.lanes')) throw new UsageError(error.message);
      throw error;
    }
    if (options.format === 'json') {
      io.stdout(`${JSON.stringify({ scenario, check }, null, 2)}\n`);
      return EXIT_OK;
    }
    io.stdout(`against ${check.oracle}, windows of ${windowS} s; gap = exp(U − U_oracle) − 1 per window; within = ${100 * LEARN_CHECK_WITHIN} % for good from\n`);
    for (const lane of check.lanes) {
      const curve = lane.gapPct.map((g) => `${g >= 0 ? '+' : ''}${g.toFixed(1)}`).join(' ');
      const within = lane.withinAfterS === null ? 'never' : `${lane.withinAfterS} s`;
      io.stdout(`seed ${lane.seed}  ${lane.label.padEnd(34)} last ${lane.lastGapPct.toFixed(1).padStart(6)} %  within ${within.padStart(7)}  U ${lane.utilityMean.toFixed(3)}  viol ${lane.sloViolationPct.toFixed(1)} %  curve ${curve}\n`);
    }
    const pm = (m: { mean: number; halfWidth95: number }) => `${m.mean >= 0 ? '+' : ''}${m.mean.toFixed(1)} ± ${m.halfWidth95.toFixed(1)}`;
    io.stdout(`over ${seeds.length} seed${seeds.length === 1 ? '' : 's'} (mean ± 95 % interval, Student's t):\n`);
    for (const lane of check.summary) {
      io.stdout(`  ${lane.label.padEnd(34)} last ${pm(lane.lastGapPct).padStart(13)} %  run ${pm(lane.runGapPct).padStart(13)} %  viol ${pm(lane.sloViolationPct).padStart(12)} %  within on ${lane.seedsWithin} of ${seeds.length}\n`);
    }
    const learners = learningLanes(check);
    const failing = learners.filter((l) => l.lastGapPct < -100 * LEARN_CHECK_WITHIN);
    io.stdout(`${learners.length - failing.length} of ${learners.length} learning runs end within ${100 * LEARN_CHECK_WITHIN} % of ${check.oracle}\n`);
    return EXIT_OK;
  },
};

interface RewardCheckOptions {
  readonly seed?: number;
  readonly format?: 'table' | 'json';
  readonly set?: string[];
}

/**
 * `reward-check`: each action of REWARD_CHECK_ACTIONS held by every model for the whole run of a
 * serving scenario (default `serving-default`), the mean reward a learner would be given beside
 * the utility the summary scores; Spearman's ρ between them and where the reward ranks the
 * metric's best action (ARCHITECTURE §3).
 */
export const rewardCheckCommand: WorldCommand = {
  usage: 'reward-check [scenario]',
  listedAfter: 'merge',
  summary: "does the learners' reward rank held actions as the scored utility does? (default serving-default)",
  configure(command) {
    command
      .option('--seed <n>', 'the trace (default the scenario’s seed)', integerOption('--seed', 0, 2 ** 31 - 1))
      .option('--format <format>', 'table or json (default table)', choiceOption('--format', ['table', 'json'] as const));
    addSetOption(command);
  },
  run([source], rawOptions, io) {
    const options = rawOptions as unknown as RewardCheckOptions;
    const scenario = loadScenario(source ?? 'serving-default', options.set ?? [], io);
    if (!isScenarioOf(servingWorld, scenario)) throw new UsageError('reward-check: needs a serving scenario');
    const check = rewardCheck(buildServingSpec(scenario, {}, options.seed ?? scenario.seed));
    if (options.format === 'json') {
      io.stdout(`${JSON.stringify({ scenario, check }, null, 2)}\n`);
      return EXIT_OK;
    }
    io.stdout('action   mean reward   utility (summary)   stall rewards\n');
    for (const r of check.rows) io.stdout(`b${r.batchSize}m${r.instances}`.padEnd(9) + `${r.rewardMean.toFixed(3).padStart(11)}   ${r.utilityMean.toFixed(3).padStart(17)}   ${r.stallPct.toFixed(1).padStart(11)} %\n`);
    io.stdout(`Spearman ρ ${check.spearman.toFixed(3)}; best by the utility ${check.bestByMetric}, ranked ${check.bestByMetricRankByReward} by the reward (best by the reward ${check.bestByReward})\n`);
    return EXIT_OK;
  },
};
