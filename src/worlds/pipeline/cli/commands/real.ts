import { Option } from 'commander';
import { isScenarioOf } from '../../../../kit/world';
import { pipelineWorld } from '../../world';
import { PIPELINE_SCHEDULER_IDS } from '../../schedulers/registry';
import { parseDatabaseFile } from '../../scenario/databaseFile';
import { realRunRefusal, REAL_INPUT_SIZES, REAL_RESIDENT_BUDGET_MIB } from '../../scenario/realPipeline';
import type { PipelineScenario } from '../../schema';
import type { WorldCommand } from '../../../../cli/command';
import { defaultHogBufferMiB, nodeCores, nodeRuntime, spawnNodeHog } from '../hogThreads';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliIo } from '../../../../cli/io';
import { addHogOptions, addOutOption, addSetOption, choiceOption, integerOption } from '../../../../cli/options';
import { checkOutputPath, writeOutput } from '../../../../cli/outputPath';
import { realMarkdown, REAL_CALIBRATION_QUERIES, REAL_NOISE_SEEDS, runReal } from '../../scenario/realRun';
import { measureDatabase } from '../../measure/runner';
import { runRealPipeline } from '../../measure/realPipeline/pipeline';
import { loadScenario } from '../../../../cli/scenarioInput';
import { commandLine, gitCommit, typedArgs } from '../../../../cli/provenance';
import { machineClaimRow } from '../../scenario/realClaim';
import { parseClaimsReportJson } from '../../../../scenario/claimsReportCheck';
import type { ClaimsReport } from '../../../../scenario/claimsReport';
import { spawnNodeStage } from '../stageThreads';

interface RealOptions {
  readonly set?: string[];
  readonly lanes?: string;
  readonly queries?: number;
  readonly size: '224' | '112' | '56';
  readonly format: 'json' | 'md';
  readonly out?: string;
  readonly database?: string;
  readonly repeats: number;
  readonly hogBufferMib?: number;
  readonly cores?: number;
  readonly claimsReport?: string;
  readonly residentMib?: number;
  readonly laneRepeats?: number;
  readonly noiseSeeds?: number;
  readonly calibrationQueries?: number;
  readonly calibrateEachRepeat?: boolean;
}

const setsOf = (o: RealOptions): string[] => [...(o.set ?? []), ...(o.queries === undefined ? [] : [`pipeline.queries=${o.queries}`])];

/** The pipeline scenario the arguments name, its lanes narrowed by `--lanes`; UsageError naming the field otherwise. */
function realScenario(source: string | undefined, options: RealOptions, io: CliIo): PipelineScenario {
  const scenario = loadScenario(source, setsOf(options), io);
  if (!isScenarioOf(pipelineWorld, scenario)) throw new UsageError('real: needs a pipeline scenario (a real run executes the pipeline world\'s CNN stages)');
  const refusal = realRunRefusal(scenario);
  if (refusal !== null) throw new UsageError(`real: ${refusal.field}: ${refusal.message}`);
  if (options.lanes === undefined) return scenario;
  const wanted = options.lanes.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const id of wanted) {
    if (!(PIPELINE_SCHEDULER_IDS as readonly string[]).includes(id)) throw new UsageError(`--lanes: "${id}" is not a pipeline scheduler (${PIPELINE_SCHEDULER_IDS.join(', ')})`);
  }
  const lanes = scenario.pipeline.lanes.filter((l) => wanted.includes(l.scheduler));
  for (const id of wanted) {
    if (!lanes.some((l) => l.scheduler === id)) throw new UsageError(`--lanes: the scenario has no ${id} lane (it has ${scenario.pipeline.lanes.map((l) => l.scheduler).join(', ')})`);
  }
  return { ...scenario, pipeline: { ...scenario.pipeline, lanes } };
}

