import { describe, expect, it } from 'vitest';
import { decodeAnyScenarioLink } from '../../../scenario/link';
import { SERVING_PRESETS } from '../presets';
import { validateServingScenario, type ServingScenario } from '../schema';
import { TRACE_LIMITS } from '../scenario/servingTrace';
import { servingLink, servingLinkHash, traceFileScenario, withoutTrace, withTrace } from './traceScenario';

const base = (): ServingScenario => structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
const onlyYolo = (): ServingScenario => {
  const s = base();
  return { ...s, serving: { ...s.serving, models: [{ model: 'yolo', weight: 1 }] } };
};

/** A CSV trace of `n` requests, alternating yolo and bert, 10 ms apart. */
const csv = (n: number) => ['time_s,model', ...Array.from({ length: n }, (_, i) => `${(i / 100).toFixed(2)},${i % 2 === 0 ? 'yolo' : 'bert'}`)].join('\n');

describe('a trace file in the serving lab', () => {
  it('replays the file: the run lasts to the second after its last request, and models it sends to are added', () => {
    const result = traceFileScenario(onlyYolo(), 'cams.csv', csv(250));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.requests).toBe(250);
    const s = result.scenario;
    expect(s.serving.trace?.requests.slice(0, 2)).toEqual([
      { tS: 0, model: 'yolo' },
      { tS: 0.01, model: 'bert' },
    ]);
    expect(s.serving.durationS).toBe(3); // last request at 2.49 s
    expect(s.serving.models.map((m) => m.model)).toEqual(['yolo', 'bert']);
    expect(validateServingScenario(s).ok).toBe(true);
    // Drawing arrivals again keeps everything else.
    const drawn = withoutTrace(s);
    expect(drawn.serving.trace).toBeUndefined();
    expect(drawn.serving.models).toEqual(s.serving.models);
  });

  it('names the file and the field of a malformed trace (the parser the scenario and the CLI use)', () => {
    const result = traceFileScenario(base(), 'bad.csv', 'time_s,model\n0.1,yolo\n0.2,yolov5\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]!.path).toBe('bad.csv: trace line 3.model');
    expect(result.errors[0]!.message).toMatch(/must be one of .*got "yolov5"/);
    const order = traceFileScenario(base(), 'late.json', JSON.stringify([{ tS: 2, model: 'yolo' }, { tS: 1, model: 'yolo' }]));
    expect(!order.ok && order.errors[0]!.path).toBe('late.json: trace[1].time_s');
  });

  it('carries a short trace in the link, exactly', () => {
    const s = withTrace(base(), [
      { tS: 0.5, model: 'yolo' },
      { tS: 1.25, model: 'res', sloMs: 120 },
    ]);
    const linked = servingLink(s);
    expect(linked.ok).toBe(true);
    if (!linked.ok) return;
    const decoded = decodeAnyScenarioLink(linked.hash);
    expect(decoded.ok && decoded.scenario).toEqual(s);
  });

  it('says why a trace longer than a link carries travels as a file, without packing it', () => {
    const long = traceFileScenario(base(), 'day.csv', csv(TRACE_LIMITS.linkRequests + 1));
    expect(long.ok).toBe(true);
    if (!long.ok) return;
    const linked = servingLink(long.scenario);
    expect(linked.ok).toBe(false);
    if (linked.ok) return;
    expect(linked.reason).toBe(`serving.trace: has ${TRACE_LIMITS.linkRequests + 1} requests; a link carries at most ${TRACE_LIMITS.linkRequests}: save the scenario as a file instead`);
    expect(servingLinkHash(long.scenario)).toBeNull();
    // At the limit it still travels.
    const atLimit = traceFileScenario(base(), 'ok.csv', csv(TRACE_LIMITS.linkRequests));
    expect(atLimit.ok && servingLink(atLimit.scenario).ok).toBe(true);
  });
});
