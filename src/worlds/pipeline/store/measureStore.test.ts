import { describe, expect, it } from 'vitest';
import { defaultPipelineScenario } from '../defaultPreset';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import type { MeasureOutcome, MeasureProgress } from '../worker/measureProtocol';
import { createMeasureStore, type MeasureClient } from './measureStore';

const measured: LayerTimeDatabase = { model: 'custom', layers: ['a', 'b'], modes: { A: [1, 2], E: [2, 5] } };

/** A client whose measurement ends when the test says so. */
function fakeClient() {
  let finish: (outcome: MeasureOutcome) => void = () => undefined;
  let progress: (p: MeasureProgress) => void = () => undefined;
  const calls: string[] = [];
  const client: MeasureClient = {
    measure: (options, onProgress) => {
      calls.push(`measure ${options.model} ${options.modes.join(',')} x${options.repeats} @${options.inputSize}`);
      progress = onProgress;
      return new Promise((resolve) => (finish = resolve));
    },
    cancel: () => {
      calls.push('cancel');
      finish({ kind: 'cancelled' });
      return Promise.resolve();
    },
    cores: () => Promise.resolve(2),
  };
  return { client, calls, finish: (o: MeasureOutcome) => finish(o), progress: (p: MeasureProgress) => progress(p) };
}

describe('the measure store', () => {
  it('measures with the chosen options, shows progress, keeps the database', async () => {
    const fake = fakeClient();
    const store = createMeasureStore(fake.client);
    store.getState().toggleMode('I');
    store.getState().toggleMode('B');
    store.getState().setRepeats(0); // out of range: ignored
    store.getState().setRepeats(2);
    const run = store.getState().start();
    expect(store.getState().status).toBe('running');
    fake.progress({ fraction: 0.5, elapsedMs: 10, remainingMs: 10, mode: 'E', unit: 'b', partial: {}, hogs: '2 memBW hogs', hogRates: {} });
    expect(store.getState().progress?.fraction).toBe(0.5);
    fake.finish({ kind: 'done', database: measured });
    await run;
    expect(fake.calls).toEqual(['measure vgg16 B,E x2 @112']);
    expect(store.getState()).toMatchObject({ status: 'done', database: measured, source: 'measured' });
  });

  it('cancel ends the run and keeps nothing new', async () => {
    const fake = fakeClient();
    const store = createMeasureStore(fake.client);
    const run = store.getState().start();
    await store.getState().cancel();
    await run;
    expect(store.getState()).toMatchObject({ status: 'cancelled', database: null });
    expect(store.getState().notice?.text).toContain('Cancelled');
  });

  it('a malformed file names the field and changes nothing; a good one replaces the database', () => {
    const store = createMeasureStore(fakeClient().client);
    store.getState().importText(JSON.stringify(measured), 'good.json');
    expect(store.getState().database).toEqual(measured);
    store.getState().importText('{"layers": ["a"], "modes": {"A": ["x"]}}', 'bad.json');
    expect(store.getState().database).toEqual(measured);
    expect(store.getState().notice).toEqual({ kind: 'error', text: 'bad.json: not imported.\ndatabase.modes.A[0]: must be a positive finite number, got "x"' });
  });

  it('puts the database into a scenario, or says which modes it lacks', () => {
    const store = createMeasureStore(fakeClient().client);
    expect(store.getState().scenarioFor(defaultPipelineScenario())).toBeNull();
    store.getState().importText(JSON.stringify({ ...measured, modes: { A: [1, 2] } }), 'a.json');
    expect(store.getState().scenarioFor(defaultPipelineScenario())).toBeNull();
    expect(store.getState().notice?.text).toMatch(/^The scenario places workloads of mode E, which this database lacks/);
    store.getState().importText(JSON.stringify(measured), 'ae.json');
    const scenario = store.getState().scenarioFor(defaultPipelineScenario());
    expect(scenario?.pipeline.database).toEqual(measured);
    expect(scenario?.pipeline.model).toBe(defaultPipelineScenario().pipeline.model);
  });
});
