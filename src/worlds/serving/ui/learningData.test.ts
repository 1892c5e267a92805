import { describe, expect, it } from 'vitest';
import type { ServingSummary } from '../engine/metrics';
import { ServingSeriesBuffer } from '../store/servingStore';
import type { LearningLive, ServingLaneInfo, ServingSeriesChunk } from '../worker/servingProtocol';
import { pastEpisodes } from './LearningPanel';
import {
  ACTIONS,
  AGENT_FILE_MAX_BYTES,
  CDF_WAITING,
  PREDICTOR_COLOURS,
  UpdateRateMeter,
  agentFileName,
  checkAgentFileSize,
  learningStatus,
  parseAgentText,
  policyGrid,
  policyTotal,
  predictorErrorCdf,
  reportQuantiles,
  seriesRewardCurve,
  sloViolationCdf,
  temperatureCurves,
  trainingCurves,
} from './learningData';

const lane = (index: number, scheduler: string, params: Record<string, number> = {}): ServingLaneInfo => ({
  index,
  scheduler,
  learning: ['bcedge', 'tac', 'ppo', 'ddqn'].includes(scheduler),
  label: scheduler,
  params,
  configurable: scheduler === 'fixed',
});

const live = (reward: number[], temperature: number[]): LearningLive => ({
  kind: 'bcedge',
  health: { decisionEntropy: null, stallSharePct: null, topActions: [], qSpread: null, qGap: null, backlog: 0, backlogGrowing: false, collapsed: false, warnings: [], episodes: [], peakBacklog: { requests: 0, atS: 0 }, rewardMean: null, bestRewardMean: null, rewardFallen: false },
  slots: reward.length,
  updates: 0,
  transitions: 0,
  lastReward: null,
  recentReward: null,
  recentSlots: 0,
  temperature: null,
  entropy: null,
  epsilon: null,
  losses: {},
  predictorMasked: 0,
  decisionUs: 0,
  curve: { slot: Float64Array.from(reward, (_, i) => i), reward: Float64Array.from(reward), temperature: Float64Array.from(temperature) },
  policy: null,
  masks: null,
});

/** A series of two models whose utilities are given per point. */
function seriesOf(endMs: number[], utility: [number, number][]): ServingSeriesBuffer {
  const n = endMs.length;
  const zeros = () => new Float64Array(n * 2);
  const chunk: ServingSeriesChunk = {
    endMs: Float64Array.from(endMs),
    slots: Float64Array.from(endMs, () => 1),
    throughputRps: zeros(),
    latencyMeanMs: zeros(),
    utility: Float64Array.from(utility.flat()),
    utilityCount: Float64Array.from(utility.flat(), (u) => (Number.isFinite(u) ? 1 : 0)),
    arrivals: zeros(),
    violations: zeros(),
    batchSize: new Int32Array(n * 2),
    instances: new Int32Array(n * 2),
  };
  const buffer = new ServingSeriesBuffer(4);
  buffer.add(chunk, true, 2);
  return buffer;
}

describe('learningStatus', () => {
  it('tells pretrained, from scratch, frozen and loaded apart', () => {
    expect(learningStatus({ pretrained: 1, explore: 0, train: 1 }, false)).toEqual({ status: 'pretrained', text: 'pretrained: started from the shipped agent, learning online, acting greedily' });
    expect(learningStatus({ pretrained: 0, train: 1, explore: 1 }, false).status).toBe('scratch');
    expect(learningStatus({ pretrained: 1, train: 0 }, false)).toEqual({ status: 'frozen', text: 'frozen: the shipped agent, not learning, sampling its actions' });
    expect(learningStatus({ pretrained: 0, train: 1 }, true).status).toBe('loaded');
    expect(learningStatus({ pretrained: 1, train: 1, explore: 1, greedyUntilUpdate: 1 }, false).text).toBe('pretrained: started from the shipped agent, learning online, acting greedily until it first learns online, then sampling its actions');
    expect(learningStatus({ pretrained: 1, train: 1, explore: 1, greedyUntilUpdate: 0 }, false).text).toBe('pretrained: started from the shipped agent, learning online, sampling its actions');
    expect(learningStatus({ train: 0 }, true).text).toContain('the agent you loaded');
  });
});

describe('policyGrid and policyTotal', () => {
  const policy = new Float32Array(2 * ACTIONS);
  const masks = new Uint8Array(2 * ACTIONS).fill(1);
  policy[ACTIONS + 0] = 0.25; // model 1: b = 1, m_c = 1
  policy[ACTIONS + 3 * 8 + 1] = 0.75; // model 1: b = 8, m_c = 2
  masks[ACTIONS + 7 * 8 + 7] = 0; // model 1: b = 128, m_c = 8 not allowed

  it('lays a model’s row out as batch size rows × instance columns, in %, masked cells null', () => {
    const grid = policyGrid(policy, masks, 1)!;
    expect(grid).toHaveLength(8);
    expect(grid.every((row) => row.length === 8)).toBe(true);
    expect(grid[0]![0]).toBe(25);
    expect(grid[3]![1]).toBe(75);
    expect(grid[7]![7]).toBeNull();
    expect(grid[2]![2]).toBe(0);
  });

  it('sums a model’s probabilities, and refuses a model the policy does not have', () => {
    expect(policyTotal(policy, 1)).toBeCloseTo(1);
    expect(policyTotal(policy, 0)).toBe(0);
    expect(policyGrid(policy, masks, 2)).toBeNull();
    expect(Number.isNaN(policyTotal(policy, 5))).toBe(true);
  });
});

