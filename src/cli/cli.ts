import { getDatabase } from '../engine/profiles/databases';
import { formatProfileTable } from '../engine/profiles/format';
import { MODEL_IDS, type ModelId } from '../engine/profiles/types';
import { averageDeep } from '../scenario/average';
import { parseAnyScenario } from '../scenario/parse';
import { gridCells, runPipelineScenario } from '../scenario/pipelineRunner';
import { buildServingSpec, runServingScenario, servingCells, servingLaneParameters } from '../scenario/servingRunner';
import { findPreset, PRESETS } from '../scenario/presets';
import { formatErrors, LIMITS, type AnyScenario, type ServingScenario } from '../scenario/schema';
import { toCsv } from '../scenario/csv';
import type { LearningScheduler } from '../agents/learningScheduler';
import { createLatencyPredictor } from '../agents/predictorAdapter';
import { createLearningFactory, type AgentLibrary, type LearningFactoryOptions } from '../agents/registry';
import type { Tf } from '../agents/tf';
import { ServingRun } from '../engine/serving/simulation';
import {
  isLearningScheduler,
  SERVING_SCHEDULERS,
  servingSchedulerContext,
  type LearningFactory,
  type LearningSchedulerId,
} from '../schedulers/serving/registry';

/** Everything the CLI touches of the outside world, so tests can run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads a file as UTF-8, or returns null when there is no such file. */
  readFile(path: string): string | null;
  writeFile(path: string, text: string): void;
  readonly stderrIsTty: boolean;
  /** Whether a path is an existing directory (train's --out). */
  isDirectory?(path: string): boolean;
  /**
   * TensorFlow.js and the saved agents, present when the command needs the learning
   * schedulers (main.ts loads them when `needsLearning` says so: tfjs is not cheap to load).
   */
  readonly learning?: { readonly tf: Tf; readonly agents: AgentLibrary };
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export const USAGE = `Usage: npm run sim -- <command> [options]

Commands:
  run <scenario.json | preset-id>     run every lane (and grid cell) once
  sweep <scenario.json | preset-id>   run over several seeds and report means
  train <scenario.json | preset-id>   train the scenario's learning lanes (bcedge, tac, ppo,
                                      ddqn) from scratch with fixed seeds and save the agents:
                                      --out DIR/ (one <scheduler>.json each) or --out FILE.json
                                      (one lane); --lane ID trains one; --slots N overrides
                                      the scenario's duration (one slot = 1 s by default)
  presets                             list the preset ids
  profile <${MODEL_IDS.join(' | ')}>      print the layer-time database (layers × modes, ms);
                                      --format json|csv for machine-readable output

Options:
  --format json|csv    output format (default json)
  --out FILE           write the output to FILE instead of standard output
  --seeds N            sweep: number of seeds, from the scenario's seed on (default 10)
  --set PATH=VALUE     change one scenario field before running, e.g.
                       --set pipeline.assumptions.trialCost=pipelined (repeatable)
`;

class UsageError extends Error {}

interface Options {
  format: 'json' | 'csv';
  /** --format was given (profile prints a table unless it was). */
  formatGiven: boolean;
  out: string | null;
  seeds: number;
  sets: string[];
  positional: string[];
  lane: string | null;
  slots: number | null;
}

const MAX_SCENARIO_BYTES = 10 * 1024 * 1024;
const MAX_SEEDS = 1000;
const MAX_TRAIN_SLOTS = 1_000_000;

