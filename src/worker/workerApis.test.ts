import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeAnyScenarioLink } from '../scenario/link';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../worlds/serving/presets';
import { validateAnyScenario } from '../scenario/schema';
import { type ServingScenario } from '../worlds/serving/schema';
import { isLearningScheduler } from '../worlds/serving/schedulers/registry';
import { propertyTimeout, runs } from '../testing/propertySeed';
import type { Answer } from './liveProtocol';
import { pipelineApi } from '../worlds/pipeline/worker/pipelineApi';
import { PipelineSession } from '../worlds/pipeline/worker/pipelineSession';
import type { PipelineFrame, PipelineApi } from '../worlds/pipeline/worker/pipelineProtocol';
import { servingApi } from '../worlds/serving/worker/servingApi';
import type { ServingApi, ServingFrame } from '../worlds/serving/worker/servingProtocol';
import { ServingSession } from '../worlds/serving/worker/servingSession';
import { SweepRunner } from '../worlds/serving/worker/servingSweeps';
import { manualHost } from './testing/manualHost';

/**
 * The workers are doors (ARCHITECTURE §7): every message a page can send, with hostile
 * payloads — wrong types, huge arrays, unknown lanes and ids, values out of the schema's
 * bounds —, is answered, never thrown; a refusal names its field; and the worker keeps
 * running with a scenario that still validates (so the page's link stays). The API objects
 * tested are those the workers expose (`pipelineApi`, `servingApi`), over sessions in Node.
 */

const smallPipeline = () => ({ ...defaultPipelineScenario(), pipeline: { ...defaultPipelineScenario().pipeline, queries: 300 } });
const smallServing = (): ServingScenario => {
  const s = structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
  return { ...s, serving: { ...s.serving, durationS: 8, lanes: s.serving.lanes.filter((l) => !isLearningScheduler(l.scheduler)) } };
};

/** Payloads a hostile or broken page could send, mixed with plausible ones. */
const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.anything({ maxDepth: 2, withMap: true, withSet: true, withDate: true, withTypedArray: true, withBigInt: true, withNullPrototype: true, withSparseArray: true }) },
  { weight: 3, arbitrary: fc.constantFrom(0, -1, 1, 2, 3, 31, 0.5, 1e12, -0, Number.NaN, Infinity, -Infinity, Number.MAX_VALUE, 2 ** 53, '1', '', 'max', 'alpha', 'E', 'A', 'yolo', null, undefined, true) },
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 12 }) },
  { weight: 1, arbitrary: fc.double({ min: -10, max: 1e5, noNaN: true }) },
  { weight: 1, arbitrary: fc.constant(null).map(() => Array.from({ length: 100_000 }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => new Float64Array(100_000)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}') as unknown) },
  { weight: 1, arbitrary: fc.constant(null).map(() => 'x'.repeat(100_000)) },
);

/** The field a refusal of each call may name (its arguments, or the scenario fields an edit sets). */
const NAMED: Record<string, readonly string[]> = {
  subscribe: ['callback'],
  load: [''],
  step: ['amount'],
  setSpeed: ['speed'],
  seek: ['query', 'timeMs', 'step'],
  addEvent: ['pipeline.interference.events['],
  removeEvent: ['id'],
  setLaneParameter: ['lane', 'pipeline.lanes['],
  setDetectionThreshold: ['pipeline.assumptions.detectionThreshold'],
  stepAlgorithm: ['direction'],
  setTraceLane: ['lane'],
  configure: ['agentsBaseUrl'],
  exportAgent: ['lane'],
  explainUpdate: ['lane'],
  importAgent: ['lane', 'agent'],
  setArrivalRate: ['serving.rateRps'],
  setModelConfig: ['lane', 'model', 'timeMs', 'serving.lanes['],
  addBackground: ['serving.background'],
  removeBackground: ['id'],
  sweep: ['sweep', 'onProgress'],
};

interface Message {
  readonly call: string;
  readonly args: readonly unknown[];
}

const messageOf = (calls: readonly string[], plausible: fc.Arbitrary<Message>): fc.Arbitrary<Message> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ call: fc.constantFrom(...calls), args: fc.array(hostile, { maxLength: 5 }) }) },
    { weight: 2, arbitrary: plausible },
  );