describe('seriesRewardCurve and trainingCurves', () => {
  it('turns a utility series into the mean reward over models per slot', () => {
    const { slot, reward } = seriesRewardCurve(seriesOf([1000, 2000, 4000], [[1, 3], [Number.NaN, 4], [Number.NaN, Number.NaN]]), 1000);
    expect(Array.from(slot)).toEqual([0, 1, 3]);
    expect(reward[0]).toBe(2);
    expect(reward[1]).toBe(4);
    expect(Number.isNaN(reward[2]!)).toBe(true);
    expect(seriesRewardCurve(undefined, 1000).slot.length).toBe(0);
  });

  it('uses a learning lane’s own curve, and the utility series for the others and for a frozen learner', () => {
    const lanes = [lane(0, 'ga'), lane(1, 'bcedge'), lane(2, 'tac', { train: 0 })];
    const series = [seriesOf([1000], [[0.5, 0.5]]), seriesOf([1000], [[9, 9]]), seriesOf([1000, 2000], [[0.1, 0.3], [0.2, 0.2]])];
    const data = trainingCurves(lanes, [null, live([0.7, 0.8], [0.1, 0.09]), live([Number.NaN, Number.NaN], [Number.NaN, Number.NaN])], series, 1000);
    expect(data.slotSeconds).toBe(1);
    expect(data.lanes.map((l) => l.learning)).toEqual([false, true, true]);
    expect(Array.from(data.lanes[0]!.reward)).toEqual([0.5]);
    expect(Array.from(data.lanes[1]!.reward)).toEqual([0.7, 0.8]);
    expect(Array.from(data.lanes[2]!.reward).map((v) => Number(v.toFixed(6)))).toEqual([0.2, 0.2]);
  });

  it('draws an oracle from its series once it runs, and its legend says while it searches or catches up', () => {
    const lanes = [lane(0, 'fixed'), lane(1, 'fixed-hindsight'), lane(2, 'fixed-per-phase'), lane(3, 'bcedge')];
    const series = [seriesOf([1000], [[1, 1]]), seriesOf([1000], [[2, 2]]), undefined, seriesOf([1000], [[3, 3]])];
    const searches = [null, null, { done: 3, total: 24, replayedMs: null }, null];
    const data = trainingCurves(lanes, [null, null, null, null], series, 1000, searches);
    expect(data.lanes.map((l) => l.note)).toEqual([undefined, 'oracle', 'oracle searching…', undefined]);
    expect(Array.from(data.lanes[1]!.reward)).toEqual([2]);
    expect(data.lanes[2]!.reward.length).toBe(0);
    const catching = trainingCurves(lanes, [null, null, null, null], series, 1000, [null, null, { done: 24, total: 24, replayedMs: 500 }, null]);
    expect(catching.lanes[2]!.note).toBe('oracle catching up…');
  });

  it('lists the learning lanes’ temperature curves', () => {
    const data = temperatureCurves([lane(0, 'ga'), lane(1, 'bcedge')], [null, live([1], [0.1])]);
    expect(data.lanes.map((l) => l.label)).toEqual(['bcedge']);
    expect(Array.from(data.lanes[0]!.temperature)).toEqual([0.1]);
  });
});

describe('UpdateRateMeter', () => {
  it('measures updates per second over successive frames, per lane', () => {
    const meter = new UpdateRateMeter();
    meter.observe(0, 1, [null, 0]);
    expect(meter.rate(1)).toBeNull();
    meter.observe(200, 1, [null, 40]);
    expect(meter.rate(1)).toBeNull(); // too short a span yet
    meter.observe(1000, 1, [null, 200]);
    expect(meter.rate(1)).toBeCloseTo(200);
    expect(meter.rate(0)).toBeNull();
    expect(meter.rates()).toEqual([null, 200]);
  });

  it('forgets samples older than its window and starts over on a restart', () => {
    const meter = new UpdateRateMeter();
    for (let t = 0; t <= 10_000; t += 500) meter.observe(t, 1, [t < 5000 ? t / 10 : 500]);
    expect(meter.rate(0)).toBe(0); // stopped learning five seconds ago
    meter.observe(10_500, 2, [3]);
    expect(meter.rate(0)).toBeNull();
    meter.observe(11_500, 2, [53]);
    expect(meter.rate(0)).toBeCloseTo(50);
    meter.observe(12_000, 2, [0]); // count went down: a new learner
    expect(meter.rate(0)).toBeNull();
  });
});

