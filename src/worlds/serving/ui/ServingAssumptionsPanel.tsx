import { PAPER_SCENARIO_READINGS, type ScenarioReadings } from '../scenario/servingReadings';
import { READING_TEXTS } from '../scenario/readingTexts';
import type { ServingScenario } from '../schema';
import type { ServingStore } from '../store/servingStore';
import { useStore } from 'zustand';
import { SelectField } from '../../../ui/fields';

type Assumptions = ServingScenario['serving']['assumptions'];

/**
 * The serving world's readings of BCEdge (ARCHITECTURE §3), each with the paper's words it
 * interprets and what each option means. The paper's reading is the default (a scenario that
 * leaves the field out runs under it); changing one restarts the run.
 */
export function ServingAssumptionsPanel({ store }: { readonly store: ServingStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  if (scenario === null) return null;
  // The block may be left out: each reading absent is the paper's.
  const assumptions = scenario.serving.assumptions ?? {};
  const set = (change: Partial<Assumptions>) =>
    void store.getState().edit((s) => ({ ...s, serving: { ...s.serving, assumptions: { ...(s.serving.assumptions ?? {}), ...change } } }));
  return (
    <section className="panel assumptions" aria-labelledby="serving-assumptions-heading" data-testid="serving.assumptions">
      <h2 id="serving-assumptions-heading">Assumptions</h2>
      <p className="hint">How the lab reads BCEdge where the text leaves room. The first option of each is the paper’s and the default. Changing one restarts the run.</p>
      {READING_TEXTS.map((r) => {
        const value = (assumptions[r.name] ?? PAPER_SCENARIO_READINGS[r.name]) as ScenarioReadings[typeof r.name];
        const chosen = r.options.find((o) => o.value === value);
        return (
          <SelectField
            key={r.name}
            label={r.label}
            value={value}
            testId={`assumptions.${r.name}`}
            options={r.options.map((o) => ({ value: o.value, label: o.label }))}
            onChange={(v) => set({ [r.name]: v } as Partial<Assumptions>)}
            hint={
              <>
                {chosen?.means} <span className="subtle">{r.where}: {r.quote}</span>
              </>
            }
          />
        );
      })}
    </section>
  );
}
