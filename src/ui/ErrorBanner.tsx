import { useLab, useLabStore } from './labContext';

/** Field-level errors of a rejected scenario; the last good scenario keeps running. */
export function ErrorBanner() {
  const errors = useLab((s) => s.errors);
  const store = useLabStore();
  if (errors === null || errors.length === 0) return null;
  return (
    <div className="banner" role="alert" data-testid="banner.errors">
      <strong>That scenario was not loaded; the last good one keeps running.</strong>
      <ul>
        {errors.slice(0, 8).map((e) => (
          <li key={`${e.path}:${e.message}`}>
            <code>{e.path}</code>: {e.message}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => store.getState().dismissErrors()}>
        Dismiss
      </button>
    </div>
  );
}
