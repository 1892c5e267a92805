import { describe, expect, it } from 'vitest';
import { createRng } from '../../../engine/rng';
import { meanRateRps, mmppSwitches, rateProcess, type RateSchedule } from './load';
import type { ServingScheduler } from './scheduler';
import { ServingRun } from './simulation';
import type { ServingModelSpec, ServingRunSpec } from './spec';
import { DEFAULT_SERVING_ASSUMPTIONS } from './assumptions';

const fixed = (count = 1): ServingScheduler => ({ id: 'fixed', decide: () => Array.from({ length: count }, () => ({ batchSize: 8, instances: 2 })) });

function spec(models: readonly ServingModelSpec[], durationMs: number, seed = 7): ServingRunSpec {
  return { platform: 'xavier-nx', models, rateRps: 30, durationMs, seed, background: [], assumptions: DEFAULT_SERVING_ASSUMPTIONS };
}

/** Send times of every request of a run. */
function sendTimes(s: ServingRunSpec): { model: number; sentMs: number }[] {
  const run = new ServingRun(s, fixed(s.models.length));
  const out: { model: number; sentMs: number }[] = [];
  run.onRequest = (r) => out.push({ model: r.model, sentMs: r.sentMs });
  run.runToEnd();
  return out.sort((a, b) => a.sentMs - b.sentMs);
}

/** Expected count Λ over [from, to) by midpoint integration of λ, and the requests sent there. */
function window(schedule: RateSchedule, times: readonly number[], fromMs: number, toMs: number): { expected: number; got: number } {
  const p = rateProcess(schedule, createRng(1));
  let expected = 0;
  for (let t = fromMs + 5; t < toMs; t += 10) expected += (p.rateAt(t) * 10) / 1000;
  return { expected, got: times.filter((t) => t >= fromMs && t < toMs).length };
}

// Counts of a Poisson process: the tolerance is 4 standard deviations (√Λ) plus 1 %
// of Λ for the midpoint integration; with the fixed seed the test is deterministic.
const within = ({ expected, got }: { expected: number; got: number }): void => {
  expect(Math.abs(got - expected)).toBeLessThanOrEqual(4 * Math.sqrt(expected) + 0.01 * expected);
};

describe('rate schedules', () => {
  const durationMs = 1_200_000;
  const cases: readonly [string, RateSchedule][] = [
    ['constant', { kind: 'constant', rateRps: 6 }],
    ['steps', { kind: 'steps', steps: [{ fromMs: 0, rateRps: 2 }, { fromMs: 300_000, rateRps: 12 }, { fromMs: 800_000, rateRps: 4 }] }],
    ['linear (ramp up and down)', { kind: 'linear', points: [{ atMs: 0, rateRps: 1 }, { atMs: 600_000, rateRps: 15 }, { atMs: 1_000_000, rateRps: 3 }] }],
    ['sine (daily cycle)', { kind: 'sine', meanRps: 8, amplitudeRps: 6, periodMs: 400_000, phaseMs: 0 }],
  ];
  for (const [name, schedule] of cases) {
    it(`${name}: the mean rate over the run and in each fifth of it match λ(t)`, () => {
      const times = sendTimes(spec([{ model: 'bert', weight: 1, rate: schedule }], durationMs)).map((r) => r.sentMs);
      const total = { expected: (meanRateRps(schedule, durationMs, 10) * durationMs) / 1000, got: times.length };
      within(total);
      for (let k = 0; k < 5; k++) within(window(schedule, times, (k * durationMs) / 5, ((k + 1) * durationMs) / 5));
    });
  }

  it('steps: the rate before the first step is 0 and each step holds until the next', () => {
    const p = rateProcess({ kind: 'steps', steps: [{ fromMs: 100, rateRps: 5 }, { fromMs: 200, rateRps: 1 }] }, createRng(1));
    expect([p.rateAt(0), p.rateAt(99.9), p.rateAt(100), p.rateAt(199), p.rateAt(200), p.rateAt(1e9)]).toEqual([0, 0, 5, 5, 1, 1]);
    expect(p.peakRps).toBe(5);
  });

  it('linear: interpolates between points and is flat outside them', () => {
    const p = rateProcess({ kind: 'linear', points: [{ atMs: 100, rateRps: 2 }, { atMs: 300, rateRps: 6 }] }, createRng(1));
    expect([p.rateAt(0), p.rateAt(100), p.rateAt(200), p.rateAt(300), p.rateAt(400)]).toEqual([2, 2, 4, 6, 6]);
  });

  it('rejects a sine that would go negative and unsorted steps', () => {
    expect(() => rateProcess({ kind: 'sine', meanRps: 2, amplitudeRps: 3, periodMs: 10, phaseMs: 0 }, createRng(1))).toThrow(/amplitudeRps/);
    expect(() => rateProcess({ kind: 'steps', steps: [{ fromMs: 5, rateRps: 1 }, { fromMs: 5, rateRps: 2 }] }, createRng(1))).toThrow(/increasing/);
  });
});

