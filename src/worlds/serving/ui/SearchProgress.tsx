import { useStore } from 'zustand';
import type { ServingStore } from '../store/servingStore';
import './servingPanels.css';

/**
 * On the card of a lane not drawn yet (ARCHITECTURE §3). A reference lane (`fixed-hindsight`,
 * `fixed-per-phase`) waiting for its plan: how far its search is — it re-runs this run's trace
 * once per configuration tried, in the serving worker, beside the other lanes, which do not
 * wait. A learning lane waiting for its learner: TensorFlow.js (and its agent) loading beside
 * the run, or why it could not. Then how far the lane has run from time 0, on its way to the
 * others. Nothing once the lane runs with the others.
 */
export function SearchProgress({ store, lane }: { readonly store: ServingStore; readonly lane: number }) {
  const done = useStore(store, (s) => s.searches[lane]?.done ?? null);
  const total = useStore(store, (s) => s.searches[lane]?.total ?? 0);
  const replayedMs = useStore(store, (s) => s.searches[lane]?.replayedMs ?? null);
  const learner = useStore(store, (s) => s.searches[lane]?.learner ?? null);
  const error = useStore(store, (s) => s.searches[lane]?.error ?? null);
  if (done === null) return null;
  if (learner !== null) {
    return (
      <span className="lane-search" data-testid={`lane.search.${lane}`} data-phase={learner === 'ready' ? 'replay' : learner} role={learner === 'failed' ? 'alert' : undefined}>
        {learner === 'loading' ? <>loading TensorFlow.js for its learner beside the other lanes, which do not wait</> : null}
        {learner === 'ready' ? <>learner ready; running from 0 s up to the other lanes: {((replayedMs ?? 0) / 1000).toFixed(0)} s</> : null}
        {learner === 'failed' ? <>{error}</> : null}
      </span>
    );
  }
  const phase = replayedMs === null ? 'search' : 'replay';
  return (
    <span className="lane-search" data-testid={`lane.search.${lane}`} data-phase={phase} data-done={done} data-total={total}>
      {replayedMs === null ? (
        <>
          searching this run’s trace beside the other lanes: {done.toLocaleString('en-US')} of at most {total.toLocaleString('en-US')} configurations tried{' '}
          <progress max={Math.max(1, total)} value={done} aria-label="configurations tried" />
        </>
      ) : (
        <>plan found ({done.toLocaleString('en-US')} runs of the trace); running it from 0 s up to the other lanes: {(replayedMs / 1000).toFixed(0)} s</>
      )}
    </span>
  );
}
