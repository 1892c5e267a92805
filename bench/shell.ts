/**
 * The lab shell's figures (ARCHITECTURE §7a, §7a′): a serving seek 600 simulated seconds back with a
 * BCEdge lane (time travel replays from time 0), against the uninterrupted run to the same
 * point measured in the same run; and the JavaScript the page loads first (gzip), which the
 * pipeline lab should keep at or under 120 kB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AgentFile } from '../src/agents/learner';
import { createLatencyPredictor } from '../src/agents/predictorAdapter';
import { createLearningFactory, type AgentLibrary } from '../src/agents/registry';
import type { Tf } from '../src/agents/tf';
import { SERVING_PRESETS } from '../src/scenario/presets';
import type { ServingScenario } from '../src/scenario/schema';
import { ServingSession } from '../src/worker/servingSession';
import { firstLoadFiles } from './firstLoadMap';
import type { BenchRow } from './row';


/** A serving session in this thread with the learners of the worker (tfjs, shipped agents). */
function servingSession(tf: Tf): ServingSession {
  const agents: AgentLibrary = {};
  if (existsSync('public/agents/bcedge.json')) agents.bcedge = JSON.parse(readFileSync('public/agents/bcedge.json', 'utf8')) as AgentFile;
  const session = new ServingSession({ now: () => performance.now(), schedule: () => undefined, emit: () => undefined });
  session.setLearning(createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context) }));
  return session;
}

/**
 * Seek 600 simulated s back from 1200 s, with the fixed (Triton) lane and a BCEdge lane:
 * the serving world replays from time 0 (ARCHITECTURE §1), so the seek runs 0 → 600 s again,
 * the learner trained anew bit for bit. Its baseline is playing those 600 s forward
 * (600 → 1200 s) in the same session just before.
 */
export function benchServingSeek(tf: Tf, rows: BenchRow[]): Record<string, number> {
  const preset = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  const scenario: ServingScenario = { ...preset, serving: { ...preset.serving, durationS: 1200, lanes: [{ scheduler: 'fixed' }, { scheduler: 'bcedge' }] } };
  const session = servingSession(tf);
  const loaded = session.load(scenario);
  if (!loaded.ok) throw new Error(`bench scenario: ${loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  const t0 = performance.now();
  session.step(600_000);
  const firstHalfMs = performance.now() - t0;
  const t1 = performance.now();
  session.step(600_000);
  const forwardMs = performance.now() - t1;
  const t2 = performance.now();
  const result = session.seek(600_000);
  const seekMs = performance.now() - t2;
  if (!result.ok) throw new Error('seek refused');
  rows.push({
    name: 'serving seek 600 s back (from 1200 s, Triton + BCEdge lane, replay from 0)',
    value: seekMs,
    unit: 'ms',
    baseline: forwardMs,
    ratio: seekMs / forwardMs,
    note: `baseline = playing the same lanes 600 s forward (600 → 1200 s); a seek back replays 0 → 600 s (which took ${Math.round(firstHalfMs)} ms the first time), learning lanes included (no checkpoints: memory is one run)`,
  });
  return { seekMs, forwardMs, firstHalfMs };
}

/**
 * The page's first-load JavaScript (the entry and what it preloads), gzip level 9, of a fresh
 * production build into `outDir`; `bench/firstLoadMap.ts` says what those bytes are.
 */
export function benchFirstLoad(rows: BenchRow[], outDir = 'dist-bench'): Record<string, number> {
  const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  const files = firstLoadFiles(outDir);
  let gzip = 0;
  let raw = 0;
  for (const f of files) {
    const bytes = readFileSync(join(outDir, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  const kB = gzip / 1000;
  rows.push({
    name: `first-load JavaScript of the pipeline lab (${files.length} file${files.length === 1 ? '' : 's'}, gzip)`,
    value: kB,
    unit: 'kB',
    target: '≤ 120',
    met: kB <= 120,
    note: `${(raw / 1000).toFixed(0)} kB raw; the serving lab, Explore, Claims, Measure and the workers load later; by package: npx tsx bench/firstLoadMap.ts`,
  });
  return { gzipBytes: gzip, rawBytes: raw, files: files.length };
}
