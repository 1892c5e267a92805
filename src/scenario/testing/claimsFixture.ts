import type { ClaimRow, ClaimsReport } from '../claimsReport';
import { CLAIMS_REPORT_VERSION } from '../claimsReport';
import { defaultPipelineScenario } from '../../worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../../worlds/serving/presets';
import type { ServingScenario } from '../../worlds/serving/schema';
import type { PipelineScenario } from '../../worlds/pipeline/schema';

/**
 * A hand-made reproduction report for tests of its door and of the Claims view: two ODIN rows
 * over a small swept scenario and one BCEdge row. Its numbers are made up (the tests that need
 * computed numbers compute them); its shape is `ClaimsReport`'s.
 */
export function sweptPipelineScenario(): PipelineScenario {
  const s = defaultPipelineScenario();
  return {
    ...s,
    pipeline: { ...s.pipeline, queries: 200 },
    sweep: { axes: [{ path: 'pipeline.lanes[0].params.alpha', values: [2, 10] }], seeds: 2, compare: { a: 0, b: 1 } },
  };
}

function servingScenario(): ServingScenario {
  return structuredClone(SERVING_PRESETS.find((p) => p.id === 'serving-default')!.scenario) as ServingScenario;
}

export function fixtureRows(): ClaimRow[] {
  return [
    {
      id: 'odin-fig6-throughput',
      paper: 'odin',
      where: 'Fig. 6',
      quote: 'ODIN achieves higher throughput than LLS under every interference pattern.',
      paperNumber: '+15 %',
      labNumber: 'ODIN α=10 − LLS, measured throughput, % of LLS',
      estimate: { mean: -12.5, halfWidth95: 3.1, seeds: 2 },
      verdict: 'fails',
      reason: 'the lab measures -12.5 ± 3.1: the opposite sign; pipelined trials flip it',
      sensitivity: [
        {
          path: 'pipeline.assumptions.trialCost',
          label: 'trial cost',
          readings: [
            { value: 'serial', estimate: { mean: -12.5, halfWidth95: 3.1, seeds: 2 }, verdict: 'fails' },
            { value: 'pipelined', estimate: { mean: 2.6, halfWidth95: 1.0, seeds: 2 }, verdict: 'holds' },
            { value: 'free', estimate: null, verdict: 'noise' },
          ],
        },
      ],
      learns: false,
      scenario: sweptPipelineScenario(),
      references: [
        { label: 'Optimal', estimate: { mean: 20.1, halfWidth95: 2.0, seeds: 2 } },
        { label: 'Static', estimate: { mean: 28.4, halfWidth95: 4.2, seeds: 2 } },
      ],
      note: '4,000 queries per cell instead of the paper’s runs',
      seeds: 2,
    },
    {
      id: 'odin-s42-queries',
      paper: 'odin',
      where: '§4.2',
      quote: 'LLS needs about one serial query per rebalance.',
      paperNumber: '≈1',
      labNumber: 'LLS serial queries per rebalance',
      estimate: { mean: 1.1, halfWidth95: 0.05, seeds: 2 },
      verdict: 'holds',
      reason: 'the lab measures 1.10 ± 0.05, within 0.5 of the paper’s 1',
      sensitivity: [],
      learns: false,
      scenario: sweptPipelineScenario(),
    },
    {
      id: 'bcedge-fig14-predictor',
      paper: 'bcedge',
      where: 'Fig. 14',
      quote: 'The interference predictor lowers SLO violations from 9.2 % to 4.1 %.',
      paperNumber: '4.1 % vs 9.2 %',
      labNumber: 'SLO violations with − without the predictor, points',
      estimate: { mean: 0.15, halfWidth95: 0.4, seeds: 2 },
      verdict: 'noise',
      reason: 'the interval includes 0, inside the noise of 2 seeds',
      sensitivity: [],
      learns: true,
      scenario: servingScenario(),
    },
  ];
}

export function fixtureReport(): ClaimsReport {
  return {
    version: CLAIMS_REPORT_VERSION,
    provenance: { commit: 'abc1234', seeds: 2, date: '2026-12-01T11:00:00.000Z', machine: 'Node v20.19.0, linux x64, 2 cores', command: 'npm run claims -- --format json --out public/claims/report.json' },
    rows: fixtureRows(),
  };
}
