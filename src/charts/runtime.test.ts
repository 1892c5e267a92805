import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import type { PipelineLabState, PipelineLabStore } from '../worlds/pipeline/store/pipelineStore';
import { mountChart, sameValues } from './runtime';

/** A store with just the fields the test touches (the chart runtime reads nothing else). */
function fakeStore(): PipelineLabStore {
  return createStore<PipelineLabState>()(subscribeWithSelector(() => ({ version: 0, selectedLane: 0 }) as unknown as PipelineLabState)) as PipelineLabStore;
}

describe('mountChart', () => {
  let frames: (() => void)[];
  let resize: ((entries: { contentRect: { width: number } }[]) => void) | undefined;
  let disconnected: boolean;

  beforeEach(() => {
    frames = [];
    disconnected = false;
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', (id: number) => {
      frames[id - 1] = () => undefined;
    });
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: typeof resize) {
          resize = cb;
        }
        observe() {}
        disconnect() {
          disconnected = true;
        }
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const flush = () => {
    const due = frames;
    frames = [];
    for (const f of due) f();
  };

  it('draws at most once per animation frame, with the latest state', () => {
    const store = fakeStore();
    const draws: number[] = [];
    const root = { remove: vi.fn() } as unknown as Element;
    const host = { clientWidth: 500 } as HTMLElement;
    const { cleanup } = mountChart(host, store, root, (s) => [s.version], (s, width) => draws.push(s.version * 1000 + width));
    flush();
    expect(draws).toEqual([500]);
    for (let v = 1; v <= 5; v++) store.setState({ version: v });
    expect(frames).toHaveLength(1);
    flush();
    expect(draws).toEqual([500, 5500]);
    // A change the chart does not watch schedules nothing.
    store.setState({ selectedLane: 3 });
    expect(frames).toHaveLength(0);
    resize?.([{ contentRect: { width: 320.7 } }]);
    flush();
    expect(draws).toEqual([500, 5500, 5320]);
    cleanup();
    expect(root.remove).toHaveBeenCalledOnce();
    expect(disconnected).toBe(true);
  });

  it('cancels a pending frame and ignores the store after cleanup', () => {
    const store = fakeStore();
    const draw = vi.fn();
    const { cleanup } = mountChart({ clientWidth: 400 } as HTMLElement, store, { remove() {} } as Element, (s) => [s.version], draw);
    cleanup();
    flush();
    store.setState({ version: 9 });
    flush();
    expect(draw).not.toHaveBeenCalled();
  });
});

describe('sameValues', () => {
  it('compares arrays element by element', () => {
    const lanes: unknown[] = [];
    expect(sameValues([1, lanes], [1, lanes])).toBe(true);
    expect(sameValues([1, lanes], [1, []])).toBe(false);
    expect(sameValues([1], [1, 2])).toBe(false);
  });
});
