import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../../lib/tf';
import { loadTfNode } from '../../../../lib/tfNode';
import type { PipelineScheduler } from '../../engine/scheduler';
import type { HogWorker, SpawnHog } from '../hogs';
import { inProcessStage, type InProcessStageOptions } from './inProcess';
import { runRealPipeline, type LiveInterferenceEdit, type RealEnvironment, type RealRunOptions } from './pipeline';
import type { StageRequest } from './protocol';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

const now = () => performance.now();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A hog that reports at once and then every 20 ms, and records when it started working and
 * stopped; an armed one is spawned (`spawned`), reports once, and starts at its message.
 */
function fakeHogs(): { spawn: SpawnHog; log: { event: 'start' | 'stop'; kind: string; atMs: number }[]; spawned: { kind: string; atMs: number; armed: boolean }[] } {
  const log: { event: 'start' | 'stop'; kind: string; atMs: number }[] = [];
  const spawned: { kind: string; atMs: number; armed: boolean }[] = [];
  const spawn: SpawnHog = (config, onReport) => {
    spawned.push({ kind: config.kind, atMs: now(), armed: config.armed === true });
    let timer: ReturnType<typeof setInterval> | null = null;
    const begin = () => {
      log.push({ event: 'start', kind: config.kind, atMs: now() });
      const report = () => onReport({ kind: config.kind, work: 1, elapsedMs: 20, checksum: 0 });
      timer = setInterval(report, 20);
      setTimeout(report, 0);
    };
    if (config.armed === true) setTimeout(() => onReport({ kind: config.kind, work: 0, elapsedMs: 0, checksum: 0 }), 0);
    else begin();
    const worker: HogWorker = {
      terminate: () => {
        if (timer !== null) clearInterval(timer);
        log.push({ event: 'stop', kind: config.kind, atMs: now() });
      },
      start: begin,
    };
    return worker;
  };
  return { spawn, log, spawned };
}

const STATIC: PipelineScheduler = { id: 'static' };

function options(overrides: Partial<RealRunOptions>): RealRunOptions {
  return {
    source: { kind: 'tiny', units: 4, inputSize: 8, channels: 4 },
    seed: 3,
    executionPlaces: 2,
    queries: 30,
    assumptions: { bufferCapacity: 1, detectionThreshold: 0.05, detectionSignal: 'bottleneck' },
    initialConfiguration: Int32Array.of(2, 2),
    scheduler: STATIC,
    events: [],
    random: null,
    traceSeed: 1,
    coresPerEp: 1,
    hogBufferMiB: 16,
    ...overrides,
  };
}

function environment(stage: (index: number) => InProcessStageOptions = () => ({}), spawnHog: SpawnHog = fakeHogs().spawn): RealEnvironment {
  return { now, sleep, spawnStage: (i) => inProcessStage(tf, now, stage(i)), spawnHog };
}

