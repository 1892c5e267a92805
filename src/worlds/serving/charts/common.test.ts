import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODEL_IDS } from '../engine/models';
import { MODEL_COLOURS, modelColour, timeDomain } from './common';
import { finiteExtent } from '../../../charts/pointSampling';
import { mountDataChart } from '../../../charts/runtime';

describe('MODEL_COLOURS', () => {
  it('gives each of the six models its own colour', () => {
    const colours = MODEL_IDS.map((m) => MODEL_COLOURS[m]);
    expect(new Set(colours).size).toBe(MODEL_IDS.length);
    expect(modelColour('bert')).toBe(MODEL_COLOURS.bert);
    expect(modelColour('unknown')).toBe('#777777');
  });
});

describe('finiteExtent and timeDomain', () => {
  it('spans the finite values only', () => {
    expect(finiteExtent([3, null, Number.NaN, -1, undefined, 7])).toEqual([-1, 7]);
    expect(finiteExtent([null]).every(Number.isNaN)).toBe(true);
  });

  it('runs the time axis from 0 to the last sample, at least 10 s wide', () => {
    expect(timeDomain([0, 5, 300])).toEqual([0, 300]);
    expect(timeDomain([1, 2])).toEqual([0, 10]);
    expect(timeDomain([])).toEqual([0, 10]);
  });
});

describe('mountDataChart', () => {
  let frames: Map<number, () => void>;
  let nextFrame: number;
  let resize: ((entries: { contentRect: { width: number } }[]) => void) | undefined;
  let disconnected: boolean;

  beforeEach(() => {
    frames = new Map();
    nextFrame = 0;
    disconnected = false;
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => {
      nextFrame += 1;
      frames.set(nextFrame, cb);
      return nextFrame;
    });
    vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: typeof resize) {
          resize = cb;
        }
        observe(): void {}
        disconnect(): void {
          disconnected = true;
        }
      },
    );
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const flush = () => {
    const pending = [...frames.values()];
    frames.clear();
    for (const f of pending) f();
  };

  it('coalesces updates and resizes of one frame into one draw of the latest data', () => {
    const draw = vi.fn();
    const root = { remove: vi.fn() };
    const chart = mountDataChart<number>({ clientWidth: 300 } as unknown as Element & { clientWidth: number }, root, draw);
    flush();
    expect(draw).not.toHaveBeenCalled(); // nothing to draw before the first update
    chart.update(1);
    chart.update(2);
    resize?.([{ contentRect: { width: 500 } }]);
    expect(frames.size).toBe(1);
    flush();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(draw).toHaveBeenLastCalledWith(2, 500);
    resize?.([{ contentRect: { width: 20 } }]);
    flush();
    expect(draw).toHaveBeenCalledTimes(1); // too narrow to draw
  });

  it('charts given data at once draw one an animation frame, in the order they asked (no long task at a load)', () => {
    const drawn: string[] = [];
    const host = { clientWidth: 300 } as unknown as Element & { clientWidth: number };
    const charts = ['a', 'b', 'c'].map((name) => mountDataChart<number>(host, { remove: vi.fn() }, (v) => drawn.push(`${name}${v}`)));
    charts.forEach((chart, i) => chart.update(i));
    charts[0]!.update(7);
    flush();
    expect(drawn).toEqual(['a7']);
    flush();
    flush();
    expect(drawn).toEqual(['a7', 'b1', 'c2']);
    expect(frames.size).toBe(0);
    charts.forEach((chart) => chart.destroy());
  });

  it('cancels the pending frame, disconnects and removes the root on destroy', () => {
    const draw = vi.fn();
    const root = { remove: vi.fn() };
    const chart = mountDataChart<number>({ clientWidth: 300 } as unknown as Element & { clientWidth: number }, root, draw);
    chart.update(1);
    chart.destroy();
    flush();
    chart.update(2);
    flush();
    expect(draw).not.toHaveBeenCalled();
    expect(disconnected).toBe(true);
    expect(root.remove).toHaveBeenCalledTimes(1);
    chart.destroy();
    expect(root.remove).toHaveBeenCalledTimes(1);
  });
});
