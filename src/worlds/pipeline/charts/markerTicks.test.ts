import { describe, expect, it } from 'vitest';
import type { PipelineMarker } from '../worker/pipelineProtocol';
import { groupLabel, markerDescription, markerLabel, placeTicks } from './markerTicks';

const on = (query: number, ep: number, mode: PipelineMarker['mode'] = 'E'): PipelineMarker => ({ query, kind: 'interference-on', lane: -1, executionPlace: ep, mode });
const off = (query: number, ep: number, mode: PipelineMarker['mode'] = 'E'): PipelineMarker => ({ query, kind: 'interference-off', lane: -1, executionPlace: ep, mode });
const interference = (m: PipelineMarker) => m.lane === -1;

describe('markerLabel', () => {
  it('names the mode and the EP, 1-based', () => {
    expect(markerLabel(on(10, 1))).toBe('E→EP2');
    expect(markerLabel(off(20, 0, 'K'))).toBe('K←EP1');
    expect(markerLabel({ query: 3, kind: 'detect', lane: 0 })).toBe('detect');
  });

  it('describes a marker in a sentence', () => {
    expect(markerDescription(on(10, 1))).toBe('query 10: interference E arrives at EP 2');
    expect(markerDescription(off(12, 3, 'B'))).toBe('query 12: interference B leaves EP 4');
  });

  it('summarises several markers at one tick', () => {
    expect(groupLabel([on(1, 0), on(1, 1, 'F')])).toBe('E→EP1 F→EP2');
    expect(groupLabel([on(1, 0), on(1, 1), on(1, 2)])).toBe('E→EP1 +2');
    expect(groupLabel([on(1, 0), on(1, 0)])).toBe('E→EP1');
  });
});

describe('placeTicks', () => {
  const xOf = (q: number) => q; // one pixel per query

  it('merges markers of one kind in one pixel column and keeps kinds apart', () => {
    const ticks = placeTicks([on(10, 0), on(10.2, 1), off(10, 2), { query: 10, kind: 'detect', lane: 0 }], { accept: interference, xOf, width: 100 });
    expect(ticks.map((t) => [t.x, t.kind, t.markers.length])).toEqual([
      [10, 'interference-on', 2],
      [10, 'interference-off', 1],
    ]);
  });

  it('bounds the number of ticks by the width, however many markers', () => {
    const many = Array.from({ length: 2000 }, (_, k) => on(k / 20, k % 4));
    const ticks = placeTicks(many, { accept: interference, xOf, width: 100 });
    expect(ticks.length).toBeLessThanOrEqual(101);
  });

  it('drops markers outside the plot', () => {
    expect(placeTicks([on(-5, 0), on(150, 0), on(50, 0)], { accept: interference, xOf, width: 100 }).map((t) => t.x)).toEqual([50]);
  });

  it('labels greedily without overlap, flipping a label at the right edge to the left of its tick', () => {
    // Each label "E→EP1" is 5 characters = 35 px at 7 px per character.
    const ticks = placeTicks([on(0, 0), on(20, 0), on(60, 0), on(190, 0)], { accept: interference, xOf, width: 200, labels: true, measure: (t) => t.length * 7, gapPx: 6 });
    expect(ticks.map((t) => t.label)).toEqual(['E→EP1', null, 'E→EP1', 'E→EP1']);
    expect(ticks[3]!.anchor).toBe('end');
    expect(ticks[3]!.labelX).toBe(187);
    expect(ticks[0]!.anchor).toBe('start');
    expect(ticks[0]!.labelX).toBe(3);
  });
});