describe('agent files', () => {
  it('refuses files above the size cap and empty files, naming the file', () => {
    expect(checkAgentFileSize('a.json', 1000)).toBeNull();
    expect(checkAgentFileSize('big.json', AGENT_FILE_MAX_BYTES + 1)).toEqual({ path: 'file big.json', message: 'is 20.0 MB; an agent file is at most 20 MB' });
    expect(checkAgentFileSize('e.json', 0)?.message).toContain('empty');
  });

  it('parses JSON objects and reports syntax errors and non-objects', () => {
    expect(parseAgentText('a.json', '{"format":"interference-lab-agent"}')).toEqual({ ok: true, value: { format: 'interference-lab-agent' } });
    const bad = parseAgentText('b.json', '{"format": ');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.path).toBe('file b.json');
      expect(bad.error.message).toMatch(/^is not valid JSON \(/);
    }
    const list = parseAgentText('c.json', '[1, 2]');
    expect(list.ok ? null : list.error).toEqual({ path: 'agent', message: 'expected a JSON object (an agent file), got an array' });
  });

  it('names downloads after the scheduler, the scenario and the day', () => {
    expect(agentFileName('bcedge', 'Six models on Xavier NX at 30 rps', new Date('2025-03-04T12:00:00Z'))).toBe('bcedge-six-models-on-xavier-nx-at-30-rps-2025-03-04.json');
    expect(agentFileName('tac', '—', new Date('2025-03-04T12:00:00Z'))).toBe('tac-2025-03-04.json');
  });
});

describe('the CDFs of the summaries', () => {
  const percentiles = Array.from({ length: 101 }, (_, i) => i / 100);
  const summary = (learning: Record<string, unknown> | undefined): ServingSummary => ({ ...({} as ServingSummary), ...(learning === undefined ? {} : { learning }) });

  it('reads the quantiles of an untyped report, or null', () => {
    expect(reportQuantiles({ a: { quantiles: [1, 2] } }, ['a', 'quantiles'])).toEqual([1, 2]);
    expect(reportQuantiles({ a: { quantiles: [] } }, ['a', 'quantiles'])).toBeNull();
    expect(reportQuantiles({ a: { quantiles: ['x'] } }, ['a', 'quantiles'])).toBeNull();
    expect(reportQuantiles(undefined, ['a'])).toBeNull();
  });

  it('gives Fig. 13 the MLP and linear regression of each predictor lane, in %', () => {
    const lanes = [lane(0, 'fixed'), lane(1, 'bcedge', { predictor: 1 }), lane(2, 'bcedge', { predictor: 0 })];
    const waiting = predictorErrorCdf(lanes, null);
    expect(waiting.series.map((s) => s.key)).toEqual(['1-mlp', '1-linear']);
    expect(waiting.series.every((s) => s.quantiles.length === 0 && s.label.endsWith('pause to see'))).toBe(true);
    expect(waiting.empty).toBe(CDF_WAITING);

    const report = { predictor: { records: 10, mlp: { samples: 50, p50: 0.1, p95: 0.3, quantiles: percentiles }, linear: { samples: 50, p50: 0.2, p95: 0.5, quantiles: percentiles } } };
    const data = predictorErrorCdf(lanes, [summary(undefined), summary(report), summary({})]);
    expect(data.series).toHaveLength(2);
    expect(data.series[0]!.quantiles[100]).toBe(100);
    expect(data.series[0]!.colour).toBe(PREDICTOR_COLOURS.mlp);
    expect(data.series[1]!.dashed).toBe(true);
    expect(data.series[0]!.label).toBe('interference predictor (MLP): median 10 %, p95 30 % (50 batches)');
    expect(predictorErrorCdf([lane(0, 'tac')], null).empty).toContain('No lane with the interference predictor');
  });

  it('gives Fig. 14 every learning lane’s per-slot violation quantiles', () => {
    const lanes = [lane(0, 'ga'), lane(1, 'bcedge'), lane(2, 'tac')];
    const data = sloViolationCdf(lanes, [summary(undefined), summary({ slotViolationPct: { p50: 0, p90: 5, p99: 20, max: 40, quantiles: percentiles } }), summary({ slotViolationPct: { quantiles: [] } })]);
    expect(data.series.map((s) => s.key)).toEqual(['1', '2']);
    expect(data.series[0]!.label).toBe('bcedge: median 0.0 %, p99 20 %');
    expect(data.series[1]!.label).toBe('tac: no slots yet');
    expect(sloViolationCdf([lane(0, 'fixed')], null).empty).toBe('No learning lane in this scenario');
  });
});

describe('pastEpisodes (the lane card: what the lane went through)', () => {
  it('names each warning that held and no longer does, with its stretch; one still holding is the live warning, not history', () => {
    expect(
      pastEpisodes([
        { kind: 'backlog', fromS: 1011.6, toS: 1530.2 },
        { kind: 'stalling', fromS: 1040, toS: 1490 },
        { kind: 'backlog', fromS: 2210, toS: null },
      ]),
    ).toBe('backlog grew without bound 1012–1530 s; stalling 1040–1490 s');
    expect(pastEpisodes([])).toBe('');
  });
});
