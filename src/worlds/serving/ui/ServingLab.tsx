import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createHeatmapChart, type HeatmapData } from '../charts/heatmapChart';
import { createPerModelLinesChart, type PerModelLinesData } from '../charts/perModelLinesChart';
import { createPerModelStackChart, type PerModelStackData } from '../charts/perModelStackChart';
import { createRpsSweepChart } from '../charts/rpsSweepChart';
import { NO_SCHEDULE, scheduleMarks } from '../charts/scheduleOverlay';
import { createUtilityBarsChart, type UtilityBarsData } from '../charts/utilityBarsChart';
import { createDecisionTimeChart, type DecisionTimeData } from '../charts/decisionTimeChart';
import { laneColour } from '../../../charts/palette';
import { BATCH_SIZES, INSTANCE_COUNTS } from '../engine/scheduler';
import { SERVING_LESSONS } from '../presets';
import type { HideableControl } from '../../../scenario/schema';
import type { ServingScenario } from '../schema';
import { SERVING_LIMITS } from '../../../scenario/limits';
import { SERVING_SCHEDULERS } from '../schedulers/registry';
import { ServingTimeline } from './ServingTimeline';
import type { ServingState, ServingStore, ServingSweepState } from '../store/servingStore';
import type { ServingSpeed } from '../worker/servingProtocol';
import { DataChartHost } from './DataChartHost';
import { tenantState, tenantText } from './deviceBoard';
import { LearningCharts } from './LearningCharts';
import { LearningPanel } from './LearningPanel';
import { SearchProgress } from './SearchProgress';
import { LaneScoreboard, useLaneScores } from './LaneScoreboard';
import { perModelUtility } from './scoreboard';
import { ServingAssumptionsPanel } from './ServingAssumptionsPanel';
import { TracePanel } from './TracePanel';
import { servingLink } from './traceScenario';
import { withMoment } from '../../../store/moment';
import { SERVING_KEYS, useServingKeys } from './servingKeys';
import type { Shortcut } from '../../../ui/HelpOverlay';
import { ChartGrid } from '../../../ui/shell/ChartCard';
import { DragDropArea, useDraggable, useDroppable, type DragAnnouncements } from '../../../ui/dragDrop';
import { LabShell, type LabWorld } from '../../../ui/shell/LabShell';
import { StoreChartHost } from '../../../ui/shell/StoreChartHost';
import { useRenderCount } from '../../../ui/shell/renderCount';
import { PresetsGallery } from '../../../ui/shell/presetsGallery';
import type { WorldShare } from '../../../ui/shell/ShareBar';

function useServing<T>(store: ServingStore, selector: (s: ServingState) => T): T {
  return useStore(store, selector);
}


/** The serving lessons (on this lab's own load already). */
const servingLessons = () => Promise.resolve(SERVING_LESSONS);
/** How long the page waits after a change of the scenario before asking for Fig. 15 again, ms (a slider being dragged). */
const RPS_SWEEP_DEBOUNCE_MS = 400;

/**
 * Fig. 1 of BCEdge for the focused model: computed in the serving worker, cell by cell
 * between the live run's ticks (ARCHITECTURE §7a′); null until every cell is in.
 */
function useFigure1(store: ServingStore, model: ServingScenario['serving']['models'][number]['model'] | null, platform: ServingScenario['serving']['platform'] | null) {
  useEffect(() => {
    if (model === null || platform === null) return;
    void store.getState().sweep({ kind: 'figure1', model, platform }, `${model}@${platform}`);
  }, [store, model, platform]);
  // The result only: the progress is read by the sweep's progress bar (SweepProgress), so that it does not render the lab.
  return useServing(store, (s) => s.sweeps.figure1?.result ?? null);
}

/**
 * True once the element with `testId` has been on screen: work for a chart far down the page
 * waits until someone scrolls to it.
 */
function useSeen(testId: string, present: boolean): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    // Not on the page (the charts are hidden): looked for again when they are shown.
    const element = present && !seen ? document.querySelector(`[data-testid="${testId}"]`) : null;
    if (element === null) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [testId, present, seen]);
  return seen;
}

