import { describe, expect, it } from 'vitest';
import { CLAIMS } from '../scenario/claims';
import type { ClaimsReport } from '../scenario/claimsReport';
import { EXIT_OK, EXIT_USAGE, needsLearning, runCli, type CliIo } from './cli';

async function cli(args: string[], extra: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const written: Record<string, string> = {};
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: () => null,
    writeFile: (p, t) => (written[p] = t),
    stderrIsTty: false,
    ...extra,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr, written };
}

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
    expect(needsLearning(['claims', '--paper', 'odin'], io)).toBe(false);
    expect(needsLearning(['claims', '--skip-learning'], io)).toBe(false);
    expect(needsLearning(['claims', '--claim', 'bcedge-fig14-predictor-slo'], io)).toBe(true);
    expect(needsLearning(['claims'], io)).toBe(CLAIMS.some((c) => c.learns));
  });
});
