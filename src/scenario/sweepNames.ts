import type { AnyScenario } from './schema';
import { parseFieldPath } from './sweep';
import { worldOf } from '../kit/worlds';

/**
 * Explore in words (issue 37): the names people read for a sweep's fields and metrics, with their
 * units, instead of the scenario's paths (`pipeline.lanes[0].params.alpha`) and the summaries' keys
 * (`throughputMeanQps`). The paths stay what a sweep stores and the CLI prints; these are labels.
 */

/** Fields by their path with the list indices left out (`serving.models[].weight`). */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  'pipeline.model': 'CNN model',
  'pipeline.executionPlaces': 'execution places (EPs)',
  'pipeline.queries': 'queries per run',
  'pipeline.interference.random.enabled': 'random interference on',
  'pipeline.interference.random.periodQueries': 'random interference: every (queries)',
  'pipeline.interference.random.durationQueries': 'random interference: lasts (queries)',
  'pipeline.assumptions.trialCost': 'trial cost (reading)',
  'pipeline.assumptions.llsReading': 'LLS reading',
  'pipeline.assumptions.bufferCapacity': 'buffer between stages (queries)',
  'pipeline.assumptions.admission.kind': 'admission',
  'pipeline.assumptions.admission.rateQps': 'arrival rate (queries/s)',
  'pipeline.assumptions.admission.shareOfPeak': 'arrival rate (share of the peak)',
  'pipeline.assumptions.detectionThreshold': 'detection threshold (relative change)',
  'pipeline.assumptions.detectionSignal': 'detection signal',
  'pipeline.assumptions.hopMs': 'hop between stages (ms)',
  'serving.platform': 'edge platform',
  'serving.rateRps': 'requests per second a model',
  'serving.durationS': 'run length (s)',
  'serving.models[].model': 'model',
  'serving.models[].weight': 'share of the requests',
  'serving.models[].rate.kind': 'rate schedule',
  'serving.models[].rate.rateRps': 'requests per second',
  'serving.models[].rate.onRps': 'requests per second while on',
  'serving.models[].rate.offRps': 'requests per second while off',
  'serving.models[].rate.meanOnS': 'mean on time (s)',
  'serving.models[].rate.meanOffS': 'mean off time (s)',
  'serving.assumptions.slotMs': 'scheduling slot (ms)',
  'serving.assumptions.linkBandwidthMbps': 'link bandwidth (Mbit/s)',
  'serving.assumptions.linkLatencyMs': 'link latency (ms)',
  'serving.assumptions.sloJitter': 'SLO jitter (share)',
  'serving.assumptions.serializationMBps': 'serialization (MB/s)',
  'serving.assumptions.oomRecoveryMs': 'recovery after out of memory (ms)',
  'serving.assumptions.interferenceNoise': 'interference noise (share)',
  'serving.closedLoop.outstanding': 'requests in flight per model (closed loop)',
  'serving.bursts.burstiness': 'burstiness',
  'serving.bursts.meanOnS': 'mean burst (s)',
};

/** The summaries' numbers (both worlds; sweeps: ARCHITECTURE §4) by key. */
const METRIC_NAMES: Readonly<Record<string, string>> = {
  throughputMeanQps: 'mean throughput (queries/s)',
  latencyMeanMs: 'mean latency (ms)',
  latencyP50Ms: 'median latency (ms)',
  latencyP99Ms: '99th-percentile latency (ms)',
  configThroughputMeanQps: 'mean throughput of the configuration, T(C) (queries/s)',
  configLatencyMeanMs: 'mean latency of the configuration (ms)',
  configLatencyP99Ms: '99th-percentile latency of the configuration (ms)',
  peakThroughputQps: 'peak throughput, no interference (queries/s)',
  resourceConstrainedThroughputMeanQps: 'mean optimum under the interference (queries/s)',
  optimalRatioMean: 'mean ratio to the optimum',
  rebalancings: 'rebalancings',
  rebalancingQueries: 'queries spent rebalancing',
  queriesPerRebalance: 'queries per rebalancing',
  overheadPct: 'rebalancing overhead (%)',
  mitigationMeanQueries: 'mean time to mitigate (queries)',
  queries: 'queries served',
  normalLatencyMeanMs: 'mean latency outside rebalancings (ms)',
  trialLatencyMeanMs: 'mean latency of trial queries (ms)',
  sloViolationPct: 'SLO violations (%)',
  utilityMean: 'mean utility (Eq. 3)',
  throughputRps: 'throughput (requests/s)',
  oomBatches: 'batches out of memory',
  decisionMeanUs: 'mean decision time (µs)',
  requests: 'requests sent',
  completed: 'requests completed',
  failed: 'requests failed',
  dropped: 'requests dropped',
};

