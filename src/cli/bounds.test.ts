import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ServingRun } from '../worlds/serving/engine/simulation';
import { numericFields, schemaNumericKeys, type NumericField } from '../scenario/fieldBounds';
import { parseAnyScenario } from '../scenario/parse';
import { createPipelineLaneRuns } from '../worlds/pipeline/scenario/pipelineRunner';
import { allPresets } from '../scenario/presets';
import { formatPath, type AnyScenario } from '../scenario/schema';
import { servingScenarioSchema, type ServingScenario } from '../worlds/serving/schema';
import { pipelineScenarioSchema, type PipelineScenario } from '../worlds/pipeline/schema';
import { buildServingSpec, servingLaneParameters } from '../worlds/serving/scenario/servingRunner';
import { cellScenario, sweepCells } from '../scenario/sweep';
import { SERVING_SCHEDULERS, servingSchedulerContext, type LearningFactory } from '../worlds/serving/schedulers/registry';
import { propertyTimeout, runs } from '../testing/propertySeed';
import { EXIT_USAGE, runCli, type CliIo } from './cli';
import { CLI_WORLDS } from '../worlds/commands';
import { loadCliLearning, type CliLearning } from './shippedAgents';
import { hasLearningLanes } from './sweepCells';
import { loadTfNode } from '../lib/tfNode';
import { learningFactoryOf } from '../worlds/serving/agents/learning';
import { readShippedAgents } from '../worlds/serving/cli/shippedLibrary';

/**
 * The schema is the one source of every bound (ARCHITECTURE §4): for every numeric field of
 * both worlds, read from the schema itself (fieldBounds.ts), its lowest and highest accepted
 * values run to a short end without the engine throwing, and the values just outside are
 * refused at the door (exit 2) with a message naming the field. A field whose range another
 * field narrows (an event's EP, a tenant's end, a trace's send times) has its accepted ends
 * found by bisection between its static bound and its present value, with the validator as
 * the judge; the value just past such an end must name the field too.
 *
 * Each field the schema knows is probed once, in the first document below that has it (the
 * presets, shortened, then a few documents for the optional parts no preset uses); a field
 * the schema gains without a document reaching it fails the coverage test.
 */

/** A short end: the pipeline's first queries, the serving world's first simulated seconds. */
const PIPELINE_QUERIES = 60;
const SERVING_MS = 2_000;

type Doc = Record<string, unknown>;

/** A preset cut short, still valid: what a probe changes one field of. */
function shortened(scenario: AnyScenario): Doc {
  const s = structuredClone(scenario) as AnyScenario;
  if (s.world === 'pipeline') {
    s.pipeline.queries = Math.min(s.pipeline.queries, 200);
  } else {
    const durationS = Math.min(s.serving.durationS, 5);
    s.serving.durationS = durationS;
    if (s.serving.trace !== undefined) s.serving.trace.requests = s.serving.trace.requests.filter((r) => r.tS < durationS);
  }
  return s as unknown as Doc;
}

