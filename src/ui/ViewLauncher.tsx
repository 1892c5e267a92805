import { useShell, useShellStore } from './shell/shellStore';

/** The views that open over any lab, one at a time; each is a flag of the scenario's `view`, so a link reopens it. */
export type LabOverView = 'explore' | 'claims';

/** The view flags a lab's view may carry (every world's view schema has both). */
type OverFlags = { readonly [K in LabOverView]?: true };

/**
 * The button that shows the Explore or the Claims view over the shown lab. It pauses the lab
 * (the view's workers need the cores) and closes the other view: one view over the lab at a time.
 */
export function ViewLauncher({ view: shown, label, title }: { readonly view: LabOverView; readonly label: string; readonly title: string }) {
  const store = useShellStore();
  const open = useShell((s) => (s.view as OverFlags)[shown] === true);
  if (open) return null;
  return (
    <div className={`${shown}-launcher`}>
      <button
        type="button"
        data-testid={`${shown}.open`}
        title={title}
        onClick={() => {
          void store.getState().pause();
          const { explore: _explore, claims: _claims, ...view } = store.getState().view as OverFlags;
          void _explore;
          void _claims;
          store.getState().setView({ ...view, [shown]: true } as never);
        }}
      >
        {label}
      </button>
    </div>
  );
}