function parseArgs(args: readonly string[]): Options {
  const options: Options = { format: 'json', formatGiven: false, out: null, seeds: 10, sets: [], positional: [], lane: null, slots: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${arg}: needs a value`);
      return v;
    };
    if (arg === '--format') {
      const v = value();
      if (v !== 'json' && v !== 'csv') throw new UsageError(`--format: must be json or csv, got "${v}"`);
      options.format = v;
      options.formatGiven = true;
    } else if (arg === '--out') {
      options.out = value();
    } else if (arg === '--seeds') {
      const v = value();
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 1 || n > MAX_SEEDS) throw new UsageError(`--seeds: must be an integer from 1 to ${MAX_SEEDS}, got "${v}"`);
      options.seeds = n;
    } else if (arg === '--set') {
      options.sets.push(value());
    } else if (arg === '--lane') {
      options.lane = value();
    } else if (arg === '--slots') {
      const v = value();
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 1 || n > MAX_TRAIN_SLOTS) throw new UsageError(`--slots: must be an integer from 1 to ${MAX_TRAIN_SLOTS}, got "${v}"`);
      options.slots = n;
    } else if (arg.startsWith('--')) {
      throw new UsageError(`${arg}: unknown option`);
    } else {
      options.positional.push(arg);
    }
  }
  return options;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** Applies `path=value` to a plain JSON document (value parsed as JSON when it can be). */
export function applySet(document: unknown, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set: expected PATH=VALUE, got "${assignment}"`);
  const path = assignment.slice(0, eq);
  const raw = assignment.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
  if (keys.some((k) => FORBIDDEN.has(k))) throw new UsageError(`--set: ${path}: is not a scenario field`);
  let target = document as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    const next = target[key];
    if (next === null || typeof next !== 'object') throw new UsageError(`--set: ${path}: ${key} is not an object in this scenario`);
    target = next as Record<string, unknown>;
  }
  target[keys.at(-1)!] = value;
}

function loadScenario(source: string | undefined, sets: readonly string[], io: CliIo): AnyScenario {
  if (source === undefined) throw new UsageError('needs a scenario file or a preset id (see: npm run sim -- presets)');
  let document: unknown;
  const preset = findPreset(source);
  if (preset !== undefined) {
    document = structuredClone(preset.scenario);
  } else {
    const text = io.readFile(source);
    if (text === null) throw new UsageError(`${source}: no such preset or file (see: npm run sim -- presets)`);
    if (text.length > MAX_SCENARIO_BYTES) throw new UsageError(`${source}: file is larger than ${MAX_SCENARIO_BYTES} bytes`);
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${source}: is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const s of sets) applySet(document, s);
  const parsed = parseAnyScenario(document);
  if (!parsed.ok) throw new UsageError(formatErrors(parsed.errors));
  return parsed.scenario;
}

/** What `run` and `sweep` need from a world: its grid size and a run of every cell and lane for a seed. */
interface WorldRunner {
  readonly hasGrid: boolean;
  readonly cells: number;
  run(seed: number, onCell?: () => void): readonly ResultRow[];
}

interface ResultRow {
  readonly scheduler: string;
  readonly label: string;
  readonly params: unknown;
  readonly cell?: object;
  readonly summary: object;
}

function runnerFor(scenario: AnyScenario, io: CliIo): WorldRunner {
  if (scenario.world === 'serving') {
    const learning = learningFactory(scenario, io);
    // Decision time is wall-clock (BCEdge Fig. 16): the one number that differs run to run.
    return {
      hasGrid: scenario.serving.grid !== undefined,
      cells: servingCells(scenario).length,
      run: (seed, onCell) => runServingScenario(scenario, seed, () => performance.now(), onCell, learning),
    };
  }
  return { hasGrid: scenario.pipeline.grid !== undefined, cells: gridCells(scenario.pipeline).length, run: (seed, onCell) => runPipelineScenario(scenario, seed, onCell) };
}

/** Per lane, the mean over grid cells (the paper's "on average" over the grid). */
function gridMeans(results: readonly ResultRow[], runner: WorldRunner): { scheduler: string; label: string; summary: object }[] {
  if (!runner.hasGrid) return [];
  const byLabel = new Map<string, ResultRow[]>();
  for (const r of results) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  return [...byLabel.values()].map((rs) => ({ scheduler: rs[0]!.scheduler, label: rs[0]!.label, summary: averageDeep(rs.map((r) => r.summary)) }));
}

function progress(io: CliIo, done: number, total: number): void {
  if (!io.stderrIsTty) return;
  const width = 30;
  const filled = Math.round((width * done) / total);
  io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
}

function emit(io: CliIo, options: Options, json: unknown, rows: readonly Record<string, unknown>[]): void {
  const text = options.format === 'json' ? `${JSON.stringify(json, null, 2)}\n` : toCsv(rows);
  if (options.out !== null) io.writeFile(options.out, text);
  else io.stdout(text);
}

