import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentFile } from '../worlds/serving/agents/learner';
import { loadTfNode } from '../lib/tfNode';
import { LEARNING_SCHEDULER_IDS } from '../worlds/serving/schedulers/registry';
import { readShippedAgent } from './shippedAgents';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../worlds/serving/engine/assumptions';
import { parseAnyScenario } from '../scenario/parse';
import { findPreset, allPresets } from '../scenario/presets';
import { servingAssumptionsOf } from '../worlds/serving/scenario/servingRunner';
import { EXIT_OK, EXIT_USAGE, needsLearning, type CliIo } from './cli';
import { CLI_WORLDS } from '../worlds/commands';
import { commandName, programCommands } from './commands/index';
import { runCliInMemory } from './testing/memoryIo';
import { checkRunCost } from './options';
import type { PipelineScenario } from '../worlds/pipeline/schema';

/** tfjs and the shipped agents of the learning schedulers (not their fixed-slot ones), as main.ts gives them to `runCli` for learning lanes. */
let learning: CliIo['learning'];
beforeAll(async () => {
  const ids: readonly string[] = LEARNING_SCHEDULER_IDS;
  learning = { tf: await loadTfNode(), agent: async (key) => (ids.includes(key) ? readShippedAgent(key) : undefined) };
});

const cli = (args: string[], files: Record<string, string> = {}, withLearning = true, extra: Partial<CliIo> = {}) =>
  runCliInMemory(args, () => ({
    readFile: (p) => files[p] ?? null,
    isDirectory: (p) => p.endsWith('/'),
    ...(withLearning && learning !== undefined ? { learning } : {}),
    ...extra,
  }));

const small = (): Record<string, unknown> => {
  const s = structuredClone(findPreset('default')!.scenario) as unknown as Record<string, unknown> & { pipeline: Record<string, unknown> };
  s.pipeline.queries = 300;
  return s;
};

