import type { ScenarioSource } from '../store/history';
import { useShell, useShellStore } from './shell/shellStore';

const WHAT: Record<ScenarioSource, string> = {
  link: 'That link could not be opened',
  file: 'That file could not be opened',
  preset: 'That preset could not be loaded',
  edit: 'That change was not applied',
  history: 'That step of the history could not be restored',
  worker: 'The simulation crashed',
};

/** Field-level errors of a rejected scenario, in either lab; the last good scenario keeps running. */
export function ErrorBanner() {
  const errors = useShell((s) => s.errors);
  const store = useShellStore();
  if (errors === null || errors.errors.length === 0) return null;
  const shown = errors.errors.slice(0, 8);
  return (
    <div className="banner" role="alert" data-testid="banner.errors" data-source={errors.source}>
      <strong>
        {WHAT[errors.source]}; {errors.source === 'worker' ? 'the scenario was kept.' : 'the last good scenario is still loaded.'}
      </strong>
      <ul>
        {shown.map((e) => (
          <li key={`${e.path}:${e.message}`}>
            <code>{e.path}</code>: {e.message}
          </li>
        ))}
        {errors.errors.length > shown.length ? <li>… and {errors.errors.length - shown.length} more</li> : null}
      </ul>
      <button type="button" data-testid="banner.dismiss" onClick={() => store.getState().dismissErrors()}>
        Dismiss
      </button>
    </div>
  );
}
