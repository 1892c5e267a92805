import { describeMode } from '../engine/profiles/modeLabels';
import { usePipelineLab, usePipelineStore } from './pipelineContext';

/** Every scripted or placed workload, with when it acts; × ends or drops it. */
export function EventsList() {
  const store = usePipelineStore();
  const events = usePipelineLab((s) => s.events);
  const served = usePipelineLab((s) => s.served);
  if (events.length === 0) return <p className="hint">No workloads placed yet.</p>;
  return (
    <section aria-labelledby="events-heading" className="events">
      <h3 id="events-heading">Workloads on the timeline</h3>
      <ul>
        {events.map((e) => {
          const state = e.fromQuery > served ? 'scheduled' : e.toQuery !== null && e.toQuery <= served ? 'ended' : 'active';
          return (
            <li key={e.id} className={`event ${state}`} data-testid={`events.item-${e.id}`}>
              <span className={`chip mode-${e.mode}`}>{e.mode}</span> {describeMode(e.mode)} on EP {e.executionPlace + 1}, queries {e.fromQuery}–{e.toQuery ?? '∞'}{' '}
              <span className="subtle">({state})</span>
              {state !== 'ended' ? (
                <button type="button" className="chip-remove" onClick={() => void store.getState().removeEvent(e.id)} aria-label={`Remove workload ${e.mode} on EP ${e.executionPlace + 1}`}>
                  ×
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
