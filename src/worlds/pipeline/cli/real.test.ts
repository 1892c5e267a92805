import { beforeAll, describe, expect, it } from 'vitest';
import type { Tf } from '../../../lib/tf';
import { loadTfNode } from '../../../lib/tfNode';
import { getDatabase } from '../engine/profiles/databases';
import { inProcessStage } from '../measure/realPipeline/inProcess';
import { runRealPipeline } from '../measure/realPipeline/pipeline';
import { findPreset } from '../../../scenario/presets';
import { coreMapping, realLaneOptions } from '../scenario/realPipeline';
import type { PipelineScenario } from '../schema';
import { runCli, type CliIo } from '../../../cli/cli';
import { CLI_WORLDS } from '../../commands';
import { realMarkdown, runReal, type LiveEdit, type RealDeps } from '../scenario/realRun';
import { measureDatabase } from '../measure/runner';
import { spawnNodeStage } from './stageThreads';
import { machineClaimRow } from '../scenario/realClaim';
import { checkClaimsReport } from '../../../scenario/claimsReportCheck';
import { CLAIMS_REPORT_VERSION } from '../../../scenario/claimsReport';

let tf: Tf;
beforeAll(async () => {
  tf = await loadTfNode();
});

const now = () => performance.now();
const noHogs = () => {
  throw new Error('no hog expected');
};

/** The default preset on 2 EPs, a memBW workload on EP 1 for queries 8–16 of 24. */
function smallScenario(): PipelineScenario {
  const s = structuredClone(findPreset('default')!.scenario) as PipelineScenario;
  return {
    ...s,
    pipeline: {
      ...s.pipeline,
      executionPlaces: 2,
      queries: 24,
      lanes: s.pipeline.lanes.filter((l) => l.scheduler === 'odin' || l.scheduler === 'lls'),
      interference: { ...s.pipeline.interference, events: [{ executionPlace: 1, mode: 'B', fromQuery: 8, toQuery: 16 }] },
    },
  };
}

/** runReal's dependencies with in-process stages and fake hogs that report every 10 ms (`onHog` sees each start). */
function inProcessDeps(onHog: (kind: string) => void = () => undefined): RealDeps {
  return {
    tf,
    measureDatabase,
    runRealPipeline,
    now,
    spawnStage: () => inProcessStage(tf, now),
    spawnHog: (config, onReport) => {
      onHog(config.kind);
      const timer = setInterval(() => onReport({ kind: config.kind, work: 1, elapsedMs: 10, checksum: 0 }), 10);
      return { terminate: () => clearInterval(timer) };
    },
    runtime: 'test',
    stderr: () => undefined,
  };
}