describe('the real pipeline (in-process stages, a tiny network)', () => {
  it('serves every query once, in order, through the stages in order, and frees every tensor', async () => {
    const before = tf.memory().numTensors;
    const seen: number[][] = [[], []];
    const result = await runRealPipeline(
      options({}),
      environment((i) => ({ onRequest: (r: StageRequest) => void (r.type === 'run' && seen[i]!.push(r.query)) })),
    );
    const order = Array.from({ length: 30 }, (_, q) => q);
    expect(result.queries.map((q) => q.query)).toEqual(order);
    expect(seen).toEqual([order, order]);
    for (const q of result.queries) {
      expect(q.stageTimesMs[0]).toBeGreaterThan(0);
      expect(q.stageTimesMs[1]).toBeGreaterThan(0);
      expect(q.completionMs).toBeGreaterThanOrEqual(q.admittedMs);
      expect(q.configuration).toBe('2,2');
    }
    expect(result.durationMs).toBeGreaterThan(0);
    expect(result.stageTensors.every((t) => t > 0)).toBe(true);
    expect(tf.memory().numTensors).toBe(before);
  }, 60_000);

  for (const buffer of [0, 1, 3]) {
    it(`bounded queues block: with a buffer of ${buffer} a stage runs at most ${buffer + 1} queries ahead of the next one`, async () => {
      // Three one-unit stages, the last one slow: the queues fill up behind it.
      const started = [0, 0, 0];
      const ahead = [0, 0];
      const result = await runRealPipeline(
        options({
          source: { kind: 'tiny', units: 3, inputSize: 8, channels: 4 },
          executionPlaces: 3,
          queries: 16,
          initialConfiguration: Int32Array.of(1, 1, 1),
          assumptions: { bufferCapacity: buffer, detectionThreshold: 0.05, detectionSignal: 'bottleneck' },
        }),
        environment((i) => ({
          delayMs: i === 2 ? 15 : 0,
          onRequest: (r: StageRequest) => {
            if (r.type !== 'run') return;
            started[i] = started[i]! + 1;
            for (let k = 0; k < 2; k += 1) ahead[k] = Math.max(ahead[k]!, started[k]! - started[k + 1]!);
          },
        })),
      );
      expect(result.queries).toHaveLength(16);
      // A stage holds one query (in service or finished and blocked) and its successor's buffer b more.
      expect(ahead).toEqual([buffer + 1, buffer + 1]);
    }, 60_000);
  }

  it('a reconfiguration moves units, keeps the output bit for bit, and a hog starts and stops with its event', async () => {
    // An oracle that sees the modes: one more unit on EP 0 while EP 1 hosts a memBW workload (mode B).
    const oracle: PipelineScheduler = {
      id: 'test-oracle',
      onModesChange: ({ modes }) => (modes[1] === 0 ? Int32Array.of(2, 2) : Int32Array.of(3, 1)),
    };
    const hogs = fakeHogs();
    let firstRunAt = Number.NaN;
    const result = await runRealPipeline(
      options({ scheduler: oracle, queries: 30, events: [{ executionPlace: 1, mode: 1, fromQuery: 10, toQuery: 20 }] }),
      environment(() => ({ onRequest: (r: StageRequest) => void (r.type === 'run' && Number.isNaN(firstRunAt) && (firstRunAt = now())) }), hogs.spawn),
    );
    // The event's hog was spawned armed before the first query ran, and only started at its event.
    expect(hogs.spawned.map((h) => [h.kind, h.armed])).toEqual([['memBW', true]]);
    expect(hogs.spawned[0]!.atMs).toBeLessThan(firstRunAt);
    expect(hogs.log[0]!.atMs).toBeGreaterThan(firstRunAt);
    expect(result.reconfigurations.map((r) => [r.beforeQuery, r.from, r.to, r.unitsBuilt, r.unitsFreed])).toEqual([
      [10, '2,2', '3,1', 1, 1],
      [20, '3,1', '2,2', 1, 1],
    ]);
    expect(result.queries.map((q) => q.configuration)).toEqual([...Array<string>(10).fill('2,2'), ...Array<string>(10).fill('3,1'), ...Array<string>(10).fill('2,2')]);
    expect(result.queries.map((q) => q.modes[1])).toEqual([...Array<number>(10).fill(0), ...Array<number>(10).fill(1), ...Array<number>(10).fill(0)]);
    // The same input gives the same output tensor before and after the moves.
    expect(result.firstOutput).not.toBeNull();
    expect(Array.from(result.lastOutput!)).toEqual(Array.from(result.firstOutput!));
    // Mode B on a 1-core EP is one memBW hog, started before query 10 and stopped before query 20.
    expect(hogs.log.map((e) => [e.event, e.kind])).toEqual([
      ['start', 'memBW'],
      ['stop', 'memBW'],
    ]);
    const admitted = (q: number) => result.queries[q]!.admittedMs;
    const t0 = result.queries[0]!.admittedMs;
    const startAt = hogs.log[0]!.atMs;
    const stopAt = hogs.log[1]!.atMs;
    expect(stopAt).toBeGreaterThan(startAt);
    // The log's clock is the same wall clock; the run's times count from its start (query 0's admission is ~0).
    expect(t0).toBeGreaterThanOrEqual(0);
    expect(admitted(10)).toBeGreaterThan(admitted(9));
    expect(admitted(20)).toBeGreaterThan(admitted(19));
  }, 60_000);

  it('with units resident a move is an ownership change: outputs bit for bit, nothing built or freed, no unit warmed on the move', async () => {
    const oracle: PipelineScheduler = {
      id: 'test-oracle',
      onModesChange: ({ modes }) => (modes[1] === 0 ? Int32Array.of(2, 2) : Int32Array.of(4, 0)),
    };
    const before = tf.memory().numTensors;
    const holds: StageRequest[][] = [[], []];
    const result = await runRealPipeline(
      options({ scheduler: oracle, queries: 24, residentBudgetMiB: 64, events: [{ executionPlace: 1, mode: 1, fromQuery: 8, toQuery: 16 }] }),
      environment((i) => ({ onRequest: (r: StageRequest) => void (r.type === 'hold' && holds[i]!.push(r)) })),
    );
    // The tiny network's 4 units: every stage holds all of them.
    expect(result.resident.units).toEqual([4, 4]);
    expect(result.resident.bytes.every((b) => b > 0 && b <= (64 * 2 ** 20) / 2)).toBe(true);
    expect(result.reconfigurations.map((r) => [r.beforeQuery, r.from, r.to, r.unitsBuilt, r.unitsFreed])).toEqual([
      [8, '2,2', '4,0', 0, 0],
      [16, '4,0', '2,2', 0, 0],
    ]);
    expect(holds[0]!.length).toBe(3);
    expect(result.queries.map((q) => q.configuration)).toEqual([...Array<string>(8).fill('2,2'), ...Array<string>(8).fill('4,0'), ...Array<string>(8).fill('2,2')]);
    expect(Array.from(result.lastOutput!)).toEqual(Array.from(result.firstOutput!));
    // Every resident unit is freed at the end.
    expect(tf.memory().numTensors).toBe(before);
  }, 60_000);

  it('the same run without residency builds on the move and gives the same outputs bit for bit', async () => {
    const oracle: PipelineScheduler = {
      id: 'test-oracle',
      onModesChange: ({ modes }) => (modes[1] === 0 ? Int32Array.of(2, 2) : Int32Array.of(4, 0)),
    };
    const run = (residentBudgetMiB: number) => runRealPipeline(options({ scheduler: oracle, queries: 24, residentBudgetMiB, events: [{ executionPlace: 1, mode: 1, fromQuery: 8, toQuery: 16 }] }), environment());
    const resident = await run(64);
    const onMove = await run(0);
    expect(onMove.resident.units).toEqual([0, 0]);
    expect(onMove.reconfigurations.map((r) => [r.unitsBuilt, r.unitsFreed])).toEqual([
      [2, 2],
      [2, 2],
    ]);
    expect(Array.from(onMove.lastOutput!)).toEqual(Array.from(resident.lastOutput!));
  }, 60_000);

  it('units that do not fit the resident budget are built on the move, the others are not', async () => {
    const oracle: PipelineScheduler = {
      id: 'test-oracle',
      onModesChange: ({ modes }) => (modes[1] === 0 ? Int32Array.of(2, 2) : Int32Array.of(4, 0)),
    };
    // 1.3 KiB a stage: a few of the tiny network's convolutions (4·4·3·3 + 4 floats ≈ 0.6 KiB each), not its dense layer.
    const result = await runRealPipeline(options({ scheduler: oracle, queries: 24, residentBudgetMiB: 2.6 / 1024, events: [{ executionPlace: 1, mode: 1, fromQuery: 8, toQuery: 16 }] }), environment());
    expect(result.resident.units.every((u) => u >= 1 && u < 4)).toBe(true);
    // EP 0 receives units 2 and 3 and keeps them after the way back; some of them had to be built.
    const built = result.reconfigurations.map((r) => r.unitsBuilt);
    expect(built[0]).toBeGreaterThan(0);
    expect(Array.from(result.lastOutput!)).toEqual(Array.from(result.firstOutput!));
  }, 60_000);

  it('a workload dragged on during the run starts its hogs from the next query admitted, and stops them when dragged off', async () => {
    const hogs = fakeHogs();
    const edits: LiveInterferenceEdit[] = [];
    let served = 0;
    const result = await runRealPipeline(options({ queries: 24 }), { ...environment(() => ({}), hogs.spawn), liveEdits: () => edits.splice(0) }, (progress) => {
      if (progress.kind !== 'query') return;
      served += 1;
      // Placed after the 6th completion, taken off after the 14th: each from the next admission.
      if (served === 6) edits.push({ kind: 'add', id: 7, executionPlace: 1, mode: 4 });
      if (served === 14) edits.push({ kind: 'end', id: 7 });
    });
    const placed = result.liveEdits.map((e) => [e.edit.kind, e.atQuery]);
    expect(placed.map((e) => e[0])).toEqual(['add', 'end']);
    const [from, to] = [placed[0]![1] as number, placed[1]![1] as number];
    expect(from).toBeGreaterThanOrEqual(6);
    expect(to).toBeGreaterThan(from);
    // Exactly the queries admitted in [from, to) ran with EP 1 in mode E.
    expect(result.queries.map((q) => q.modes[1])).toEqual(result.queries.map((q) => (q.query >= from && q.query < to ? 4 : 0)));
    // Mode E on a 1-core EP: one memBW hog per kind of Table 1's row, started and stopped once.
    expect(hogs.log.filter((e) => e.event === 'start').length).toBeGreaterThan(0);
    expect(hogs.log.filter((e) => e.event === 'start').length).toBe(hogs.log.filter((e) => e.event === 'stop').length);
  }, 60_000);

  it('ODIN-style schedulers see the measured stage times: a scheduler that always moves a unit runs serial trials', async () => {
    // Fires on the first change the monitor sees; a zero threshold makes any jitter a change.
    let phases = 0;
    const mover: PipelineScheduler = {
      id: 'test-mover',
      *rebalance(context) {
        phases += 1;
        const trial = context.configuration[0]! > 1 ? Int32Array.of(context.configuration[0]! - 1, context.configuration[1]! + 1) : Int32Array.of(2, 2);
        const observed = yield trial;
        expect(observed.length).toBe(2);
        return trial;
      },
    };
    const result = await runRealPipeline(options({ scheduler: mover, queries: 12, assumptions: { bufferCapacity: 1, detectionThreshold: 0, detectionSignal: 'bottleneck' } }), environment());
    expect(result.queries).toHaveLength(12);
    expect(phases).toBeGreaterThan(0);
    expect(result.rebalancings).toBe(phases);
    const trials = result.queries.filter((q) => q.kind === 'trial');
    expect(trials.length).toBeGreaterThan(0);
    // A trial runs alone: no other query is inside while it is.
    for (const t of trials) {
      for (const q of result.queries) if (q !== t) expect(q.completionMs <= t.admittedMs || q.admittedMs >= t.completionMs).toBe(true);
    }
    expect(result.reconfigurations.some((r) => r.trial)).toBe(true);
  }, 60_000);
});