/** The Fig. 15 caption: how the learning lanes start at each rate, and which lanes the sweep leaves out (undefined when neither applies). */
function rpsCaption(learning: readonly string[], reference: readonly string[]): string | undefined {
  const parts: string[] = [];
  const many = (n: number) => (n === 1 ? '' : 's');
  if (learning.length > 0) parts.push(`Swept in the simulation worker: at each rate the learning lane${many(learning.length)} (${learning.join(', ')}) start${learning.length === 1 ? 's' : ''} where the scenario says (from scratch or from the shipped agent).`);
  if (reference.length > 0) parts.push(`The reference lane${many(reference.length)} ${reference.join(', ')} ${reference.length === 1 ? 'is' : 'are'} not swept: ${reference.length === 1 ? 'its' : 'their'} search re-runs the trace hundreds of times per rate.`);
  return parts.length === 0 ? undefined : parts.join(' ');
}

/**
 * Fig. 15: SLO violations against the request rate for every lane of the scenario, learning
 * lanes included, computed in the serving worker (where TensorFlow.js runs); asked again
 * (debounced) when the scenario changes in a way that changes the sweep. Five rates of every
 * learning lane cost the worker tens of seconds beside the live run, so the sweep starts once
 * its chart has been on screen (`seen`).
 */
function useRpsSweep(store: ServingStore, scenario: ServingScenario | null, seen: boolean) {
  // The key stands for the scenario: the rate, the tenants and the view do not change the sweep.
  const key = scenario === null ? '' : JSON.stringify({ ...scenario.serving, rateRps: 0, background: [], seed: scenario.seed });
  useEffect(() => {
    if (scenario === null || !seen) return;
    const timer = setTimeout(() => void store.getState().sweep({ kind: 'rps', scenario }, key), RPS_SWEEP_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, key, seen]);
  return useServing(store, (s) => s.sweeps.rps?.result ?? null);
}

/** A sweep's progress bar, beside its chart's title, while it runs. */
function SweepProgress({ store, kind, testId }: { readonly store: ServingStore; readonly kind: 'figure1' | 'rps'; readonly testId: string }) {
  const sweep: ServingSweepState<unknown> | null = useServing(store, (s) => s.sweeps[kind]);
  if (sweep === null) return null;
  if (sweep.error !== null) return <span className="sweep-error" role="status" data-testid={`${testId}.error`}>{sweep.error}</span>;
  if (sweep.result !== null) return null;
  const pct = sweep.total === 0 ? 0 : Math.round((100 * sweep.done) / sweep.total);
  return (
    <label className="sweep-progress">
      computing in the worker <progress data-testid={`${testId}.progress`} max={Math.max(1, sweep.total)} value={sweep.done} aria-label="sweep progress" /> {pct} %
    </label>
  );
}

/** Playback speeds: simulated seconds per wall-clock second, or as fast as the worker goes. */
const SPEEDS: readonly ServingSpeed[] = [1, 2, 5, 10, 30, 100, 300, 1000, 'max'];
const speedLabel = (speed: number) => `${speed.toLocaleString('en-US')} × real time`;

/** The parts a serving classroom link can hide, in this world's words. */
const SERVING_PARTS: Partial<Record<HideableControl, string>> = {
  playback: 'playback',
  palette: 'tenant palette',
  lanes: 'lanes',
  charts: 'charts',
  links: 'this share bar',
  algorithm: 'learning panel',
  timeline: 'time line',
  lessons: 'lessons',
};

/** The co-located tenant a person can drop on the device (another workload on the GPU). */
const TENANT = { intensity: 0.3, memoryMb: 1024 } as const;

/** What the live region says while the tenant is dragged. */
const TENANT_ANNOUNCEMENTS: DragAnnouncements = {
  start: () => 'Picked up another tenant. Use the arrow keys to move it onto the device, space to drop it there, escape to cancel.',
  over: (target) => (target ? 'Over the device.' : 'Not over the device.'),
  drop: (_item, target) => (target ? 'Dropped on the device: it runs there from now on.' : 'Dropped outside the device: nothing added.'),
  cancel: () => 'Cancelled.',
};

function TenantToken({ onClick }: { readonly onClick: () => void }) {
  const { attributes, listeners, style, isDragging } = useDraggable({ id: 'tenant', data: TENANT });
  return (
    <button
      type="button"
      className={`token${isDragging ? ' dragging' : ''}`}
      data-testid="palette.background"
      style={style}
      {...attributes}
      {...listeners}
      onClick={onClick}
      title="Drag onto the device (or click) to co-locate another tenant"
    >
      another tenant (30 % GPU, 1 GB) — drag onto the device
    </button>
  );
}

/** The device board accepts a dropped tenant. */
function DeviceDrop({ children }: { readonly children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: 'device' });
  return (
    <section ref={setNodeRef} className={`panel device${isOver ? ' over' : ''}`} aria-labelledby="device-heading" data-testid="device.board">
      {children}
    </section>
  );
}