/** Unit suffixes of the lab's names (`latencyMs`, `rateRps`). */
const UNITS: readonly (readonly [RegExp, string])[] = [
  [/Qps$/, 'queries/s'],
  [/Rps$/, 'requests/s'],
  [/MBps$/, 'MB/s'],
  [/Mbps$/, 'Mbit/s'],
  [/Ms$/, 'ms'],
  [/Us$/, 'µs'],
  [/Pct$/, '%'],
  [/S$/, 's'],
];

/** A key in words: `meanOnS` → "mean on (s)", `targetEntropyRatio` → "target entropy ratio". */
export function inWords(key: string): string {
  let unit: string | null = null;
  let base = key;
  for (const [pattern, name] of UNITS) {
    if (pattern.test(key) && key.replace(pattern, '') !== '') {
      unit = name;
      base = key.replace(pattern, '');
      break;
    }
  }
  const words = base
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return unit === null ? words : `${words} (${unit})`;
}

/** A summary number's name with its unit: "mean throughput (queries/s)". */
export function metricName(metric: string): string {
  return METRIC_NAMES[metric] ?? inWords(metric);
}

/**
 * A sweepable field's name with its unit: "ODIN α (exploration)" for a lane's parameter (its lane
 * number when two lanes run that scheduler), "yolo: share of the requests" for a model's field,
 * "requests per second a model"; a path the lab has no name for is said in words.
 */
export function fieldName(path: string, scenario: AnyScenario): string {
  const keys = parseFieldPath(path);
  if (keys === null) return path;
  const world = worldOf(scenario);
  const body = (scenario as unknown as Record<string, unknown>)[world.id];
  const lanesAt = keys.indexOf('lanes');
  if (lanesAt === 1 && typeof keys[2] === 'number' && keys[3] === 'params' && typeof keys[4] === 'string') {
    const lanes = world.lanes(scenario);
    const lane = lanes[keys[2]];
    const param = keys[4];
    if (lane !== undefined) {
      const label = world.parameters(lane.scheduler).find((p) => p.name === param)?.label ?? inWords(param);
      const scheduler = world.schedulerLabel?.(lane.scheduler) ?? lane.scheduler;
      const twin = lanes.filter((l) => l.scheduler === lane.scheduler).length > 1;
      return `${scheduler} ${label}${twin ? `, lane ${keys[2] + 1}` : ''}`;
    }
  }
  const general = keys.map((k) => (typeof k === 'number' ? '[]' : k)).join('.').replaceAll('.[]', '[]');
  const name = FIELD_NAMES[general] ?? inWords(String(keys.filter((k) => typeof k === 'string').at(-1) ?? path));
  // A model's own field: say which model.
  const modelsAt = keys.indexOf('models');
  const index = keys[modelsAt + 1];
  if (modelsAt === 1 && typeof index === 'number' && keys.length > 3) {
    const model = ((body as { models?: readonly { model?: string }[] } | undefined)?.models?.[index]?.model) ?? `model ${index + 1}`;
    return `${model}: ${name}`;
  }
  return name;
}