/** Documents for the optional parts no preset uses. */
function extraDocuments(): Doc[] {
  const pipeline = structuredClone(allPresets().find((p) => p.id === 'default')!.scenario) as PipelineScenario;
  pipeline.pipeline.queries = 200;
  const poisson: PipelineScenario = {
    ...structuredClone(pipeline),
    metrics: { percentiles: 'streaming', relativeError: 0.01 },
    pipeline: { ...structuredClone(pipeline.pipeline), assumptions: { ...pipeline.pipeline.assumptions, admission: { kind: 'poisson', rateQps: 40 } } },
    sweep: { axes: [{ path: 'pipeline.assumptions.hopMs', range: { from: 0, to: 2, step: 1 } }], seeds: 2, compare: { a: 0, b: 1 } },
  };
  const share: PipelineScenario = {
    ...structuredClone(pipeline),
    pipeline: { ...structuredClone(pipeline.pipeline), assumptions: { ...pipeline.pipeline.assumptions, admission: { kind: 'poissonShare', shareOfPeak: 0.8 } } },
  };
  const serving = structuredClone(allPresets().find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  serving.serving.durationS = 5;
  serving.serving.lanes = [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }];
  const [first, ...others] = serving.serving.models;
  const schedules: ServingScenario = {
    ...structuredClone(serving),
    metrics: { percentiles: 'exact', relativeError: 0.001 },
    serving: {
      ...structuredClone(serving.serving),
      models: [
        { ...first!, sloMs: 200, serviceFromS: 0.5, serviceToS: 4, rate: { kind: 'sine', meanRps: 10, amplitudeRps: 5, periodS: 2, phaseS: 0.25 }, classes: [{ label: 'small', scale: 0.5, weight: 1 }, { label: 'large', scale: 2, weight: 1 }] },
        ...others.map((m, i) =>
          i === 0
            ? { ...m, rate: { kind: 'linear' as const, points: [{ atS: 0, rateRps: 2 }, { atS: 3, rateRps: 8 }] } }
            : i === 1
              ? { ...m, rate: { kind: 'constant' as const, rateRps: 4 } }
              : { ...m, rate: { kind: 'steps' as const, steps: [{ fromS: 0, rateRps: 3 }, { fromS: 2, rateRps: 6 }] } },
        ),
      ],
      background: [{ fromS: 1, toS: 3, intensity: 0.4, memoryMb: 500 }],
      assumptions: { ...serving.serving.assumptions, interferenceNoise: 0.2, contention: { coRunnerPenalty: 0.5, oversubscriptionPenalty: 0.25, memoryPressureThreshold: 0.5, memoryPressurePenalty: 8 } },
    },
    sweep: { axes: [{ path: 'serving.rateRps', range: { from: 10, to: 30, step: 10 } }], seeds: 2, compare: { a: 0, b: 1 } },
  };
  const bursts: ServingScenario = { ...structuredClone(serving), serving: { ...structuredClone(serving.serving), bursts: { burstiness: 3, meanOnS: 0.5 } } };
  const modelIds = serving.serving.models.map((m) => m.model);
  const traced: ServingScenario = {
    ...structuredClone(serving),
    serving: {
      ...structuredClone(serving.serving),
      models: serving.serving.models.map((m, i) => (i === 0 ? { ...m, classes: [{ label: 'a', scale: 1, weight: 1 }, { label: 'b', scale: 1.5, weight: 1 }] } : m)),
      trace: { requests: [0.1, 0.5, 1.2, 2, 3.5].map((tS, j) => ({ tS, model: modelIds[j % modelIds.length]!, ...(j === 1 ? { sloMs: 150 } : {}), ...(j === 0 ? { shapeClass: 1 } : {}) })) },
    },
  };
  const mmpp: ServingScenario = {
    ...structuredClone(serving),
    serving: { ...structuredClone(serving.serving), models: serving.serving.models.map((m) => ({ ...m, rate: { kind: 'mmpp' as const, onRps: 8, offRps: 1, meanOnS: 0.5, meanOffS: 0.5, startOn: true } })) },
  };
  // The machine the simulation learns from a real run (pipeline.machine, ARCHITECTURE §2).
  const machine: PipelineScenario = {
    ...structuredClone(pipeline),
    pipeline: { ...structuredClone(pipeline.pipeline), machine: { stageNoiseCv: 0.05, stageSpikeShare: 0.03, stageSpikeFactor: 1.3, pipelinedFactor: 1.1, stageFactors: [1.2, 1.1, 1, 1.05], hopMs: 0.5, moveMs: 5, hogStartMs: 20, cores: 2, noiseSeed: 3 } },
  };
  return [poisson, share, schedules, bursts, traced, mmpp, machine].map((s) => s as unknown as Doc);
}

