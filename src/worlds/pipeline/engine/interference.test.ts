import { describe, expect, it } from 'vitest';
import { InterferenceTimeline } from './interference';

function modesOver(timeline: InterferenceTimeline, queries: number): string[] {
  const out: string[] = [];
  for (let q = 0; q < queries; q++) {
    timeline.advance(q);
    out.push(Array.from(timeline.modes).join(''));
  }
  return out;
}

describe('InterferenceTimeline', () => {
  it('applies explicit events over [fromQuery, toQuery)', () => {
    const t = new InterferenceTimeline(3, [{ executionPlace: 1, mode: 4, fromQuery: 2, toQuery: 4 }], null, 1);
    expect(modesOver(t, 6)).toEqual(['000', '000', '040', '040', '000', '000']);
  });

  it('lets the most recent event win on one EP, and explicit beat random on a tie', () => {
    const t = new InterferenceTimeline(
      2,
      [
        { executionPlace: 0, mode: 2, fromQuery: 0, toQuery: 6 },
        { executionPlace: 0, mode: 9, fromQuery: 2, toQuery: 4 },
      ],
      null,
      1,
    );
    expect(modesOver(t, 7)).toEqual(['20', '20', '90', '90', '20', '20', '00']);
    // A random event starting at query 3 on a single EP, and an explicit one at the same query.
    const tie = new InterferenceTimeline(1, [{ executionPlace: 0, mode: 7, fromQuery: 3, toQuery: null }], { periodQueries: 3, durationQueries: 2, modes: [1] }, 5);
    expect(modesOver(tie, 6)).toEqual(['0', '0', '0', '7', '7', '7']);
  });

  it('draws a new random event every period, lasting its duration', () => {
    const t = new InterferenceTimeline(4, [], { periodQueries: 5, durationQueries: 2, modes: [3] }, 42);
    const trace = modesOver(t, 20);
    for (let q = 0; q < 20; q++) {
      const busy = q >= 5 && q % 5 < 2;
      expect(trace[q]!.replaceAll('0', '').length, `query ${q}`).toBe(busy ? 1 : 0);
    }
  });

  it('reports when the modes changed', () => {
    const t = new InterferenceTimeline(2, [{ executionPlace: 1, mode: 1, fromQuery: 1, toQuery: 2 }], null, 1);
    expect([0, 1, 2, 3].map((q) => t.advance(q))).toEqual([false, true, true, false]);
  });

  it('rejects events off the pipeline and out-of-order advances', () => {
    expect(() => new InterferenceTimeline(2, [{ executionPlace: 2, mode: 1, fromQuery: 0, toQuery: null }], null, 1)).toThrow(RangeError);
    const t = new InterferenceTimeline(2, [], null, 1);
    expect(() => t.advance(3)).toThrow(RangeError);
  });

  it('accepts events added from now on', () => {
    const t = new InterferenceTimeline(2, [], null, 1);
    t.advance(0);
    t.addEvent({ executionPlace: 0, mode: 5, fromQuery: 2, toQuery: 3 });
    expect(() => t.addEvent({ executionPlace: 0, mode: 5, fromQuery: 0, toQuery: 3 })).toThrow(RangeError);
    const rest: string[] = [];
    for (let q = 1; q < 4; q++) {
      t.advance(q);
      rest.push(Array.from(t.modes).join(''));
    }
    expect(rest).toEqual(['00', '50', '00']);
  });

  it('ends a placed event from a later query on, and drops one not yet started', () => {
    const t = new InterferenceTimeline(
      2,
      [
        { executionPlace: 0, mode: 4, fromQuery: 0, toQuery: null, id: 1 },
        { executionPlace: 1, mode: 6, fromQuery: 5, toQuery: null, id: 2 },
      ],
      null,
      1,
    );
    t.advance(0);
    t.advance(1);
    t.endEvent(1, 3);
    t.endEvent(2, 3);
    const rest: string[] = [];
    for (let q = 2; q < 7; q++) {
      t.advance(q);
      rest.push(Array.from(t.modes).join(''));
    }
    expect(rest).toEqual(['40', '00', '00', '00', '00']);
    expect(() => t.endEvent(1, 6)).toThrow(RangeError);
  });

  describe('overlapping random events (assumptions.interferenceOverlap)', () => {
    // One EP hosting a long explicit workload (mode 7); a random one (mode 1) lands at query 3 for one query.
    const over = (overlap?: 'stack' | 'onePerEp' | 'replace') =>
      modesOver(new InterferenceTimeline(1, [{ executionPlace: 0, mode: 7, fromQuery: 0, toQuery: null }], { periodQueries: 3, durationQueries: 1, modes: [1], ...(overlap ? { overlap } : {}) }, 1), 6);
    it('stack (the default): the newer shows, and the older again when it ends', () => {
      expect(over()).toEqual(['7', '7', '7', '1', '7', '7']);
      expect(over('stack')).toEqual(over());
    });
    it('onePerEp: a draw for a busy EP starts nothing', () => {
      expect(over('onePerEp')).toEqual(['7', '7', '7', '7', '7', '7']);
    });
    it('replace: the newer ends the older for good', () => {
      expect(over('replace')).toEqual(['7', '7', '7', '1', '0', '0']);
    });
    it('onePerEp frees an EP when its workload ends, where stack keeps it busy', () => {
      const busy = (overlap: 'stack' | 'onePerEp') => modesOver(new InterferenceTimeline(1, [], { periodQueries: 2, durationQueries: 5, modes: [1], overlap }, 3), 12).map((m) => m !== '0');
      // Events at 2 (until 7), 4 and 6 are skipped as the EP is busy, 8 starts again.
      expect(busy('onePerEp')).toEqual([false, false, true, true, true, true, true, false, true, true, true, true]);
      expect(busy('stack').slice(2)).toEqual(Array(10).fill(true));
    });
    it('every reading draws the same EPs and modes', () => {
      const draws = (overlap: 'stack' | 'onePerEp' | 'replace') => {
        const t = new InterferenceTimeline(4, [], { periodQueries: 7, durationQueries: 3, modes: [1, 2, 3, 4], overlap }, 9);
        return modesOver(t, 200).filter((_, q) => q % 7 === 0 && q > 0);
      };
      // Period 7 > duration 3: nothing overlaps, so the readings must give the identical trace.
      expect(draws('onePerEp')).toEqual(draws('stack'));
      expect(draws('replace')).toEqual(draws('stack'));
    });
  });
});
