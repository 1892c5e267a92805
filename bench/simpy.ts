/**
 * The pipeline engine against a SimPy model of the same pipeline, in the same bench run
 * (`npm run bench`, `BENCH_ONLY=simpy`): VGG16 × 4, static, no interference, saturated,
 * buffers of the default capacity. The model is bench/simpyPipeline.py (SimPy 3/4 or Debian's
 * SimPy 2); it gets the engine's own stage times, and its last completion must equal the
 * engine's (the same queueing model), which the row's note says. Without a Python that has
 * SimPy, the row says so and has no value.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PIPELINE_ASSUMPTIONS } from '../src/worlds/pipeline/engine/assumptions';
import { PipelineRun, type PipelineRunSpec } from '../src/worlds/pipeline/engine/simulation';
import { compileDatabase, computeStageTimes } from '../src/worlds/pipeline/engine/stageTimes';
import { getDatabase } from '../src/worlds/pipeline/engine/profiles/databases';
import { createStatic } from '../src/worlds/pipeline/schedulers/static';
import type { BenchRow } from './row';

const SCRIPT = fileURLToPath(new URL('./simpyPipeline.py', import.meta.url));
/** Queries SimPy simulates (it is about a hundred times slower), and the engine. */
const SIMPY_QUERIES = 50_000;
const ENGINE_QUERIES = 1_000_000;
/** Rounds of SimPy then the engine. */
const ROUNDS = 5;
/** Runs of the engine before the rounds (the first timed as the cold run). */
const WARMUP_RUNS = 8;

function spec(queries: number): PipelineRunSpec {
  return { database: compileDatabase(getDatabase('vgg16')), executionPlaces: 4, queries, seed: 1, events: [], random: null, assumptions: DEFAULT_PIPELINE_ASSUMPTIONS };
}

interface SimpyResult {
  readonly version: string;
  readonly python: string;
  readonly lastCompletionMs: number;
  readonly wallMs: number;
}

/** Runs the model with the first Python that has SimPy; null and why when none does. */
function runSimpy(stageTimesMs: readonly number[], queries: number, capacity: number): { result: SimpyResult } | { missing: string } {
  const tried: string[] = [];
  for (const python of ['python3', '/usr/bin/python3', 'python']) {
    const run = spawnSync(python, [SCRIPT, String(queries), String(capacity), ...stageTimesMs.map(String)], { encoding: 'utf8', timeout: 600_000 });
    if (run.status === 0) return { result: JSON.parse(run.stdout) as SimpyResult };
    tried.push(`${python}: ${run.error?.message ?? (run.stderr.trim().split('\n').at(-1) || `exit ${run.status}`)}`);
  }
  return { missing: `SimPy not available (${tried.join('; ')}); install it (pip install simpy, or Debian's python3-simpy) to compare` };
}

/** Appends the row; returns the details for bench/results.json. */
export function benchSimpy(rows: BenchRow[]): object {
  const run = new PipelineRun(spec(SIMPY_QUERIES), createStatic());
  const counts = run.configuration;
  const times = new Float64Array(4);
  computeStageTimes(spec(1).database, counts, new Uint8Array(4), DEFAULT_PIPELINE_ASSUMPTIONS.hopMs, times);
  let engineLastMs = 0;
  run.advance(SIMPY_QUERIES, (r) => (engineLastMs = r.completionMs));
  // Rounds, each SimPy then the engine, so that the machine's drift (up to 2× between minutes
  // here) hits both alike: the figure is the median of the rounds' ratios. The engine is
  // compared warm (its JIT settles over its first few runs: from about 6 to 11–16 M queries/s
  // here), as a sweep runs it; its first, cold run is reported beside. SimPy starts a fresh
  // interpreter each round, as a person runs it.
  const engineRun = (): number => {
    const t0 = performance.now();
    new PipelineRun(spec(ENGINE_QUERIES), createStatic()).runToEnd();
    return (ENGINE_QUERIES / (performance.now() - t0)) * 1000;
  };
  const coldQps = engineRun();
  for (let i = 1; i < WARMUP_RUNS; i++) engineRun();
  const rounds: { simpyQps: number; engineQps: number }[] = [];
  let simpy: ReturnType<typeof runSimpy> = { missing: '' };
  for (let i = 0; i < ROUNDS; i++) {
    simpy = runSimpy(Array.from(times), SIMPY_QUERIES, DEFAULT_PIPELINE_ASSUMPTIONS.bufferCapacity);
    const engineQps = engineRun();
    if ('missing' in simpy) {
      rounds.push({ simpyQps: Number.NaN, engineQps });
      continue;
    }
    rounds.push({ simpyQps: (SIMPY_QUERIES / simpy.result.wallMs) * 1000, engineQps });
  }
  const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const engineQps = median(rounds.map((r) => r.engineQps));
  const name = 'pipeline engine vs a SimPy model of it, VGG16 × 4 static, no interference';
  if ('missing' in simpy) {
    rows.push({ name, value: engineQps, unit: 'queries/s', target: '≥ 100× SimPy', note: simpy.missing });
    return { engineQps, simpy: null, reason: simpy.missing };
  }
  const s = simpy.result;
  const simpyQps = median(rounds.map((r) => r.simpyQps));
  const ratios = rounds.map((r) => r.engineQps / r.simpyQps);
  const ratio = median(ratios);
  const relativeGap = Math.abs(s.lastCompletionMs - engineLastMs) / engineLastMs;
  rows.push({
    name,
    value: engineQps,
    unit: 'queries/s',
    baseline: simpyQps,
    ratio,
    target: '≥ 100×',
    met: ratio >= 100,
    note: `${s.version} on Python ${s.python}, ${SIMPY_QUERIES.toLocaleString('en-US')} queries (the engine ${ENGINE_QUERIES.toLocaleString('en-US')}); ${ROUNDS} rounds of SimPy then the engine (warmed by ${WARMUP_RUNS} runs), the ratio the median of theirs (${ratios.map((r) => `${r.toFixed(0)}×`).join(', ')}); the engine's first, cold run ${(coldQps / 1e6).toFixed(2)} M queries/s, ${(coldQps / simpyQps).toFixed(0)}× SimPy's median; last completion: engine ${engineLastMs.toFixed(3)} ms, SimPy ${s.lastCompletionMs.toFixed(3)} ms (${relativeGap < 1e-9 ? 'the same' : `relative gap ${relativeGap.toExponential(2)}`})`,
  });
  return { engineQps, coldQps, simpyQps, ratio, rounds, simpy: s, engineLastMs, stageTimesMs: Array.from(times) };
}