/** Calls a page makes, with arguments near their bounds (some in, some out). */
const pipelineMessages = messageOf(
  ['subscribe', 'ping', 'load', 'play', 'pause', 'step', 'reset', 'setSpeed', 'currentScenario', 'seek', 'addEvent', 'removeEvent', 'setLaneParameter', 'setDetectionThreshold', 'stepAlgorithm', 'setTraceLane'],
  fc.oneof(
    fc.record({ call: fc.constant('setLaneParameter'), args: fc.tuple(fc.integer({ min: -1, max: 4 }), fc.constantFrom('alpha', 'beta', '__proto__'), fc.integer({ min: -1, max: 40 })) }),
    fc.record({ call: fc.constant('addEvent'), args: fc.tuple(fc.integer({ min: -1, max: 5 }), fc.constantFrom('A', 'B', 'E', 'L', 'M')) }),
    fc.record({ call: fc.constant('removeEvent'), args: fc.tuple(fc.integer({ min: 0, max: 4 })) }),
    fc.record({ call: fc.constant('setDetectionThreshold'), args: fc.tuple(fc.double({ min: -1, max: 12, noNaN: true })) }),
    fc.record({ call: fc.constant('step'), args: fc.tuple(fc.integer({ min: -5, max: 120 })) }),
    fc.record({ call: fc.constant('seek'), args: fc.tuple(fc.integer({ min: -5, max: 320 }), fc.option(fc.integer({ min: -1, max: 5 }), { nil: undefined })) }),
    fc.record({ call: fc.constant('load'), args: fc.constant([smallPipeline()]) }),
  ),
);

const servingMessages = messageOf(
  [
    'subscribe',
    'ping',
    'load',
    'play',
    'pause',
    'step',
    'reset',
    'setSpeed',
    'currentScenario',
    'seek',
    'configure',
    'exportAgent',
    'explainUpdate',
    'importAgent',
    'setArrivalRate',
    'setModelConfig',
    'addBackground',
    'removeBackground',
    'sweep',
  ],
  fc.oneof(
    fc.record({ call: fc.constant('setModelConfig'), args: fc.tuple(fc.integer({ min: -1, max: 3 }), fc.integer({ min: -1, max: 6 }), fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 9 })) }),
    fc.record({ call: fc.constant('addBackground'), args: fc.tuple(fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.double({ min: -1, max: 200_000, noNaN: true })) }),
    fc.record({ call: fc.constant('removeBackground'), args: fc.tuple(fc.integer({ min: 0, max: 4 })) }),
    fc.record({ call: fc.constant('setArrivalRate'), args: fc.tuple(fc.double({ min: -1, max: 20_000, noNaN: true })) }),
    fc.record({ call: fc.constant('step'), args: fc.tuple(fc.integer({ min: -500, max: 3_000 })) }),
    fc.record({ call: fc.constant('seek'), args: fc.tuple(fc.integer({ min: -500, max: 9_000 })) }),
    fc.record({ call: fc.constant('load'), args: fc.constant([smallServing()]) }),
  ),
);

/** The contract for one answer: a value or an Answer, and a refusal names a field of its call. */
function expectAnswered(call: string, answer: unknown): void {
  if (answer === null || typeof answer !== 'object' || !('ok' in answer)) return; // ping, currentScenario, play…
  const a = answer as Answer;
  if (a.ok) return;
  expect(a.errors.length, call).toBeGreaterThan(0);
  for (const e of a.errors) {
    expect(typeof e.path === 'string' && e.path !== '' && typeof e.message === 'string' && e.message !== '', `${call}: ${JSON.stringify(e)}`).toBe(true);
    expect(
      NAMED[call]!.some((p) => e.path.startsWith(p)),
      `${call} refused naming ${e.path}: ${e.message}`,
    ).toBe(true);
  }
}

/** The worker is still running: it answers, and the scenario it holds is one the schema (and the link) take. */
async function expectRunning(api: PipelineApi | ServingApi): Promise<void> {
  expect(api.ping()).toBe(true);
  const scenario = api.currentScenario();
  if (scenario === null) return;
  expect(validateAnyScenario(scenario).ok).toBe(true);
  expect(() => encodeAnyScenarioLink(scenario)).not.toThrow();
  // A well-formed call still works.
  expect(api.setSpeed('max')).toEqual({ ok: true });
}

async function send(api: PipelineApi | ServingApi, message: Message): Promise<unknown> {
  const method = (api as unknown as Record<string, unknown>)[message.call] as (...args: unknown[]) => unknown;
  // A thrown error or a rejected promise fails the property: the worker must answer.
  return await method(...message.args);
}

