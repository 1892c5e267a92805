import type { ModelId } from '../engine/profiles/types';
import { PIPELINE_LIMITS } from '../../../scenario/limits';
import type { PipelineScenario } from '../schema';
import { NumberField, SelectField } from '../../../ui/fields';
import { usePipelineLab, usePipelineStore } from './pipelineContext';

const MODELS: readonly { value: ModelId; label: string }[] = [
  { value: 'vgg16', label: 'VGG16 (16 layers)' },
  { value: 'resnet50', label: 'ResNet-50 (50 layers)' },
  { value: 'resnet152', label: 'ResNet-152 (52 units)' },
];

type Pipeline = PipelineScenario['pipeline'];

/** Model, EPs, workload and random interference; most changes restart the run. */
export function ScenarioPanel() {
  const store = usePipelineStore();
  const scenario = usePipelineLab((s) => s.scenario);
  if (scenario === null) return null;
  const p = scenario.pipeline;
  const edit = (change: (p: Pipeline) => Pipeline) => void store.getState().edit((s) => ({ ...s, pipeline: change(s.pipeline) }));
  const random = p.interference.random;
  const setRandom = (change: Partial<Pipeline['interference']['random']>) =>
    edit((q) => ({ ...q, interference: { ...q.interference, random: { ...q.interference.random, ...change } } }));
  return (
    <section className="panel" aria-labelledby="scenario-heading">
      <h2 id="scenario-heading">Scenario</h2>
      <p className="hint">Changing these restarts the run from query 0.</p>
      <SelectField label="Model" value={p.model} options={MODELS} testId="controls.model" onChange={(model) => edit((q) => ({ ...q, model }))} />
      <NumberField
        label="Execution places"
        value={p.executionPlaces}
        min={2}
        max={PIPELINE_LIMITS.executionPlaces.max}
        testId="controls.eps"
        onCommit={(executionPlaces) =>
          edit((q) => ({
            ...q,
            executionPlaces,
            // Workloads on EPs that no longer exist are dropped.
            interference: { ...q.interference, events: q.interference.events.filter((e) => e.executionPlace < executionPlaces) },
          }))
        }
      />
      <NumberField label="Queries" value={p.queries} min={1} max={PIPELINE_LIMITS.queries.max} testId="controls.queries" onCommit={(queries) => edit((q) => ({ ...q, queries }))} />
      <NumberField label="Seed" value={scenario.seed} min={0} max={PIPELINE_LIMITS.seed.max} testId="controls.seed" onCommit={(seed) => void store.getState().edit((s) => ({ ...s, seed }))} />
      <fieldset>
        <legend>Random interference</legend>
        <label className="check">
          <input type="checkbox" checked={random.enabled} data-testid="controls.random" onChange={(e) => setRandom({ enabled: e.target.checked })} /> on
        </label>
        <NumberField label="Period (queries)" value={random.periodQueries} min={1} max={PIPELINE_LIMITS.periodQueries.max} testId="controls.period" onCommit={(periodQueries) => setRandom({ periodQueries })} />
        <NumberField label="Duration (queries)" value={random.durationQueries} min={1} max={PIPELINE_LIMITS.durationQueries.max} testId="controls.duration" onCommit={(durationQueries) => setRandom({ durationQueries })} />
        <p className="hint">Every period a random EP gets a random workload of Table 1 for the duration (ODIN §4.2).</p>
      </fieldset>
      <NumberField
        label="Detection threshold"
        value={p.assumptions.detectionThreshold}
        min={PIPELINE_LIMITS.detectionThreshold.min}
        max={PIPELINE_LIMITS.detectionThreshold.max}
        step={0.01}
        integer={false}
        testId="controls.threshold"
        onCommit={(t) => void store.getState().setDetectionThreshold(t)}
        hint="Relative change of the watched stage time that triggers rebalancing; applies on the fly."
      />
    </section>
  );
}
