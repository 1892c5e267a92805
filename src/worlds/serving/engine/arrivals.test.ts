import { describe, expect, it } from 'vitest';
import { changingServingWorld } from '../../../testing/changingServingWorld';
import { ArrivalStream } from './arrivals';
import { MODELS } from './models';
import type { ServingRunSpec } from './spec';

const sloMs = (spec: ServingRunSpec) => Float64Array.from(spec.models, (s) => s.sloMs ?? MODELS[s.model].sloMs);

/** The next `n` requests a stream sends before `endMs`: time, model, SLO and class. */
function next(stream: ArrivalStream, n: number, endMs = Number.POSITIVE_INFINITY): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (let i = 0; i < n && stream.nextSendMs < endMs; i++) {
    const t = stream.nextSendMs;
    stream.take();
    out.push([t, stream.model, stream.sloMs, stream.shapeClass]);
  }
  return out;
}

const base = changingServingWorld(30_000, [12_000, 22_000]);
/** Per-model streams: a request class, an MMPP model, SLO jitter. */
const perModel: ServingRunSpec = {
  ...base,
  models: [
    { ...base.models[0]!, classes: [{ label: 'small', scale: 1, weight: 3 }, { label: 'large', scale: 1.65, weight: 1 }] },
    { ...base.models[1]!, rate: { kind: 'mmpp', onRps: 40, offRps: 2, meanOnMs: 3000, meanOffMs: 5000, startOn: false } },
    base.models[2]!,
  ],
  assumptions: { ...base.assumptions, sloJitter: 0.1 },
};
/** The one stream: constant rates, no classes, no windows. */
const oneStream: ServingRunSpec = { ...base, models: base.models.map(({ model, weight }) => ({ model, weight })), assumptions: { ...base.assumptions, sloJitter: 0.1 } };

describe('ArrivalStream: the requests a run sends (arrivals.ts)', () => {
  for (const [name, spec] of [
    ['per-model streams', perModel],
    ['the one stream', oneStream],
  ] as const) {
    it(`${name}: sends in time order, every model, SLOs jittered within the reading; a checkpoint restored goes on with the same requests`, () => {
      const stream = new ArrivalStream(spec, sloMs(spec), null);
      const head = next(stream, 200);
      for (let i = 1; i < head.length; i++) expect(head[i]![0]).toBeGreaterThanOrEqual(head[i - 1]![0]);
      expect(new Set(head.map((r) => r[1])).size).toBe(spec.models.length);
      const jitter = spec.assumptions.sloJitter;
      for (const [, model, slo] of head) {
        const nominal = sloMs(spec)[model]!;
        expect(slo).toBeGreaterThanOrEqual(nominal * (1 - jitter));
        expect(slo).toBeLessThanOrEqual(nominal * (1 + jitter));
      }
      const snapshot = stream.snapshot();
      const tail = next(stream, 300);
      const copy = new ArrivalStream(spec, sloMs(spec), null);
      copy.restore(snapshot);
      expect(next(copy, 300)).toEqual(tail);
    });

    it(`${name}: the requests drawn before the run (drawAll) are the ones taken as it goes, and read back the same`, () => {
      const drawn = new ArrivalStream(spec, sloMs(spec), null).drawAll()!;
      // A run sends nothing at or after its end (the one stream would go on drawing).
      const live = next(new ArrivalStream(spec, sloMs(spec), null), Number.POSITIVE_INFINITY, spec.durationMs);
      expect(live.length).toBeGreaterThan(100);
      expect(live).toEqual(Array.from(drawn.sentMs, (t, i) => [t, drawn.model[i]!, drawn.sloMs[i]!, drawn.shapeClass[i]!]));
      const prepared = new ArrivalStream(spec, sloMs(spec), drawn);
      expect(next(prepared, drawn.sentMs.length + 1)).toEqual(live);
    });
  }

  it('a closed loop sends nothing of its own; a trace is read in order with its own SLOs and classes', () => {
    expect(new ArrivalStream({ ...oneStream, closedLoop: { outstanding: 2 } }, sloMs(oneStream), null).nextSendMs).toBe(Number.POSITIVE_INFINITY);
    const trace = [
      { sentMs: 5, model: 1 },
      { sentMs: 7, model: 0, sloMs: 42, shapeClass: 0 },
    ];
    const stream = new ArrivalStream({ ...oneStream, trace }, sloMs(oneStream), null);
    expect(next(stream, 5)).toEqual([
      [5, 1, sloMs(oneStream)[1]!, 0],
      [7, 0, 42, 0],
    ]);
  });
});