/** A document of each world at its most lanes, with a moment a link carries (`view.at`): every field of the moment, its lane at the last lane. */
function momentDocuments(): Doc[] {
  const pipeline = structuredClone(allPresets().find((p) => p.id === 'default')!.scenario) as PipelineScenario;
  pipeline.pipeline.queries = 100;
  pipeline.pipeline.lanes = Array.from({ length: 8 }, () => ({ scheduler: 'static' as const }));
  const at = { position: 10, step: 1, playing: false, lane: 1, lesson: { id: 'lesson-odin', step: 1 } };
  const serving = structuredClone(allPresets().find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  serving.serving.durationS = 2;
  serving.serving.lanes = Array.from({ length: 10 }, () => ({ scheduler: 'fixed' as const }));
  return [
    { ...pipeline, view: { mode: 'presentation', hide: [], at } },
    { ...serving, view: { mode: 'normal', hide: [], at } },
  ] as unknown as Doc[];
}

const DOCUMENTS: readonly Doc[] = [...allPresets().map((p) => shortened(p.scenario)), ...extraDocuments(), ...momentDocuments()];

const schemaOf = (doc: Doc) => (doc['world'] === 'serving' ? servingScenarioSchema : pipelineScenarioSchema);

/** A copy of `doc` with `value` at `path` (the objects on the way created). */
function withValue(doc: Doc, path: readonly (string | number)[], value: number): Doc {
  const copy = structuredClone(doc);
  let at = copy as Record<string | number, unknown>;
  path.slice(0, -1).forEach((k) => {
    at[k] ??= {};
    at = at[k] as Record<string | number, unknown>;
  });
  at[path.at(-1)!] = value;
  return copy;
}

const accepted = (doc: Doc): AnyScenario | null => {
  const parsed = parseAnyScenario(doc);
  return parsed.ok ? parsed.scenario : null;
};

// Doubles in order: the integer whose order is the double's, and back (adjacent doubles are adjacent integers).
const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
const ordinal = (x: number): bigint => {
  f64[0] = x === 0 ? 0 : x;
  return i64[0]! < 0n ? -(i64[0]! & 0x7fffffffffffffffn) : i64[0]!;
};
const fromOrdinal = (o: bigint): number => {
  i64[0] = o < 0n ? -o | -0x8000000000000000n : o;
  return f64[0]! + 0;
};
const nextUp = (x: number): number => fromOrdinal(ordinal(x) + 1n);
const nextDown = (x: number): number => fromOrdinal(ordinal(x) - 1n);

/**
 * The accepted value nearest to `refused` on the way from `inside` (accepted): a boundary of
 * the accepted range the other fields leave, found by bisection over integers or doubles.
 */
function boundary(isAccepted: (v: number) => boolean, inside: number, refused: number, integer: boolean): number {
  let good = integer ? BigInt(inside) : ordinal(inside);
  let bad = integer ? BigInt(refused) : ordinal(refused);
  const value = (o: bigint) => (integer ? Number(o) : fromOrdinal(o));
  while (good - bad > 1n || bad - good > 1n) {
    const mid = (good + bad) / 2n;
    if (isAccepted(value(mid))) good = mid;
    else bad = mid;
  }
  return value(good);
}

/** What one probe found wrong: where, which value, and what happened. */
interface Finding {
  readonly field: string;
  readonly value: number;
  readonly problem: string;
}

let kit: CliLearning;
/** The serving learners over every shipped agent, for the lanes run here without the command line. */
let servingLearners: LearningFactory;
beforeAll(async () => {
  kit = await loadCliLearning();
  servingLearners = learningFactoryOf(await loadTfNode(), readShippedAgents());
}, 120_000);

/** Runs a scenario's lanes (all, or one) to a short end; a sweep's first and last cells, or the cell with `sweptValue`. */
function runShort(scenario: AnyScenario, lane: number | null, sweptValue?: { axis: number; value: number }): void {
  const cells = sweepCells(scenario, [scenario.seed]);
  const chosen = sweptValue === undefined ? [cells[0]!, cells.at(-1)!] : [cells.find((c) => c.values[sweptValue.axis] === sweptValue.value) ?? cells[0]!];
  for (const cell of new Set(chosen)) {
    const plain = cellScenario(scenario, cell);
    if (plain.world === 'pipeline') {
      const short = { ...plain, pipeline: { ...plain.pipeline, queries: Math.min(plain.pipeline.queries, PIPELINE_QUERIES) } };
      createPipelineLaneRuns(short).forEach(({ run }, i) => {
        if (lane === null || lane === i) run.runToEnd();
      });
    } else {
      runServingShort(plain, lane, hasLearningLanes(plain) ? servingLearners : undefined);
    }
  }
}

/** The serving lanes on the scenario's spec cut at SERVING_MS (a reference lane's search included). */
function runServingShort(scenario: ServingScenario, lane: number | null, learning: LearningFactory | undefined): void {
  const full = buildServingSpec(scenario);
  const spec = { ...full, durationMs: Math.min(full.durationMs, SERVING_MS), ...(full.trace === undefined ? {} : { trace: full.trace.filter((t) => t.sentMs < SERVING_MS) }) };
  scenario.serving.lanes.forEach((l, i) => {
    if (lane !== null && lane !== i) return;
    const scheduler = SERVING_SCHEDULERS[l.scheduler].create(servingLaneParameters(l), servingSchedulerContext(scenario.seed, spec.models.map((m) => m.model), learning, spec));
    try {
      new ServingRun(spec, scheduler).runToEnd();
    } finally {
      scheduler.dispose?.();
    }
  });
}

/** The CLI's answer to a document. */
async function cliRun(doc: Doc): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (t) => (stderr += t),
    readFile: (p) => (p === 'f.json' ? JSON.stringify(doc) : null),
    writeFile: () => undefined,
    isDirectory: () => false,
    pathKind: (p) => (p === 'f.json' ? 'file' : 'missing'),
    canWriteInto: () => true,
    stderrIsTty: false,
    learning: kit,
  };
  const code = await runCli(['run', 'f.json'], io, CLI_WORLDS);
  return { code, stderr };
}

/** The lane a field belongs to (its runs need only that lane), or null. */
function laneOf(field: NumericField): number | null {
  const [world, lanes, index] = field.path;
  return (world === 'pipeline' || world === 'serving') && lanes === 'lanes' && typeof index === 'number' ? index : null;
}

/** The sweep axis value a field is (its runs need the cell with that value), or undefined. */
function sweptValueOf(field: NumericField, value: number): { axis: number; value: number } | undefined {
  const [sweep, axes, axis, values] = field.path;
  return sweep === 'sweep' && axes === 'axes' && typeof axis === 'number' && values === 'values' ? { axis, value } : undefined;
}

