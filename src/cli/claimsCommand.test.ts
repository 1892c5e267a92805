import { describe, expect, it } from 'vitest';
import { allClaims } from '../scenario/claims';
import type { ClaimsReport } from '../scenario/claimsReport';
import { EXIT_OK, EXIT_USAGE, needsLearning, type CliIo } from './cli';
import { CLI_WORLDS } from '../worlds/commands';
import { runCliInMemory } from './testing/memoryIo';

const cli = (args: string[], extra: Partial<CliIo> = {}) => runCliInMemory(args, () => extra);

/** Two cheap claims (one cell per seed, deterministic), so the command runs in a second. */
const CHEAP = ['--claim', 'odin-fig1-evict', '--claim', 'odin-fig3-recovery', '--seeds', '2'];

describe('claims', () => {
  it('writes the report as JSON with its provenance, one row per chosen claim', async () => {
    const { code, stdout, stderr } = await cli(['claims', ...CHEAP, '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(EXIT_OK);
    const report = JSON.parse(stdout) as ClaimsReport;
    expect(report.version).toBe(1);
    expect(report.rows.map((r) => r.id)).toEqual(['odin-fig1-evict', 'odin-fig3-recovery']);
    expect(report.provenance.seeds).toBe(2);
    expect(report.provenance.machine).toMatch(/Node v\d+.*cores/);
    expect(report.provenance.command).toMatch(/^npm run claims --/);
    expect(Date.parse(report.provenance.date)).not.toBeNaN();
    for (const row of report.rows) {
      expect(['holds', 'partly', 'fails', 'noise']).toContain(row.verdict);
      expect(row.estimate!.seeds).toBe(2);
    }
  });

  it('prints a table and a Markdown reproduction report of the same numbers', async () => {
    const table = await cli(['claims', ...CHEAP]);
    expect(table.code).toBe(EXIT_OK);
    expect(table.stdout).toMatch(/^claim\s+verdict\s+lab\s+paper\s+flips it/);
    expect(table.stdout).toContain('2 claims:');
    const md = await cli(['claims', ...CHEAP, '--format', 'md', '--out', 'r.md']);
    expect(md.code).toBe(EXIT_OK);
    expect(md.stdout).toBe('');
    const text = md.written['r.md']!;
    expect(text).toContain('# Reproduction report');
    expect(text).toContain('| claim | paper | lab | verdict | what flips it |');
    expect(text).toContain('## ODIN Fig. 3, §3: `odin-fig3-recovery`');
    expect(text).toContain('| trial cost | serial |');
    const json = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json'])).stdout) as ClaimsReport;
    const lab = (await import('../scenario/claims')).formatEstimate(json.rows[0]!.estimate!);
    expect(table.stdout).toContain(lab);
    expect(text).toContain(lab);
  });

  it('gives the same numbers on worker threads as in this thread', async () => {
    const one = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json'])).stdout) as ClaimsReport;
    const two = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json', '--workers', '2'])).stdout) as ClaimsReport;
    expect(two.rows).toEqual(one.rows);
  }, 60_000);

  it.each([
    [['--paper', 'nature'], /^error: --paper: must be odin or bcedge, got "nature"/],
    [['--seeds', '0'], /^error: --seeds: must be an integer from 1 to 100, got "0"/],
    [['--workers', 'many'], /^error: --workers: /],
    [['--format', 'xml'], /^error: --format: must be one of table, json, md, got "xml"/],
    [['--claim', 'odin-fig99'], /^error: --claim: no claim "odin-fig99"/],
    [['--paper', 'bcedge', '--claim', 'odin-fig1-evict'], /^error: --claim: no claim of bcedge/],
    [['--out', 'missing/r.json'], /^error: --out: missing\/r.json: folder missing does not exist/],
  ])('refuses %j with exit 2, naming the flag, nothing on stdout', async (flags, message) => {
    const { code, stdout, stderr } = await cli(['claims', ...flags], { pathKind: () => 'missing' });
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('loads TensorFlow.js only when a chosen claim trains learners', () => {
    const io = { stdout: () => {}, stderr: () => {}, readFile: () => null, writeFile: () => {}, stderrIsTty: false } satisfies CliIo;
    expect(needsLearning(['claims', '--paper', 'odin'], io, CLI_WORLDS)).toBe(false);
    expect(needsLearning(['claims', '--skip-learning'], io, CLI_WORLDS)).toBe(false);
    expect(needsLearning(['claims', '--claim', 'bcedge-fig14-predictor-slo'], io, CLI_WORLDS)).toBe(true);
    expect(needsLearning(['claims'], io, CLI_WORLDS)).toBe(allClaims().some((c) => c.learns));
    expect(needsLearning(['claims', '--claim', 'bcedge-fig14-predictor-slo', '--shard', '0/2'], io, CLI_WORLDS)).toBe(true);
    expect(needsLearning(['claims', 'merge', 'a.json'], io, CLI_WORLDS)).toBe(false);
  });

  it('records the learning rows’ length and seeds in the provenance, the registry’s by default', async () => {
    const plain = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json'])).stdout) as ClaimsReport;
    expect(plain.provenance.learning).toEqual({ lengthS: 300, seeds: 4 });
    expect(plain.provenance.durationS).toBeGreaterThanOrEqual(0);
    const long = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json', '--learning-length', '3000', '--learning-seeds', '5'])).stdout) as ClaimsReport;
    expect(long.provenance.learning).toEqual({ lengthS: 3000, seeds: 5 });
    const strip = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json', '--learning-length', '3000', '--learning-seeds', '5', '--learning-readings-length', '300'])).stdout) as ClaimsReport;
    expect(strip.provenance.learning).toEqual({ lengthS: 3000, seeds: 5, readingsLengthS: 300 });
    // These two claims do not learn: the same rows.
    expect(long.rows).toEqual(plain.rows);
  });
});

/** Runs each shard of CHEAP into its own file, and gives the files (for merge) and the documents. */
async function shards(count: number, extra: string[] = [], env: (i: number) => Record<string, string> | undefined = () => undefined) {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const given = env(i);
    const flags = given === undefined ? ['--shard', `${i}/${count}`] : ['--shards', String(count)];
    const { code, stderr, written } = await cli(['claims', ...CHEAP, ...flags, ...extra, '--out', `shard-${i}.json`], given === undefined ? {} : { env: given });
    expect(stderr).toBe('');
    expect(code).toBe(EXIT_OK);
    files[`shard-${i}.json`] = written[`shard-${i}.json`]!;
  }
  return files;
}

const merge = (files: Record<string, string>, names = Object.keys(files), extra: string[] = []) => cli(['claims', 'merge', ...names, ...extra], { readFile: (p) => files[p] ?? null });

describe('claims in shards', () => {
  it('3 shards merged give exactly the rows of one unsharded run, in any file order; the shards split the cells, and the provenance says where each ran', async () => {
    const whole = JSON.parse((await cli(['claims', ...CHEAP, '--format', 'json'])).stdout) as ClaimsReport;
    const files = await shards(3);
    const documents = Object.values(files).map((t) => JSON.parse(t) as { kind: string; shard: { cells: number }; planCells: number; cells: unknown[] });
    expect(documents.map((d) => d.kind)).toEqual(['claims-shard', 'claims-shard', 'claims-shard']);
    // Round robin over the plan's cells: every shard has its share, and they add up to the plan.
    expect(documents.reduce((a, d) => a + d.cells.length, 0)).toBe(documents[0]!.planCells);
    for (const d of documents) expect(d.cells.length).toBeGreaterThanOrEqual(Math.floor(d.planCells / 3));
    for (const names of [Object.keys(files), Object.keys(files).reverse()]) {
      const { code, stdout, stderr } = await merge(files, names);
      expect(stderr).toBe('');
      expect(code).toBe(EXIT_OK);
      const merged = JSON.parse(stdout) as ClaimsReport;
      expect(merged.rows).toEqual(whole.rows);
      for (const key of ['commit', 'seeds', 'learning'] as const) expect(merged.provenance[key]).toEqual(whole.provenance[key]);
      expect(merged.provenance.shards!.map((x) => [x.index, x.count])).toEqual([
        [0, 3],
        [1, 3],
        [2, 3],
      ]);
      expect(merged.provenance.shards!.map((x) => x.cells)).toEqual(documents.map((d) => d.cells.length));
      expect(merged.provenance.machine).toMatch(/^3 shards on Node/);
    }
    // A table or Markdown of the merged report too.
    expect((await merge(files, Object.keys(files), ['--format', 'table'])).stdout).toContain('2 claims:');
  }, 60_000);

  it('takes the shard index from a Kubernetes Indexed Job as sweep does', async () => {
    const flagged = await shards(2);
    const indexed = await shards(2, [], (i) => ({ JOB_COMPLETION_INDEX: String(i) }));
    const cellsOf = (files: Record<string, string>) => Object.values(files).map((t) => (JSON.parse(t) as { cells: unknown }).cells);
    expect(cellsOf(indexed)).toEqual(cellsOf(flagged));
  }, 60_000);

  it('merge refuses shards of other seeds, claims, learning runs or commits, naming the field; and missing, overlapping or foreign files', async () => {
    const files = await shards(2);
    const other = async (flags: string[]) => (await shards(2, flags))['shard-1.json']!;
    const expectRefusal = async (set: Record<string, string>, message: RegExp) => {
      const { code, stdout, stderr } = await merge(set);
      expect(code).toBe(EXIT_USAGE);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    };
    const seeds3 = (await cli(['claims', ...CHEAP.slice(0, -1), '3', '--shard', '1/2', '--out', 'x.json'])).written['x.json']!;
    await expectRefusal({ 'shard-0.json': files['shard-0.json']!, 'shard-1.json': seeds3 }, /^error: shard-1\.json: plan\.seeds: 3 differs from shard-0\.json's 2/);
    const oneClaim = (await cli(['claims', '--claim', 'odin-fig1-evict', '--seeds', '2', '--shard', '1/2', '--out', 'x.json'])).written['x.json']!;
    await expectRefusal({ 'shard-0.json': files['shard-0.json']!, 'shard-1.json': oneClaim }, /^error: shard-1\.json: plan\.claims: /);
    await expectRefusal({ 'shard-0.json': files['shard-0.json']!, 'shard-1.json': await other(['--learning-length', '600']) }, /^error: shard-1\.json: plan\.learning: .*--learning-length/);
    const elsewhere = JSON.stringify({ ...(JSON.parse(files['shard-1.json']!) as { plan: object }), plan: { ...(JSON.parse(files['shard-1.json']!) as { plan: object }).plan, commit: 'abc1234' } });
    await expectRefusal({ 'shard-0.json': files['shard-0.json']!, 'shard-1.json': elsewhere }, /^error: shard-1\.json: plan\.commit: "abc1234" differs/);
    const planned = JSON.parse(files['shard-0.json']!) as { plan: { plan: string } };
    const stalePlan = JSON.stringify({ ...planned, plan: { ...planned.plan, plan: '0123456789abcdef' } });
    await expectRefusal({ 'shard-0.json': stalePlan }, /^error: plan\.plan: the shards ran plan 0123456789abcdef/);
    await expectRefusal({ 'shard-0.json': files['shard-0.json']! }, /^error: claims merge: \d+ of the plan's \d+ cells are missing: no file holds shard 1\/2/);
    await expectRefusal({ 'shard-0.json': files['shard-0.json']!, 'again.json': files['shard-0.json']! }, /^error: again\.json: shard\.index: shard 0\/2 is also shard-0\.json/);
    await expectRefusal({ 'shard-0.json': files['shard-0.json']!, 'three.json': (await shards(3))['shard-1.json']! }, /^error: three\.json: shard\.count: is one of 3 shards/);
    await expectRefusal({ 'shard-0.json': '{"shard": {"index": 0, "count": 1}, "seeds": [1], "scenario": {}, "cells": []}' }, /^error: shard-0\.json: kind: is a sweep's shard: merge it with merge FILE/);
    await expectRefusal({ 'shard-0.json': 'not json' }, /^error: shard-0\.json: is not valid JSON/);
    // And the sweep's merge names a claims shard for what it is.
    const { stderr } = await cli(['merge', 'shard-0.json'], { readFile: (p) => files[p] ?? null });
    expect(stderr).toMatch(/^error: shard-0\.json: kind: is a shard of the claims report: merge it with claims merge FILE/);
  }, 120_000);

  it.each([
    [['--shard', '0/2', '--format', 'md'], /^error: --format: a shard writes JSON for claims merge/],
    [['--shard', '2/2'], /^error: --shard: must be I\/N with 0 ≤ I < N/],
    [['--shards', '2'], /^error: --shards: needs JOB_COMPLETION_INDEX/],
    [['--learning-length', '5'], /^error: --learning-length: must be an integer from 10 to 100000, got "5"/],
    [['--learning-seeds', '0'], /^error: --learning-seeds: must be an integer from 1 to 100, got "0"/],
    [['--learning-readings-length', '9'], /^error: --learning-readings-length: must be an integer from 10 to 100000, got "9"/],
    [['split'], /^error: claims: "split" is not an action of claims/],
    [['merge'], /^error: claims merge: needs the shard files/],
    [['merge', 'none.json'], /^error: none\.json: no such file/],
  ])('refuses %j with exit 2, naming the flag, nothing on stdout', async (flags, message) => {
    const { code, stdout, stderr } = await cli(['claims', ...CHEAP, ...flags]);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });
});
