import { describe, expect, it } from 'vitest';
import type { PipelineMarker } from '../worker/pipelineProtocol';
import { foldTrials, markerKey, scheduledMarkers } from './pipelineMarkers';

const m = (query: number, kind: PipelineMarker['kind'], lane = 0): PipelineMarker => ({ query, kind, lane });

describe('the time line’s markers', () => {
  it('folds each lane’s trials under the detection that started its rebalancing, and keeps them when unfolded', () => {
    const markers = [m(150, 'interference-on', -1), m(151, 'detect'), m(152, 'trial'), m(153, 'trial'), m(151, 'detect', 1), m(152, 'trial', 1), m(154, 'trial'), m(165, 'install'), m(200, 'detect'), m(201, 'trial')];
    const folded = foldTrials(markers);
    expect(folded.markers.map((x) => `${x.kind}@${x.query}/${x.lane}`)).toEqual(['interference-on@150/-1', 'detect@151/0', 'detect@151/1', 'install@165/0', 'detect@200/0']);
    expect(folded.trials.get(markerKey(m(151, 'detect')))).toBe(3);
    expect(folded.trials.get(markerKey(m(151, 'detect', 1)))).toBe(1);
    expect(folded.trials.get(markerKey(m(200, 'detect')))).toBe(1);
    expect(foldTrials(markers, true).markers).toEqual(markers);
  });

  it('keeps a trial whose detection is no longer in the list (the oldest markers are trimmed)', () => {
    expect(foldTrials([m(10, 'trial'), m(11, 'install')]).markers.map((x) => x.kind)).toEqual(['trial', 'install']);
  });

  it('puts scheduled interference on the time line from the start, until the run reaches it', () => {
    const events = [{ id: 1, executionPlace: 1, mode: 'E' as const, fromQuery: 150, toQuery: 450 }, { id: 2, executionPlace: 0, mode: 'B' as const, fromQuery: 20, toQuery: null }];
    expect(scheduledMarkers(events, 0).map((x) => `${x.kind}@${x.query}:${x.executionPlace}`)).toEqual(['interference-on@20:0', 'interference-on@150:1', 'interference-off@450:1']);
    expect(scheduledMarkers(events, 151).map((x) => `${x.kind}@${x.query}`)).toEqual(['interference-off@450']);
    expect(scheduledMarkers(events, 451)).toEqual([]);
  });
});
