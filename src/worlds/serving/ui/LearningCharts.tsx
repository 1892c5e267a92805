import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { createCdfChart } from '../charts/cdfChart';
import { createHeatmapChart, type HeatmapData } from '../charts/heatmapChart';
import { createTemperatureChart } from '../charts/temperatureChart';
import { createTrainingCurvesChart } from '../charts/trainingCurvesChart';
import { BATCH_SIZES, INSTANCE_COUNTS } from '../engine/scheduler';
import type { ServingState, ServingStore } from '../store/servingStore';
import { ChartGrid } from '../../../ui/shell/ChartCard';
import { DataChartHost } from './DataChartHost';
import { policyGrid, policyTotal, predictorErrorCdf, sloViolationCdf, temperatureCurves, trainingCurves } from './learningData';

function useServing<T>(store: ServingStore, selector: (s: ServingState) => T): T {
  return useStore(store, selector);
}

/** Charts fed on every frame are redrawn at most this often, ms. */
const LIVE_CHART_MS = 250;

/**
 * The learning charts of the serving page: BCEdge Fig. 10 (training curves of every lane),
 * SAC's temperature α, the live policy of a learning lane for one model, and the CDFs of
 * Fig. 13 (the interference predictor's error against linear regression) and Fig. 14 (per-slot
 * SLO violations), which come with the summaries (when the run pauses or ends).
 */
export function LearningCharts({ store }: { readonly store: ServingStore }) {
  const lanes = useServing(store, (s) => s.lanes);
  const models = useServing(store, (s) => s.models);
  const version = useServing(store, (s) => s.version);
  const selectedLane = useServing(store, (s) => s.selectedLane);
  const selectedModel = useServing(store, (s) => s.selectedModel);
  const summaries = useServing(store, (s) => s.summaries);
  const policies = useServing(store, (s) => s.policies);
  const [chosenLane, setChosenLane] = useState<number | null>(null);
  const predictor = useMemo(() => predictorErrorCdf(lanes, summaries), [lanes, summaries]);
  const slo = useMemo(() => sloViolationCdf(lanes, summaries), [lanes, summaries]);
  const learningLanes = lanes.filter((l) => l.learning);
  if (learningLanes.length === 0) return null;
  void version; // the curves and series below are read on every frame
  const state = store.getState();

  const curves = trainingCurves(lanes, state.learning, state.series, state.slotMs, state.searches);
  const temperature = temperatureCurves(lanes, state.learning);
  const hasAlpha = learningLanes.some((l) => l.scheduler === 'bcedge');

  // The policy of the chosen learning lane (else the selected lane if it learns, else the first).
  const policyLane =
    learningLanes.find((l) => l.index === chosenLane) ?? learningLanes.find((l) => l.index === selectedLane) ?? learningLanes[0]!;
  const model = Math.min(selectedModel, Math.max(0, models.length - 1));
  const latest = policies[policyLane.index] ?? null;
  const grid = latest === null ? null : policyGrid(latest.policy, latest.masks, model);
  const series = state.series[policyLane.index];
  const last = series === undefined ? -1 : series.length - 1;
  const marker = last >= 0 && series!.models > model ? { batchSize: series!.at('batchSize', last, model), instances: series!.at('instances', last, model) } : null;
  const policy: HeatmapData | null = grid === null ? null : { metric: 'probability', batchSizes: BATCH_SIZES, instanceCounts: INSTANCE_COUNTS, values: grid, marker };
  const total = latest === null ? Number.NaN : policyTotal(latest.policy, model);
  const modelName = models[model]?.model ?? '';

  const policyControls = (
    <>
      <label>
        lane{' '}
        <select value={policyLane.index} onChange={(e) => setChosenLane(Number(e.target.value))} data-testid="chart.policy.lane">
          {learningLanes.map((l) => (
            <option key={l.index} value={l.index}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        model{' '}
        <select value={model} onChange={(e) => store.getState().selectModel(Number(e.target.value))} data-testid="chart.policy.model">
          {models.map((m, k) => (
            <option key={m.model} value={k}>
              {m.model}
            </option>
          ))}
        </select>
      </label>
    </>
  );

  return (
    <section className="learning-charts" aria-label="Learning charts" data-testid="learning.charts">
      <ChartGrid
        label="Learning charts"
        cards={[
          { id: 'chart.training', node: (
            <DataChartHost
              title="Fig. 10: training curves — reward per slot"
              testId="chart.training"
              create={createTrainingCurvesChart}
              data={curves}
              minIntervalMs={LIVE_CHART_MS}
              caption="Each lane’s reward (its utility, Eq. 6) per scheduling slot, smoothed by a moving average: learning lanes solid, the others dashed for comparison; an oracle’s line is drawn once its plan runs beside the others (until then its legend says where it is)."
            />
          ) },
          { id: 'chart.temperature', node: (
            <DataChartHost
              title="SAC temperature α over slots"
              testId="chart.temperature"
              create={createTemperatureChart}
              data={temperature}
              minIntervalMs={LIVE_CHART_MS}
              caption={
                hasAlpha
                  ? 'BCEdge tunes its entropy temperature α automatically towards a target entropy: high α explores, low α exploits.'
                  : 'Only BCEdge (SAC) has a temperature: TAC runs at α = 0, and PPO and DDQN have none.'
              }
            />
          ) },
          { id: 'chart.policy', node: (
            <DataChartHost
              title={`Policy π(a|s) of ${policyLane.label} for ${modelName}`}
              testId="chart.policy"
              create={createHeatmapChart}
              data={policy}
              controls={policyControls}
              attributes={{ 'data-sum': Number.isFinite(total) ? total : '', 'data-lane': policyLane.index, 'data-model': modelName }}
              caption={
                latest === null
                  ? 'Waiting for the lane’s first decision…'
                  : `Probability of each batch size × instances at the lane’s last decision (sent about 4 times a second; they sum to ${Number.isFinite(total) ? (100 * total).toFixed(1) : '–'} %). Hatched actions are masked (memory, or the interference predictor); the most probable one is outlined, the configuration in force ringed.`
              }
            />
          ) },
          { id: 'chart.predictor-cdf', node: (
            <DataChartHost
              title="Fig. 13: interference predictor against linear regression (CDF of relative error)"
              testId="chart.predictor-cdf"
              create={createCdfChart}
              data={predictor}
              caption={
                summaries === null
                  ? 'No data yet: this distribution is computed when the run pauses or ends. Pause to see the relative error of BCEdge’s interference predictor (MLP) and of linear regression on batches they had not learned from.'
                  : 'Relative error of the predicted inference time on batches neither model had learned from yet (scored online, as of the last pause).'
              }
            />
          ) },
          { id: 'chart.slo-cdf', node: (
            <DataChartHost
              title="Fig. 14: SLO violations per slot (CDF)"
              testId="chart.slo-cdf"
              create={createCdfChart}
              data={slo}
              caption={
                summaries === null
                  ? 'No data yet: this distribution is computed when the run pauses or ends. Pause to see, per learning lane, the share of requests that missed their SLO in each slot.'
                  : 'Share of each slot’s requests that missed their SLO, per learning lane (as of the last pause).'
              }
            />
          ) },
        ]}
      />
    </section>
  );
}