describe('npm run sim', () => {
  it('lists every preset with one line each', async () => {
    const { code, stdout } = await cli(['presets']);
    expect(code).toBe(EXIT_OK);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(allPresets().length);
    for (const p of allPresets()) expect(stdout).toContain(p.id);
  });

  it('runs with --seed N as with --set seed=N, and refuses a seed out of range', async () => {
    const files = { 's.json': JSON.stringify(small()) };
    const bySeed = await cli(['run', 's.json', '--seed', '7'], files);
    const bySet = await cli(['run', 's.json', '--set', 'seed=7'], files);
    const other = await cli(['run', 's.json'], files);
    expect(bySeed.code).toBe(EXIT_OK);
    expect(bySeed.stdout).toBe(bySet.stdout);
    expect(bySeed.stdout).not.toBe(other.stdout);
    expect((JSON.parse(bySeed.stdout) as { scenario: { seed: number } }).scenario.seed).toBe(7);
    const bad = await cli(['run', 's.json', '--seed', '-1'], files);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/--seed/);
  });

  it('runs a scenario file and prints the contract keys', async () => {
    const { code, stdout, stderr } = await cli(['run', 's.json'], { 's.json': JSON.stringify(small()) });
    expect(stderr).toBe('');
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { scenario: unknown; results: { scheduler: string; params: Record<string, unknown>; summary: Record<string, unknown> }[] };
    expect(out.scenario).toEqual(small());
    expect(out.results.map((r) => r.scheduler)).toEqual(['odin', 'lls', 'optimal', 'static']);
    for (const r of out.results) {
      for (const key of ['queries', 'latencyMeanMs', 'latencyP50Ms', 'latencyP99Ms', 'throughputMeanQps', 'configThroughputMeanQps', 'configLatencyMeanMs', 'peakThroughputQps', 'optimalRatioMean', 'rebalancingQueries', 'overheadPct', 'sloViolationPct']) {
        expect(r.summary).toHaveProperty(key);
      }
      expect(Object.keys(r.summary.sloViolationPct as object)).toHaveLength(20);
      expect(r.summary.sloViolationPct).toHaveProperty('0.05');
      expect(r.summary.sloViolationPct).toHaveProperty('1.00');
      expect(r.params).toMatchObject({ trialCost: 'serial', bufferCapacity: 1, admission: 'saturated' });
    }
    expect(out.results[0]!.params.alpha).toBe(10);
    expect(out.results[1]!.params.llsReading).toBe('literal');
  });

  it('gives identical output for identical input', async () => {
    const a = await cli(['run', 's.json'], { 's.json': JSON.stringify(small()) });
    const b = await cli(['run', 's.json'], { 's.json': JSON.stringify(small()) });
    expect(a.stdout).toBe(b.stdout);
  });

  it('writes CSV with one row per lane', async () => {
    const { code, stdout } = await cli(['run', 's.json', '--format', 'csv'], { 's.json': JSON.stringify(small()) });
    expect(code).toBe(EXIT_OK);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toContain('summary.latencyP99Ms');
    expect(lines[0]).toContain('summary.sloViolationPct.0.50');
    expect(lines[1]!.startsWith('odin,ODIN α=10,')).toBe(true);
  });

  it('runs a whole grid and its means in one call', async () => {
    const s = structuredClone(findPreset('odin-fig5-vgg16')!.scenario) as unknown as { pipeline: { queries: number } };
    s.pipeline.queries = 200;
    const { code, stdout } = await cli(['run', 'g.json'], { 'g.json': JSON.stringify(s) });
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { results: { cell: Record<string, number> }[]; gridMeans: unknown[] };
    expect(out.results).toHaveLength(9 * 5);
    expect(out.results[0]!.cell).toEqual({ periodQueries: 2, durationQueries: 2 });
    expect(out.gridMeans).toHaveLength(5);
  });

  it('sweeps seeds and averages them', async () => {
    const { code, stdout } = await cli(['sweep', 's.json', '--seeds', '3'], { 's.json': JSON.stringify(small()) });
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { seeds: number[]; results: { seeds: number }[] };
    expect(out.seeds).toEqual([1, 2, 3]);
    expect(out.results[0]!.seeds).toBe(3);
  });

  it('applies --set before validating', async () => {
    const { code, stdout } = await cli(['run', 's.json', '--set', 'pipeline.assumptions.trialCost=pipelined', '--set', 'pipeline.lanes[0].params.alpha=2'], {
      's.json': JSON.stringify(small()),
    });
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { results: { params: Record<string, unknown> }[] };
    expect(out.results[0]!.params).toMatchObject({ alpha: 2, trialCost: 'pipelined' });
  });

  it.each([
    [['run', 'nope'], /nope: no such preset or file/],
    [['run'], /needs a scenario file or a preset id/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['run', 'default', '--format', 'xml'], /--format: must be json or csv, got "xml"/],
    [['sweep', 'default', '--seeds', '0'], /--seeds: must be an integer from 1 to 1000, got "0"/],
    [['run', 'default', '--set', 'pipeline.executionPlaces=1000'], /pipeline\.executionPlaces: must be an integer from 1 to 64, got 1000/],
    [['run', 'default', '--set', 'pipeline.lanes[0].params.alpha=0'], /pipeline\.lanes\[0\]\.params\.alpha: must be an integer from 1 to 30/],
    [['run', 'default', '--set', 'pipeline.model="alexnet"'], /pipeline\.model: must be one of "vgg16", "resnet50", "resnet152", got "alexnet"/],
    [['run', 'default', '--set', 'pipeline.extra=1'], /--set: pipeline\.extra: pipeline has no field "extra"; the nearest known field is/],
    [['run', 'default', '--set', '__proto__.x=1'], /--set: __proto__\.x: is not a scenario field/],
    [['run', 'default', '--unknown'], /--unknown: unknown option/],
    [['profile', 'alexnet'], /profile: model must be one of vgg16, resnet50, resnet152, got "alexnet"/],
  ])('rejects %j with exit code 2, a message and nothing on stdout', async (args, message) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('refuses a forbidden key in a scenario file as the page does (one door, one rule)', async () => {
    const text = JSON.stringify(small()).replace('"params":{', '"params":{"__proto__":{"alpha":1},');
    expect(text).toContain('"__proto__":{"alpha":1}');
    const { code, stdout, stderr } = await cli(['run', 'p.json'], { 'p.json': text });
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: pipeline.lanes[0].params: has a forbidden field "__proto__"\n');
  });

  it.each([1e308, 5e-324])('refuses an embedded database of %d ms per layer, naming the field', async (timeMs) => {
    const s = small() as { pipeline: Record<string, unknown> & { interference: { events: unknown[]; random: Record<string, unknown> } } };
    s.pipeline.database = { layers: ['a', 'b'], modes: { A: [1, timeMs], B: [1, 1] } };
    s.pipeline.interference.events = [];
    s.pipeline.interference.random.modes = ['B'];
    const { code, stdout, stderr } = await cli(['run', 'db.json'], { 'db.json': JSON.stringify(s) });
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: pipeline.database.modes.A[1]: must be a layer time from 0.001 ms (1 µs) to 10000000 ms, got ${timeMs}\n`);
  });

  it('names the field of a bad scenario file', async () => {
    const bad = small() as { pipeline: { interference: { events: unknown[] } } };
    bad.pipeline.interference.events = [{ executionPlace: 9, mode: 'Z', fromQuery: -1, toQuery: null }];
    const { code, stdout, stderr } = await cli(['run', 'bad.json'], { 'bad.json': JSON.stringify(bad) });
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toContain('pipeline.interference.events[0].mode: must be one of');
    expect(stderr).toContain('pipeline.interference.events[0].fromQuery: must be an integer from 0');
    const broken = await cli(['run', 'b.json'], { 'b.json': '{"version": 1,' });
    expect(broken.code).toBe(EXIT_USAGE);
    expect(broken.stderr).toMatch(/b\.json: is not valid JSON/);
  });

  it('prints the layer-time table', async () => {
    const { code, stdout } = await cli(['profile', 'vgg16']);
    expect(code).toBe(EXIT_OK);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1 + 16 + 1);
    expect(lines[0]).toMatch(/^layer\s+A\s+B\s+C.*L$/);
  });

  it('profile --database prints a database file (JSON or CSV) as the same table', async () => {
    const json = JSON.stringify({ layers: ['a', 'b'], modes: { A: [1, 2], E: [3, 4.5] } });
    const fromJson = await cli(['profile', '--database', 'db.json'], { 'db.json': json });
    expect(fromJson.code).toBe(EXIT_OK);
    expect(fromJson.stdout.split('\n').map((l) => l.split(/\s+/))).toEqual([
      ['layer', 'A', 'E'],
      ['a', '1.000', '3.000'],
      ['b', '2.000', '4.500'],
      ['total', '3.000', '7.500'],
    ]);
    const fromCsv = await cli(['profile', '--database', 'db.csv'], { 'db.csv': 'layer,A,E\na,1,3\nb,2,4.5\n' });
    expect(fromCsv.stdout).toBe(fromJson.stdout);
    const builtIn = (await cli(['profile', 'vgg16'])).stdout;
    const exported = (await cli(['profile', 'vgg16', '--format', 'csv'])).stdout;
    expect((await cli(['profile', '--database', 'v.csv'], { 'v.csv': exported })).stdout).toBe(builtIn);
  });

  it.each([
    [['profile', '--database', 'none.json'], {}, '--database: none.json: no such file'],
    [['profile', '--database', 'bad.json'], { 'bad.json': '{"layers": ["a"], "modes": {"A": [0]}}' }, 'database.modes.A[0]: must be a positive finite number, got 0'],
    [['profile', 'vgg16', '--database', 'x.json'], { 'x.json': '{}' }, 'profile: give a model or --database FILE, not both'],
  ])('profile %j: exit 2 naming the field, nothing on stdout', async (args, files, message) => {
    const { code, stdout, stderr } = await cli(args, files as Record<string, string>);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });

  it('exits 2 from the real command line', async () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', 'no-such-preset'], { encoding: 'utf8' });
    expect(result.status).toBe(EXIT_USAGE);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no-such-preset: no such preset or file');
  }, 30_000); // a Node process compiling TypeScript: seconds on a loaded machine

  it('runs a serving scenario with the serving summary keys, per model', async () => {
    const { code, stdout, stderr } = await cli(['run', 'serving-default', '--set', 'serving.durationS=60']);
    expect(stderr).toBe('');
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { results: { scheduler: string; summary: Record<string, unknown> }[] };
    expect(out.results.map((r) => r.scheduler)).toEqual(['fixed', 'deeprt', 'ga', 'bcedge']);
    for (const r of out.results) {
      for (const key of ['requests', 'utilityMean', 'throughputRps', 'latencyMeanMs', 'latencyP99Ms', 'sloViolationPct', 'oomBatches', 'decisionMeanUs', 'perModel']) {
        expect(r.summary).toHaveProperty(key);
      }
      expect(Object.keys(r.summary.perModel as object)).toEqual(['yolo', 'mob', 'res', 'eff', 'inc', 'bert']);
    }
  }, 30_000); // a minute of four lanes, one of them SAC: seconds on a loaded machine

  it('gives the same serving numbers for the same seed (decision time aside)', async () => {
    const strip = (text: string) =>
      (JSON.parse(text) as { results: { summary: Record<string, unknown> }[] }).results.map(({ summary }) => ({ ...summary, decisionMeanUs: 'wall clock' }));
    const a = await cli(['run', 'serving-default', '--set', 'serving.durationS=30']);
    const b = await cli(['run', 'serving-default', '--set', 'serving.durationS=30']);
    expect(strip(a.stdout)).toEqual(strip(b.stdout));
    const other = await cli(['run', 'serving-default', '--set', 'serving.durationS=30', '--set', 'seed=2']);
    expect(strip(other.stdout)).not.toEqual(strip(a.stdout));
  });

  it('runs the Figure 1 grid of batch × instances in one call', async () => {
    const { code, stdout } = await cli(['run', 'bcedge-fig1-yolo', '--set', 'serving.durationS=5']);
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { results: { cell: Record<string, number>; params: Record<string, number> }[] };
    expect(out.results).toHaveLength(64);
    expect(out.results[9]!.cell).toEqual({ batchSize: 2, instances: 2 });
    expect(out.results[9]!.params).toEqual({ batchSize: 2, instances: 2 });
  });

  it('names a bad serving field with exit code 2', async () => {
    const { code, stdout, stderr } = await cli(['run', 'serving-default', '--set', 'serving.platform="orin"']);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toContain('serving.platform: must be one of "xavier-nx", "tx2", "nano", got "orin"');
  });

  it('gives Triton a batch size and instances per model', async () => {
    const { code, stdout, stderr } = await cli([
      'run',
      'serving-default',
      '--set',
      'serving.durationS=20',
      // Loaded enough that queues hold several requests: batches can fill.
      '--set',
      'serving.rateRps=200',
      '--set',
      'serving.lanes=[{"scheduler":"fixed","params":{"batchSize":8,"instances":2,"batchSize.yolo":1,"instances.bert":1}}]',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(EXIT_OK);
    const perModel = (JSON.parse(stdout) as { results: { summary: { perModel: Record<string, { batchSizeMean: number }> } }[] }).results[0]!.summary.perModel;
    expect(perModel.yolo!.batchSizeMean).toBe(1);
    expect(perModel.mob!.batchSizeMean).toBeGreaterThan(1);
    const bad = await cli(['run', 'serving-default', '--set', 'serving.lanes=[{"scheduler":"fixed","params":{"batchSize.yolo":300}}]']);
    expect(bad.code).toBe(EXIT_USAGE);
    expect(bad.stderr).toContain('serving.lanes[0].params.batchSize.yolo: must be an integer from 1 to 128');
  });

  it('loads tfjs only for learning lanes and `train`', async () => {
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined, readFile: () => null, writeFile: () => undefined, stderrIsTty: false };
    expect(needsLearning(['presets'], io, CLI_WORLDS)).toBe(false);
    expect(needsLearning(['run', 'default'], io, CLI_WORLDS)).toBe(false);
    expect(needsLearning(['run', 'serving-default'], io, CLI_WORLDS)).toBe(true);
    expect(needsLearning(['run', 'serving-default', '--set', 'serving.lanes=[{"scheduler":"fixed"}]'], io, CLI_WORLDS)).toBe(false);
    expect(needsLearning(['train', 'bcedge-fig10-convergence'], io, CLI_WORLDS)).toBe(true);
  });

  it('trains a learning lane, saves an agent that loads, and reports its curve', async () => {
    const { code, stdout, stderr, written } = await cli(['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--slots', '40', '--out', 'agents/']);
    expect(stderr).toBe('');
    expect(code).toBe(EXIT_OK);
    const out = JSON.parse(stdout) as { trained: { scheduler: string; out: string; slots: number; transitions: number; curve: { slot: number; reward: number }[] }[] };
    expect(out.trained).toHaveLength(1);
    expect(out.trained[0]!.scheduler).toBe('tac');
    expect(out.trained[0]!.slots).toBe(40);
    expect(out.trained[0]!.transitions).toBeGreaterThan(100);
    expect(out.trained[0]!.curve.length).toBeGreaterThan(10);
    const agent = JSON.parse(written['agents/tac.json']!) as AgentFile;
    expect(agent.kind).toBe('tac');
    expect(agent.trainedOn).toContain('bcedge-fig10-convergence seed 1, 40 slots');
  });

  it('trains offline for several epochs (BCEdge §V-A), one learner over fresh traces; one epoch is plain train, bit for bit', async () => {
    const args = ['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--slots', '15', '--out', 'agents/'];
    const plain = await cli(args);
    const one = await cli([...args, '--epochs', '1']);
    expect(one.stderr).toBe('');
    expect(JSON.parse(one.written['agents/tac.json']!)).toEqual(JSON.parse(plain.written['agents/tac.json']!));
    const three = await cli([...args, '--epochs', '3', '--set', 'serving.lanes[1].params.minibatch=32']);
    expect(three.stderr).toBe('');
    expect(three.code).toBe(EXIT_OK);
    type Trained = { slots: number; epochs: number; transitions: number; curve: { slot: number; reward: number }[] };
    const once = (JSON.parse(plain.stdout) as { trained: Trained[] }).trained[0]!;
    const thrice = (JSON.parse(three.stdout) as { trained: Trained[] }).trained[0]!;
    expect(thrice.epochs).toBe(3);
    expect(thrice.slots).toBe(15);
    // No transition spans two runs: each epoch stores what the first did, less none, more none.
    expect(thrice.transitions).toBeGreaterThan(2 * once.transitions);
    expect(thrice.curve.at(-1)!.slot).toBe(45);
    const agent = JSON.parse(three.written['agents/tac.json']!) as AgentFile;
    expect(agent.trainedOn).toContain('15 slots of 1000 ms');
    expect(agent.trainedOn).toContain('× 3 epochs (seeds 1–3)');
    expect(agent).not.toEqual(JSON.parse(plain.written['agents/tac.json']!));
    expect((await cli([...args, '--epochs', '0'])).stderr).toContain('--epochs: must be an integer from 1 to 10000, got "0"');
  });

  it('trains epochs in lockstep (--envs K): K environments share one learner and its updates; --envs 1 is plain train, bit for bit', async () => {
    const args = ['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--slots', '20', '--epochs', '4', '--out', 'agents/', '--set', 'serving.lanes[1].params.minibatch=32', '--set', 'serving.lanes[1].params.warmup=16'];
    const plain = await cli(args);
    const one = await cli([...args, '--envs', '1']);
    expect(one.stderr).toBe('');
    expect(JSON.parse(one.written['agents/tac.json']!)).toEqual(JSON.parse(plain.written['agents/tac.json']!));
    const two = await cli([...args, '--envs', '2']);
    expect(two.stderr).toBe('');
    expect(two.code).toBe(EXIT_OK);
    type Trained = { epochs: number; envs?: number; updates: number; transitions: number; curve: { slot: number; reward: number }[] };
    const alone = (JSON.parse(plain.stdout) as { trained: Trained[] }).trained[0]!;
    const paired = (JSON.parse(two.stdout) as { trained: Trained[] }).trained[0]!;
    expect(paired.envs).toBe(2);
    expect(alone.envs).toBeUndefined();
    // The same four epochs of experience (as many transitions within what the actions chosen
    // change: under Eq. 1 a decision lasts b·SLO/m_c), for about half the gradient updates.
    expect(paired.transitions).toBeGreaterThan(0.6 * alone.transitions);
    expect(paired.transitions).toBeLessThan(1.6 * alone.transitions);
    expect(alone.updates).toBeGreaterThan(20);
    expect(paired.updates).toBeGreaterThan(0.35 * alone.updates);
    expect(paired.updates).toBeLessThan(0.65 * alone.updates);
    expect(paired.curve.at(-1)!.slot).toBe(80);
    const agent = JSON.parse(two.written['agents/tac.json']!) as AgentFile;
    expect(agent.trainedOn).toContain('× 4 epochs (seeds 1–4), 2 in lockstep sharing their updates');
    expect((await cli([...args, '--envs', '0'])).stderr).toContain('--envs: must be an integer from 1 to 64, got "0"');
    expect((await cli(['train', 'bcedge-fig10-convergence', '--lane', 'ppo', '--epochs', '2', '--envs', '2', '--out', 'a/'])).stderr).toContain('--envs: lockstep training is for the SAC learners (bcedge, tac), not ppo');
  }, 60_000);

  it('trains the odd epochs under a second reading (--alternate): the same reading twice is plain train, bit for bit; another one is another agent', async () => {
    const args = ['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--slots', '15', '--epochs', '2', '--out', 'agents/', '--set', 'serving.lanes[1].params.minibatch=32', '--set', 'serving.lanes[1].params.warmup=16'];
    const plain = await cli(args);
    const same = await cli([...args, '--alternate', 'serving.assumptions.slot=eq1']);
    expect(same.stderr).toBe('');
    type Trained = { transitions: number };
    const agentOf = (run: { written: Record<string, string> }): AgentFile => JSON.parse(run.written['agents/tac.json']!) as AgentFile;
    expect(agentOf(same).networks).toEqual(agentOf(plain).networks);
    const mixed = await cli([...args, '--alternate', 'serving.assumptions.slot=fixed']);
    expect(mixed.stderr).toBe('');
    expect(mixed.code).toBe(EXIT_OK);
    expect(agentOf(mixed).networks).not.toEqual(agentOf(plain).networks);
    expect(agentOf(mixed).trainedOn).toContain('odd epochs with serving.assumptions.slot=fixed');
    // The second epoch decides once a second a model under the fixed slot: another count of transitions.
    const transitions = (run: { stdout: string }): number => (JSON.parse(run.stdout) as { trained: Trained[] }).trained[0]!.transitions;
    expect(transitions(mixed)).not.toBe(transitions(plain));
    expect((await cli([...args, '--alternate', 'serving.assumptions.slotMs=500'])).stderr).toContain('--alternate: must keep serving.assumptions.slotMs (1000 ms)');
    expect((await cli([...args, '--alternate', 'serving.models[0].model=bert', '--alternate', 'serving.models[5].model=yolo'])).stderr).toContain('--alternate: must keep the models');
    expect((await cli([...args, '--epochs', '1', '--alternate', 'serving.assumptions.slot=fixed'])).stderr).toContain('--alternate: applies to the odd epochs; give --epochs 2 or more');
    expect((await cli([...args, '--envs', '2', '--threads', '2', '--alternate', 'serving.assumptions.slot=fixed'])).stderr).toContain('--alternate: the second thread steps one reading only');
  }, 60_000);

  it('trains the lockstep environments on two threads (--threads 2): the same agent on every run, the updates of one thread, every environment stepped', async () => {
    const args = ['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--slots', '20', '--epochs', '6', '--envs', '4', '--out', 'agents/', '--set', 'serving.lanes[1].params.minibatch=32', '--set', 'serving.lanes[1].params.warmup=16'];
    const one = await cli(args);
    const two = await cli([...args, '--threads', '2']);
    const again = await cli([...args, '--threads', '2']);
    expect(two.stderr).toBe('');
    expect(two.code).toBe(EXIT_OK);
    expect(JSON.parse(again.written['agents/tac.json']!)).toEqual(JSON.parse(two.written['agents/tac.json']!));
    const withoutSeconds = (stdout: string) => stdout.replace(/"seconds": [^,\n]+/g, '"seconds": 0');
    expect(withoutSeconds(again.stdout)).toBe(withoutSeconds(two.stdout));
    type Trained = { envs: number; threads?: number; mainThreadEnvs?: number; updates: number; transitions: number; curve: { slot: number; reward: number }[] };
    const single = (JSON.parse(one.stdout) as { trained: Trained[] }).trained[0]!;
    const threaded = (JSON.parse(two.stdout) as { trained: Trained[] }).trained[0]!;
    expect(threaded).toMatchObject({ envs: 4, threads: 2, mainThreadEnvs: 1 });
    expect(single.threads).toBeUndefined();
    // Six epochs in rounds of 4 and 2: the other thread stepped 3 then 1 of them; the learner
    // ran its updates as often as with one thread (the first round's warm-up aside).
    expect(threaded.transitions).toBeGreaterThan(0.6 * single.transitions);
    expect(threaded.transitions).toBeLessThan(1.6 * single.transitions);
    expect(threaded.updates).toBeGreaterThan(0.8 * single.updates);
    expect(threaded.updates).toBeLessThan(1.2 * single.updates);
    expect(threaded.curve.at(-1)!.slot).toBe(120);
    const agent = JSON.parse(two.written['agents/tac.json']!) as AgentFile;
    expect(agent.trainedOn).toContain('4 in lockstep sharing their updates (3 of them stepped by a second thread)');
    expect(agent).not.toEqual(JSON.parse(one.written['agents/tac.json']!));
    expect((await cli([...args.filter((a) => a !== '4' && a !== '--envs'), '--threads', '2'])).stderr).toContain('--threads: 2 threads step the environments of --envs K ≥ 2');
    expect((await cli([...args, '--threads', '3'])).stderr).toContain('--threads: must be an integer from 1 to 2, got "3"');
  }, 120_000);

  it('refuses train without a learning lane or an --out, and a learning run without tfjs', async () => {
    expect((await cli(['train', 'serving-default', '--lane', 'ga', '--out', 'a/'])).stderr).toContain('no learning lane "ga"');
    expect((await cli(['train', 'bcedge-fig10-convergence', '--lane', 'tac'])).stderr).toContain('--out');
    expect((await cli(['train', 'bcedge-fig10-convergence', '--out', 'x.json'])).stderr).toContain('several lanes need --out DIR/');
    expect((await cli(['train', 'default', '--out', 'a/'])).stderr).toContain('needs a serving scenario');
    expect((await cli(['train', 'bcedge-fig10-convergence', '--slots', '0', '--out', 'a/'])).code).toBe(EXIT_USAGE);
    // Six models on a Nano are six devices, a learner each (BCEdge §V-D): not one agent to save.
    const apart = await cli(['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--slots', '5', '--out', 'a/', '--set', 'serving.platform=nano']);
    expect(apart.code).toBe(EXIT_USAGE);
    expect(apart.stderr).toMatch(/^error: serving\.assumptions\.platformSetting: on nano each of the 6 models is served alone/);
    const noTf = await cli(['run', 'serving-default', '--set', 'serving.durationS=5'], {}, false);
    expect(noTf.code).not.toBe(EXIT_OK);
    expect(noTf.stderr).toContain('TensorFlow.js');
  });
});

describe('the command line is parsed by commander', () => {
  it.each([['run'], ['sweep'], ['train'], ['presets'], ['profile']])('gives --help for %s on stdout with exit 0', async (command) => {
    const { code, stdout, stderr } = await cli([command, '--help']);
    expect(code).toBe(EXIT_OK);
    expect(stderr).toBe('');
    expect(stdout).toContain(`Usage: interference-lab ${command}`);
  });

  it('lists every command in the top-level help', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(EXIT_OK);
    for (const command of ['run', 'sweep', 'train', 'presets', 'profile']) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it("lists each world's commands after the kit's command it names, in the order of the command line's list", async () => {
    const { stdout } = await cli(['--help']);
    const listed = [...stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]);
    expect(listed).toEqual(['run', 'sweep', 'merge', 'train', 'learn-check', 'reward-check', 'presets', 'profile', 'measure', 'real', 'claims', 'help']);
    // Without the worlds' list the program has the kit's commands only.
    expect(programCommands([]).map(commandName)).toEqual(['run', 'sweep', 'merge', 'presets', 'claims']);
  });

  it("refuses a world's command that names no command of the kit to be listed after (a bug of that world)", () => {
    const stray = { ...CLI_WORLDS[0]!.commands[0]!, listedAfter: 'nothing' };
    expect(() => programCommands([{ commands: [stray] }])).toThrow(/listed after "nothing", which is not a command of the kit/);
  });

  it.each([
    [['run', 'default', '--fromat', 'json'], /--fromat: unknown option \(did you mean --format\?\)/],
    [['run', 'default', '--format'], /--format: needs a value/],
    [['run', 'default', 'extra'], /too many arguments for 'run'/],
    [['ru'], /unknown command "ru" \(did you mean run\?\)/],
    [[], /needs a command/],
    [['sweep', 'default', '--seeds', '1e3'], /--seeds: must be an integer from 1 to 1000, got "1e3"/],
    [['train', 'bcedge-fig10-convergence', '--slots', '-5', '--out', 'a/'], /--slots: must be an integer from 1 to 1000000, got "-5"/],
  ])('rejects %j with exit 2 and a message naming the option', async (args, message) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/internal error|\n {4}at /);
  });
});

describe('the cost estimate', () => {
  const values = '[1,2,3,4,5,6,7,8]';
  const huge = [
    '--set',
    `sweep={"axes":[{"path":"pipeline.interference.random.periodQueries","values":${values}},{"path":"pipeline.interference.random.durationQueries","values":${values}}]}`,
    '--set',
    'pipeline.queries=10000000',
  ];

  it('refuses a run above the bound before any work, with the estimate and the flag that allows it', async () => {
    const { code, stdout, stderr } = await cli(['run', 'default', ...huge]);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'error: the scenario would cost 2.6e+9 lane-queries (64 cells × 10000000 queries × 4 lanes), about 43 minutes at 1 M per second; above the bound of 1e+9 lane-events: pass --allow-long to run it anyway\n',
    );
  });

  it('counts the seeds of a sweep', async () => {
    const { code, stderr } = await cli(['sweep', 'default', '--seeds', '300', '--set', 'pipeline.queries=1000000']);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toContain('(1 cell × 1000000 queries × 4 lanes × 300 seeds)');
    expect(stderr).toContain('--allow-long');
  });

  it('lets --allow-long through', () => {
    const scenario = findPreset('default')!.scenario as PipelineScenario;
    const values = [1, 2, 3, 4, 5, 6, 7, 8];
    const big: PipelineScenario = {
      ...scenario,
      pipeline: { ...scenario.pipeline, queries: 10_000_000 },
      sweep: {
        axes: [
          { path: 'pipeline.interference.random.periodQueries', values },
          { path: 'pipeline.interference.random.durationQueries', values },
        ],
      },
    };
    expect(() => checkRunCost(big, 1, undefined)).toThrow(/--allow-long/);
    expect(() => checkRunCost(big, 1, true)).not.toThrow();
  });
});

describe('--set changes fields only', () => {
  it.each([
    ['pipeline.lanes.length=-1', /--set: pipeline\.lanes\.length: "length" is not an index of pipeline\.lanes \(an array of 4\)/],
    ['pipeline.lanes.length=1.5', /"length" is not an index/],
    ['pipeline.interference.events.length=-1', /pipeline\.interference\.events\.length: "length" is not an index/],
    ['pipeline.lanes[-1]={"scheduler":"lls"}', /"-1" is not an index/],
    ['pipeline.lanes[9]={"scheduler":"lls"}', /"9" is not an index of pipeline\.lanes \(an array of 4\)/],
    ['pipeline.lanes[01].scheduler="lls"', /"01" is not an index/],
    ['pipeline.lanes[4].scheduler="lls"', /"4" is not an index/],
    ['pipeline.nothing.x=1', /pipeline has no field "nothing"/],
    ['seed.x=1', /seed is not an object/],
    ['pipeline.constructor=1', /is not a scenario field/],
    ['pipeline.lanes=[{"scheduler":"lls","__proto__":{"x":1}}]', /the value has a forbidden field "__proto__" at \[0\]/],
    ['=1', /expected PATH=VALUE/],
    ['.=1', /"\." is not a scenario field/],
  ])('refuses --set %s with a message naming the path', async (assignment, message) => {
    const { code, stdout, stderr } = await cli(['run', 'default', '--set', assignment]);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it.each([
    ['pipeline.assumption.hopMs=1', /--set: pipeline\.assumption\.hopMs: pipeline has no field "assumption"; the nearest known field is "assumptions"/],
    ['metric.percentiles="exact"', /\(scenario\) has no field "metric"; the nearest known field is "metrics"/],
    ['pipeline.lanes[0].params.alpah=3', /pipeline\.lanes\[0\]\.params has no field "alpah"; the nearest known field is "alpha" \(fields: alpha\)/],
    ['pipeline.queries.x=1', /queries is not an object/],
  ])('names the nearest known field of --set %s', async (assignment, message) => {
    const { code, stdout, stderr } = await cli(['run', 'default', '--set', assignment]);
    expect([code, stdout]).toEqual([EXIT_USAGE, '']);
    expect(stderr).toMatch(message);
  });

  it('creates an optional object the scenario leaves out, and validation names what it still needs', async () => {
    const run = async (...sets: string[]) => cli(['run', 's.json', '--format', 'json', ...sets.flatMap((s) => ['--set', s])], { 's.json': JSON.stringify(small()) });
    const exact = await run('metrics.percentiles=exact');
    expect(exact.code).toBe(EXIT_OK);
    expect((JSON.parse(exact.stdout) as { scenario: { metrics: unknown } }).scenario.metrics).toEqual({ percentiles: 'exact' });
    const half = await run('metrics.relativeError=0.01');
    expect([half.code, half.stderr]).toEqual([EXIT_USAGE, 'error: metrics.percentiles: is required (must be one of "streaming", "exact")\n']);
    // A lane's parameters the preset leaves out, a per-model one with its dot.
    const alpha = await run('pipeline.lanes[1].params.x=1');
    expect(alpha.stderr).toMatch(/pipeline\.lanes\[1\]\.params has no field "x" \(it has no fields to set\)/);
  });

  it('creates the serving assumptions a scenario leaves out: the others keep their defaults', async () => {
    const serving = structuredClone(findPreset('serving-default')!.scenario) as unknown as { serving: Record<string, unknown> };
    serving.serving['durationS'] = 5;
    serving.serving['lanes'] = [{ scheduler: 'ga' }];
    delete serving.serving['assumptions'];
    const files = { 's.json': JSON.stringify(serving) };
    const plain = await cli(['run', 's.json'], files);
    const slot = await cli(['run', 's.json', '--set', 'serving.assumptions.slotMs=2000'], files);
    expect([plain.code, slot.code]).toEqual([EXIT_OK, EXIT_OK]);
    const out = JSON.parse(slot.stdout) as { scenario: { serving: { assumptions: unknown } } };
    expect(out.scenario.serving.assumptions).toEqual({ slotMs: 2000 });
    // The same run as the preset's written-out defaults with that slot (GA decides every slot, so the slot shows).
    const written = await cli(['run', 'serving-default', '--set', 'serving.durationS=5', '--set', 'serving.lanes=[{"scheduler":"ga"}]', '--set', 'serving.assumptions.slotMs=2000']);
    const summaries = (stdout: string) => (JSON.parse(stdout) as { results: { summary: { sloViolationPct: number; throughputRps: number } }[] }).results.map((r) => [r.summary.sloViolationPct, r.summary.throughputRps]);
    expect(summaries(slot.stdout)).toEqual(summaries(written.stdout));
    const parsed = parseAnyScenario(out.scenario);
    expect(parsed.ok && parsed.scenario.world === 'serving' && servingAssumptionsOf(parsed.scenario)).toEqual({ ...DEFAULT_SERVING_ASSUMPTIONS, slotMs: 2000 });
  });

  it('appends a lane one past the end, then validates it', async () => {
    const { code, stdout } = await cli(['run', 's.json', '--set', 'pipeline.lanes[4]={"scheduler":"lls"}'], { 's.json': JSON.stringify(small()) });
    expect(code).toBe(EXIT_OK);
    expect((JSON.parse(stdout) as { results: unknown[] }).results).toHaveLength(5);
  });
});

describe('output paths are checked before any work', () => {
  /** A file system with the folders `out/` and `ro/` (not writable) and the file `f.json`. */
  const disk: Partial<CliIo> = {
    pathKind: (p) => (['.', 'out', 'out/', 'ro', 'ro/'].includes(p) ? 'directory' : p === 'f.json' || p === 'out/f.json' ? 'file' : 'missing'),
    canWriteInto: (p) => !p.startsWith('ro'),
    isDirectory: (p) => ['out', 'out/', 'ro', 'ro/'].includes(p),
  };

  it.each([
    [['run', 'default', '--out', 'missing/r.json'], /--out: missing\/r\.json: folder missing does not exist/],
    [['run', 'default', '--out', 'out'], /--out: out: is a directory, not a file/],
    [['run', 'default', '--out', 'ro/r.json'], /--out: ro\/r\.json: folder ro is not writable/],
    [['profile', 'vgg16', '--out', 'out'], /--out: out: is a directory/],
    [['sweep', 'default', '--format', 'csv', '--out', 'nope/s.csv'], /--out: nope\/s\.csv: folder nope does not exist/],
    [['train', 'bcedge-fig10-convergence', '--out', 'agents/'], /--out: agents\/: no such directory/],
    [['train', 'bcedge-fig10-convergence', '--lane', 'tac', '--out', 'nope/tac.json'], /folder nope does not exist/],
    [['train', 'bcedge-fig10-convergence', '--out', 'ro/'], /--out: ro\/: directory is not writable/],
  ])('refuses %j at once, naming the path', async (args, message) => {
    const writes: string[] = [];
    const { code, stdout, stderr } = await cli(args, {}, true, { ...disk, writeFile: (p) => writes.push(p) });
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(writes).toEqual([]);
  });

  it('writes into an existing folder and over an existing file', async () => {
    const a = await cli(['profile', 'vgg16', '--out', 'out/f.json', '--format', 'json'], {}, true, disk);
    expect(a.code).toBe(EXIT_OK);
    expect(JSON.parse(a.written['out/f.json']!)).toHaveProperty('modes');
    const b = await cli(['profile', 'vgg16', '--out', 'f.json'], {}, true, disk);
    expect(b.code).toBe(EXIT_OK);
    expect(b.written['f.json']).toMatch(/^layer/);
  });

  it('names the file when writing fails anyway', async () => {
    const failing = (): void => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    };
    const { code, stdout, stderr } = await cli(['profile', 'vgg16', '--out', 'f.json'], {}, true, { ...disk, writeFile: failing });
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: --out: f.json: could not be written (ENOSPC)\n');
  });

  it('names an unreadable scenario file', async () => {
    const unreadable = (): string => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const { code, stderr } = await cli(['run', 'secret.json'], {}, true, { readFile: unreadable });
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe('error: secret.json: could not be read (EACCES)\n');
  });
});

describe('the real command line', () => {
  const node = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8' });

  it('refuses --out into a missing folder or onto a folder, with no stack trace', () => {
    for (const [out, message] of [
      ['no-such-folder/x.json', 'folder no-such-folder does not exist'],
      ['src', 'src: is a directory, not a file'],
    ] as const) {
      const result = node(['profile', 'vgg16', '--out', out]);
      expect(result.status).toBe(EXIT_USAGE);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('    at ');
    }
  }, 60_000);

  it('exits once a reference lane has searched on the search threads (they never keep the process alive)', () => {
    const lanes = JSON.stringify([{ scheduler: 'fixed-hindsight', params: { maxBatch: 2, maxInstances: 1 } }]);
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', 'learn-sanity', '--set', 'serving.durationS=20', '--set', `serving.lanes=${lanes}`, '--format', 'json'], { encoding: 'utf8', timeout: 60_000 });
    // Killed by the timeout, the status is null: the output was written, but the threads held the process.
    expect(result.status).toBe(EXIT_OK);
    expect((JSON.parse(result.stdout) as { results: { scheduler: string }[] }).results.map((r) => r.scheduler)).toEqual(['fixed-hindsight']);
  }, 90_000);

  it('gives parseable JSON on stdout through the documented npx command (no npm banner)', () => {
    const result = spawnSync('npx', ['--offline', 'interference-lab', 'run', 'default', '--set', 'pipeline.queries=200', '--format', 'json'], { encoding: 'utf8' });
    expect(result.status).toBe(EXIT_OK);
    const out = JSON.parse(result.stdout) as { results: { scheduler: string }[] };
    expect(out.results.map((r) => r.scheduler)).toEqual(['odin', 'lls', 'optimal', 'static']);
  }, 60_000);
});
