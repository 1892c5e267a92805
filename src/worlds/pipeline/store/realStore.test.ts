import { describe, expect, it } from 'vitest';
import { liveEditsBetween } from './realStore';

const event = (executionPlace: number, mode: 'B' | 'E', fromQuery: number, toQuery: number | null = null) => ({ executionPlace, mode, fromQuery, toQuery });

describe("a real run follows the lab's drag and drop", () => {
  it('a new workload is placed, one taken off (removed or ended) is ended, by its live id; the rest is no edit', () => {
    const placed = new Map<string, number>();
    let id = 0;
    const next = () => ++id;
    const start = [event(2, 'E', 150, 450)];
    // Dropped on EP 1 while the lab stood at query 30.
    const dropped = [...start, event(1, 'B', 30)];
    expect(liveEditsBetween(start, dropped, placed, next)).toEqual([{ kind: 'add', id: 1, executionPlace: 1, mode: 'B' }]);
    // Nothing changed: nothing to do.
    expect(liveEditsBetween(dropped, dropped, placed, next)).toEqual([]);
    // × on the token ends it at the lab's query 60.
    expect(liveEditsBetween(dropped, [...start, event(1, 'B', 30, 60)], placed, next)).toEqual([{ kind: 'end', id: 1 }]);
    // Moved to EP 0: off where it was, on where it lands.
    const again = [...start, event(3, 'E', 70)];
    expect(liveEditsBetween(start, again, placed, next)).toEqual([{ kind: 'add', id: 2, executionPlace: 3, mode: 'E' }]);
    expect(liveEditsBetween(again, [...start, event(0, 'E', 80)], placed, next)).toEqual([
      { kind: 'add', id: 3, executionPlace: 0, mode: 'E' },
      { kind: 'end', id: 2 },
    ]);
    // The scenario's own events (there when the run started) are the run's schedule already: removing one is no live edit.
    expect(liveEditsBetween(start, [], placed, next)).toEqual([]);
  });
});

describe('the real store during a run', () => {
  it('sends a dragged workload to the run, and refuses, with a notice, one whose mode the run did not measure', async () => {
    const { createRealStore } = await import('./realStore');
    const { defaultPipelineScenario } = await import('../defaultPreset');
    const scenario = defaultPipelineScenario();
    const sent: unknown[] = [];
    let finish: () => void = () => undefined;
    const client = {
      run: () => new Promise<{ kind: 'cancelled' }>((resolve) => (finish = () => resolve({ kind: 'cancelled' }))),
      cancel: () => Promise.resolve(),
      live: (edits: readonly unknown[]) => {
        sent.push(...edits);
        return Promise.resolve();
      },
      cores: () => Promise.resolve(2),
    };
    const store = createRealStore(client, scenario);
    // Not running: a drag is the lab's own business.
    const events = scenario.pipeline.interference.events;
    store.getState().followLab([...events, { executionPlace: 0, mode: 'E', fromQuery: 5, toQuery: null }]);
    expect(sent).toEqual([]);
    const running = store.getState().start(scenario, null);
    // The default scenario measures A and E (its memBW workload): E is placed, B is not.
    store.getState().followLab([...events, { executionPlace: 0, mode: 'E', fromQuery: 9, toQuery: null }]);
    expect(sent).toEqual([{ kind: 'add', id: 1, executionPlace: 0, mode: 'E' }]);
    store.getState().followLab([...events, { executionPlace: 0, mode: 'E', fromQuery: 9, toQuery: null }, { executionPlace: 1, mode: 'B', fromQuery: 9, toQuery: null }]);
    expect(sent).toHaveLength(1);
    expect(store.getState().notice?.text).toContain('Mode B was not measured for this run (it measured A, E)');
    expect(store.getState().livePlaced).toBe(1);
    finish();
    await running;
  });
});
