// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The lab shell's figures (ARCHITECTURE §7a, §7a′): serving seeks 600 and 2,900 simulated seconds
 * back in a 3000 s run with a BCEdge lane through the checkpoints, against replaying from time 0
 * measured in the same run, and the checkpoints' memory; and the JavaScript the page loads first (gzip), which the
 * pipeline lab should keep at or under 120 kB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AgentFile } from '../src/worlds/serving/agents/learner';
import { createLatencyPredictor } from '../src/worlds/serving/agents/predictorAdapter';
import { createLearningFactory, type AgentLibrary } from '../src/worlds/serving/agents/registry';
import type { Tf } from '../src/lib/tf';
import { SERVING_PRESETS } from '../src/worlds/serving/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import type { ServingCheckpointPolicy } from '../src/worlds/serving/worker/servingCheckpoints';
import { ServingSession } from '../src/worlds/serving/worker/servingSession';
import { firstLoadFiles } from './firstLoadMap';
import type { BenchRow } from './row';


/** A serving session in this thread with the learners of the worker (tfjs, shipped agents). */
function servingSession(tf: Tf, checkpoints: Partial<ServingCheckpointPolicy> = {}): ServingSession {
  const agents: AgentLibrary = {};
  if (existsSync('public/agents/bcedge.json')) agents.bcedge = JSON.parse(readFileSync('public/agents/bcedge.json', 'utf8')) as AgentFile;
  const session = new ServingSession({ now: () => performance.now(), schedule: () => undefined, emit: () => undefined }, checkpoints);
  session.setLearning(createLearningFactory(tf, { agents, predictor: (context) => createLatencyPredictor(tf, context) }));
  return session;
}

/**
 * Seeks on a 3000 s run of bcedge-dynamic with a Triton (fixed) lane and a BCEdge lane
 * (predictor on), played to its end: 600 s back (3000 → 2400 s) and 2,900 s back (3000 →
 * 100 s), each through the checkpoints (ARCHITECTURE §7a) and, as the baseline, the same seek
 * in a second session of the same run that keeps only the checkpoint at 0 s (a replay from
 * time 0, as the serving world went back before checkpoints). Also the checkpoints' memory at
 * the end, and what taking them costs while playing (the two sessions' plays to the end).
 */
export function benchServingSeek(tf: Tf, rows: BenchRow[]): Record<string, number> {
  const preset = structuredClone(SERVING_PRESETS.find((p) => p.id === 'bcedge-dynamic')!.scenario) as ServingScenario;
  const scenario: ServingScenario = { ...preset, serving: { ...preset.serving, lanes: [{ scheduler: 'fixed' }, { scheduler: 'bcedge' }] } };
  const endMs = scenario.serving.durationS * 1000;
  const play = (session: ServingSession): number => {
    const loaded = session.load(scenario);
    if (!loaded.ok) throw new Error(`bench scenario: ${loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    const t0 = performance.now();
    session.step(endMs);
    return performance.now() - t0;
  };
  const seek = (session: ServingSession, targetMs: number): number => {
    const t0 = performance.now();
    const result = session.seek(targetMs);
    const ms = performance.now() - t0;
    if (!result.ok) throw new Error('seek refused');
    return ms;
  };
  const checkpointed = servingSession(tf);
  const playMs = play(checkpointed);
  const memory = checkpointed.checkpointMemory()!;
  const replayed = servingSession(tf, { everyMs: 2 * endMs });
  const playReplayMs = play(replayed);
  /** 1 s before the first checkpoint at or after `targetMs` (the end when none is): the longest replay near it. */
  const worstNear = (targetMs: number): number => (memory.positions.find((p) => p >= targetMs) ?? endMs) - 1000;
  /** How far a seek to `targetMs` replays: from the checkpoint at or before it. */
  const replayS = (targetMs: number): number => (targetMs - memory.positions.findLast((p) => p <= targetMs)!) / 1000;
  const results: Record<string, number> = { playMs, playReplayMs, checkpoints: memory.count, spacingMs: memory.spacing, checkpointBytes: memory.bytes };
  for (const backS of [600, 2900]) {
    const targetMs = endMs - backS * 1000;
    // The target itself may hold a checkpoint (a seek there restores it and replays nothing), so
    // the row is the worse of it and 1 s before the first checkpoint at or after it: the longest
    // replay near it, from the checkpoint before.
    const worstMs = worstNear(targetMs);
    // Each seek from the end: seeking back there first.
    seek(checkpointed, endMs);
    const atMs = seek(checkpointed, targetMs);
    seek(checkpointed, endMs);
    const beforeMs = seek(checkpointed, worstMs);
    const seekMs = Math.max(atMs, beforeMs);
    seek(replayed, endMs);
    const replayMs = seek(replayed, atMs >= beforeMs ? targetMs : worstMs);
    rows.push({
      name: `serving seek ${backS.toLocaleString('en')} s back (3000 → ${targetMs / 1000} s, bcedge-dynamic, Triton + BCEdge lane, checkpoints)`,
      value: seekMs,
      unit: 'ms',
      target: '≤ 300',
      met: seekMs <= 300,
      baseline: replayMs,
      ratio: seekMs / replayMs,
      note: `the worse of the seeks to ${targetMs / 1000} s (${Math.round(atMs)} ms) and ${worstMs / 1000} s (${Math.round(beforeMs)} ms: the most to replay, ${replayS(worstMs)} s from the checkpoint before); baseline = that seek replaying from time 0 (a session keeping only the checkpoint at 0 s); checkpoints ${memory.spacing / 1000} s apart at the end of the run`,
    });
    results[`seek${backS}Ms`] = seekMs;
    results[`seek${backS}AtMs`] = atMs;
    results[`seek${backS}BeforeMs`] = beforeMs;
    results[`replay${backS}Ms`] = replayMs;
  }
  // Forward: from 100 s to the end (3000 s), which the checkpoints past 100 s serve (a restore, not a replay of 2,900 s).
  seek(checkpointed, endMs - 2_900_000);
  const forwardTargetMs = worstNear(endMs - 1000);
  const forwardMs = seek(checkpointed, forwardTargetMs);
  rows.push({
    name: `serving seek 2,900 s forward (100 → ${forwardTargetMs / 1000} s, bcedge-dynamic, Triton + BCEdge lane, checkpoints)`,
    value: forwardMs,
    unit: 'ms',
    target: '≤ 300',
    met: forwardMs <= 300,
    note: `to 1 s before the checkpoint at or after 2999 s (the end when none is), ${replayS(forwardTargetMs)} s past the checkpoint before; the checkpoints past the run's position belong to it (an edit drops those past it), so a forward seek starts from the latest before its target`,
  });
  results['forward2900Ms'] = forwardMs;
  const mb = memory.bytes / (1024 * 1024);
  rows.push({
    name: 'serving checkpoints of a 3000 s run (bcedge-dynamic, Triton + BCEdge lane)',
    value: mb,
    unit: 'MB',
    target: '≤ 256',
    met: mb <= 256,
    note: `${memory.count} checkpoints, ${memory.spacing / 1000} s apart at the end (10 s at first, the spacing then fitted to the run's length and the budget, at most 300 and 256 MB); shared parts (replay-buffer chunks, slot records) counted once`,
  });
  rows.push({
    name: 'serving play 0 → 3000 s taking checkpoints (bcedge-dynamic, Triton + BCEdge lane)',
    value: playMs,
    unit: 'ms',
    baseline: playReplayMs,
    ratio: playMs / playReplayMs,
    note: 'baseline = the same play keeping only the checkpoint at 0 s',
  });
  return results;
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