describe('real: a pipeline scenario run for real beside its simulation', () => {
  it('prints one object per lane with measured, simulated and signed errors of throughput and latency', async () => {
    const hogStarts: string[] = [];
    // A short calibration lane (the default's 150 queries are there to hold enough spikes, which nothing here reads).
    const report = await runReal(
      { scenario: smallScenario(), inputSize: 56, database: getDatabase('vgg16'), repeats: 1, hogBufferMiB: 16, cores: 2, calibrationQueries: 30 },
      inProcessDeps((kind) => hogStarts.push(kind)),
    );
    expect(report).not.toBeNull();
    const r = report!;
    expect(r.lanes.map((l) => l.scheduler)).toEqual(['odin', 'lls']);
    for (const lane of r.lanes) {
      for (const side of [lane.measured, lane.simulated]) {
        expect(side.queries).toBe(24);
        expect(side.throughputQps).toBeGreaterThan(0);
        expect(side.latencyMeanMs).toBeGreaterThan(0);
        expect(side.latencyP99Ms).toBeGreaterThanOrEqual(side.latencyMeanMs * 0.5);
      }
      expect(lane.error.throughputQps).toBeCloseTo((100 * (lane.simulated.throughputQps - lane.measured.throughputQps)) / lane.measured.throughputQps, 9);
      expect(lane.readings.map((x) => x.trialCost)).toEqual(['serial', 'pipelined', 'free']);
      // Three phases: alone, EP 1 in mode B, alone again.
      expect(lane.measured.phases.map((p) => [p.fromQuery, p.toQuery, p.modes])).toEqual([
        [0, 8, 'A,A'],
        [8, 16, 'A,B'],
        [16, 24, 'A,A'],
      ]);
    }
    // Mode B on one core per EP is one memBW hog, started once per lane.
    expect(hogStarts).toEqual(['memBW', 'memBW']);
    expect(['serial', 'pipelined', 'free']).toContain(r.closestReading);
    expect(r.odinVsLls).not.toBeNull();
    expect(r.machine.mapping.coresPerEp).toBe(1);
    expect(realMarkdown(r)).toContain('| ODIN α=10 |');
    // The run as the lab's claim: a row the claims report's door takes.
    const row = machineClaimRow(r, { command: 'test', commit: 'abc', durationS: 1 });
    expect(row.lanes.map((l) => l.scheduler)).toEqual(['odin', 'lls']);
    const checked = checkClaimsReport({ version: CLAIMS_REPORT_VERSION, provenance: { commit: 'abc', seeds: 1, date: 'd', machine: 'm', command: 'c' }, rows: [], machineRows: [row] });
    expect(checked.ok && checked.report.machineRows).toEqual([row]);
  }, 120_000);

  it('a workload dragged on during the first lane stays for the next lane from the same query, and each lane is simulated on the schedule it ran', async () => {
    const base = smallScenario();
    const scenario = { ...base, pipeline: { ...base.pipeline, queries: 16, interference: { ...base.pipeline.interference, events: [] } } };
    const edits: LiveEdit[] = [];
    let served = 0;
    // No calibration lane: the workloads placed by hand are carried the same on the ideal machine.
    const report = await runReal(
      { scenario, inputSize: 56, database: getDatabase('vgg16'), repeats: 1, hogBufferMiB: 16, cores: 2, calibrationQueries: 0 },
      {
        ...inProcessDeps(),
        liveEdits: () => edits.splice(0),
        onProgress: (lane, progress) => {
          if (lane === 0 && progress.kind === 'query' && ++served === 4) edits.push({ kind: 'add', id: 1, executionPlace: 1, mode: 'B' });
        },
      },
    );
    const [first, second] = report!.lanes;
    expect(first!.liveEvents).toHaveLength(1);
    const placed = first!.liveEvents[0]!;
    expect(placed).toMatchObject({ executionPlace: 1, mode: 'B', toQuery: null });
    expect(placed.fromQuery).toBeGreaterThanOrEqual(4);
    expect(second!.liveEvents).toEqual(first!.liveEvents);
    // Measured and simulated, both lanes change phase where the workload was placed.
    for (const lane of [first!, second!]) {
      expect(lane.measured.phases.map((p) => [p.fromQuery, p.modes])).toEqual([
        [0, 'A,A'],
        [placed.fromQuery, 'A,B'],
      ]);
      expect(lane.readings[0]!.simulated.phases.map((p) => p.modes)).toEqual(['A,A', 'A,B']);
    }
  }, 120_000);

  it('with a calibration before every round, each round has its machine, the errors are paired, and the first round alone is kept beside them', async () => {
    const said: string[] = [];
    const args = { scenario: smallScenario(), inputSize: 56, database: getDatabase('vgg16'), repeats: 1, hogBufferMiB: 16, cores: 2, laneRepeats: 2, calibrationQueries: 30, noiseSeeds: 2 };
    const report = await runReal({ ...args, calibrateEachRepeat: true }, { ...inProcessDeps(), stderr: (text) => said.push(text) });
    const r = report!;
    expect(r.calibrations).toHaveLength(2);
    expect(r.calibration).toBe(r.calibrations![0]);
    expect(said.filter((line) => line.startsWith('real: calibration lane'))).toEqual([
      'real: calibration lane, round 1/2, 30 queries without hogs…\n',
      'real: calibration lane, round 2/2, 30 queries without hogs…\n',
    ]);
    expect(r.fidelity.repeats).toBe(2);
    expect(r.fidelityFirstCalibration?.repeats).toBe(2);
    for (const lane of r.fidelity.lanes) {
      expect(Number.isFinite(lane.error.machine!.throughputPct.mean)).toBe(true);
      // The simulated figures pool both rounds' machines over both seeds.
      expect(lane.machine!.throughputQps.seeds).toBe(4);
    }
    // Without it: one calibration, as before.
    const once = await runReal(args, inProcessDeps());
    expect(once!.calibrations).toEqual([]);
    expect(once!.fidelityFirstCalibration).toBeUndefined();
    expect(once!.fidelity.lanes[0]!.machine!.throughputQps.seeds).toBe(2);
  }, 180_000);

  it('stage worker threads give the output of in-process stages, bit for bit', async () => {
    const scenario = { ...smallScenario(), pipeline: { ...smallScenario().pipeline, queries: 4, interference: { ...smallScenario().pipeline.interference, events: [] } } };
    const options = realLaneOptions(scenario, 0, getDatabase('vgg16'), 56, coreMapping(2, 2), 16);
    const env = { now, sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), spawnHog: noHogs };
    const threads = await runRealPipeline(options, { ...env, spawnStage: () => spawnNodeStage() });
    const inProcess = await runRealPipeline(realLaneOptions(scenario, 0, getDatabase('vgg16'), 56, coreMapping(2, 2), 16), { ...env, spawnStage: () => inProcessStage(tf, now) });
    expect(threads.queries.map((q) => q.query)).toEqual([0, 1, 2, 3]);
    expect(threads.lastOutput!.length).toBe(1000);
    expect(Array.from(threads.lastOutput!)).toEqual(Array.from(inProcess.lastOutput!));
  }, 120_000);

  it('refuses what it cannot run, naming the field, before any work', async () => {
    const run = async (args: string[]) => {
      let stderr = '';
      const io: CliIo = { stdout: () => undefined, stderr: (t) => (stderr += t), readFile: () => null, writeFile: () => undefined, stderrIsTty: false };
      const code = await runCli(args, io, CLI_WORLDS);
      return { code, stderr };
    };
    expect(await run(['real', 'bcedge-dynamic'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs a pipeline scenario') });
    expect(await run(['real', 'default', '--lanes', 'odin,foo'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--lanes: "foo"') });
    expect(await run(['real', 'default', '--lanes', 'evict'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no evict lane') });
    expect(await run(['real', 'default', '--size', '300'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--size') });
    expect(await run(['real', 'default', '--set', 'pipeline.assumptions.admission={"kind":"poisson","rateQps":5}'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('pipeline.assumptions.admission'),
    });
    expect(await run(['real', 'default', '--database', 'missing.json'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--database: no such file') });
    expect(await run(['real', 'default', '--claims-report', 'missing.json'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--claims-report: no such file') });
  }, 60_000);
});
