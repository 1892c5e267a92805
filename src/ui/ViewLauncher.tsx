import { useLab, useLabStore } from './labContext';

/** The views that open over the pipeline lab, one at a time; each is a flag of the scenario's `view`, so a link reopens it. */
export type LabOverView = 'explore' | 'claims';

/**
 * The button that shows the Explore or the Claims view. It pauses the lab (the view's workers
 * need the cores) and closes the other view: one view over the lab at a time.
 */
export function ViewLauncher({ view: shown, label, title }: { readonly view: LabOverView; readonly label: string; readonly title: string }) {
  const store = useLabStore();
  const open = useLab((s) => s.view[shown] === true);
  if (open) return null;
  return (
    <div className={`${shown}-launcher`}>
      <button
        type="button"
        data-testid={`${shown}.open`}
        title={title}
        onClick={() => {
          void store.getState().pause();
          const { explore: _explore, claims: _claims, ...view } = store.getState().view;
          void _explore;
          void _claims;
          store.getState().setView({ ...view, [shown]: true });
        }}
      >
        {label}
      </button>
    </div>
  );
}
