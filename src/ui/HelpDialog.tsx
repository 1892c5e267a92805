import { useEffect, useId, useRef } from 'react';
import { useLabStore } from './labContext';

/** The keyboard shortcuts of the lab (teaching mode), for the help overlay and the README. */
export const SHORTCUTS: readonly { readonly keys: string; readonly does: string }[] = [
  { keys: 'Space', does: 'play / pause' },
  { keys: '← / →', does: 'one step back / forward: an algorithm line during a rebalancing, otherwise one query' },
  { keys: 'Shift + ← / →', does: 'previous / next marker on the time line' },
  { keys: '+ / −', does: 'faster / slower' },
  { keys: '?', does: 'show or hide this help' },
  { keys: 'Esc', does: 'close this help' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', does: 'undo / redo a scenario edit' },
];

/** The help overlay's dialog listing the keyboard shortcuts (shown while `helpOpen`; `HelpOverlay.tsx` loads it when first opened). */
export function HelpDialog() {
  const store = useLabStore();
  const headingId = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
  }, []);
  return (
    <div className="help-backdrop" onClick={() => store.getState().setHelpOpen(false)}>
      <div className="help panel" role="dialog" aria-modal="true" aria-labelledby={headingId} data-testid="help" onClick={(e) => e.stopPropagation()}>
        <h2 id={headingId}>Keyboard shortcuts</h2>
        <p className="subtle">They work anywhere on the page except while you type in a field.</p>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  <kbd>{s.keys}</kbd>
                </th>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" ref={close} data-testid="help.close" onClick={() => store.getState().setHelpOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}