/** The keys of the serving lab (the help overlay lists them). */
const SERVING_SHORTCUTS: readonly Shortcut[] = [...SERVING_KEYS, { keys: 'Ctrl+Z / Ctrl+Shift+Z', does: 'undo / redo a scenario edit' }];

/**
 * The serving world's share bar: its link (a trace too long for a link says why there is
 * none), its presets, and its trace and scenario files.
 */
function servingShare(store: ServingStore): WorldShare {
  return {
    copyLink: () => {
      const scenario = store.getState().scenario;
      const base = `${window.location.origin}${window.location.pathname}`;
      // The lab shows while its first scenario loads: a link then would open the wrong lab.
      if (scenario === null) return Promise.resolve({ problem: 'the scenario is still loading: copy the link once it has opened' });
      // The moment the run is at travels with the link (`view.at`): it reopens there.
      const linked = servingLink(withMoment(scenario, store.getState().moment()));
      return Promise.resolve(linked.ok ? { url: `${base}#${linked.hash}` } : { problem: linked.reason });
    },
    presets: (close) => <PresetsGallery onClose={close} />,
    files: <TracePanel store={store} />,
    parts: SERVING_PARTS,
  };
}

/** The time the run is at, of its length, and its status: the one part of the playback bar that changes on every frame. */
function ServingProgress({ store }: { readonly store: ServingStore }) {
  const timeMs = useServing(store, (s) => s.timeMs);
  const durationMs = useServing(store, (s) => s.durationMs);
  const status = useServing(store, (s) => s.status);
  return (
    <output className="progress" data-testid="serving.time" data-time-ms={timeMs}>
      {(timeMs / 1000).toFixed(0)} s / {(durationMs / 1000).toFixed(0)} s · {status}
    </output>
  );
}

/**
 * The device as the selected lane sees it, on every frame: memory and free GPU, each model's
 * instances, queue by slack and forming batch, Triton's sliders, and the tenants.
 */
