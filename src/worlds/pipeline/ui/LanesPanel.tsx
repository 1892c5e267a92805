import { useShallow } from 'zustand/react/shallow';
import { laneColour } from '../../../charts/palette';
import type { PipelineScenario } from '../schema';
import { PIPELINE_SCHEDULER_INFO, PIPELINE_SCHEDULER_IDS, type PipelineSchedulerId } from '../schedulers/registryInfo';
import { PIPELINE_LIMITS } from '../../../scenario/limits';
import { usePipelineLab, usePipelineStore } from './pipelineContext';

/** Test ids: `lane.{scheduler}` for the first lane of a scheduler, `lane.{scheduler}-{k}` after. */
function laneTestIds(schedulers: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return schedulers.map((s) => {
    const k = (seen.get(s) ?? 0) + 1;
    seen.set(s, k);
    return k === 1 ? `lane.${s}` : `lane.${s}-${k}`;
  });
}

const fmt = (v: number): string => (Number.isFinite(v) && v > 0 ? v.toFixed(1) : '–');

/** The lanes: one scheduler each, on the same trace; ODIN's α can change mid-run. */
export function LanesPanel() {
  const store = usePipelineStore();
  const lanes = usePipelineLab((s) => s.lanes);
  const selected = usePipelineLab((s) => s.selectedLane);
  const version = usePipelineLab((s) => s.version);
  void version; // the live numbers below are read on every frame
  const state = store.getState();
  const testIds = laneTestIds(lanes.map((l) => l.scheduler));
  const firstOdin = lanes.findIndex((l) => l.scheduler === 'odin');
  const editLanes = (change: (lanes: PipelineScenario['pipeline']['lanes']) => PipelineScenario['pipeline']['lanes']) =>
    void state.edit((s) => ({ ...s, pipeline: { ...s.pipeline, lanes: change(s.pipeline.lanes) } }));
  return (
    <section className="panel" aria-labelledby="lanes-heading">
      <h2 id="lanes-heading">Lanes</h2>
      <p className="hint">Every lane runs its scheduler on the identical interference trace. Select one to show its layers on the board.</p>
      <ul className="lanes">
        {lanes.map((lane, i) => {
          const live = state.live[i];
          const series = state.series[i];
          const last = series && series.length > 0 ? series.length - 1 : -1;
          const configQps = live && live.bottleneckMs > 0 ? 1000 / live.bottleneckMs : 0;
          const optimalQps = live && live.optimalBottleneckMs > 0 ? 1000 / live.optimalBottleneckMs : 0;
          const measuredQps = last >= 0 ? series!.columns.measuredQps[last]! : 0;
          const alpha = PIPELINE_SCHEDULER_INFO[lane.scheduler as PipelineSchedulerId]?.parameters.find((p) => p.name === 'alpha');
          return (
            <li
              key={lane.index}
              className={`lane${i === selected ? ' selected' : ''}`}
              data-testid={testIds[i]}
              data-config-qps={configQps}
              data-optimal-qps={optimalQps}
              data-measured-qps={measuredQps}
              style={{ ['--lane' as string]: laneColour(i) }}
            >
              <label className="lane-select">
                <input type="radio" name="selected-lane" checked={i === selected} onChange={() => state.selectLane(i)} />
                <span className="swatch" aria-hidden="true" />
                <span className="lane-label">{lane.label}</span>
              </label>
              <span className="lane-numbers" aria-label={`${lane.label}: ${fmt(configQps)} queries per second, optimum ${fmt(optimalQps)}`}>
                {fmt(configQps)} q/s <span className="subtle">(opt {fmt(optimalQps)}, measured {fmt(measuredQps)})</span>
                {live?.rebalancing ? <span className="badge">rebalancing</span> : null}
              </span>
              {alpha ? (
                <label className="alpha">
                  <abbr title="α: how many trial configurations ODIN may try in one rebalancing before it settles (Algorithm 1)">α</abbr> = {lane.params.alpha}
                  <input
                    type="range"
                    min={alpha.min}
                    max={alpha.max}
                    step={1}
                    value={lane.params.alpha ?? alpha.default}
                    data-testid={i === firstOdin ? 'controls.alpha' : `controls.alpha-${i}`}
                    aria-label={`α of ${lane.label}`}
                    onChange={(e) => void state.setLaneParameter(i, 'alpha', Number(e.target.value))}
                  />
                </label>
              ) : null}
              <button type="button" className="lane-remove" disabled={lanes.length <= 1} onClick={() => editLanes((ls) => ls.filter((_, j) => j !== i))} aria-label={`Remove lane ${lane.label}`}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <div className="add-lanes" role="group" aria-label="Add a lane">
        {PIPELINE_SCHEDULER_IDS.map((id) => (
          <button
            key={id}
            type="button"
            data-testid={`controls.add-${id}`}
            disabled={lanes.length >= PIPELINE_LIMITS.lanes}
            onClick={() => editLanes((ls) => [...ls, id === 'odin' ? { scheduler: id, params: { alpha: 10 } } : { scheduler: id }])}
            title={PIPELINE_SCHEDULER_INFO[id].description}
          >
            + {PIPELINE_SCHEDULER_INFO[id].label}
          </button>
        ))}
      </div>
    </section>
  );
}

/** Selected values of every lane, for components that need a shallow-stable list. */
export function useLaneLabels(): string[] {
  return usePipelineLab(useShallow((s) => s.lanes.map((l) => l.label)));
}
