import { PIPELINE_LIMITS } from '../../../scenario/limits';
import type { PipelineScenario } from '../schema';
import { NumberField, SelectField } from '../../../ui/fields';
import { usePipelineLab, usePipelineStore } from './pipelineContext';

type Assumptions = PipelineScenario['pipeline']['assumptions'];

/**
 * The modelling choices the ODIN paper leaves open (ARCHITECTURE §2), each with what it means.
 * Whether ODIN beats LLS turns on them, so they are shown, not hidden.
 */
export function AssumptionsPanel() {
  const store = usePipelineStore();
  const assumptions = usePipelineLab((s) => s.scenario?.pipeline.assumptions);
  if (assumptions === undefined) return null;
  const set = (change: Partial<Assumptions>) =>
    void store.getState().edit((s) => ({ ...s, pipeline: { ...s.pipeline, assumptions: { ...s.pipeline.assumptions, ...change } as Assumptions } }));
  const admission = assumptions.admission;
  return (
    <section className="panel assumptions" aria-labelledby="assumptions-heading">
      <h2 id="assumptions-heading">Assumptions</h2>
      <p className="hint">Readings the paper leaves open. The paper presets use the first option of each. Changing one restarts the run.</p>
      <SelectField
        label="Trial cost"
        value={assumptions.trialCost}
        testId="assumptions.trialCost"
        options={[
          { value: 'serial', label: 'serial (paper §4.2)' },
          { value: 'pipelined', label: 'pipelined' },
          { value: 'free', label: 'free (oracle)' },
        ]}
        onChange={(trialCost) => set({ trialCost })}
        hint="Serial: while rebalancing, the pipeline drains and each trial configuration costs one query processed alone. Pipelined: trials serve queries in the normal flow. Free: trials are evaluated on the database at no cost."
      />
      <SelectField
        label="LLS reading"
        value={assumptions.llsReading}
        testId="assumptions.llsReading"
        options={[
          { value: 'literal', label: 'literal' },
          { value: 'repaired', label: 'repaired' },
        ]}
        onChange={(llsReading) => set({ llsReading })}
        hint="Literal: wᵢ = wᵢ₋₁ + tᵢ₋₁ − tᵢ as printed (negative waits allowed, ties by index). Repaired: waits clamped at 0, ties broken by stage time."
      />
      <NumberField
        label="Buffer between stages (queries)"
        value={assumptions.bufferCapacity}
        min={PIPELINE_LIMITS.bufferCapacity.min}
        max={PIPELINE_LIMITS.bufferCapacity.max}
        testId="assumptions.buffer"
        onCommit={(bufferCapacity) => set({ bufferCapacity })}
        hint="How many queries may wait between two stages; a full buffer blocks the stage before it."
      />
      <SelectField
        label="Admission"
        value={admission.kind}
        testId="assumptions.admission"
        options={[
          { value: 'saturated', label: 'saturated (closed loop)' },
          { value: 'poisson', label: 'Poisson arrivals' },
          { value: 'poissonShare', label: 'Poisson at a share of the peak' },
        ]}
        onChange={(kind) => set({ admission: kind === 'saturated' ? { kind } : kind === 'poisson' ? { kind, rateQps: 30 } : { kind, shareOfPeak: 0.8 } })}
        hint="Saturated: a query is always waiting to enter. Poisson: queries arrive at random at a rate and may queue in front of the pipeline."
      />
      {admission.kind === 'poisson' ? (
        <NumberField label="Arrival rate (queries/s)" value={admission.rateQps} min={PIPELINE_LIMITS.rateQps.min} max={PIPELINE_LIMITS.rateQps.max} integer={false} step={1} testId="assumptions.rate" onCommit={(rateQps) => set({ admission: { kind: 'poisson', rateQps } })} />
      ) : null}
      {admission.kind === 'poissonShare' ? (
        <NumberField label="Arrival rate (share of the peak)" value={admission.shareOfPeak} min={PIPELINE_LIMITS.shareOfPeak.min} max={PIPELINE_LIMITS.shareOfPeak.max} integer={false} step={0.05} testId="assumptions.shareOfPeak" onCommit={(shareOfPeak) => set({ admission: { kind: 'poissonShare', shareOfPeak } })} />
      ) : null}
      <SelectField
        label="Monitor watches"
        value={assumptions.detectionSignal}
        testId="assumptions.detectionSignal"
        options={[
          { value: 'bottleneck', label: 'the slowest stage (paper §3.1)' },
          { value: 'anyStage', label: 'every stage' },
        ]}
        onChange={(detectionSignal) => set({ detectionSignal })}
        hint="The paper watches only the slowest stage, so a workload leaving a stage that is no longer the bottleneck goes unnoticed."
      />
      <NumberField label="Hop cost (ms)" value={assumptions.hopMs} min={PIPELINE_LIMITS.hopMs.min} max={PIPELINE_LIMITS.hopMs.max} integer={false} step={0.1} testId="assumptions.hop" onCommit={(hopMs) => set({ hopMs })} hint="Time to hand activations to the next stage, added to every non-empty stage but the last." />
    </section>
  );
}