describe('the workers’ APIs under hostile messages (property)', () => {
  it('pipeline: every message is answered, a refusal names its field, and the worker keeps a valid scenario', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pipelineMessages, { minLength: 1, maxLength: 6 }), async (messages) => {
        const h = manualHost<PipelineFrame>();
        let subscribed: ((frame: PipelineFrame) => void) | null = null;
        const api = pipelineApi(new PipelineSession(h.host), { subscribe: (callback) => (subscribed = callback) });
        expect(api.load(smallPipeline()).ok).toBe(true);
        for (const message of messages) {
          expectAnswered(message.call, await send(api, message));
          h.advanceTime(50);
          await expectRunning(api);
        }
        void subscribed;
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: runs(60) },
    );
  }, propertyTimeout(120_000));

  it('serving: every message is answered, a refusal names its field, and the worker keeps a valid scenario', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(servingMessages, { minLength: 1, maxLength: 6 }), async (messages) => {
        const h = manualHost<ServingFrame>();
        const sweeps = new SweepRunner(h.host);
        const api = servingApi(new ServingSession(h.host), { subscribe: () => undefined }, { learningFor: async () => null, sweeps, agentsBaseUrl: 'http://127.0.0.1/agents/' });
        expect((await api.load(smallServing())).ok).toBe(true);
        for (const message of messages) {
          expectAnswered(message.call, await send(api, message));
          h.advanceTime(50);
          await expectRunning(api);
        }
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: runs(40) },
    );
  }, propertyTimeout(120_000));
});

describe('the workers’ live edits keep to the schema’s bounds', () => {
  it('α = 31 is refused by name and the link stays; α = 30 goes through', () => {
    const api = pipelineApi(new PipelineSession(manualHost<PipelineFrame>().host), { subscribe: () => undefined });
    api.load(smallPipeline());
    const before = encodeAnyScenarioLink(api.currentScenario()!);
    expect(api.setLaneParameter(0, 'alpha', 31)).toEqual({ ok: false, errors: [{ path: 'pipeline.lanes[0].params.alpha', message: 'must be an integer from 1 to 30, got 31' }] });
    expect(encodeAnyScenarioLink(api.currentScenario()!)).toBe(before);
    expect(api.setLaneParameter(0, 'alpha', 30)).toMatchObject({ ok: true, lane: { label: 'ODIN α=30' } });
    expect(api.currentScenario()!.pipeline.lanes[0]).toEqual({ scheduler: 'odin', params: { alpha: 30 } });
  });

  // Fixed regression case: the first counterexample of the property above (a rule between two
  // fields named the number of EPs too, which a placed workload cannot change).
  it('regression: a workload placed on EP 4 of 4 is refused naming the event’s EP only', () => {
    const api = pipelineApi(new PipelineSession(manualHost<PipelineFrame>().host), { subscribe: () => undefined });
    api.load(smallPipeline());
    expect(api.addEvent(4, 'A' as never)).toEqual({
      ok: false,
      errors: [
        { path: 'pipeline.interference.events[1].mode', message: 'must be an interference mode B–L, got "A"' },
        { path: 'pipeline.interference.events[1].executionPlace', message: 'must be below the number of execution places (4), got 4' },
      ],
    });
    expect(api.addEvent(4, 'E')).toEqual({ ok: false, errors: [{ path: 'pipeline.interference.events[1].executionPlace', message: 'must be below the number of execution places (4), got 4' }] });
  });

  it('names the argument of a call that is not an edit', () => {
    const api = pipelineApi(new PipelineSession(manualHost<PipelineFrame>().host), { subscribe: () => undefined });
    expect(api.step(1)).toEqual({ ok: false, errors: [{ path: 'amount', message: 'no scenario is loaded' }] });
    api.load(smallPipeline());
    expect(api.step(0.5)).toEqual({ ok: false, errors: [{ path: 'amount', message: 'must be an integer ≥ 1 (query to advance), got 0.5' }] });
    expect(api.setSpeed(-1)).toEqual({ ok: false, errors: [{ path: 'speed', message: 'must be "max" or a number from 0.25 to 1000000, got -1' }] });
    expect(api.setTraceLane(9)).toEqual({ ok: false, errors: [{ path: 'lane', message: 'must be a lane index from 0 to 3, got 9' }] });
    expect(api.stepAlgorithm(2 as never)).toEqual({ ok: false, errors: [{ path: 'direction', message: 'must be 1 (forward) or -1 (back), got 2' }] });
    expect(api.removeEvent(7)).toEqual({ ok: false, errors: [{ path: 'id', message: 'must be the id of a workload on the board (1), got 7' }] });
    expect(api.subscribe('frames' as never)).toEqual({ ok: false, errors: [{ path: 'callback', message: 'must be a function (the page\'s frame callback), got "frames"' }] });
  });
});