describe('MMPP on/off bursts', () => {
  const mmpp: Extract<RateSchedule, { kind: 'mmpp' }> = { kind: 'mmpp', onRps: 20, offRps: 1, meanOnMs: 20_000, meanOffMs: 60_000, startOn: false };

  it('on and off durations are exponential with the given means (4000 periods, 5 %; CV within 10 % of 1)', () => {
    const next = mmppSwitches(mmpp, createRng(3, 9));
    const on: number[] = [];
    const off: number[] = [];
    let last = 0;
    let isOn = mmpp.startOn;
    for (let i = 0; i < 8000; i++) {
      const t = next();
      (isOn ? on : off).push(t - last);
      last = t;
      isOn = !isOn;
    }
    for (const [d, mean] of [
      [on, mmpp.meanOnMs],
      [off, mmpp.meanOffMs],
    ] as const) {
      const m = d.reduce((a, b) => a + b, 0) / d.length;
      const sd = Math.sqrt(d.reduce((a, b) => a + (b - m) ** 2, 0) / d.length);
      expect(Math.abs(m / mean - 1)).toBeLessThan(0.05);
      expect(Math.abs(sd / m - 1)).toBeLessThan(0.1);
    }
  });

  it('requests come at the on rate while on and the off rate while off; the mean is the stationary mix', () => {
    const durationMs = 30_000_000;
    const times = sendTimes(spec([{ model: 'bert', weight: 1, rate: mmpp }], durationMs)).map((r) => r.sentMs);
    // The engine's switch stream for bert (MODEL_IDS index 5): SERVING_SWITCH_STREAM + 5.
    const next = mmppSwitches(mmpp, createRng(7, 32 + 5));
    let t0 = 0;
    let isOn = mmpp.startOn;
    const time = { on: 0, off: 0 };
    const count = { on: 0, off: 0 };
    let i = 0;
    while (t0 < durationMs) {
      const t1 = Math.min(next(), durationMs);
      let n = 0;
      while (i < times.length && times[i]! < t1) {
        n++;
        i++;
      }
      time[isOn ? 'on' : 'off'] += t1 - t0;
      count[isOn ? 'on' : 'off'] += n;
      t0 = t1;
      isOn = !isOn;
    }
    within({ expected: (mmpp.onRps * time.on) / 1000, got: count.on });
    within({ expected: (mmpp.offRps * time.off) / 1000, got: count.off });
    const stationary = (mmpp.onRps * mmpp.meanOnMs + mmpp.offRps * mmpp.meanOffMs) / (mmpp.meanOnMs + mmpp.meanOffMs);
    // Over ≈ 375 cycles the on state's time share itself varies (σ ≈ 4 % of the mean rate): 3σ.
    expect(Math.abs(times.length / ((stationary * durationMs) / 1000) - 1)).toBeLessThan(0.13);
  });
});

describe('per-model arrival streams', () => {
  it('each model keeps its own stream: adding a model does not move another model’s requests', () => {
    const one = sendTimes(spec([{ model: 'res', weight: 1, rate: { kind: 'constant', rateRps: 5 } }], 200_000));
    const two = sendTimes(
      spec(
        [
          { model: 'res', weight: 1, rate: { kind: 'constant', rateRps: 5 } },
          { model: 'bert', weight: 1, rate: { kind: 'constant', rateRps: 9 } },
        ],
        200_000,
      ),
    );
    expect(two.filter((r) => r.model === 0).map((r) => r.sentMs)).toEqual(one.map((r) => r.sentMs));
  });

  it('a model out of service sends nothing, holds no memory, and its queue is dropped when it stops', () => {
    const s = spec(
      [
        { model: 'yolo', weight: 1 },
        { model: 'inc', weight: 1, serviceFromMs: 20_000, serviceToMs: 40_000 },
      ],
      60_000,
    );
    const times = sendTimes(s).filter((r) => r.model === 1);
    expect(times.length).toBeGreaterThan(100);
    expect(times.every((r) => r.sentMs >= 20_000 && r.sentMs < 40_000)).toBe(true);
    const memory: [number, number][] = [];
    const probe: ServingScheduler = {
      id: 'probe',
      decide: (o) => {
        memory.push([o.nowMs, o.availableMemoryMb]);
        expect(o.models[1]!.inService).toBe(o.nowMs >= 20_000 && o.nowMs < 40_000);
        return [
          { batchSize: 1, instances: 1 },
          { batchSize: 1, instances: 4 },
        ];
      },
    };
    // The probe reads the device at the fixed slot's boundaries (10 s, 30 s, 50 s).
    new ServingRun({ ...s, assumptions: { ...s.assumptions, slot: 'fixed' } }, probe).runToEnd();
    // Idle moments (no batch running) at 10 s and 30 s differ by inc's four instances at most by their activations.
    const at = (ms: number): number => memory.find(([t]) => t === ms)![1];
    expect(at(10_000) - at(30_000)).toBeGreaterThanOrEqual(4 * (47.6 + 64) - 1e-9);
    expect(at(50_000) - at(30_000)).toBeGreaterThanOrEqual(4 * (47.6 + 64) - 1e-9);
  });
});