function DeviceBoard({
  store,
  configured,
  configurable,
  showPalette,
}: {
  readonly store: ServingStore;
  readonly configured: (k: number) => { batchSize: number; instances: number } | null;
  readonly configurable: number;
  readonly showPalette: boolean;
}) {
  const platform = useServing(store, (s) => s.platform);
  const deviceCopies = useServing(store, (s) => s.deviceCopies);
  const lanes = useServing(store, (s) => s.lanes);
  const models = useServing(store, (s) => s.models);
  const selectedLane = useServing(store, (s) => s.selectedLane);
  const selectedModel = useServing(store, (s) => s.selectedModel);
  const live = useServing(store, (s) => s.live[s.selectedLane]);
  const backgrounds = useServing(store, (s) => s.backgrounds);
  const timeMs = useServing(store, (s) => s.timeMs);
  const act = store.getState();
  return (
    <>
    <h2 id="device-heading">
      Device: {platform ?? ''}
      {deviceCopies > 1 ? (
        <span data-testid="device.copies" title="BCEdge §V-D: each model served alone on its own device (Assumptions: Nano and TX2); memory and batches are the copies’ together">
          {' '}
          × {deviceCopies}, one per model
        </span>
      ) : null}{' '}
      <span className="subtle">— {lanes[selectedLane]?.label ?? ''}</span>
    </h2>
    {live ? (
      <div className="memory" data-testid="device.memory" aria-label={`memory ${Math.round(live.memoryUsedMb)} of ${Math.round(live.memoryTotalMb)} MB`}>
        <div className="memory-used" style={{ width: `${Math.min(100, (100 * live.memoryUsedMb) / Math.max(1, live.memoryTotalMb))}%` }} />
        <span>
          memory {Math.round(live.memoryUsedMb)} / {Math.round(live.memoryTotalMb)} MB · GPU free {(100 * live.availableCompute).toFixed(0)} %
        </span>
      </div>
    ) : null}
    <table className="device-models">
      <thead>
        <tr>
          <th>model</th>
          <th>instances (busy)</th>
          <th>queue (by slack), batch</th>
          <th>batch × instances (Triton)</th>
        </tr>
      </thead>
      <tbody>
        {models.map((m, k) => {
          const ml = live?.models[k];
          const fixed = configured(k);
          const batchIndex = Math.max(0, BATCH_SIZES.indexOf(fixed?.batchSize ?? 8));
          return (
            <tr key={m.model} data-testid={`device.model-${m.model}`} className={k === selectedModel ? 'selected' : ''} onClick={() => act.selectModel(k)}>
              <th scope="row">
                {m.model} <span className="subtle">(SLO {m.sloMs} ms)</span>
              </th>
              <td>
                {Array.from({ length: ml?.instances ?? 0 }, (_, j) => (
                  <span key={j} className={`instance${j < (ml?.busyInstances ?? 0) ? ' busy' : ''}`} />
                ))}
              </td>
              <td data-testid={`device.queue-${m.model}`} data-queue={ml?.queueLength ?? 0}>
                {ml
                  ? (['late', 'under25', 'under50', 'rest'] as const).map((bucket) =>
                      ml.slack[bucket] > 0 ? <span key={bucket} className="queue-part" style={{ width: `${Math.min(160, 4 * ml.slack[bucket])}px`, background: SLACK_COLOURS[bucket] }} title={`${ml.slack[bucket]} ${bucket}`} /> : null,
                    )
                  : null}
                <span className="subtle"> {ml?.queueLength ?? 0}</span>
                <span data-testid={`device.forming-${m.model}`} data-waiting={ml?.forming?.waiting ?? 0}>
                  {ml?.forming ? <FormingBatch waiting={ml.forming.waiting} batchSize={ml.batchSize} startInMs={ml.forming.startInMs} /> : null}
                </span>
              </td>
              <td>
                {configurable >= 0 && fixed ? (
                  <span className="sliders">
                    <label>
                      b = {BATCH_SIZES[batchIndex]}
                      <input
                        type="range"
                        min={0}
                        max={BATCH_SIZES.length - 1}
                        value={batchIndex}
                        data-testid={`controls.batch-${m.model}`}
                        aria-label={`batch size of ${m.model}`}
                        onChange={(e) => void act.setModelConfig(configurable, k, BATCH_SIZES[Number(e.target.value)]!, fixed.instances)}
                      />
                    </label>
                    <label>
                      m_c = {fixed.instances}
                      <input
                        type="range"
                        min={1}
                        max={INSTANCE_COUNTS.length}
                        value={fixed.instances}
                        data-testid={`controls.instances-${m.model}`}
                        aria-label={`instances of ${m.model}`}
                        onChange={(e) => void act.setModelConfig(configurable, k, fixed.batchSize, Number(e.target.value))}
                      />
                    </label>
                  </span>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
    <div className="backgrounds">
      {!showPalette ? null : <TenantToken onClick={() => void act.addBackground(TENANT.intensity, TENANT.memoryMb)} />}
      {backgrounds
        .filter((b) => tenantState(b, timeMs) !== 'gone')
        .map((b) => (
          <span key={b.id} className={`chip tenant-${tenantState(b, timeMs)}`} data-testid={`device.background-${b.id}`} data-state={tenantState(b, timeMs)}>
            {tenantText(b, timeMs)}
            <button type="button" aria-label="Remove this tenant" onClick={() => void act.removeBackground(b.id)}>
              ×
            </button>
          </span>
        ))}
    </div>
    </>
  );
}

/** The lanes with their live scoreboard (`LaneScoreboard`) and a reference or learning lane's progress while it waits. */
function ServingLanes({ store }: { readonly store: ServingStore }) {
  const lanes = useServing(store, (s) => s.lanes);
  const selectedLane = useServing(store, (s) => s.selectedLane);
  const scores = useLaneScores(store);
  const act = store.getState();
  return (
    <ul className="lanes">
      {lanes.map((l, i) => (
        <li key={l.index} className={`lane${i === selectedLane ? ' selected' : ''}`} data-testid={`lane.${l.scheduler}`} style={{ ['--lane' as string]: laneColour(i) }}>
          <label className="lane-select">
            <input type="radio" name="serving-lane" checked={i === selectedLane} onChange={() => act.selectLane(i)} />
            <span className="swatch" aria-hidden="true" />
            <span className="lane-label">{l.label}</span>
          </label>
          <LaneScoreboard store={store} score={scores.find((s) => s.lane === l.index)} />
          <SearchProgress store={store} lane={l.index} />
        </li>
      ))}
    </ul>
  );
}

/**
 * A chart's data from the selected lane's series, rebuilt when the series has grown (its
 * length) or was replaced (a new generation), else the same object (the chart is not fed again).
 */
function seriesSelector<D>(lane: number, build: (series: ServingState['series'][number], timeS: number[]) => D): (state: ServingState) => D | null {
  let seen: { series: unknown; length: number; data: D } | null = null;
  return (state) => {
    const series = state.series[lane];
    if (series === undefined) return null;
    if (seen !== null && seen.series === series && seen.length === series.length) return seen.data;
    const timeS = Array.from(series.columns.endMs.subarray(0, series.length), (t) => t / 1000);
    seen = { series, length: series.length, data: build(series, timeS) };
    return seen.data;
  };
}

/** A selector that rebuilds its data only when `key` of the state changes (by identity). */
function memoOn<K, D>(key: (state: ServingState) => K, build: (value: K) => D): (state: ServingState) => D {
  let seen: { key: K; data: D } | null = null;
  return (state) => {
    const k = key(state);
    if (seen === null || seen.key !== k) seen = { key: k, data: build(k) };
    return seen.data;
  };
}

const SLACK_COLOURS = { late: '#b3261e', under25: '#e07a1f', under50: '#d9b300', rest: '#2e8b57' } as const;

/**
 * A batch that forms (ARCHITECTURE §3, batching `form`): k of b slots filled, and the time
 * left before it must start so that its most urgent request meets its SLO.
 */
function FormingBatch({ waiting, batchSize, startInMs }: { readonly waiting: number; readonly batchSize: number; readonly startInMs: number }) {
  const shown = Math.min(batchSize, 8);
  const filled = Math.round((waiting / batchSize) * shown);
  return (
    <span className="forming" data-batch={batchSize} title={`${waiting} of ${batchSize} requests wait for their batch; it starts in ${Math.round(startInMs)} ms at the latest`}>
      {' '}
      {Array.from({ length: shown }, (_, j) => (
        <span key={j} className={`forming-slot${j < filled ? ' filled' : ''}`} />
      ))}
      <span className="subtle"> ≤{startInMs < 10 ? startInMs.toFixed(1) : Math.round(startInMs)} ms</span>
    </span>
  );
}

/**
 * The serving world (BCEdge): an edge GPU running six DNN models, with Triton's fixed batch
 * size and instances per model set by sliders, DeepRT and GA on the same arrival trace.
 */
export function ServingLab({ store, onExit }: { readonly store: ServingStore; readonly onExit: () => void }) {
  const title = useServing(store, (s) => s.scenario?.title ?? '');
  const status = useServing(store, (s) => s.status);
  const rateRps = useServing(store, (s) => s.rateRps);
  const perModelRate = useServing(store, (s) => (s.scenario?.serving.assumptions?.rateBasis ?? 'perModel') === 'perModel');
  const lanes = useServing(store, (s) => s.lanes);
  const models = useServing(store, (s) => s.models);
  const platform = useServing(store, (s) => s.platform);
  const selectedLane = useServing(store, (s) => s.selectedLane);
  const selectedModel = useServing(store, (s) => s.selectedModel);
  const view = useServing(store, (s) => s.view);
  const share = useMemo(() => servingShare(store), [store]);
  const hidden = (part: HideableControl) => view.hide.includes(part);
  const act = store.getState();
  // What changes on every frame (the device's live state, the lanes' numbers, the time, the
  // charts' series) is read by the leaves below and by the charts themselves (StoreChartHost),
  // so that this component renders when the scenario, the selection or the view changes only.
  useRenderCount('serving');
  useServingKeys(store);
  const configurable = lanes.findIndex((l) => l.configurable);
  const focusModel = models[selectedModel]?.model ?? null;
  const figure1Result = useFigure1(store, focusModel, platform);
  const figure1 = figure1Result !== null && figure1Result.model === focusModel ? figure1Result : null;
  const scenario = useServing(store, (s) => s.scenario);
  /** What the person set for model k on the Triton lane (it applies from the next slot). */
  const configured = (k: number): { batchSize: number; instances: number } | null => {
    const lane = configurable >= 0 ? scenario?.serving.lanes[configurable] : undefined;
    const model = models[k]?.model;
    if (lane === undefined || model === undefined) return null;
    const p = lane.params ?? {};
    return { batchSize: p[`batchSize.${model}`] ?? p.batchSize ?? 8, instances: p[`instances.${model}`] ?? p.instances ?? 2 };
  };
  const marker = configured(selectedModel);
  const rpsSeen = useSeen('chart.rps', !view.hide.includes('charts'));
  const sweep = useRpsSweep(store, scenario, rpsSeen);
  const heat = (metric: 'throughput' | 'latency'): HeatmapData | null =>
    figure1 === null ? null : { metric, batchSizes: BATCH_SIZES, instanceCounts: INSTANCE_COUNTS, values: metric === 'throughput' ? figure1.throughput : figure1.latency, marker };
  const schedule = useMemo(() => (scenario === null ? NO_SCHEDULE : scheduleMarks(scenario.serving)), [scenario]);
  const selectStack = useMemo(() => seriesSelector(selectedLane, (series, timeS): PerModelStackData => ({ timeS, schedule, series: models.map((m, k) => ({ model: m.model, rps: timeS.map((_, i) => series.at('throughputRps', i, k)) })) })), [selectedLane, models, schedule]);
  // A point where a model completed nothing has no latency (a gap), not a latency of 0.
  const selectLines = useMemo(
    () =>
      seriesSelector(selectedLane, (series, timeS): PerModelLinesData => ({
        timeS,
        schedule,
        series: models.map((m, k) => ({ model: m.model, sloMs: m.sloMs, latencyMs: timeS.map((_, i) => (series.at('throughputRps', i, k) > 0 ? series.at('latencyMeanMs', i, k) : Number.NaN)) })),
      })),
    [selectedLane, models, schedule],
  );
  const learningLabels = lanes.filter((l) => l.learning).map((l) => l.label);
  const referenceLabels = lanes.filter((l) => SERVING_SCHEDULERS[l.scheduler as keyof typeof SERVING_SCHEDULERS]?.reference !== undefined).map((l) => l.label);
  const selectDecisions = useMemo(() => memoOn((s: ServingState) => s.decisionUs, (decisionUs): DecisionTimeData => ({ lanes: lanes.map((l, i) => ({ label: l.label, index: l.index, decisionUs: decisionUs[i] ?? null })) })), [lanes]);
  // Fig. 7 from the lanes' series, so that it draws while the run plays (the summaries come only when it pauses).
  const selectUtility = useMemo(
    () =>
      memoOn(
        (s: ServingState) => s.version,
        (): UtilityBarsData | null => {
          const state = store.getState();
          return { models: models.map((m) => m.model), lanes: lanes.map((l) => ({ label: l.label, index: l.index })), utility: perModelUtility(models.length, lanes, state.series) };
        },
      ),
    [store, lanes, models],
  );

  const world: LabWorld = {
    testId: 'serving',
    className: 'serving-lab',
    title: 'Interference Lab — serving',
    tagline: `${title}: six DNN models on an edge GPU; tune batch size and concurrent instances per model and compare with DeepRT and GA on the same requests.`,
    launchers: (
      <button type="button" onClick={onExit} data-testid="serving.exit">
        Back to the pipeline lab
      </button>
    ),
    playback: {
      ids: 'serving',
      speeds: SPEEDS,
      speedLabel,
      step: (
        <button type="button" data-testid="serving.step" disabled={status === 'done'} onClick={() => void act.step(1000)}>
          Step 1 s
        </button>
      ),
      extras: (
        <label className="speed">
          {perModelRate ? 'Requests/s a model' : 'Requests/s'} <output data-testid="serving.rate">{rateRps}</output>
          <input type="range" min={Math.min(SERVING_LIMITS.rateSlider.min, rateRps)} max={Math.max(SERVING_LIMITS.rateSlider.max, rateRps)} step={SERVING_LIMITS.rateSlider.step} value={rateRps} data-testid="controls.rps" aria-label="Request rate (rps)" onChange={(e) => void act.setArrivalRate(Number(e.target.value))} />
        </label>
      ),
      progress: <ServingProgress store={store} />,
    },
    share,
    lessons: servingLessons,
    shortcuts: SERVING_SHORTCUTS,
    board: (
      <DragDropArea
        onDrop={(_item, target) => (target?.id === 'device' ? void act.addBackground(TENANT.intensity, TENANT.memoryMb) : undefined)}
        announcements={TENANT_ANNOUNCEMENTS}
        keyboardTargets="device"
        keyboardWhere="onto the device"
      >
      <DeviceDrop>
        <DeviceBoard store={store} configured={configured} configurable={configurable} showPalette={!hidden('palette')} />
      </DeviceDrop>
      </DragDropArea>
    ),
    dockLabel: 'Lanes and learning',
    dock: [
      { part: 'lanes', node: (
        <section className="panel serving-lanes" aria-labelledby="serving-lanes-heading">
          <h2 id="serving-lanes-heading">Lanes</h2>
          <ServingLanes store={store} />
        </section>
      ) },
      { part: 'algorithm', node: <LearningPanel store={store} /> },
      { part: 'assumptions', node: <ServingAssumptionsPanel store={store} /> },
    ],
    mainChart: <StoreChartHost title="Fig. 8: throughput per model" testId="chart.throughput" create={createPerModelStackChart} source={store} select={selectStack} />,
    charts: (
      <>
        <ChartGrid
          label="Serving charts"
          cards={[
            { id: 'chart.heatmap-throughput', node: (
              <DataChartHost
                title={`Fig. 1: throughput of ${focusModel ?? ''} (batch × instances)`}
                testId="chart.heatmap-throughput"
                create={createHeatmapChart}
                data={heat('throughput')}
                controls={<SweepProgress store={store} kind="figure1" testId="chart.heatmap-throughput" />}
              />
            ) },
            { id: 'chart.heatmap-latency', node: (
              <DataChartHost title={`Fig. 1: latency of ${focusModel ?? ''} (batch × instances)`} testId="chart.heatmap-latency" create={createHeatmapChart} data={heat('latency')} />
            ) },
            { id: 'chart.utility', node: (
              <StoreChartHost title="Fig. 7: utility per model (normalized)" testId="chart.utility" create={createUtilityBarsChart} source={store} select={selectUtility} minIntervalMs={500} />
            ) },
            { id: 'chart.latency', node: (
              <StoreChartHost title="Fig. 9: latency per model" testId="chart.latency" create={createPerModelLinesChart} source={store} select={selectLines} />
            ) },
            { id: 'chart.rps', node: (
              <DataChartHost
                title={`Fig. 15: SLO violations against the request rate (${sweep?.secondsPerRate ?? Math.min(scenario?.serving.durationS ?? 120, 120)} s per rate)`}
                testId="chart.rps"
                create={createRpsSweepChart}
                data={sweep}
                controls={rpsSeen ? <SweepProgress store={store} kind="rps" testId="chart.rps" /> : null}
                caption={rpsCaption(learningLabels, referenceLabels)}
              />
            ) },
            { id: 'chart.decision', node: (
              <StoreChartHost
                title="Fig. 16: time per scheduling decision"
                testId="chart.decision"
                create={createDecisionTimeChart}
                source={store}
                select={selectDecisions}
                minIntervalMs={500}
                caption="Mean wall-clock time each lane’s scheduler takes to decide a slot, measured in the simulation worker on this computer."
              />
            ) },
          ]}
        />
        <LearningCharts store={store} />
      </>
    ),
    timeline: <ServingTimeline store={store} />,
  };
  return <LabShell store={store} world={world} />;
}