/** Probes one field of one document: its accepted ends run, the values just outside are refused by name. */
async function probe(doc: Doc, field: NumericField): Promise<Finding[]> {
  const findings: Finding[] = [];
  const name = formatPath(field.path);
  const isAccepted = (v: number) => accepted(withValue(doc, field.path, v)) !== null;
  const { min, max, integer, minExclusive } = field.bounds;
  const low = integer ? Math.ceil(minExclusive === true ? min + 1 : min) : minExclusive === true ? nextUp(min) : min;
  const high = integer ? Math.floor(max) : max;
  // An accepted value to bisect from: the document's own, else whichever end is accepted.
  const current = field.present ? (valueAt(doc, field.path) as number) : undefined;
  const inside = [current, low, high].find((v) => v !== undefined && isAccepted(v));
  if (inside === undefined) return [{ field: name, value: low, problem: 'no value from its lowest to its highest bound is accepted' }];
  const ends = [isAccepted(low) ? low : boundary(isAccepted, inside, low, integer), isAccepted(high) ? high : boundary(isAccepted, inside, high, integer)];
  for (const v of new Set(ends)) {
    const scenario = accepted(withValue(doc, field.path, v))!;
    try {
      runShort(scenario, laneOf(field), sweptValueOf(field, v));
    } catch (error) {
      findings.push({ field: name, value: v, problem: `accepted, but the run threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` });
    }
  }
  const outside = integer ? [ends[0]! - 1, ends[1]! + 1, ends[0]! + 0.5] : [nextDown(ends[0]!), nextUp(ends[1]!)];
  for (const v of outside) {
    if (!Number.isFinite(v)) continue; // past the largest double: no JSON file can hold it
    const { code, stderr } = await cliRun(withValue(doc, field.path, v));
    if (code !== EXIT_USAGE) findings.push({ field: name, value: v, problem: `just outside [${ends[0]}, ${ends[1]}], but the CLI exited ${code}: ${stderr.slice(0, 300)}` });
    else if (!stderr.includes(`${name}: `)) findings.push({ field: name, value: v, problem: `refused without naming the field: ${stderr.trim().slice(0, 300)}` });
  }
  return findings;
}

function valueAt(doc: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined), doc);
}

/** Each field the schema knows, once: in the first document that holds it, else the first that could. */
function sampleFields(world: 'pipeline' | 'serving'): { doc: Doc; field: NumericField }[] {
  const chosen = new Map<string, { doc: Doc; field: NumericField }>();
  for (const present of [true, false]) {
    for (const doc of DOCUMENTS.filter((d) => d['world'] === world)) {
      for (const field of numericFields(schemaOf(doc), doc)) {
        if (field.present === present && !chosen.has(field.key)) chosen.set(field.key, { doc, field });
      }
    }
  }
  return [...chosen.values()];
}

describe.each(['pipeline', 'serving'] as const)('every numeric field of the %s world, from the schema', (world) => {
  const samples = sampleFields(world);

  it('reaches every numeric field the schema knows', () => {
    const schema = world === 'serving' ? servingScenarioSchema : pipelineScenarioSchema;
    const reached = new Set(samples.map((s) => s.field.key));
    expect(schemaNumericKeys(schema).filter((k) => !reached.has(k))).toEqual([]);
  });

  it('runs its lowest and highest accepted values, and refuses the values just outside by name (exit 2)', async () => {
    const findings: Finding[] = [];
    for (const { doc, field } of samples) findings.push(...(await probe(doc, field)));
    expect(findings.map((f) => `${f.field} = ${f.value}: ${f.problem}`)).toEqual([]);
  }, 300_000);

  // Every field of every document, not only the first one holding it: the other fields differ
  // (another preset's lanes, events or schedule), and so may what a value runs into.
  const everyField = DOCUMENTS.filter((d) => d['world'] === world).flatMap((doc) => numericFields(schemaOf(doc), doc).map((field) => ({ doc, field })));

  it('any field of any document at 0, −1, 0.5 or 10¹²: runs when accepted, refused by name (exit 2) when not (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...everyField), fc.constantFrom(0, -1, 0.5, 1e12), async ({ doc, field }, value) => {
        const changed = withValue(doc, field.path, value);
        const scenario = accepted(changed);
        const name = formatPath(field.path);
        if (scenario !== null) {
          expect(() => runShort(scenario, laneOf(field), sweptValueOf(field, value)), `${name} = ${value}`).not.toThrow();
        } else {
          const { code, stderr } = await cliRun(changed);
          expect([code, stderr.includes(`${name}: `)], `${name} = ${value}: ${stderr}`).toEqual([EXIT_USAGE, true]);
        }
      }),
      { numRuns: runs(40) },
    );
  }, propertyTimeout(120_000));
});