/** The claims report `--claims-report` names: its document as read (written back as it was, rows untouched) and its checked form. */
function readClaimsReport(io: CliIo, file: string): { readonly file: string; readonly raw: Record<string, unknown>; readonly report: ClaimsReport } {
  checkOutputPath(io, '--claims-report', file, 'file');
  const text = io.readFile(file);
  if (text === null) throw new UsageError(`--claims-report: no such file: ${file} (write one with: npm run claims -- --format json --out ${file})`);
  const parsed = parseClaimsReportJson(text);
  if (!parsed.ok) throw new UsageError(`--claims-report: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return { file, raw: JSON.parse(text) as Record<string, unknown>, report: parsed.report };
}

/** `real <scenario>`: the scenario run on this machine's cores beside its simulation (the work is in src/worlds/pipeline/scenario/realRun.ts). */
export const realCommand: WorldCommand = {
  usage: 'real [scenario]',
  listedAfter: 'presets',
  summary: 'run a pipeline scenario for real (tfjs stages in worker threads, real hogs) beside its simulation on a database measured here',
  configure(command) {
    addSetOption(command);
    command.option('--lanes <list>', 'lanes to run, by scheduler, e.g. odin,lls (default: every lane of the scenario)');
    command.addOption(new Option('--queries <n>', 'queries per lane (the same as --set pipeline.queries=N)').argParser(integerOption('--queries', 1, 1_000_000)));
    command.addOption(new Option('--size <px>', 'input side: 224 (the paper\'s), 112 or 56').argParser(choiceOption('--size', REAL_INPUT_SIZES.map(String) as ['224', '112', '56'])).default('112'));
    command.addOption(new Option('--format <format>', 'json (default) or md').argParser(choiceOption('--format', ['json', 'md'] as const)).default('json'));
    addOutOption(command);
    command.option('--database <file>', 'the simulation\'s layer-time database (from `measure --size N`), instead of measuring one now');
    command.addOption(new Option('--repeats <n>', 'timed runs per unit and mode when measuring the database').argParser(integerOption('--repeats', 1, 1000)).default(5));
    addHogOptions(command, "logical cores the execution places map onto (default: this machine's)");
    command.addOption(new Option('--lane-repeats <n>', 'real runs of each lane, interleaved (default 1; 5 or more for intervals)').argParser(integerOption('--lane-repeats', 1, 100)));
    command.addOption(new Option('--noise-seeds <n>', `noise seeds of the simulation on the calibrated machine (default ${REAL_NOISE_SEEDS})`).argParser(integerOption('--noise-seeds', 1, 1000)));
    command.addOption(
      new Option('--calibration-queries <n>', `queries of the calibration lane (a static lane without hogs; default ${REAL_CALIBRATION_QUERIES}; 0: the ideal machine only)`).argParser(integerOption('--calibration-queries', 0, 100_000)),
    );
    command.option('--calibrate-each-repeat', 'a calibration lane before every round of --lane-repeats, each repeat simulated on its own round\'s machine and the errors paired by repeat (the machine\'s speed drifts between runs)');
    command.addOption(
      new Option('--resident-mib <n>', `memory the stages may keep units resident in, MiB, shared equally (default ${REAL_RESIDENT_BUDGET_MIB}; 0: every move builds the units it hands over)`).argParser(integerOption('--resident-mib', 0, 1_000_000)),
    );
    command.option('--claims-report <file>', 'also write the run as the lab\'s claim "the simulated system predicts a real pipeline on this machine" into this claims report (from `claims --format json`), replacing an earlier one');
    command.addHelpText(
      'after',
      '\nOne worker thread per execution place runs its stage\'s units on tfjs (wasm, seeded weights); activations\n' +
        'travel between them as transferred buffers through the scenario\'s bounded buffers; the monitor reads the\n' +
        'measured stage times and each lane\'s scheduler decides exactly as in the simulation; every stage holds, for\n' +
        'the whole run, the units it may receive (within --resident-mib), so a reconfiguration hands units over\n' +
        '(what did not fit is built on its new stage), and its wall time is shown as its cost. Interference events start\n' +
        'the hogs of their mode. Lanes run one after another on the same schedule. The same scenario is then\n' +
        'simulated on a database measured here at the same input size, under each trial-cost reading.',
    );
  },
  // Measuring the database runs tfjs in this thread; bad arguments are reported before it loads.
  needsLearning: ([source], options, io) => {
    realScenario(source, options as unknown as RealOptions, io);
    return true;
  },
  async run([source], rawOptions, io) {
    const options = rawOptions as unknown as RealOptions;
    const scenario = realScenario(source, options, io);
    if (options.out !== undefined) checkOutputPath(io, '--out', options.out, 'file');
    // The report is read before the run: a wrong file is said at once, not after minutes of measuring.
    const claims = options.claimsReport === undefined ? null : readClaimsReport(io, options.claimsReport);
    const inputSize = Number(options.size);
    let database = null;
    if (options.database !== undefined) {
      const text = io.readFile(options.database);
      if (text === null) throw new UsageError(`--database: no such file: ${options.database}`);
      const parsed = parseDatabaseFile(text, options.database);
      if (!parsed.ok) throw new UsageError(`--database: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
      if (parsed.database.model !== scenario.pipeline.model) throw new UsageError(`--database: it is ${parsed.database.model}'s, the scenario runs ${scenario.pipeline.model}`);
      const size = parsed.database.measurement?.inputSize;
      if (size !== undefined && size !== inputSize) throw new UsageError(`--database: measured at ${size} px, the run is at ${inputSize} (--size)`);
      database = parsed.database;
    }
    if (io.learning === undefined) throw new Error('real needs TensorFlow.js but it was not loaded (needsLearning)');
    let cancelled = false;
    const onInterrupt = () => (cancelled = true);
    process.once('SIGINT', onInterrupt);
    const startedMs = performance.now();
    try {
      const report = await runReal(
        { scenario, inputSize, database, repeats: options.repeats, hogBufferMiB: options.hogBufferMib ?? defaultHogBufferMiB(), cores: options.cores ?? nodeCores(), ...(options.residentMib === undefined ? {} : { residentBudgetMiB: options.residentMib }),
          ...(options.laneRepeats === undefined ? {} : { laneRepeats: options.laneRepeats }),
          ...(options.noiseSeeds === undefined ? {} : { noiseSeeds: options.noiseSeeds }),
          ...(options.calibrationQueries === undefined ? {} : { calibrationQueries: options.calibrationQueries }),
          ...(options.calibrateEachRepeat === true ? { calibrateEachRepeat: true } : {}),
        },
        { tf: io.learning.tf, measureDatabase, runRealPipeline, now: () => performance.now(), spawnStage: spawnNodeStage, spawnHog: spawnNodeHog, runtime: nodeRuntime(), stderr: io.stderr, isCancelled: () => cancelled },
      );
      if (report === null) {
        io.stderr('real: cancelled; nothing written\n');
        return EXIT_FAILURE;
      }
      const text = options.format === 'md' ? realMarkdown(report) : `${JSON.stringify(report, null, 2)}\n`;
      if (options.out === undefined) io.stdout(text);
      else writeOutput(io, '--out', options.out, text);
      if (claims !== null) {
        const row = machineClaimRow(report, { command: commandLine('npx interference-lab real', typedArgs('real')), commit: gitCommit(), durationS: (performance.now() - startedMs) / 1000 });
        const machineRows = [...(claims.report.machineRows ?? []).filter((r) => r.id !== row.id), row];
        writeOutput(io, '--claims-report', claims.file, `${JSON.stringify({ ...claims.raw, machineRows }, null, 2)}\n`);
        io.stderr(`real: wrote the claim ${row.id} (${row.verdict}) into ${claims.file}\n`);
      }
      return EXIT_OK;
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  },
};
