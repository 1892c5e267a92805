import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../scenario/presets';
import { EXIT_OK, EXIT_USAGE } from './cli';
import { runCliInMemory } from './testing/memoryIo';
import { resolveShard, shardCells } from './shards';
import { sweepCells } from '../scenario/sweep';
import type { PipelineScenario } from '../worlds/pipeline/schema';

/** A small sweep: the ODIN Fig. 5 grid (3 × 3) on 200 queries, 2 lanes, 2 seeds = 18 cells. */
function smallSweep(): PipelineScenario {
  const s = structuredClone(findPreset('odin-fig5-vgg16')!.scenario) as PipelineScenario;
  s.pipeline.queries = 200;
  s.pipeline.lanes = [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }];
  s.sweep = { ...s.sweep!, seeds: 2, compare: { a: 0, b: 1 } };
  return s;
}

const cli = (args: string[], files: Record<string, string> = {}, env: Record<string, string> = {}) =>
  runCliInMemory(args, (written) => ({ readFile: (p) => written[p] ?? files[p] ?? null, env }));

const files = () => ({ 's.json': JSON.stringify(smallSweep()) });

describe('sweep on workers and shards', () => {
  it('gives the same JSON on 1 worker (this thread) and on 2 worker threads', async () => {
    const one = await cli(['sweep', 's.json'], files());
    const two = await cli(['sweep', 's.json', '--workers', '2'], files());
    expect(one.stderr).toBe('');
    expect(two.stderr).toBe('');
    expect(one.code).toBe(EXIT_OK);
    expect(two.stdout).toBe(one.stdout);
    const out = JSON.parse(one.stdout) as { seeds: number[]; results: { cell: object; seeds: number; metric: { name: string; seeds: number } }[]; comparison: unknown[] };
    expect(out.seeds).toEqual([1, 2]);
    expect(out.results).toHaveLength(9 * 2);
    expect(out.results[0]!.cell).toEqual({ periodQueries: 2, durationQueries: 2 });
    expect(out.results[0]!.metric).toMatchObject({ name: 'throughputMeanQps', seeds: 2 });
    expect(out.comparison).toHaveLength(9);
  }, 120_000);

  it('3 shards merged are byte for byte the unsharded output, in any file order; the shards split the cells', async () => {
    const whole = await cli(['sweep', 's.json'], files());
    const shardFiles: Record<string, string> = {};
    for (let i = 0; i < 3; i++) {
      const r = await cli(['sweep', 's.json', '--shard', `${i}/3`, '--out', `shard-${i}.json`], files());
      expect(r.code).toBe(EXIT_OK);
      expect(r.stdout).toBe('');
      shardFiles[`shard-${i}.json`] = r.written[`shard-${i}.json`]!;
      expect((JSON.parse(shardFiles[`shard-${i}.json`]!) as { cells: unknown[] }).cells).toHaveLength(6);
    }
    const merged = await cli(['merge', 'shard-2.json', 'shard-0.json', 'shard-1.json'], shardFiles);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(EXIT_OK);
    expect(merged.stdout).toBe(whole.stdout);
    const csv = await cli(['merge', 'shard-0.json', 'shard-1.json', 'shard-2.json', '--format', 'csv'], shardFiles);
    expect(csv.stdout).toBe((await cli(['sweep', 's.json', '--format', 'csv'], files())).stdout);
  }, 120_000);

  it('merge refuses missing, overlapping and mismatched shards, naming the file', async () => {
    const shard = async (i: number, n: number, scenario = smallSweep()) => (await cli(['sweep', 's.json', '--shard', `${i}/${n}`], { 's.json': JSON.stringify(scenario) })).stdout;
    const other = smallSweep();
    other.pipeline.queries = 201;
    const f: Record<string, string> = { a: await shard(0, 2), b: await shard(1, 2), c: await shard(0, 2), d: await shard(1, 2, other), e: await shard(0, 3), junk: '{"x": 1}' };
    const refuse = async (args: string[], message: RegExp) => {
      const r = await cli(['merge', ...args], f);
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    };
    await refuse(['a'], /9 of 18 cells are missing \(cells 1, 3, 5, 7, 9, …\): no file holds shard 1\/2/);
    await refuse(['a', 'b', 'c'], /^error: c: cell 0 \[\[2,2\],1\] is also in a \(overlapping shards\)/);
    await refuse(['a', 'd'], /^error: d: is a shard of another scenario than a/);
    await refuse(['a', 'e'], /^error: e: is one of 3 shards, a one of 2/);
    await refuse(['a', 'junk'], /^error: junk: is not a shard output/);
    await refuse(['a', 'nofile'], /^error: nofile: no such file/);
  }, 120_000);

  it('reads the shard from a Kubernetes Indexed Job or a Slurm array, and refuses what does not fit', () => {
    const none = { shard: null, shards: null };
    expect(resolveShard(none, {})).toBeNull();
    expect(resolveShard({ shard: null, shards: 4 }, { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 3, count: 4 });
    expect(resolveShard(none, { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '2' })).toEqual({ index: 3, count: 4 });
    expect(resolveShard(none, { SLURM_ARRAY_TASK_ID: '8', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_STEP: '4' })).toEqual({ index: 2, count: 3 });
    expect(resolveShard({ shard: '1/3', shards: null }, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '2' })).toEqual({ index: 1, count: 3 });
    expect(() => resolveShard({ shard: null, shards: 4 }, { JOB_COMPLETION_INDEX: '4' })).toThrow('JOB_COMPLETION_INDEX: must be an integer from 0 to 3 (--shards 4), got "4"');
    expect(() => resolveShard(none, { JOB_COMPLETION_INDEX: '0' })).toThrow("JOB_COMPLETION_INDEX is set (0): give --shards N, the Job's completions");
    expect(() => resolveShard({ shard: null, shards: 2 }, {})).toThrow('--shards: needs JOB_COMPLETION_INDEX');
    expect(() => resolveShard(none, { SLURM_ARRAY_TASK_ID: '1' })).toThrow('SLURM_ARRAY_TASK_COUNT: must be set with SLURM_ARRAY_TASK_ID');
    expect(() => resolveShard(none, { SLURM_ARRAY_TASK_ID: '9', SLURM_ARRAY_TASK_COUNT: '4' })).toThrow("SLURM_ARRAY_TASK_ID: 9 is not one of the array's 4 tasks");
    expect(() => resolveShard({ shard: '3/3', shards: null }, {})).toThrow('--shard: must be I/N with 0 ≤ I < N');
    const cells = sweepCells(smallSweep(), [1, 2]);
    const shares = [0, 1, 2].map((index) => shardCells(cells, { index, count: 3 }).map((c) => c.index));
    expect(shares.flat().sort((a, b) => a - b)).toEqual(cells.map((c) => c.index));
    expect(shares[1]).toEqual([1, 4, 7, 10, 13, 16]);
  });

  it.each([
    [['sweep', 's.json', '--workers', '0'], /--workers: must be an integer from 1 to 256 or "auto", got "0"/],
    [['sweep', 's.json', '--shards', 'x'], /--shards: must be an integer from 1 to 100000, got "x"/],
    [['sweep', 's.json', '--shard', '0/2', '--format', 'csv'], /--format: a shard writes JSON for merge/],
    [['sweep', 's.json', '--seeds', '1000', '--set', 'sweep.axes[0].values=[1,2,3,4,5,6,7]'], /--seeds: 21 combinations × 1000 seeds = 21000 cells; at most 20000/],
    [['merge'], /merge: needs the shard files/],
  ])('refuses %j with exit 2 and nothing on stdout', async (args, message) => {
    const r = await cli(args, files());
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

/** Runs `npm run sim -- …` as a real process with an environment; resolves with its exit code. */
function sim(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(0) : reject(new Error(`exit ${String(code)}: ${stderr}`))));
  });
}

