import { useStore } from 'zustand';
import type { ServingStore } from '../../store/servingStore';
import './servingPanels.css';

/**
 * While a reference lane (`fixed-hindsight`, `fixed-per-phase`) searches on the run's own trace
 * before the run starts — re-running it once per configuration tried, in the serving worker —
 * this says which lane and how far it is (progress frames of the worker, servingProtocol
 * `ServingSearchProgress`). The page stays free meanwhile; the lanes start once every
 * reference lane has its plan.
 */
export function SearchProgress({ store }: { readonly store: ServingStore }) {
  const search = useStore(store, (s) => s.search);
  if (search === null) return null;
  const { lane, label, ordinal, of, done, total } = search;
  return (
    <div className="search-progress" role="status" data-testid="serving.search" data-lane={lane} data-done={done} data-total={total}>
      <span>
        {label} (reference lane {ordinal} of {of}) is searching this run’s trace before it starts: {done.toLocaleString('en-US')} of at most {total.toLocaleString('en-US')} configurations tried
      </span>
      <progress max={total} value={done} aria-label={`${label}: configurations tried`} />
    </div>
  );
}