function resultRows(results: readonly ResultRow[]): Record<string, unknown>[] {
  return results.map((r) => ({ scheduler: r.scheduler, label: r.label, ...(r.cell ? { cell: r.cell } : {}), params: r.params, summary: r.summary }));
}

function commandRun(options: Options, io: CliIo): number {
  const scenario = loadScenario(options.positional[1], options.sets, io);
  const runner = runnerFor(scenario, io);
  const results = runner.run(scenario.seed);
  const means = gridMeans(results, runner);
  emit(io, options, { scenario, results, ...(means.length > 0 ? { gridMeans: means } : {}) }, resultRows(results));
  return EXIT_OK;
}

function commandSweep(options: Options, io: CliIo): number {
  const scenario = loadScenario(options.positional[1], options.sets, io);
  const runner = runnerFor(scenario, io);
  const seeds = Array.from({ length: options.seeds }, (_, i) => scenario.seed + i);
  if (seeds.at(-1)! > LIMITS.seed.max) throw new UsageError(`--seeds: seeds would pass ${LIMITS.seed.max}`);
  const total = seeds.length * runner.cells;
  let done = 0;
  const perSeed = seeds.map((seed) => runner.run(seed, () => progress(io, ++done, total)));
  // Same order of (cell, lane) in every seed: average position by position.
  const results = perSeed[0]!.map((first, j) => ({
    scheduler: first.scheduler,
    label: first.label,
    params: first.params,
    ...(first.cell ? { cell: first.cell } : {}),
    seeds: seeds.length,
    summary: averageDeep(perSeed.map((rs) => rs[j]!.summary)),
  }));
  const means = gridMeans(results, runner);
  emit(io, options, { scenario, seeds, results, ...(means.length > 0 ? { gridMeans: means } : {}) }, resultRows(results));
  return EXIT_OK;
}

/** The learning factory for a serving scenario with learning lanes (undefined when it has none). */
function learningFactory(scenario: ServingScenario, io: CliIo, options: LearningFactoryOptions = {}): LearningFactory | undefined {
  if (!scenario.serving.lanes.some((l) => isLearningScheduler(l.scheduler))) return undefined;
  if (io.learning === undefined) throw new Error('this scenario has learning lanes but TensorFlow.js was not loaded (needsLearning)');
  const { tf, agents } = io.learning;
  return createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context), ...options });
}

/** Whether the command line needs TensorFlow.js: `train`, or `run`/`sweep` of a serving scenario with a learning lane. */
export function needsLearning(args: readonly string[], io: CliIo): boolean {
  try {
    const options = parseArgs(args);
    const command = options.positional[0];
    if (command === 'train') return true;
    if (command !== 'run' && command !== 'sweep') return false;
    const scenario = loadScenario(options.positional[1], options.sets, io);
    return scenario.world === 'serving' && scenario.serving.lanes.some((l) => isLearningScheduler(l.scheduler));
  } catch {
    return false; // runCli reports the error
  }
}

/**
 * `train`: each learning lane of a serving scenario learns from scratch (explore and train
 * on, no shipped agent) on the scenario's trace, slot by slot; the agent is saved as JSON
 * and the training curve (mean reward per window of slots) printed.
 */