describe('the batch engines’ contract', () => {
  it('N processes started with the environment each engine sets, merged, equal one unsharded run byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shards-'));
    const scenario = join(dir, 'scenario.json');
    writeFileSync(scenario, JSON.stringify(smallSweep()));
    await sim(['sweep', scenario, '--out', join(dir, 'whole.json')], {});
    // Kubernetes Indexed Job, completions 3: JOB_COMPLETION_INDEX = 0, 1, 2 (one pod each).
    await Promise.all([0, 1, 2].map((i) => sim(['sweep', scenario, '--shards', '3', '--out', join(dir, `k8s-${i}.json`)], { JOB_COMPLETION_INDEX: String(i) })));
    // Slurm `--array=1-3`: SLURM_ARRAY_TASK_ID = 1, 2, 3 with MIN 1 and COUNT 3.
    await Promise.all(
      [1, 2, 3].map((id) => sim(['sweep', scenario, '--out', join(dir, `slurm-${id}.json`)], { SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '3' })),
    );
    await sim(['merge', ...[0, 1, 2].map((i) => join(dir, `k8s-${i}.json`)), '--out', join(dir, 'k8s.json')], {});
    await sim(['merge', ...[3, 1, 2].map((id) => join(dir, `slurm-${id}.json`)), '--out', join(dir, 'slurm.json')], {});
    const whole = readFileSync(join(dir, 'whole.json'));
    expect(whole.length).toBeGreaterThan(1000);
    expect(readFileSync(join(dir, 'k8s.json')).equals(whole)).toBe(true);
    expect(readFileSync(join(dir, 'slurm.json')).equals(whole)).toBe(true);
  }, 180_000);
});
