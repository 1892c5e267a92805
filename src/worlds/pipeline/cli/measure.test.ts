import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { getDatabase } from '../engine/profiles/databases';
import { validateDatabase } from '../engine/profiles/validate';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import { measureDatabase, type MeasureEnvironment } from '../measure/runner';
import type { SpawnHog } from '../measure/hogs';
import { parseDatabaseFile, scenarioWithDatabase } from '../scenario/databaseFile';
import { parsePipelineScenario } from '../door';
import { runPipelineScenario } from '../scenario/pipelineRunner';
import { defaultPipelineScenario } from '../defaultPreset';
import { spawnNodeHog } from './hogThreads';
import { EXIT_OK, EXIT_USAGE, needsLearning, runCli, type CliIo } from '../../../cli/cli';
import { CLI_WORLDS } from '../../commands';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

/** Real hog threads, counting how many started and stopped. */
function countingHogs(): { spawn: SpawnHog; started: number; stopped: number } {
  const counter = {
    started: 0,
    stopped: 0,
    spawn: ((config, onReport, onError) => {
      counter.started++;
      const hog = spawnNodeHog(config, onReport, onError);
      return {
        terminate: async () => {
          counter.stopped++;
          await hog.terminate();
        },
      };
    }) as SpawnHog,
  };
  return counter;
}

function environment(spawnHog: SpawnHog): MeasureEnvironment {
  return {
    tf,
    now: () => performance.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    spawnHog,
    cores: 2,
    runtime: 'test',
    date: () => '2026-12-01T00:00:00.000Z',
  };
}

describe('measureDatabase', () => {
  it('measures a small database that validates, carries its record and runs in a scenario', async () => {
    const hogs = countingHogs();
    const before = tf.memory().numTensors;
    const fractions: number[] = [];
    const result = await measureDatabase(
      { model: 'vgg16', modes: ['E', 'F'], repeats: 2, inputSize: 32, hogBufferMiB: 32, settleMs: 20 },
      environment(hogs.spawn),
      (p) => fractions.push(p.fraction),
    );
    expect(tf.memory().numTensors).toBe(before);
    expect(hogs.started).toBe(3); // E: 2 memBW hogs on 2 cores, F: 1 CPU hog
    expect(hogs.stopped).toBe(3);
    expect(result.ok).toBe(true);
    const db = (result as { database: LayerTimeDatabase }).database;
    expect(validateDatabase(JSON.parse(JSON.stringify(db)))).toEqual({ ok: true, database: db });
    expect(db.layers).toEqual(getDatabase('vgg16').layers);
    expect(Object.keys(db.modes)).toEqual(['A', 'E', 'F']);
    expect(db.measurement).toMatchObject({ backend: 'wasm', threads: 1, cores: 2, inputSize: 32, repeats: 2, hogs: { A: 'alone', E: '2 memBW hogs', F: '1 CPU hog' } });
    expect(db.measurement?.hogRates.E?.memBytesPerS).toBeGreaterThan(0);
    expect(db.measurement?.hogRates.F?.cpuOpsPerS).toBeGreaterThan(0);
    expect(db.measurement?.spreadMs.E).toHaveLength(16);
    expect(fractions.at(-1)).toBeCloseTo(1, 9);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));

    // The default scenario places mode E on EP 2: the measured database has it.
    const used = scenarioWithDatabase({ ...defaultPipelineScenario(), pipeline: { ...defaultPipelineScenario().pipeline, queries: 600 } }, db);
    expect(used.ok).toBe(true);
    const parsed = parsePipelineScenario((used as { scenario: unknown }).scenario);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const results = runPipelineScenario(parsed.scenario);
    const builtIn = runPipelineScenario({ ...parsed.scenario, pipeline: { ...parsed.scenario.pipeline, database: undefined } });
    expect(results.map((r) => r.summary.queries)).toEqual(builtIn.map((r) => r.summary.queries));
    expect(results[0]!.summary.latencyMeanMs).not.toBe(builtIn[0]!.summary.latencyMeanMs);
    expect(scenarioWithDatabase(defaultPipelineScenario(), { ...db, modes: { A: db.modes.A! } })).toEqual({ ok: false, missingModes: ['E'] });
  }, 120_000);

  it('stops between units when cancelled: hogs stopped, tensors freed', async () => {
    const hogs = countingHogs();
    const before = tf.memory().numTensors;
    let progress = 0;
    const result = await measureDatabase(
      { model: 'resnet50', modes: ['I'], repeats: 1, inputSize: 32, hogBufferMiB: 32, settleMs: 10 },
      environment(hogs.spawn),
      (p) => {
        if (p.mode === 'I') progress++;
      },
      () => progress >= 3,
    );
    expect(result).toEqual({ ok: false, cancelled: true });
    expect(hogs.started).toBe(2);
    expect(hogs.stopped).toBe(2);
    expect(tf.memory().numTensors).toBe(before);
  }, 120_000);
});

describe('npm run sim -- measure', () => {
  function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const files = new Map<string, string>();
    const io: CliIo = {
      stdout: (t) => void out.push(t),
      stderr: (t) => void err.push(t),
      readFile: (p) => files.get(p) ?? null,
      writeFile: (p, t) => void files.set(p, t),
      stderrIsTty: false,
      learning: { tf, agent: async () => undefined },
    };
    return { io, out, err, files, needsTf: needsLearning(args, io, CLI_WORLDS), code: runCli(args, io, CLI_WORLDS) };
  }

  it.each([
    [['measure', 'vgg19'], 'measure: model must be one of vgg16, resnet50, resnet152, got "vgg19"'],
    [['measure'], 'measure: needs a model'],
    [['measure', 'vgg16', '--modes', 'A,Z'], '--modes: "Z" is not a mode'],
    [['measure', 'vgg16', '--repeats', '0'], '--repeats: must be an integer from 1 to 1000, got "0"'],
    [['measure', 'vgg16', '--size', '64'], '--size: must be 224 or 112, got "64"'],
    [['measure', 'vgg16', '--out'], '--out: needs a value'],
    [['measure', 'vgg16', '--fast'], '--fast: unknown option'],
  ])('%j: exit 2, the field on stderr, nothing on stdout, tfjs not loaded', async (args, message) => {
    const run = cli(args);
    expect(await run.code).toBe(EXIT_USAGE);
    expect(run.err.join('')).toContain(`error: ${message}`);
    expect(run.out).toEqual([]);
    expect(run.needsTf).toBe(false);
  });

  it('writes a database in the embedded-database format to --out', async () => {
    const run = cli(['measure', 'resnet50', '--modes', 'A,B', '--repeats', '1', '--size', '112', '--hog-buffer-mib', '32', '--out', 'db.json']);
    expect(run.needsTf).toBe(true);
    expect(await run.code).toBe(EXIT_OK);
    expect(run.out).toEqual([]);
    const parsed = parseDatabaseFile(run.files.get('db.json')!);
    expect(parsed.ok && Object.keys(parsed.database.modes)).toEqual(['A', 'B']);
    expect(parsed.ok && parsed.database.measurement?.inputSize).toBe(112);
    expect(parsed.ok && parsed.database.measurement?.hogBufferMiB).toBe(32);
  }, 120_000);
});
