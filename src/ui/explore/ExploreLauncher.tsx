import { useLab, useLabStore } from '../labContext';

/** The button that shows the Explore view (the view's state lives in the scenario's `view`, so a link reopens it). */
export function ExploreLauncher() {
  const store = useLabStore();
  const open = useLab((s) => s.view.explore === true);
  if (open) return null;
  return (
    <div className="explore-launcher">
      <button
        type="button"
        data-testid="explore.open"
        title="Sweep one or two of the scenario's fields over seeds, on every core"
        onClick={() => {
          void store.getState().pause();
          // One view over the lab at a time: the Claims view closes.
          const { claims: _claims, ...view } = store.getState().view;
          void _claims;
          store.getState().setView({ ...view, explore: true });
        }}
      >
        Explore…
      </button>
    </div>
  );
}