function commandTrain(options: Options, io: CliIo): number {
  const scenario = loadScenario(options.positional[1], options.sets, io);
  if (scenario.world !== 'serving') throw new UsageError('train: needs a serving scenario (the learning schedulers live in the serving world)');
  let lanes = scenario.serving.lanes.map((lane, index) => ({ lane, index })).filter(({ lane }) => isLearningScheduler(lane.scheduler));
  if (options.lane !== null) lanes = lanes.filter(({ lane }) => lane.scheduler === options.lane);
  if (lanes.length === 0) throw new UsageError(`train: the scenario has no learning lane${options.lane === null ? '' : ` "${options.lane}"`} (bcedge, tac, ppo or ddqn)`);
  if (options.out === null) throw new UsageError('train: --out DIR/ or --out FILE.json is required');
  const toDirectory = options.out.endsWith('/') || io.isDirectory?.(options.out) === true;
  if (!toDirectory && lanes.length > 1) throw new UsageError('train: several lanes need --out DIR/ (or pick one with --lane)');
  const slotMs = scenario.serving.assumptions.slotMs;
  const durationS = options.slots === null ? scenario.serving.durationS : (options.slots * slotMs) / 1000;
  const trainScenario: ServingScenario = { ...scenario, serving: { ...scenario.serving, durationS } };
  const spec = buildServingSpec(trainScenario);
  const slots = Math.ceil(spec.durationMs / slotMs);
  const window = Math.max(1, Math.round(slots / 100));
  const report: object[] = [];
  for (const { lane } of lanes) {
    const id = lane.scheduler as LearningSchedulerId;
    let built: LearningScheduler | null = null;
    const factory = learningFactory(trainScenario, io, { onCreate: (scheduler) => (built = scheduler) })!;
    const params = { ...servingLaneParameters(lane), train: 1, explore: 1, pretrained: 0 };
    const scheduler = SERVING_SCHEDULERS[id].create(params, servingSchedulerContext(scenario.seed, spec.models.map((m) => m.model), factory));
    const learner = built as LearningScheduler | null;
    if (learner === null) throw new Error(`train: ${id} did not build a learning scheduler`);
    const run = new ServingRun(spec, scheduler);
    const curve: { slot: number; reward: number }[] = [];
    const started = performance.now();
    let sum = 0;
    let count = 0;
    for (let slot = 1; slot <= slots; slot++) {
      run.advanceTo(Math.min(spec.durationMs, slot * slotMs));
      const r = learner.telemetry().lastReward;
      if (r !== null) {
        sum += r;
        count++;
      }
      if (slot % window === 0 || slot === slots) {
        if (count > 0) curve.push({ slot, reward: sum / count });
        sum = 0;
        count = 0;
        progress(io, slot, slots);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const agent = learner.learner.save(`${findPreset(options.positional[1]!) ? options.positional[1] : 'scenario'} seed ${scenario.seed}, ${slots} slots of ${slotMs} ms`);
    const path = toDirectory ? `${options.out.replace(/\/?$/, '/')}${id}.json` : options.out;
    io.writeFile(path, `${JSON.stringify(agent)}\n`);
    const telemetry = learner.telemetry();
    report.push({ scheduler: id, out: path, slots, updates: telemetry.updates, transitions: telemetry.transitions, seconds, stats: learner.learner.stats(), curve });
    scheduler.dispose?.();
  }
  io.stdout(`${JSON.stringify({ scenario: trainScenario, trained: report }, null, 2)}\n`);
  return EXIT_OK;
}

function commandPresets(io: CliIo): number {
  const width = Math.max(...PRESETS.map((p) => p.id.length));
  for (const p of PRESETS) io.stdout(`${p.id.padEnd(width)}  ${p.figure ? `[${p.figure}] ` : ''}${p.description}\n`);
  return EXIT_OK;
}

function commandProfile(options: Options, io: CliIo): number {
  const model = options.positional[1];
  if (model === undefined || !(MODEL_IDS as readonly string[]).includes(model)) {
    throw new UsageError(`profile: model must be one of ${MODEL_IDS.join(', ')}, got ${model === undefined ? 'nothing' : `"${model}"`}`);
  }
  const db = getDatabase(model as ModelId);
  if (options.formatGiven) {
    const rows = db.layers.map((layer, l) => ({ layer, ...Object.fromEntries(Object.entries(db.modes).map(([mode, times]) => [mode, times[l]])) }));
    emit(io, options, db, rows);
  } else if (options.out !== null) {
    io.writeFile(options.out, formatProfileTable(db));
  } else {
    io.stdout(formatProfileTable(db));
  }
  return EXIT_OK;
}

/**
 * The command line of ARCHITECTURE §5. Returns the exit code: 0 on success, 2 on invalid input
 * (with a message naming the field on stderr and nothing on stdout).
 */
export function runCli(args: readonly string[], io: CliIo): number {
  try {
    const options = parseArgs(args);
    const command = options.positional[0];
    switch (command) {
      case 'run':
        return commandRun(options, io);
      case 'sweep':
        return commandSweep(options, io);
      case 'presets':
        return commandPresets(io);
      case 'train':
        return commandTrain(options, io);
      case 'profile':
        return commandProfile(options, io);
      case undefined:
      case 'help':
        io.stderr(USAGE);
        return command === 'help' ? EXIT_OK : EXIT_USAGE;
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_FAILURE;
  }
}
